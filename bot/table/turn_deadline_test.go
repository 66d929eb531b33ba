package table

import (
	"context"
	"testing"
	"time"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
	"github.com/pontoon-bot/pontoon/store/storetest"
	"github.com/stretchr/testify/require"
)

// R7.4 with one row per turn written at the deal: an action leaves the store's deadline
// as the deal wrote it (no deadline write on a click), so the row falls due before the
// turn's real deadline; firing it then times nobody out and moves it on to the real
// deadline, the last action's time plus the turn timer, when the turn does time out.
func TestAnEarlyTurnDeadlineIsMovedOnNotFired(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, storetest.SQLitePath(t))
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	clk := &fakeNow{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	m := newTestManager(st, "A", clk.Now, nil)
	tb := openWithTwo(t, m, "60s")
	dealt := clk.Now()
	s, err := tb.Deal(ctx, "h", "deal")
	require.NoError(t, err)
	toAct := s.Game.ToAct()
	require.Len(t, toAct, 2, "both players stake")
	rows := func() []store.Deadline {
		t.Helper()
		ds, err := st.Deadlines(ctx, tb.ID())
		require.NoError(t, err)
		return ds
	}
	require.Equal(t, []store.Deadline{{TableID: tb.ID(), Kind: store.DeadlineTurn, Due: dealt.Add(time.Minute)}}, rows())

	clk.add(30 * time.Second)
	staked := clk.Now()
	_, err = tb.Act(ctx, game.Action{Player: toAct[0], Verb: game.VerbStake, Amount: 1}, "stake", nil)
	require.NoError(t, err)
	require.Equal(t, dealt.Add(time.Minute), rows()[0].Due, "the stake wrote no deadline")
	require.Equal(t, staked.Add(time.Minute), tb.Snapshot().Deadline, "the turn runs from the stake")

	clk.add(30 * time.Second) // the row is due; the turn is not
	require.True(t, m.fireDue())
	require.Empty(t, timeoutsOf(t, st, tb.ID(), 1), "nobody times out before the turn's own deadline")
	require.Equal(t, []store.Deadline{{TableID: tb.ID(), Kind: store.DeadlineTurn, Due: staked.Add(time.Minute)}}, rows(),
		"the row moved on to the turn's deadline, unclaimed")

	clk.add(30 * time.Second)
	require.True(t, m.fireDue())
	require.Equal(t, map[string]int{toAct[1]: 1}, timeoutsOf(t, st, tb.ID(), 1), "the stake not made times out at the turn's deadline")
}

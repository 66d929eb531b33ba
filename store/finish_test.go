package store

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A click's several actions (Shoot & twist, R9.4) commit together or not at all.
func TestApplyActionsAllOrNothing(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		wallets(t, s, "g", 100, "alice", "bob")
		tb, r := openTableWithRound(t, s, "g", "c", "alice", "bob")
		stake := ApplyParams{RoundID: r.ID, Seq: 1, Member: "bob", Verb: "stake", InteractionID: "i1", Now: t0,
			Transfers: []Transfer{{From: WalletAccount("bob"), To: EscrowAccount(tb.ID, "bob"), Amount: 30}}}
		tooMuch := ApplyParams{RoundID: r.ID, Seq: 2, Member: "bob", Verb: "shoot", InteractionID: "i1.2", Now: t0,
			Transfers: []Transfer{{From: WalletAccount("bob"), To: EscrowAccount(tb.ID, "bob"), Amount: 71}}}
		err := s.ApplyActions(ctx, []ApplyParams{stake, tooMuch})
		require.ErrorIs(t, err, ErrInsufficientChips)
		assert.Equal(t, 0, count(t, s, "actions"), "the first action is not kept when the second fails")
		assert.EqualValues(t, 100, balanceOf(t, s, "g", WalletAccount("bob")))

		twist := ApplyParams{RoundID: r.ID, Seq: 2, Member: "bob", Verb: "twist", InteractionID: "i1.2", Now: t0}
		require.NoError(t, s.ApplyActions(ctx, []ApplyParams{stake, twist}))
		acts, err := s.Actions(ctx, r.ID)
		require.NoError(t, err)
		require.Len(t, acts, 2)
		assert.Equal(t, "twist", acts[1].Verb)
		assert.EqualValues(t, 70, balanceOf(t, s, "g", WalletAccount("bob")))

		other := ApplyParams{RoundID: r.ID + 1, Seq: 3, Member: "bob", Verb: "stick", Now: t0}
		assert.ErrorIs(t, s.ApplyActions(ctx, []ApplyParams{{RoundID: r.ID, Seq: 3, Member: "bob", Verb: "stick", Now: t0}, other}), ErrInvalid,
			"the actions of one click are of one round")
		assert.ErrorIs(t, s.ApplyActions(ctx, nil), ErrInvalid)
	})
}

// The action that ends a round records what the table does next in the same
// transaction: the next round's pending pack, the seeds revealed, or the table closed.
func TestFinishRecordsTheTablesNextStep(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		wallets(t, s, "g", 100, "alice", "bob")

		tb, r := openTableWithRound(t, s, "g", "c", "alice", "bob")
		next := PendingPack{ForRound: 2, Pack: []string{"2C", "3C"}, Salt: "s", Commitment: "c2"}
		require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 1, Member: "alice", Verb: "stay", Now: t0,
			Finish: &RoundFinish{BankOwner: "alice", Pending: &next}}))
		got, ok, err := s.Pending(ctx, tb.ID)
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, next, got)

		// A bad pending pack refuses the whole action.
		tb2, r2 := openTableWithRound(t, s, "g", "c2", "alice", "bob")
		err = s.ApplyAction(ctx, ApplyParams{RoundID: r2.ID, Seq: 1, Member: "alice", Verb: "stay", Now: t0,
			Finish: &RoundFinish{BankOwner: "alice", Pending: &PendingPack{ForRound: 2}}})
		require.ErrorIs(t, err, ErrInvalid)
		assert.ErrorIs(t, s.ApplyAction(ctx, ApplyParams{RoundID: r2.ID, Seq: 1, Member: "alice", Verb: "stay", Now: t0,
			Finish: &RoundFinish{BankOwner: "alice", Close: true, Pending: &next}}), ErrInvalid, "a table that closes has no next pack")
		rd, err := s.Round(ctx, tb2.ID, 1)
		require.NoError(t, err)
		assert.False(t, rd.Finished())

		// Close: the round ends and the table closes together; its escrow is returned.
		require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r2.ID, Seq: 1, Member: "alice", Verb: "stay", Now: t0,
			Finish: &RoundFinish{BankOwner: "alice", Close: true}}))
		_, err = s.TableByChannel(ctx, "g", "c2")
		assert.ErrorIs(t, err, ErrNotFound, "the table closed with the round")
		rd, err = s.Round(ctx, tb2.ID, 1)
		require.NoError(t, err)
		assert.True(t, rd.Finished())
	})
}

// The open tables whose latest round settled recently, or whose seats or bank changed
// recently, are the ones a restart redraws.
func TestRecentlyChangedTables(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		wallets(t, s, "g", 100, "alice", "bob")
		ids := func(since time.Time) []int64 {
			t.Helper()
			got, err := s.RecentlyChangedTables(ctx, since)
			require.NoError(t, err)
			var ids []int64
			for _, tb := range got {
				ids = append(ids, tb.ID)
			}
			return ids
		}
		settled, r := openTableWithRound(t, s, "g", "c1", "alice", "bob") // seated at t0
		require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 1, Member: "alice", Verb: "stay", Now: t0.Add(time.Minute),
			Finish: &RoundFinish{BankOwner: "alice"}}))
		other, _ := openTableWithRound(t, s, "g", "c2", "alice", "bob")

		assert.ElementsMatch(t, []int64{settled.ID, other.ID}, ids(t0), "both seated at t0")
		assert.Equal(t, []int64{settled.ID}, ids(t0.Add(time.Second)), "settled at t0+1m")
		assert.Empty(t, ids(t0.Add(2*time.Minute)), "nothing since")

		require.NoError(t, s.SetSeats(ctx, other.ID, []string{"bob", "alice"}, t0.Add(3*time.Minute)))
		assert.Equal(t, []int64{other.ID}, ids(t0.Add(2*time.Minute)), "a change of seats")
		bob := "bob"
		require.NoError(t, s.UpdateBank(ctx, BankParams{TableID: settled.ID, BankOwner: &bob, Now: t0.Add(4 * time.Minute)}))
		assert.Equal(t, []int64{settled.ID}, ids(t0.Add(4*time.Minute)), "a change of the bank")

		require.NoError(t, s.CloseTable(ctx, settled.ID, t0.Add(5*time.Minute)))
		assert.Equal(t, []int64{other.ID}, ids(t0), "closed tables are not redrawn")
	})
}

package store

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// NextDeadline is the earliest deadline of the servers the caller serves, a running
// claim's end when that is later; ClaimDue leaves the deadlines of servers served
// elsewhere unclaimed; PostponeDeadline moves a claimed deadline on, unclaimed, and
// changes nothing for a holder whose claim it is not.
func TestDeadlinesOfTheServersAProcessServes(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		ctx := context.Background()
		open := func(guild string, due time.Time) int64 {
			t.Helper()
			wallets(t, s, guild, 1000, "alice")
			tb, err := s.OpenTable(ctx, OpenTableParams{Guild: guild, Channel: "c" + guild, Host: "alice", BankOwner: "alice", Now: t0})
			require.NoError(t, err)
			require.NoError(t, s.EnsureDeadline(ctx, tb.ID, DeadlineTurn, "", due))
			return tb.ID
		}
		only := func(guild string) func(string) bool { return func(g string) bool { return g == guild } }

		_, ok, err := s.NextDeadline(ctx, nil)
		require.NoError(t, err)
		assert.False(t, ok, "no deadline kept")
		mine := open("g1", t0.Add(2*time.Minute))
		open("g2", t0.Add(time.Minute))
		next, ok, err := s.NextDeadline(ctx, nil)
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, t0.Add(time.Minute), next, "the earliest of every server")
		next, ok, err = s.NextDeadline(ctx, only("g1"))
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, t0.Add(2*time.Minute), next, "the earliest of the servers served")

		ds, err := s.ClaimDue(ctx, "A", t0.Add(time.Hour), time.Minute, 10, only("g1"))
		require.NoError(t, err)
		require.Len(t, ds, 1, "the other server's deadline is left to its process")
		assert.Equal(t, mine, ds[0].TableID)
		next, _, err = s.NextDeadline(ctx, only("g1"))
		require.NoError(t, err)
		assert.Equal(t, t0.Add(time.Hour+time.Minute), next, "a claimed deadline wants firing when its claim lapses")

		require.NoError(t, s.PostponeDeadline(ctx, ds[0], "B", t0.Add(3*time.Hour)))
		got, err := s.Deadlines(ctx, mine)
		require.NoError(t, err)
		assert.Equal(t, t0.Add(2*time.Minute), got[0].Due, "another holder cannot move a claim not its own")
		require.NoError(t, s.PostponeDeadline(ctx, ds[0], "A", t0.Add(3*time.Hour)))
		got, err = s.Deadlines(ctx, mine)
		require.NoError(t, err)
		assert.Equal(t, []Deadline{{TableID: mine, Kind: DeadlineTurn, Due: t0.Add(3 * time.Hour)}}, got, "moved on and unclaimed")

		n, err := s.CountDeadlines(ctx)
		require.NoError(t, err)
		assert.Equal(t, 2, n)
	})
}

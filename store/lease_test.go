package store

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A table's lease is held by one process at a time, lapses by itself, and tells a
// claimant whether anyone else held it since its own last claim.
func TestTableLease(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		ctx := context.Background()
		tb, err := s.OpenTable(ctx, OpenTableParams{Guild: "g", Channel: "c", Host: "a", Rules: `{"variant":"classic"}`, BankOwner: "a", Now: t0})
		require.NoError(t, err)
		claim := func(holder string, at time.Time) (bool, bool) {
			t.Helper()
			c, cur, err := s.ClaimTable(ctx, tb.ID, holder, at, 5*time.Second)
			require.NoError(t, err)
			return c, cur
		}
		c, cur := claim("A", t0)
		require.True(t, c)
		require.False(t, cur, "nobody held it before")
		c, _ = claim("B", t0.Add(time.Second))
		require.False(t, c, "A's lease runs")
		c, cur = claim("A", t0.Add(time.Second))
		require.True(t, c, "the holder may claim again")
		require.True(t, cur)
		require.NoError(t, s.ReleaseTable(ctx, tb.ID, "A", t0.Add(2*time.Second)))
		c, cur = claim("B", t0.Add(2*time.Second))
		require.True(t, c, "released: B may claim at once")
		require.False(t, cur, "A held it last")
		require.NoError(t, s.ReleaseTable(ctx, tb.ID, "A", t0.Add(3*time.Second)), "A's release no longer touches B's lease")
		c, _ = claim("A", t0.Add(3*time.Second))
		require.False(t, c)
		c, cur = claim("A", t0.Add(8*time.Second))
		require.True(t, c, "B's lease lapsed")
		require.False(t, cur, "B held it last: A's copy is stale")
	})
}

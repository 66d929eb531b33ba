package store

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// DealRound records its round on both engines; on PostgreSQL the new round's id comes
// from INSERT ... RETURNING (its driver has no LastInsertId), which the two-shard test of
// found missing once.
func TestDealRoundOnEachBackend(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		ctx := context.Background()
		tb, err := s.OpenTable(ctx, OpenTableParams{Guild: "g", Channel: "c", Host: "a", Rules: `{"variant":"classic"}`, BankOwner: "a", Now: t0})
		require.NoError(t, err)
		require.NoError(t, s.SetSeats(ctx, tb.ID, []string{"a", "b"}, t0))
		r, err := s.DealRound(ctx, DealParams{TableID: tb.ID, Number: 1, Members: []string{"a", "b"}, Starting: 100, Now: t0,
			Start: func(balances map[string]int64, kitty int64) (StartRoundParams, error) {
				require.Equal(t, int64(100), balances["b"], "wallets are made before Start sees them")
				return StartRoundParams{History: `{"format":"pontoon-history/1"}`, Commitment: "c0ffee", Salt: "salt"}, nil
			}})
		require.NoError(t, err)
		require.Equal(t, 1, r.Number)
		got, err := s.Round(ctx, tb.ID, 1)
		require.NoError(t, err)
		require.Equal(t, r.ID, got.ID)
		require.NotZero(t, got.ID)
	})
}

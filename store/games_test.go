package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// conserved is the cheap form of the audit, run after every step: a guild's accounts sum
// to zero (the mint's negative balance is all it ever granted) and no other account is
// below zero.
func conserved(s *Store, guild string) error {
	var sum, negatives int64
	err := s.r.QueryRow(`SELECT CAST(COALESCE(SUM(balance), 0) AS BIGINT), COUNT(CASE WHEN balance < 0 AND account <> 'mint' THEN 1 END)
		FROM accounts WHERE guild_id = ?`, guild).Scan(&sum, &negatives)
	if err != nil {
		return err
	}
	if sum != 0 || negatives != 0 {
		return fmt.Errorf("chips not conserved: sum %d, %d negative accounts", sum, negatives)
	}
	return nil
}

// TestConservationOverRandomGames drives a thousand random Shoot rounds (banker doubling
// and burning on) through the engine and the store, checking conservation after every
// committed step and the full audit every fifty rounds and at the end (R7.3).
func TestConservationOverRandomGames(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s, err := Open(ctx, bk.location(t))
		require.NoError(t, err)
		defer s.Close()
		steps := 0
		d := newDriver(s, rand.New(rand.NewPCG(3, 4)), func() error {
			steps++
			return conserved(s, "g")
		})
		rounds := 1000
		if testing.Short() {
			rounds = 100
		}
		for i := 0; i < rounds; i++ {
			require.NoError(t, d.round(ctx), "round %d", i)
			if i%50 == 49 || i == rounds-1 {
				rep, err := s.Audit(ctx)
				require.NoError(t, err)
				require.True(t, rep.OK(), rep.String())
			}
		}
		require.Greater(t, steps, rounds*5)
		t.Logf("%d rounds, %d steps checked", rounds, steps)
	})
}

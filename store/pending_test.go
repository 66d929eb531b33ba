package store

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPendingPack(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		s := bk.open(t)
		ctx := context.Background()
		tb, _ := openTableWithRound(t, s, "g", "c", "a", "b")
		_, ok, err := s.Pending(ctx, tb.ID)
		require.NoError(t, err)
		assert.False(t, ok)
		p := PendingPack{ForRound: 2, Pack: []string{"AS", "KH"}, Salt: "00", Commitment: "abc"}
		require.NoError(t, s.SetPendingPack(ctx, tb.ID, p))
		got, ok, err := s.Pending(ctx, tb.ID)
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, p, got)
		p.ForRound, p.Pack = 3, []string{"2C"}
		require.NoError(t, s.SetPendingPack(ctx, tb.ID, p))
		got, _, err = s.Pending(ctx, tb.ID)
		require.NoError(t, err)
		assert.Equal(t, 3, got.ForRound, "a new pending pack replaces the old")
		assert.ErrorIs(t, s.SetPendingPack(ctx, tb.ID, PendingPack{}), ErrInvalid)
		assert.ErrorIs(t, s.SetPendingPack(ctx, 999, p), ErrNotFound)
	})
}

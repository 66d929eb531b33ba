package store

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGiftsPastTheDailyCapAreRefused(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		s := bk.open(t)
		ctx := context.Background()
		wallets(t, s, "g", 2000, "ann", "ben", "cy")
		_, _, err := s.Give(ctx, "g", "ann", "ben", 300, 500, t0)
		require.NoError(t, err)
		_, _, err = s.Give(ctx, "g", "ben", "ann", 400, 500, t0) // ben's own gifts, not ann's
		require.NoError(t, err)

		_, _, err = s.Give(ctx, "g", "ann", "cy", 300, 500, t0.Add(time.Hour))
		var ce *GiftCapError
		require.ErrorAs(t, err, &ce)
		assert.ErrorIs(t, err, ErrGiftCap)
		assert.Equal(t, GiftCapError{Cap: 500, Given: 300}, *ce)
		assert.EqualValues(t, 200, ce.Left())
		assert.EqualValues(t, 2000, balanceOf(t, s, "g", WalletAccount("cy")), "a refused gift moves nothing")

		_, _, err = s.Give(ctx, "g", "ann", "cy", 200, 500, t0.Add(time.Hour))
		require.NoError(t, err, "up to the cap")
		// A day after the first gift it no longer counts; the second still does.
		_, _, err = s.Give(ctx, "g", "ann", "cy", 300, 500, t0.Add(GiftWindow))
		require.NoError(t, err)
		_, _, err = s.Give(ctx, "g", "ann", "cy", 1, 500, t0.Add(GiftWindow))
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, GiftCapError{Cap: 500, Given: 500}, *ce)
		// No cap: anything the wallet holds.
		_, _, err = s.Give(ctx, "g", "ann", "cy", 1000, 0, t0.Add(GiftWindow))
		require.NoError(t, err)
	})
}

func TestGiftsMadeAtOnceCannotPassTheCapTogether(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		s := bk.open(t)
		wallets(t, s, "g", 2000, "ann", "ben")
		const n = 10
		errs := atOnce(n, func(int) error {
			_, _, err := s.Give(context.Background(), "g", "ann", "ben", 100, 500, t0)
			return err
		})
		ok := 0
		for _, err := range errs {
			if err == nil {
				ok++
			} else {
				assert.ErrorIs(t, err, ErrGiftCap)
			}
		}
		assert.Equal(t, 5, ok)
		assert.EqualValues(t, 1500, balanceOf(t, s, "g", WalletAccount("ann")))
	})
}

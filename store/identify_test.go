package store

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Identifies of one bucket are spaced a window apart, however many processes reserve
// at once; another bucket has its own slots; a bucket idle past its window is free now.
func TestReserveIdentify(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		const window = 5 * time.Second
		var mu sync.Mutex
		var got []time.Time
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				at, err := s.ReserveIdentify(ctx, 0, window, t0)
				assert.NoError(t, err)
				mu.Lock()
				got = append(got, at)
				mu.Unlock()
			}()
		}
		wg.Wait()
		require.Len(t, got, 4)
		seen := map[time.Time]bool{}
		for _, at := range got {
			seen[at.Truncate(time.Millisecond)] = true
		}
		for i := range 4 {
			assert.True(t, seen[t0.Add(time.Duration(i)*window).Truncate(time.Millisecond)], "slot %d given: %v", i, got)
		}
		at, err := s.ReserveIdentify(ctx, 1, window, t0)
		require.NoError(t, err)
		assert.True(t, at.Equal(t0.Truncate(time.Millisecond)) || at.Equal(t0), "bucket 1 has its own slots: %v", at)
		later := t0.Add(time.Hour)
		at, err = s.ReserveIdentify(ctx, 0, window, later)
		require.NoError(t, err)
		assert.WithinDuration(t, later, at, time.Millisecond, "an idle bucket identifies at once")
		_, err = s.ReserveIdentify(ctx, -1, window, t0)
		assert.ErrorIs(t, err, ErrInvalid)
	})
}

package table

import (
	"context"
	"crypto/rand"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
	"github.com/pontoon-bot/pontoon/store/storetest"
	"github.com/stretchr/testify/require"
)

// claimCount is the store, noting when, on the managers' clock, each holder's latest
// successful lease claim (a renewal included) was made.
type claimCount struct {
	*store.Store
	mu   sync.Mutex
	last map[string]time.Time
}

func (c *claimCount) ClaimTable(ctx context.Context, tableID int64, holder string, now time.Time, ttl time.Duration) (bool, bool, error) {
	claimed, current, err := c.Store.ClaimTable(ctx, tableID, holder, now, ttl)
	if claimed && err == nil {
		c.mu.Lock()
		c.last[holder] = now
		c.mu.Unlock()
	}
	return claimed, current, err
}

func (c *claimCount) at(holder string) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last[holder]
}

// holdPair is two processes' managers over one database on one clock that the test
// moves, with their leases renewed every renew of real time.
func holdPair(t *testing.T, renew time.Duration) (a, b *Manager, id int64, clock *atomic.Int64, claims *claimCount) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, storetest.SQLitePath(t))
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	clock = &atomic.Int64{}
	clock.Store(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC).UnixNano())
	now := func() time.Time { return time.Unix(0, clock.Load()) }
	claims = &claimCount{Store: st, last: map[string]time.Time{}}
	mgr := func(holder string) *Manager {
		m := NewManager(StoresOf(st), Options{StartingChips: 100, MaxSeats: 10, OfferTTL: time.Minute, BidWindow: time.Minute,
			Now: now, Random: rand.Reader, Logger: slog.New(slog.DiscardHandler), Leases: claims, Holder: holder})
		m.SetNotifier(quiet{})
		m.holds.renew = renew
		return m
	}
	a, b = mgr("A"), mgr("B")
	tb, _, err := a.Open(ctx, OpenParams{Guild: "1", Channel: "2", Host: "h", Config: Config{Rules: game.DefaultRules(), TurnTimer: "60s"}})
	require.NoError(t, err)
	return a, b, tb.ID(), clock, claims
}

// Work under a hold that lasts past the lease's length keeps the table from the other
// process throughout: the lease is renewed while it is held. Once released, the other
// process has it at once.
func TestAHeldLeaseIsRenewedForAsLongAsItIsHeld(t *testing.T) {
	a, b, id, clock, claims := holdPair(t, 10*time.Millisecond)
	ctx := context.Background()
	release, err := a.Hold(ctx, id)
	require.NoError(t, err)
	// Most of the lease gone by; then a renewal, on the clock as it now stands.
	late := time.Unix(0, clock.Add(int64(leaseTTL-time.Second)))
	require.Eventually(t, func() bool { return !claims.at("A").Before(late) }, 10*time.Second, time.Millisecond,
		"A's lease was never renewed")
	clock.Add(int64(2 * time.Second)) // past the lease's first end
	hctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	_, err = b.Hold(hctx, id)
	cancel()
	require.ErrorIs(t, err, ErrBusy, "B took the table while A held it")
	release()
	relB, err := b.Hold(ctx, id)
	require.NoError(t, err)
	relB()
}

// A wait for a table this process is working on ends with the waiter's context, as a
// wait for another process's lease does; then the table is free again for the next.
func TestWaitingForAHoldEndsWithTheContext(t *testing.T) {
	a, _, id, _, _ := holdPair(t, 0)
	ctx := context.Background()
	release, err := a.Hold(ctx, id)
	require.NoError(t, err)
	hctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	_, err = a.Hold(hctx, id)
	cancel()
	require.True(t, errors.Is(err, ErrBusy) && errors.Is(err, context.DeadlineExceeded), "err: %v", err)
	release()
	again, err := a.Hold(ctx, id)
	require.NoError(t, err)
	again()
	a.holds.mu.Lock()
	defer a.holds.mu.Unlock()
	require.Empty(t, a.holds.m, "a table nobody holds or waits for keeps no slot")
}

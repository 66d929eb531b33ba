package table

import (
	"context"
	"crypto/rand"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
	"github.com/pontoon-bot/pontoon/store/storetest"
	"github.com/stretchr/testify/require"
)

// holdPair is two processes' managers over one database, with leases of ttl.
func holdPair(t *testing.T, ttl time.Duration) (a, b *Manager, id int64) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, storetest.SQLitePath(t))
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	mgr := func(holder string) *Manager {
		m := NewManager(st, Options{StartingChips: 100, MaxSeats: 10, OfferTTL: time.Minute, BidWindow: time.Minute,
			Now: time.Now, Random: rand.Reader, Logger: slog.New(slog.DiscardHandler), Shared: st, Holder: holder})
		m.SetNotifier(quiet{})
		m.holds.ttl = ttl
		return m
	}
	a, b = mgr("A"), mgr("B")
	tb, _, err := a.Open(ctx, OpenParams{Guild: "1", Channel: "2", Host: "h", Config: Config{Rules: game.DefaultRules(), TurnTimer: "60s"}})
	require.NoError(t, err)
	return a, b, tb.ID()
}

// Work under a hold that takes several times the lease's length keeps the table from
// the other process throughout: the lease is renewed while it is held. Once released,
// the other process has it at once.
func TestAHeldLeaseIsRenewedForAsLongAsItIsHeld(t *testing.T) {
	const ttl = 300 * time.Millisecond
	a, b, id := holdPair(t, ttl)
	ctx := context.Background()
	release, err := a.Hold(ctx, id)
	require.NoError(t, err)
	for range 4 { // four lease lengths
		hctx, cancel := context.WithTimeout(ctx, ttl)
		_, err := b.Hold(hctx, id)
		cancel()
		require.ErrorIs(t, err, ErrBusy, "B took the table while A held it")
	}
	release()
	relB, err := b.Hold(ctx, id)
	require.NoError(t, err)
	relB()
}

// A wait for a table this process is working on ends with the waiter's context, as a
// wait for another process's lease does; then the table is free again for the next.
func TestWaitingForAHoldEndsWithTheContext(t *testing.T) {
	a, _, id := holdPair(t, 0)
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

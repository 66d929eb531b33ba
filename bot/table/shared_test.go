package table

import (
	"context"
	"crypto/rand"
	"log/slog"
	"testing"
	"time"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
	"github.com/pontoon-bot/pontoon/store/storetest"
	"github.com/stretchr/testify/require"
)

// quiet is a Notifier for tests that read the tables themselves.
type quiet struct{}

func (quiet) Changed(*Table)                 {}
func (quiet) OfferEnded(Offer, string)       {}
func (quiet) AuctionChanged(Auction, string) {}

// Two processes' managers over one database: a change one makes under its hold
// is seen by the other's next hold, which drops its stale copy and loads the table
// afresh, and the lease keeps the second from working on the table while the first holds it.
func TestHoldRebuildsAStaleCopy(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, storetest.SQLitePath(t))
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	mgr := func(holder string) *Manager {
		m := NewManager(StoresOf(st), Options{StartingChips: 100, MaxSeats: 10, OfferTTL: time.Minute, BidWindow: time.Minute,
			Now: time.Now, Random: rand.Reader, Logger: slog.New(slog.DiscardHandler), Leases: st, Holder: holder})
		m.SetNotifier(quiet{})
		return m
	}
	a, b := mgr("A"), mgr("B")
	cfg := Config{Rules: game.DefaultRules(), TurnTimer: "60s"}
	tbA, _, err := a.Open(ctx, OpenParams{Guild: "1", Channel: "2", Host: "h", Config: cfg})
	require.NoError(t, err)
	id := tbA.ID()

	relB, err := b.Hold(ctx, id)
	require.NoError(t, err)
	tbB, err := b.Get(ctx, id)
	require.NoError(t, err)
	require.Equal(t, []string{"h"}, tbB.Snapshot().Seats)
	relB()

	relA, err := a.Hold(ctx, id)
	require.NoError(t, err)
	_, err = tbA.Join(ctx, "m")
	require.NoError(t, err)
	hctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	_, err = b.Hold(hctx, id)
	cancel()
	require.Error(t, err, "B may not work on the table while A holds it")
	relA()

	relB, err = b.Hold(ctx, id)
	require.NoError(t, err)
	defer relB()
	fresh, err := b.Get(ctx, id)
	require.NoError(t, err)
	require.NotSame(t, tbB, fresh, "B's stale copy was dropped")
	require.Equal(t, []string{"h", "m"}, fresh.Snapshot().Seats, "B sees A's join")
}

package table

import (
	"context"
	"crypto/rand"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
	"github.com/pontoon-bot/pontoon/store/storetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A table between rounds nobody asks for leaves memory once idle, not before; a table
// asked for meanwhile stays; the next Get loads the dropped one from the store with its
// seats.
func TestIdleTablesLeaveMemoryAndLoadAgain(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, storetest.SQLitePath(t))
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	var now atomic.Int64
	now.Store(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC).UnixNano())
	m := NewManager(StoresOf(st), Options{StartingChips: 100, MaxSeats: 10, OfferTTL: time.Minute, BidWindow: time.Minute,
		Now: func() time.Time { return time.Unix(0, now.Load()) }, Random: rand.Reader, Logger: slog.New(slog.DiscardHandler)})
	m.SetNotifier(quiet{})
	advance := func(d time.Duration) { now.Add(int64(d)) }
	cfg := Config{Rules: game.DefaultRules(), TurnTimer: "60s"}
	idle, _, err := m.Open(ctx, OpenParams{Guild: "1", Channel: "2", Host: "h", Config: cfg})
	require.NoError(t, err)
	_, err = idle.Join(ctx, "m")
	require.NoError(t, err)
	used, _, err := m.Open(ctx, OpenParams{Guild: "1", Channel: "3", Host: "h", Config: cfg})
	require.NoError(t, err)

	advance(20 * time.Minute)
	assert.Zero(t, m.DropIdle(30*time.Minute), "not idle long enough")
	_, err = m.ByChannel(ctx, "1", "3")
	require.NoError(t, err)
	advance(11 * time.Minute)
	assert.Equal(t, 1, m.DropIdle(30*time.Minute), "the table nobody asked for")
	assert.Equal(t, 1, m.LiveTables())

	again, err := m.Get(ctx, idle.ID())
	require.NoError(t, err)
	assert.NotSame(t, idle, again, "loaded from the store")
	assert.Equal(t, []string{"h", "m"}, again.Snapshot().Seats)
	assert.Equal(t, 2, m.LiveTables())
	got, err := m.ByChannel(ctx, "1", "2")
	require.NoError(t, err)
	assert.Same(t, again, got)
	assert.Same(t, used, m.tables[used.ID()])
}

// A table whose round is in play stays in memory however long it waits.
func TestATableInARoundStaysInMemory(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, storetest.SQLitePath(t))
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	var now atomic.Int64
	now.Store(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC).UnixNano())
	m := NewManager(StoresOf(st), Options{StartingChips: 100, MaxSeats: 10, OfferTTL: time.Minute, BidWindow: time.Minute,
		Now: func() time.Time { return time.Unix(0, now.Load()) }, Random: rand.Reader, Logger: slog.New(slog.DiscardHandler),
		AfterFunc: func(time.Duration, func()) Timer { return stopped{} }})
	m.SetNotifier(quiet{})
	tb, _, err := m.Open(ctx, OpenParams{Guild: "1", Channel: "2", Host: "h", Config: Config{Rules: game.DefaultRules(), TurnTimer: "60s"}})
	require.NoError(t, err)
	_, err = tb.Join(ctx, "m")
	require.NoError(t, err)
	_, err = tb.Deal(ctx, "h", "deal-1")
	require.NoError(t, err)
	s := tb.Snapshot()
	require.True(t, s.InRound())
	now.Add(int64(time.Hour))
	assert.Zero(t, m.DropIdle(30*time.Minute))
	assert.Equal(t, 1, m.LiveTables())
}

// len is how many tables' hold slots are kept.
func (h *holds) len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.m)
}

type stopped struct{}

func (stopped) Stop() bool { return false }

// The hold locks of shared tables are kept only while work holds or waits for them:
// after many tables' holds the map is empty again, and two holds of one table still
// exclude each other.
func TestHoldLocksLeaveOnceReleased(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, storetest.SQLitePath(t))
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	m := NewManager(StoresOf(st), Options{StartingChips: 100, MaxSeats: 10, OfferTTL: time.Minute, BidWindow: time.Minute,
		Now: time.Now, Random: rand.Reader, Logger: slog.New(slog.DiscardHandler), Leases: st, Holder: "A"})
	m.SetNotifier(quiet{})
	cfg := Config{Rules: game.DefaultRules(), TurnTimer: "60s"}
	var ids []int64
	for _, ch := range []string{"2", "3", "4", "5"} {
		tb, _, err := m.Open(ctx, OpenParams{Guild: "1", Channel: ch, Host: "h", Config: cfg})
		require.NoError(t, err)
		ids = append(ids, tb.ID())
	}
	for _, id := range ids {
		release, err := m.Hold(ctx, id)
		require.NoError(t, err)
		assert.Equal(t, 1, m.holds.len())
		release()
	}
	assert.Zero(t, m.holds.len(), "no table held, no lock kept")

	var inside, most atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			release, err := m.Hold(ctx, ids[0])
			if !assert.NoError(t, err) {
				return
			}
			n := inside.Add(1)
			for {
				if old := most.Load(); n <= old || most.CompareAndSwap(old, n) {
					break
				}
			}
			time.Sleep(time.Millisecond)
			inside.Add(-1)
			release()
		}()
	}
	wg.Wait()
	assert.Equal(t, int32(1), most.Load(), "one hold of a table at a time")
	assert.Zero(t, m.holds.len())
}

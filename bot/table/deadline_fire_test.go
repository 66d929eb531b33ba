package table

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
	"github.com/pontoon-bot/pontoon/store/storetest"
	"github.com/stretchr/testify/require"
)

// fakeNow is a clock tests move by hand; timers still run on the machine's clock.
type fakeNow struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeNow) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeNow) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// openWithTwo opens a table in channel 2 of server 1, hosted by h, with the default
// rules and the turn timer turn, and seats p and q.
func openWithTwo(tb testing.TB, m *Manager, turn string) *Table {
	tb.Helper()
	ctx := context.Background()
	t, _, err := m.Open(ctx, OpenParams{Guild: "1", Channel: "2", Host: "h", Config: Config{Rules: game.DefaultRules(), TurnTimer: turn}})
	require.NoError(tb, err)
	for _, p := range []string{"p", "q"} {
		_, err = t.Join(ctx, p)
		require.NoError(tb, err)
	}
	return t
}

func newTestManager(st *store.Store, holder string, now func() time.Time, leases Leases) *Manager {
	m := NewManager(StoresOf(st), Options{StartingChips: 1000, MaxSeats: 10, OfferTTL: time.Minute, BidWindow: time.Minute,
		Now: now, Random: rand.Reader, Logger: slog.New(slog.DiscardHandler), Leases: leases, Holder: holder})
	m.SetNotifier(quiet{})
	return m
}

// timeoutsOf counts the timeout actions of a round, by member.
func timeoutsOf(t testing.TB, st *store.Store, tableID int64, round int) map[string]int {
	ctx := context.Background()
	r, err := st.Round(ctx, tableID, round)
	require.NoError(t, err)
	acts, err := st.Actions(ctx, r.ID)
	require.NoError(t, err)
	out := map[string]int{}
	for _, a := range acts {
		if a.Verb == string(game.VerbTimeout) {
			out[a.Member]++
		}
	}
	return out
}

// Two processes' managers on one PostgreSQL both look for due deadlines: a turn's
// deadline is fired by one of them, once — each member the round waited on times out
// once.
func TestADeadlineFiresOnceWithTwoManagersOnOnePostgreSQL(t *testing.T) {
	ctx := context.Background()
	url := storetest.PostgresURL(t)
	clk := &fakeNow{t: time.Now().UTC().Truncate(time.Millisecond)}
	var ms []*Manager
	var sts []*store.Store
	for _, holder := range []string{"A", "B"} {
		st, err := store.Open(ctx, url)
		require.NoError(t, err)
		t.Cleanup(func() { _ = st.Close() })
		sts = append(sts, st)
		ms = append(ms, newTestManager(st, holder, clk.Now, st))
	}
	a := ms[0]
	cfg := Config{Rules: game.DefaultRules(), TurnTimer: "60s"}
	tb, _, err := a.Open(ctx, OpenParams{Guild: "1", Channel: "2", Host: "h", Config: cfg})
	require.NoError(t, err)
	for _, p := range []string{"m1", "m2"} {
		_, err = tb.Join(ctx, p)
		require.NoError(t, err)
	}
	s, err := tb.Deal(ctx, "h", "deal-1")
	require.NoError(t, err)
	require.True(t, s.Game.InRound())
	waited := slices.Clone(s.Game.ToAct())
	require.NotEmpty(t, waited)
	for _, m := range ms {
		m.Resume()
	}
	clk.add(2 * time.Minute)
	require.Eventually(t, func() bool { return len(timeoutsOf(t, sts[0], tb.ID(), 1)) == len(waited) }, 20*time.Second, 50*time.Millisecond,
		"the due turn never timed out")
	for _, m := range ms {
		m.Close() // waits for a firing under way in either
	}
	got := timeoutsOf(t, sts[0], tb.ID(), 1)
	for _, p := range waited {
		require.Equal(t, 1, got[p], "%s timed out %d times", p, got[p])
	}
}

// BenchmarkDeadlineLateness measures how late a turn deadline fires past its time (R7.4:
// within a second), in the deployment's way of learning it is due: one process on
// SQLite (a timer at the store's next deadline) and one of the processes sharing
// PostgreSQL (a poll). Each op deals a round to two players under a 20 ms turn timer; one
// stakes 10 ms in, which moves the turn's deadline past the store's row (written at the
// deal), and the other's stake times out. The lateness is each timeout's commit time
// less its deadline (the last action's time plus the turn timer), both as the store
// keeps them (milliseconds).
//
//	go test -run XXX -bench DeadlineLateness -benchtime 100x ./bot/table
func BenchmarkDeadlineLateness(b *testing.B) {
	for _, mode := range []string{"sqlite", "postgres"} {
		b.Run(mode, func(b *testing.B) {
			ctx := context.Background()
			path := storetest.SQLitePath(b)
			if mode == "postgres" {
				path = storetest.PostgresURL(b)
			}
			st, err := store.Open(ctx, path)
			require.NoError(b, err)
			b.Cleanup(func() { _ = st.Close() })
			var leases Leases
			if mode == "postgres" {
				leases = st
			}
			m := newTestManager(st, "A", time.Now, leases)
			m.Resume()
			b.Cleanup(m.Close)
			tb := openWithTwo(b, m, "20ms")
			// The firing process's hold may drop a copy it finds stale: the table is looked
			// up afresh each time.
			id := tb.ID()
			current := func() *Table {
				cur, err := m.Get(ctx, id)
				require.NoError(b, err)
				return cur
			}
			var late []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				release, err := m.Hold(ctx, id)
				require.NoError(b, err)
				s, err := current().Deal(ctx, "h", fmt.Sprintf("deal-%d", i))
				release()
				require.NoError(b, err)
				round := s.Round.Number
				if toAct := s.Game.ToAct(); len(toAct) > 1 {
					time.Sleep(10 * time.Millisecond)
					release, err := m.Hold(ctx, id)
					require.NoError(b, err)
					_, err = current().Act(ctx, game.Action{Player: toAct[0], Verb: game.VerbStake, Amount: 1}, fmt.Sprintf("stake-%d", i), nil)
					release()
					require.NoError(b, err)
				}
				require.Eventually(b, func() bool { return !current().Snapshot().Game.InRound() }, 10*time.Second, time.Millisecond)
				r, err := st.Round(ctx, tb.ID(), round)
				require.NoError(b, err)
				acts, err := st.Actions(ctx, r.ID)
				require.NoError(b, err)
				last := r.StartedAt
				for _, a := range acts {
					if a.Verb == string(game.VerbTimeout) {
						late = append(late, a.CreatedAt.Sub(last.Add(20*time.Millisecond)))
					}
					last = a.CreatedAt
				}
			}
			b.StopTimer()
			slices.Sort(late)
			if len(late) > 0 {
				b.ReportMetric(float64(late[len(late)/2].Microseconds())/1000, "p50-late-ms")
				b.ReportMetric(float64(late[len(late)*99/100].Microseconds())/1000, "p99-late-ms")
				b.ReportMetric(float64(late[len(late)-1].Microseconds())/1000, "max-late-ms")
			}
		})
	}
}

package store

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A table's turn deadline is written by what starts a turn and deleted by what ends the
// round, in the same transaction: the deal's due, then each action's next one (its claim
// gone with it), nothing once the round settles or the table closes.
func TestTurnDeadlineFollowsTheRound(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		ctx := context.Background()
		wallets(t, s, "g", 1000, "alice", "bob")
		tb, err := s.OpenTable(ctx, OpenTableParams{Guild: "g", Channel: "c", Host: "alice", BankOwner: "alice", Now: t0})
		require.NoError(t, err)
		turn := func() []Deadline {
			t.Helper()
			ds, err := s.Deadlines(ctx, tb.ID)
			require.NoError(t, err)
			return ds
		}
		r, err := s.StartRound(ctx, StartRoundParams{TableID: tb.ID, Number: 1, History: `{"format":"pontoon-history/1"}`,
			Commitment: "c", Salt: "s", Now: t0, TurnDue: t0.Add(time.Minute)})
		require.NoError(t, err)
		require.Equal(t, []Deadline{{TableID: tb.ID, Kind: DeadlineTurn, Due: t0.Add(time.Minute)}}, turn(), "the deal sets the first turn's")

		got, err := s.ClaimDeadlines(ctx, DeadlineTurn, "A", t0.Add(time.Minute), time.Minute, 10)
		require.NoError(t, err)
		require.Len(t, got, 1)
		require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 1, Member: "bob", Verb: "timeout", Now: t0.Add(time.Minute),
			TurnDue: t0.Add(2 * time.Minute)}))
		require.Equal(t, []Deadline{{TableID: tb.ID, Kind: DeadlineTurn, Due: t0.Add(2 * time.Minute)}}, turn(),
			"an action sets the next turn's, unclaimed")
		ok, err := s.Claimed(ctx, got[0], "A")
		require.NoError(t, err)
		assert.False(t, ok, "the claim was of a deadline set again since")
		require.NoError(t, s.FinishDeadline(ctx, got[0], "A"))
		require.Len(t, turn(), 1, "finishing a deadline set again since leaves the new one")
		require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 2, Member: "bob", Verb: "stick", Now: t0.Add(80 * time.Second)}))
		require.Equal(t, []Deadline{{TableID: tb.ID, Kind: DeadlineTurn, Due: t0.Add(2 * time.Minute)}}, turn(),
			"an action with no TurnDue leaves the deadline as it was")

		require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 3, Member: "alice", Verb: "stay", Now: t0.Add(90 * time.Second),
			TurnDue: t0.Add(time.Hour), Finish: &RoundFinish{BankOwner: "alice"}}))
		require.Empty(t, turn(), "the settlement ends the round's timer")

		require.NoError(t, s.EnsureDeadline(ctx, tb.ID, DeadlineTurn, "", t0.Add(time.Hour)))
		require.NoError(t, s.EnsureDeadline(ctx, tb.ID, DeadlineTurn, "", t0.Add(2*time.Hour)))
		require.Equal(t, []Deadline{{TableID: tb.ID, Kind: DeadlineTurn, Due: t0.Add(time.Hour)}}, turn(), "ensure keeps one already there")
		require.NoError(t, s.CloseTable(ctx, tb.ID, t0.Add(2*time.Hour)))
		require.Empty(t, turn(), "a closed table keeps no timer")
	})
}

// A due deadline is claimed by one holder; one not due is claimed by none; a claim that
// lapses may be claimed again, and then the first holder's claim is no longer its.
func TestClaimDeadlines(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		ctx := context.Background()
		tb, r := openTableWithRound(t, s, "g", "c", "alice", "bob")
		due := t0.Add(time.Minute)
		require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 1, Member: "bob", Verb: "stay", Now: t0, TurnDue: due}))
		claim := func(holder string, at time.Time) []Deadline {
			t.Helper()
			ds, err := s.ClaimDeadlines(ctx, DeadlineTurn, holder, at, 10*time.Second, 10)
			require.NoError(t, err)
			return ds
		}
		require.Empty(t, claim("A", due.Add(-time.Millisecond)), "not due yet")
		a := claim("A", due)
		require.Equal(t, []Deadline{{TableID: tb.ID, Kind: DeadlineTurn, Due: due, ClaimedBy: "A", ClaimedUntil: due.Add(10 * time.Second)}}, a)
		require.Empty(t, claim("B", due.Add(time.Second)), "A's claim runs")
		require.Empty(t, claim("A", due.Add(time.Second)), "a claim is not handed out twice, even to its holder")
		ok, err := s.Claimed(ctx, a[0], "A")
		require.NoError(t, err)
		require.True(t, ok)

		bb := claim("B", due.Add(10*time.Second))
		require.Len(t, bb, 1, "A's claim lapsed (A died before firing)")
		ok, err = s.Claimed(ctx, a[0], "A")
		require.NoError(t, err)
		require.False(t, ok, "A's claim is B's now")
		require.NoError(t, s.FinishDeadline(ctx, a[0], "A"))
		require.NoError(t, s.ReleaseDeadline(ctx, a[0], "A"))
		require.Empty(t, claim("C", due.Add(11*time.Second)), "A's finish and release leave B's claim alone")

		require.NoError(t, s.ReleaseDeadline(ctx, bb[0], "B"))
		require.Len(t, claim("C", due.Add(11*time.Second)), 1, "released: claimable at once")
		require.NoError(t, s.FinishDeadline(ctx, Deadline{TableID: tb.ID, Kind: DeadlineTurn, Due: due}, "C"))
		require.Empty(t, claim("D", due.Add(time.Hour)), "finished: gone")

		_, err = s.ClaimDeadlines(ctx, DeadlineTurn, "", due, time.Second, 1)
		require.ErrorIs(t, err, ErrInvalid)
	})
}

// Claimants racing for the same due deadlines, on PostgreSQL two processes' stores: each
// deadline goes to exactly one of them.
func TestClaimDeadlinesConcurrently(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		loc := b.location(t)
		open := func() *Store {
			s, err := Open(context.Background(), loc)
			require.NoError(t, err)
			t.Cleanup(func() { _ = s.Close() })
			return s
		}
		s := open()
		stores := []*Store{s, s}
		if b.name == "postgres" {
			stores[1] = open() // a second process's pool on the same database
		}
		ctx := context.Background()
		const tables = 24
		for i := range tables {
			tb, err := s.OpenTable(ctx, OpenTableParams{Guild: "g", Channel: fmt.Sprint("c", i), Host: "a", BankOwner: "a", Now: t0})
			require.NoError(t, err)
			_, err = s.StartRound(ctx, StartRoundParams{TableID: tb.ID, Number: 1, History: `{"format":"pontoon-history/1"}`,
				Commitment: "c", Salt: "s", Now: t0, TurnDue: t0.Add(time.Duration(i) * time.Millisecond)})
			require.NoError(t, err)
		}
		var mu sync.Mutex
		fired := map[int64][]string{}
		var wg sync.WaitGroup
		for c := range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				holder := fmt.Sprint("h", c)
				for {
					ds, err := stores[c%2].ClaimDeadlines(ctx, DeadlineTurn, holder, t0.Add(time.Second), time.Minute, 3)
					if !assert.NoError(t, err) || len(ds) == 0 {
						return
					}
					mu.Lock()
					for _, d := range ds {
						fired[d.TableID] = append(fired[d.TableID], holder)
					}
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		require.Len(t, fired, tables, "every due deadline was claimed")
		for id, hs := range fired {
			assert.Len(t, hs, 1, "table %d claimed by %v", id, hs)
		}
	})
}

// On PostgreSQL a claimant skips a deadline another claimant's transaction has locked
// rather than wait for it (SKIP LOCKED): a replica stuck mid-claim holds up no other.
func TestClaimDeadlinesSkipsLockedRows(t *testing.T) {
	s := postgresBackend.open(t)
	ctx := context.Background()
	var ids []int64
	for i := range 2 {
		tb, err := s.OpenTable(ctx, OpenTableParams{Guild: "g", Channel: fmt.Sprint("c", i), Host: "a", BankOwner: "a", Now: t0})
		require.NoError(t, err)
		_, err = s.StartRound(ctx, StartRoundParams{TableID: tb.ID, Number: 1, History: `{"format":"pontoon-history/1"}`,
			Commitment: "c", Salt: "s", Now: t0, TurnDue: t0})
		require.NoError(t, err)
		ids = append(ids, tb.ID)
	}
	tx, err := s.w.DB.BeginTx(ctx, nil)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback() }()
	var id int64
	require.NoError(t, tx.QueryRowContext(ctx, `SELECT table_id FROM deadlines WHERE table_id = $1 FOR UPDATE`, ids[0]).Scan(&id))

	cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	ds, err := s.ClaimDeadlines(cctx, DeadlineTurn, "B", t0, time.Minute, 10)
	require.NoError(t, err, "the claim did not wait for the locked row")
	require.Len(t, ds, 1)
	require.Equal(t, ids[1], ds[0].TableID)
}

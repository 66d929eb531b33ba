package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// noLocked fails the test on any error, and says so loudly when it is the
// one the single write connection exists to prevent.
func noLocked(t *testing.T, err error, what string) {
	t.Helper()
	if err != nil && strings.Contains(err.Error(), "locked") {
		t.Errorf("%s: %v (SQLITE_BUSY reached a caller)", what, err)
	} else if err != nil {
		t.Errorf("%s: %v", what, err)
	}
}

// TestConcurrentActions runs, at once: 16 goroutines each playing its own
// table, 16 goroutines racing to append to one shared round, wallet gifts,
// and readers. Nothing may fail with "database is locked", every chip must
// be accounted for, and the shared round's log must have no gap.
func TestConcurrentActions(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		const (
			goroutines = 16
			perTable   = 40 // actions per goroutine on its own table
			shared     = 15 // actions per goroutine on the shared round
		)
		members := make([]string, goroutines)
		for i := range members {
			members[i] = fmt.Sprintf("m%02d", i)
		}
		wallets(t, s, "g", 10_000, members...)
		own := make([]Round, goroutines)
		ownTables := make([]Table, goroutines)
		for i, m := range members {
			ownTables[i], own[i] = openTableWithRound(t, s, "g", "own-"+m, m)
		}
		sharedTable, sharedRound := openTableWithRound(t, s, "g", "shared", members...)

		var wg sync.WaitGroup
		stop := make(chan struct{})
		// Each goroutine plays its own table: never a conflict, never an error.
		for i, m := range members {
			wg.Go(func() {
				tb := ownTables[i]
				for seq := 1; seq <= perTable; seq++ {
					err := s.ApplyAction(ctx, ApplyParams{RoundID: own[i].ID, Seq: seq, Member: m, Verb: "stake",
						InteractionID: fmt.Sprintf("own-%s-%d", m, seq), Now: t0, Transfers: []Transfer{
							{From: WalletAccount(m), To: EscrowAccount(tb.ID, m), Amount: 3},
							{From: EscrowAccount(tb.ID, m), To: KittyAccount(tb.ID), Amount: 1},
							{From: EscrowAccount(tb.ID, m), To: WalletAccount(m), Amount: 1},
						}})
					noLocked(t, err, "own table")
				}
			})
		}
		// All goroutines append to the shared round, learning the next seq from
		// the store's refusals, as a bot that lost track would.
		for _, m := range members {
			wg.Go(func() {
				seq, done := 1, 0
				for done < shared {
					err := s.ApplyAction(ctx, ApplyParams{RoundID: sharedRound.ID, Seq: seq, Member: m, Verb: "shoot",
						InteractionID: fmt.Sprintf("shared-%s-%d", m, done), Now: t0, Transfers: []Transfer{
							{From: WalletAccount(m), To: EscrowAccount(sharedTable.ID, m), Amount: 2},
						}})
					var se *SequenceError
					switch {
					case err == nil:
						done++
						seq++
					case errors.As(err, &se):
						seq = se.Want
					case errors.Is(err, ErrDuplicateAction):
						seq++
					default:
						noLocked(t, err, "shared round")
						return
					}
				}
			})
		}
		// Gifts around the ring, and readers, until the players are done.
		var side sync.WaitGroup
		for i, m := range members[:4] {
			side.Go(func() {
				for n := 0; ; n++ {
					select {
					case <-stop:
						return
					default:
					}
					_, _, err := s.Give(ctx, "g", m, members[(i+1)%4], 1, 0, t0)
					noLocked(t, err, "give")
					_, _, err = s.Leaderboard(ctx, "g", 0, 10)
					noLocked(t, err, "leaderboard")
					_, err = s.TableState(ctx, sharedTable.ID)
					noLocked(t, err, "table state")
				}
			})
		}
		wg.Wait()
		close(stop)
		side.Wait()

		as, err := s.Actions(ctx, sharedRound.ID)
		require.NoError(t, err)
		require.Len(t, as, goroutines*shared)
		for i, a := range as {
			require.Equal(t, i+1, a.Seq, "no gap in the shared log")
		}
		st, err := s.TableState(ctx, sharedTable.ID)
		require.NoError(t, err)
		for _, m := range members {
			assert.EqualValues(t, 2*shared, st.Escrows[m], m)
		}
		for i := range members {
			st, err := s.TableState(ctx, ownTables[i].ID)
			require.NoError(t, err)
			assert.EqualValues(t, perTable, st.Kitty)
		}
		requireAudit(t, s)
	})
}

// TestTwoStoresOneFile: two Stores on one file stand for two processes (the
// bot and `pontoon migrate`, say). Their writers do contend for SQLite's
// lock; busy_timeout and BEGIN IMMEDIATE make them wait, not fail.
func TestTwoStoresOneFile(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		path := bk.location(t)
		a, err := Open(ctx, path)
		require.NoError(t, err)
		defer a.Close()
		b2, err := Open(ctx, path)
		require.NoError(t, err)
		defer b2.Close()
		wallets(t, a, "g", 1000, "x", "y")

		var wg sync.WaitGroup
		for i := range 8 {
			for _, s := range []*Store{a, b2} {
				wg.Go(func() {
					for range 25 {
						from, to := "x", "y"
						if i%2 == 1 {
							from, to = to, from
						}
						_, _, err := s.Give(ctx, "g", from, to, 1, 0, t0)
						noLocked(t, err, "give")
					}
				})
			}
		}
		wg.Wait()
		requireAudit(t, a)
		wx, err := b2.Wallet(ctx, "g", "x")
		require.NoError(t, err)
		assert.EqualValues(t, 1000, wx.Balance, "as many gifts each way")
	})
}

// TestContextCancelWhileQueued: a caller waiting for the write connection
// gives up when its context ends, and the store carries on.
func TestContextCancelWhileQueued(t *testing.T) {
	s := openTest(t)                              // SQLite: PostgreSQL has no single writer to queue for
	tx, err := s.beginWrite(context.Background()) // hold the writer
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, _, err = s.EnsureWallet(ctx, "g", "a", 1, t0)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	require.NoError(t, tx.Rollback())
	_, _, err = s.EnsureWallet(context.Background(), "g", "a", 1, t0)
	require.NoError(t, err)
}

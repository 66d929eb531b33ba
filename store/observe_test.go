package store

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The commit observer hears of every write transaction that reaches its commit, by
// method, with the commit's result; a method refused before its commit (too few chips)
// and a read are not commits.
func TestCommitObserver(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var seen []string
	s, err := Open(ctx, filepath.Join(t.TempDir(), "pontoon.db"), WithCommitObserver(func(op string) func(error) {
		return func(err error) {
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				op += " failed"
			}
			seen = append(seen, op)
		}
	}))
	require.NoError(t, err)
	defer s.Close()

	wallets(t, s, "g", 100, "a", "b")
	_, _, err = s.Give(ctx, "g", "a", "b", 1000, 0, t0)
	require.ErrorIs(t, err, ErrInsufficientChips)
	_, err = s.Wallet(ctx, "g", "a")
	require.NoError(t, err)
	tb, r := openTableWithRound(t, s, "g", "ch", "a")
	require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 1, Member: "a", Verb: "stake", InteractionID: "i1", Now: t0,
		Transfers: []Transfer{{From: WalletAccount("a"), To: EscrowAccount(tb.ID, "a"), Amount: 5}}}))

	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []string{"EnsureWallet", "EnsureWallet", "OpenTable", "SetSeats", "StartRound", "ApplyAction"}, seen)
}

// On SQLite concurrent writers share one commit (groupCommit): the observer still hears
// of each method whose body the commit carried, once, and not of a body rolled back.
func TestCommitObserverGroups(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	seen := map[string]int{}
	s, err := Open(ctx, filepath.Join(t.TempDir(), "pontoon.db"), WithCommitObserver(func(op string) func(error) {
		return func(err error) {
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				op += " failed"
			}
			seen[op]++
		}
	}))
	require.NoError(t, err)
	defer s.Close()
	const n = 40
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			_, _, err := s.EnsureWallet(ctx, "g", fmt.Sprintf("m%d", i), 100, t0)
			assert.NoError(t, err)
			_, _, err = s.Give(ctx, "g", fmt.Sprintf("m%d", i), "nobody", 1000, 0, t0)
			assert.ErrorIs(t, err, ErrInsufficientChips)
		})
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, map[string]int{"EnsureWallet": n}, seen)
}

// Ping answers while the store is open and fails once it is closed.
func TestPing(t *testing.T) {
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "pontoon.db"))
	require.NoError(t, err)
	require.NoError(t, s.Ping(context.Background()))
	require.NoError(t, s.Close())
	assert.Error(t, s.Ping(context.Background()))
}

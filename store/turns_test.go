package store

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// On PostgreSQL, transactions that find every connection taken get one in the order
// they asked, so that no action waits through the turns of those that came after it.
func TestPostgreSQLTransactionsGetAConnectionInTheOrderTheyAskedForOne(t *testing.T) {
	s := postgresBackend.open(t)
	ctx := context.Background()
	held := holdEveryConnection(t, s)
	const waiters = 8
	order := make(chan int, waiters)
	for i := range waiters {
		go func() {
			tx, err := s.beginRead(ctx)
			if err != nil {
				order <- -1
				return
			}
			order <- i
			_ = tx.Rollback()
		}()
		require.Eventually(t, func() bool { return s.r.turns.waiting() == i+1 },
			10*time.Second, time.Millisecond, "waiter %d in line", i)
	}
	require.NoError(t, held[0].Rollback()) // each waiter hands its turn to the next as it ends
	got := make([]int, 0, waiters)
	for range waiters {
		got = append(got, <-order)
	}
	require.Equal(t, []int{0, 1, 2, 3, 4, 5, 6, 7}, got)
	for _, tx := range held[1:] {
		require.NoError(t, tx.Rollback())
	}
}

// A transaction that gives up waiting for a connection leaves the line without
// taking a turn from those behind it or keeping one.
func TestAPostgreSQLTransactionThatStopsWaitingLeavesTheLine(t *testing.T) {
	s := postgresBackend.open(t)
	ctx := context.Background()
	held := holdEveryConnection(t, s)
	cctx, cancel := context.WithCancel(ctx)
	gaveUp := make(chan error, 1)
	go func() {
		_, err := s.beginRead(cctx)
		gaveUp <- err
	}()
	require.Eventually(t, func() bool { return s.r.turns.waiting() == 1 }, 10*time.Second, time.Millisecond)
	cancel()
	require.ErrorIs(t, <-gaveUp, context.Canceled)
	require.Equal(t, 0, s.r.turns.waiting())
	for _, tx := range held {
		require.NoError(t, tx.Rollback())
	}
	// Every turn is back: as many transactions as connections open at once again.
	for _, tx := range holdEveryConnection(t, s) {
		require.NoError(t, tx.Rollback())
	}
}

// holdEveryConnection opens as many read transactions as the store has connections
// to PostgreSQL; each ends by the end of the test, before the store closes.
func holdEveryConnection(t *testing.T, s *Store) []*txn {
	// A turn that never comes back fails the test here rather than hang it. The
	// transactions live as long as the context they began with.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	held := make([]*txn, pgConns)
	for i := range held {
		tx, err := s.beginRead(ctx)
		require.NoError(t, err)
		held[i] = tx
		t.Cleanup(func() { _ = tx.Rollback() })
	}
	return held
}

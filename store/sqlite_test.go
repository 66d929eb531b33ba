package store

import (
	"context"
	"errors"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGroupedWrites: many goroutines writing at once on SQLite share
// transactions, and each method stays all or nothing: a body that fails in
// the middle of a group leaves no trace, the bodies before and after it in
// the same group commit, and every caller is answered with its own result.
func TestGroupedWrites(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	wallets(t, s, "g", 100, "a", "b")
	var wg sync.WaitGroup
	var mu sync.Mutex
	results := map[string]error{}
	// Hold the write connection while the goroutines queue, so that the
	// writer finds them all waiting at once, as it does under load.
	hold, err := s.beginWrite(ctx)
	require.NoError(t, err)
	// A body that writes, then fails: its write must vanish with it.
	errBoom := errors.New("boom")
	for i := range 60 {
		wg.Go(func() {
			var err error
			name := "give"
			switch i % 3 {
			case 0:
				_, _, err = s.Give(ctx, "g", "a", "b", 1, t0)
			case 1:
				name = "fail"
				err = s.write(ctx, "test", func(tx *txn) error {
					if _, err := tx.ExecContext(ctx, `INSERT INTO settings (guild_id, json, updated_at) VALUES (?, '{}', 'x')`,
						"doomed-"+itoa(int64(i))); err != nil {
						return err
					}
					return errBoom
				})
			default:
				name = "over"
				_, _, err = s.Give(ctx, "g", "b", "a", 1_000_000, t0) // refused: insufficient chips
			}
			mu.Lock()
			results[name+itoa(int64(i))] = err
			mu.Unlock()
		})
	}
	time.Sleep(100 * time.Millisecond)
	require.NoError(t, hold.Rollback())
	wg.Wait()
	assert.Greater(t, s.group.bodies.Load(), s.group.commits.Load(), "some transactions carried several methods")
	for name, err := range results {
		switch name[:4] {
		case "give":
			assert.NoError(t, err, name)
		case "fail":
			assert.ErrorIs(t, err, errBoom, name)
		default:
			assert.ErrorIs(t, err, ErrInsufficientChips, name)
		}
	}
	assert.Zero(t, count(t, s, "settings"), "failed bodies left nothing behind")
	assert.EqualValues(t, 80, balanceOf(t, s, "g", WalletAccount("a")))
	assert.EqualValues(t, 120, balanceOf(t, s, "g", WalletAccount("b")))
	requireAudit(t, s)
}

// TestQueuedWriteCancelled: a write whose context ends while it waits for
// the writer never runs, even once the writer is free again.
func TestQueuedWriteCancelled(t *testing.T) {
	s := openTest(t)
	tx, err := s.beginWrite(context.Background()) // the writer's connection is busy
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	ran := make(chan struct{}, 1)
	err = s.write(ctx, "test", func(tx *txn) error {
		ran <- struct{}{}
		return nil
	})
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	require.NoError(t, tx.Rollback())
	_, _, err = s.EnsureWallet(context.Background(), "g", "a", 1, t0) // the writer has moved on
	require.NoError(t, err)
	select {
	case <-ran:
		t.Fatal("a cancelled write ran")
	default:
	}
}

// TestCheckpointer: commits reach the database file without any checkpoint
// in a commit (automatic checkpoints are off on the write connection): the
// checkpointer copies the log over in the background.
func TestCheckpointer(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	var auto int
	require.NoError(t, s.w.QueryRow(`PRAGMA wal_autocheckpoint`).Scan(&auto))
	assert.Zero(t, auto, "no checkpoint inside a commit")
	before, err := os.Stat(s.Path())
	require.NoError(t, err)
	for i := range 300 {
		_, _, err := s.EnsureWallet(ctx, "g", "m"+itoa(int64(i)), 10, t0)
		require.NoError(t, err)
	}
	require.Eventually(t, func() bool {
		st, err := os.Stat(s.Path())
		return err == nil && st.Size() > before.Size()
	}, 5*time.Second, 10*time.Millisecond, "the log was copied into the file")
}

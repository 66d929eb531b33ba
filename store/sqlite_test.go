package store

import (
	"context"
	"encoding/binary"
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
				_, _, err = s.Give(ctx, "g", "a", "b", 1, 0, t0)
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
				_, _, err = s.Give(ctx, "g", "b", "a", 1_000_000, 0, t0) // refused: insufficient chips
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

// walFrames reads how many frames the write-ahead log holds, from its index's
// header (sqlite.org/walformat.html: mxFrame at byte 16, in the machine's byte order,
// little endian wherever the store runs).
func walFrames(t *testing.T, s *Store) uint32 {
	t.Helper()
	b, err := os.ReadFile(s.Path() + "-shm")
	require.NoError(t, err)
	return binary.LittleEndian.Uint32(b[16:20])
}

// TestCheckpointerRestartsTheLog: under a steady stream of commits a checkpoint
// never finds the log wholly copied, so SQLite would never start it again from the
// top and it would grow for as long as the stream lasts. The checkpointer's step
// copies what the stream wrote meanwhile with the writer held back, so the next
// commit starts the log from the top.
func TestCheckpointerRestartsTheLog(t *testing.T) {
	ctx := context.Background()
	// No checkpointer goroutine beside the test's step: a checkpoint copying at the
	// moment a transaction begins keeps that one from starting the log again.
	s := sqliteBackend.open(t, func(o *options) { o.manualCheckpoints = true })
	for i := range 200 {
		_, _, err := s.EnsureWallet(ctx, "g", "m"+itoa(int64(i)), 10, t0)
		require.NoError(t, err)
	}
	before := walFrames(t, s)
	require.Greater(t, before, uint32(400), "no checkpoint has run yet")

	stop, done := make(chan struct{}), make(chan error)
	go func() { // the stream: one commit after another, until told to stop
		for i := 0; ; i++ {
			select {
			case <-stop:
				for j := range 5 { // a few more after the step
					if _, _, err := s.EnsureWallet(ctx, "g", "after"+itoa(int64(j)), 10, t0); err != nil {
						done <- err
						return
					}
				}
				done <- nil
				return
			default:
			}
			if _, _, err := s.EnsureWallet(ctx, "g", "s"+itoa(int64(i)), 10, t0); err != nil {
				done <- err
				return
			}
		}
	}()
	s.checkpointStep(s.ckpt)
	close(stop)
	require.NoError(t, <-done)
	after := walFrames(t, s)
	assert.Less(t, after, before/2, "the log started again from the top (%d frames before the step, %d after)", before, after)
}

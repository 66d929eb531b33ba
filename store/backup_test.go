package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A backup taken while actions commit on several tables is a consistent copy: it opens
// as a store, its books balance (R7.3), every round's log in it has no gap, and it
// holds at least what had committed before the backup began.
func TestBackupUnderLoad(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	members := []string{"a", "b", "c", "d"}
	wallets(t, s, "g", 100_000, members...)
	tables := make([]Table, len(members))
	rounds := make([]Round, len(members))
	for i, m := range members {
		tables[i], rounds[i] = openTableWithRound(t, s, "g", "ch-"+m, m)
	}
	apply := func(i, seq int) error {
		m, tb := members[i], tables[i]
		return s.ApplyAction(ctx, ApplyParams{RoundID: rounds[i].ID, Seq: seq, Member: m, Verb: "stake",
			InteractionID: fmt.Sprintf("%s-%d", m, seq), Now: t0, Transfers: []Transfer{
				{From: WalletAccount(m), To: EscrowAccount(tb.ID, m), Amount: 2},
				{From: EscrowAccount(tb.ID, m), To: KittyAccount(tb.ID), Amount: 1},
			}})
	}
	for i := range members {
		require.NoError(t, apply(i, 1))
	}
	before := count(t, s, "ledger")

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var once sync.Once
	halt := func() { once.Do(func() { close(stop); wg.Wait() }) }
	defer halt()                                  // a failed require stops the writers before the store closes
	applied := make([]atomic.Int64, len(members)) // the last seq each writer committed
	for i := range members {
		wg.Go(func() {
			for seq := 2; ; seq++ {
				select {
				case <-stop:
					return
				default:
				}
				if err := apply(i, seq); err != nil {
					t.Errorf("action %d on table %d: %v", seq, i, err)
					return
				}
				applied[i].Store(int64(seq))
			}
		})
	}
	// Every writer is committing before the first backup starts, and commits again after
	// the last one ends, so the backups ran while actions were committing on every table
	// (waiting for it rather than assuming the scheduler ran each writer in time).
	committed := func(i int) int64 { return applied[i].Load() }
	require.Eventually(t, func() bool {
		for i := range members {
			if committed(i) < 2 {
				return false
			}
		}
		return true
	}, 10*time.Second, time.Millisecond, "every table commits before the backups")
	dir := t.TempDir()
	var copies []string
	for n := range 3 {
		dest := filepath.Join(dir, fmt.Sprintf("copy%d.db", n))
		require.NoError(t, s.Backup(ctx, dest))
		copies = append(copies, dest)
	}
	after := make([]int64, len(members))
	for i := range members {
		after[i] = committed(i)
	}
	require.Eventually(t, func() bool {
		for i := range members {
			if committed(i) <= after[i] {
				return false
			}
		}
		return true
	}, 10*time.Second, time.Millisecond, "every table still commits after the backups")
	halt()

	for _, dest := range copies {
		_, err := os.Stat(dest + "-wal")
		assert.ErrorIs(t, err, os.ErrNotExist, "the copy is one file")
		c, err := Open(ctx, dest)
		require.NoError(t, err)
		rep, err := c.Audit(ctx)
		require.NoError(t, err)
		assert.True(t, rep.OK(), "%s: %s", dest, rep)
		assert.GreaterOrEqual(t, count(t, c, "ledger"), before, "the copy holds what committed before it")
		for i := range members {
			acts, err := c.Actions(ctx, rounds[i].ID)
			require.NoError(t, err)
			for k, a := range acts {
				require.Equal(t, k+1, a.Seq, "round %d's log in %s has no gap", i, dest)
			}
		}
		require.NoError(t, c.Close())
	}
}

// Backup refuses to overwrite a file, and leaves it as it was.
func TestBackupRefusesExistingFile(t *testing.T) {
	s := openTest(t)
	dest := filepath.Join(t.TempDir(), "taken.db")
	require.NoError(t, os.WriteFile(dest, []byte("keep me"), 0o600))
	err := s.Backup(context.Background(), dest)
	require.ErrorIs(t, err, ErrInvalid)
	assert.Contains(t, err.Error(), "exists")
	data, err := os.ReadFile(dest)
	require.NoError(t, err)
	assert.Equal(t, "keep me", string(data))
}

// On PostgreSQL Backup refuses, names pg_dump, and writes no file: the server's own dump
// is the consistent copy there.
func TestBackupRefusesPostgres(t *testing.T) {
	s := postgresBackend.open(t)
	dest := filepath.Join(t.TempDir(), "copy.db")
	err := s.Backup(context.Background(), dest)
	require.ErrorIs(t, err, ErrInvalid)
	assert.Contains(t, err.Error(), "pg_dump")
	_, err = os.Stat(dest)
	assert.ErrorIs(t, err, os.ErrNotExist)
}

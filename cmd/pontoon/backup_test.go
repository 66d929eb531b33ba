package main

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/pontoon-bot/pontoon/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The real binary's `pontoon backup FILE` copies the database while another process
// (this test, standing in for the bot) commits actions on it, and `pontoon audit FILE`
// finds the copy's books balanced without changing it. A second backup to the same name is refused, and
// auditing a file that does not exist fails instead of creating an empty database.
func TestBackupWhileServing(t *testing.T) {
	bin := sharedBinary(t)
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "pontoon.db")
	st, err := store.Open(ctx, db)
	require.NoError(t, err)
	defer st.Close()

	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	members := []string{"m1", "m2", "m3"}
	type seat struct {
		table store.Table
		round store.Round
	}
	seats := map[string]seat{}
	for _, m := range members {
		_, _, err := st.EnsureWallet(ctx, guild, m, 100_000, now)
		require.NoError(t, err)
		tb, err := st.OpenTable(ctx, store.OpenTableParams{Guild: guild, Channel: "ch-" + m, Host: m, Rules: `{"variant":"classic"}`, BankOwner: m, Now: now})
		require.NoError(t, err)
		r, err := st.StartRound(ctx, store.StartRoundParams{TableID: tb.ID, Number: 1, History: `{"format":"pontoon-history/1"}`,
			Commitment: "c0ffee", Salt: "salt", Now: now})
		require.NoError(t, err)
		seats[m] = seat{tb, r}
	}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	committed := 0
	for _, m := range members {
		wg.Go(func() {
			s := seats[m]
			for seq := 1; ; seq++ {
				select {
				case <-stop:
					return
				default:
				}
				err := st.ApplyAction(ctx, store.ApplyParams{RoundID: s.round.ID, Seq: seq, Member: m, Verb: "stake",
					InteractionID: fmt.Sprintf("%s-%d", m, seq), Now: now, Transfers: []store.Transfer{
						{From: store.WalletAccount(m), To: store.EscrowAccount(s.table.ID, m), Amount: 2},
						{From: store.EscrowAccount(s.table.ID, m), To: store.KittyAccount(s.table.ID), Amount: 1},
					}})
				if err != nil {
					t.Errorf("action %d by %s: %v", seq, m, err)
					return
				}
				mu.Lock()
				committed++
				mu.Unlock()
			}
		})
	}
	env := append(os.Environ(), "PONTOON_DATABASE_PATH="+db)
	run := func(args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Env, cmd.Dir = env, dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	copyFile := filepath.Join(dir, "backup.db")
	out, err := run("backup", copyFile)
	close(stop)
	wg.Wait()
	require.NoError(t, err, out)
	assert.Contains(t, out, "backed up to "+copyFile)
	mu.Lock()
	assert.Positive(t, committed, "actions committed while the backup ran")
	mu.Unlock()

	sum := func() [32]byte {
		data, err := os.ReadFile(copyFile)
		require.NoError(t, err)
		return sha256.Sum256(data)
	}
	before := sum()
	out, err = run("audit", copyFile)
	require.NoError(t, err, out)
	assert.Contains(t, out, "audit OK: 1 guild(s)")
	assert.Equal(t, before, sum(), "auditing a backup leaves it as it was")
	_, statErr := os.Stat(copyFile + "-wal")
	assert.ErrorIs(t, statErr, os.ErrNotExist, "and puts no -wal beside it")

	out, err = run("backup", copyFile)
	require.Error(t, err, "a backup never overwrites a file")
	assert.Contains(t, out, "exists")

	out, err = run("audit", filepath.Join(dir, "missing.db"))
	require.Error(t, err, out)
	_, statErr = os.Stat(filepath.Join(dir, "missing.db"))
	assert.ErrorIs(t, statErr, os.ErrNotExist, "auditing a missing file does not create it")
}

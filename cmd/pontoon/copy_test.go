package main

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/store"
	"github.com/pontoon-bot/pontoon/store/storetest"
)

// TestCopyToPostgres runs the real binary: `pontoon copy` moves a SQLite
// file with wallets, a finished and an unfinished round and settings into an
// empty PostgreSQL database and audits both ends; `pontoon migrate` and
// `pontoon audit` then work on PostgreSQL through PONTOON_DATABASE_URL and
// audit the same chips as the file; a second copy onto the now full database
// is refused. The URL's password is never printed.
func TestCopyToPostgres(t *testing.T) {
	pg := storetest.PostgresURL(t)
	u, err := url.Parse(pg)
	require.NoError(t, err)
	u.User = url.UserPassword(u.User.Username(), "sekrit-pw") // trust auth ignores it; the output must not show it
	pg = u.String()

	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "pontoon.db")
	st, err := store.Open(ctx, file)
	require.NoError(t, err)
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, m := range []string{"a", "b"} {
		_, _, err := st.EnsureWallet(ctx, guild, m, 1000, now)
		require.NoError(t, err)
	}
	tb, err := st.OpenTable(ctx, store.OpenTableParams{Guild: guild, Channel: channel, Host: "a", BankOwner: "a", Now: now})
	require.NoError(t, err)
	require.NoError(t, st.SetSeats(ctx, tb.ID, []string{"a", "b"}, now))
	for n := 1; n <= 2; n++ {
		r, err := st.StartRound(ctx, store.StartRoundParams{TableID: tb.ID, Number: n, History: `{}`, Now: now})
		require.NoError(t, err)
		stake := []store.Transfer{{From: store.WalletAccount("b"), To: store.EscrowAccount(tb.ID, "b"), Amount: 10}}
		require.NoError(t, st.ApplyAction(ctx, store.ApplyParams{RoundID: r.ID, Seq: 1, Member: "b", Verb: "stake", Args: "10", Now: now, Transfers: stake}))
		if n == 1 {
			win := []store.Transfer{{From: store.EscrowAccount(tb.ID, "b"), To: store.WalletAccount("a"), Amount: 10}}
			require.NoError(t, st.ApplyAction(ctx, store.ApplyParams{RoundID: r.ID, Seq: 2, Member: "b", Verb: "stick", Now: now,
				Transfers: win, Finish: &store.RoundFinish{Result: `{}`, BankOwner: "a"}}))
		}
	}
	require.NoError(t, st.SetGuildSettings(ctx, guild, `{"language":"pl"}`, now))
	require.NoError(t, st.Close())

	bin := sharedBinary(t)
	run := func(env []string, args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = t.TempDir() // no config.yaml
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		assert.NotContains(t, string(out), "sekrit-pw", "the password is never printed")
		return string(out), err
	}

	out, err := run(nil, "copy", "--from", file, "--to", pg)
	require.NoError(t, err, out)
	// Five chip movements: two grants as ledger rows, three in the actions' own rows
	// (migration 00090), all five counted by both audits.
	assert.Contains(t, out, "copied 2 ledger")
	assert.Contains(t, out, "copied 3 actions")
	assert.Equal(t, 2, strings.Count(out, "5 ledger rows"), "both ends: %s", out)
	assert.Contains(t, out, "copied 2 rounds")
	assert.Contains(t, out, "copy OK")
	assert.Equal(t, 2, strings.Count(out, "audit OK"), "both ends audited: %s", out)

	fileAudit, err := run([]string{"PONTOON_DATABASE_PATH=" + file}, "audit")
	require.NoError(t, err, fileAudit)
	pgAudit, err := run([]string{"PONTOON_DATABASE_URL=" + pg}, "audit")
	require.NoError(t, err, pgAudit)
	assert.Equal(t, fileAudit, pgAudit, "the same chips at both ends")
	assert.Contains(t, pgAudit, "guild "+guild+": 2000 chips in play, 2000 minted")

	out, err = run([]string{"PONTOON_DATABASE_URL=" + pg}, "migrate")
	require.NoError(t, err, out)
	assert.Contains(t, out, "schema version")
	assert.Contains(t, out, "postgres://")

	out, err = run(nil, "copy", "--from", file, "--to", pg)
	require.Error(t, err)
	assert.Contains(t, out, "not empty")

	out, err = run(nil, "copy", "--from", file)
	require.Error(t, err)
	assert.Contains(t, out, "give both --from FILE and --to")

	out, err = run([]string{"PONTOON_DATABASE_URL=mysql://x"}, "audit")
	require.Error(t, err)
	assert.Contains(t, out, "database.url must start with postgres://")
}

package main

import (
	"bytes"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/config"
	"github.com/pontoon-bot/pontoon/store/storetest"
)

// withPasswords returns the PostgreSQL URL with a password in its user info and
// another in its query, as libpq and pgx accept them (trust auth ignores both).
func withPasswords(t *testing.T, pg string) string {
	t.Helper()
	u, err := url.Parse(pg)
	require.NoError(t, err)
	u.User = url.UserPassword(u.User.Username(), "sekrit-userinfo-pw")
	u.RawQuery += "&sslmode=disable&password=sekrit-query-pw"
	return u.String()
}

// The database's password, in the URL's user info or its query, is printed by none of
// migrate, audit, copy, a connection that fails, and serve at debug level.
func TestDatabasePasswordIsNeverPrinted(t *testing.T) {
	pg := withPasswords(t, storetest.PostgresURL(t))
	bin := sharedBinary(t)
	run := func(env []string, args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = t.TempDir() // no config.yaml
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	noPassword := func(out string) {
		t.Helper()
		assert.NotContains(t, out, "sekrit", "no password is printed")
	}

	out, err := run([]string{"PONTOON_DATABASE_URL=" + pg}, "migrate")
	require.NoError(t, err, out)
	assert.Contains(t, out, "schema version")
	assert.Contains(t, out, "password=xxxxx", "the URL is shown with its password masked")
	noPassword(out)

	out, err = run([]string{"PONTOON_DATABASE_URL=" + pg}, "audit")
	require.NoError(t, err, out)
	noPassword(out)

	file := filepath.Join(t.TempDir(), "pontoon.db")
	out, err = run([]string{"PONTOON_DATABASE_PATH=" + file}, "migrate")
	require.NoError(t, err, out)
	out, err = run(nil, "copy", "--from", file, "--to", withPasswords(t, storetest.PostgresURL(t)))
	require.NoError(t, err, out)
	assert.Contains(t, out, "copy OK")
	noPassword(out)

	kv := filepath.Join(t.TempDir(), "host=127.0.0.1 password=sekrit-kv-pw dbname=test")
	out, err = run(nil, "copy", "--from", file, "--to", kv)
	require.Error(t, err, out)
	assert.Contains(t, out, "is not a postgres:// URL")
	noPassword(out)
	_, err = os.Stat(kv)
	assert.ErrorIs(t, err, os.ErrNotExist, "a key=value connection string is not taken for a file name")

	// Nothing listens on port 1: the connection fails and says where it went.
	down := "postgres://pontoon:sekrit-userinfo-pw@127.0.0.1:1/pontoon?connect_timeout=5&password=sekrit-query-pw"
	out, err = run([]string{"PONTOON_DATABASE_URL=" + down}, "migrate")
	require.Error(t, err)
	assert.Contains(t, out, "127.0.0.1:1")
	noPassword(out)

	fake := discordtest.New(t, discordtest.WithToken(token))
	env := append(os.Environ(), "PONTOON_DISCORD_TOKEN="+token, "PONTOON_DISCORD_API_URL="+fake.URL(),
		"PONTOON_DATABASE_URL="+pg, "PONTOON_LOG_LEVEL=debug")
	p := startServe(t, bin, env, 1)
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	_ = p.cmd.Wait()
	logs := p.logs.String()
	assert.Contains(t, logs, "database=")
	noPassword(logs)
}

// The process's logger masks the database's password wherever a line holds it, as it
// masks the bot token.
func TestLoggerMasksTheDatabasePassword(t *testing.T) {
	cfg := config.Default()
	cfg.Discord.Token = token
	cfg.Database.URL = "postgres://u:sekrit-userinfo-pw@h/db?password=sekrit-query-pw"
	var buf bytes.Buffer
	newLogger(cfg, &buf).Warn("a driver quoting its settings", "dsn", "user=u password=sekrit-userinfo-pw",
		"err", "auth sekrit-query-pw refused", "token", token)
	assert.NotContains(t, buf.String(), "sekrit")
	assert.Contains(t, buf.String(), "password=[redacted]")
}

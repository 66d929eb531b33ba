package store

import (
	"context"
	"database/sql"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/migrations"
)

func TestOpenMigratesAndReopens(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		path := bk.location(t)
		if bk.name == "sqlite" {
			_, err := Open(ctx, filepath.Join(t.TempDir(), "sub dir?#%", "p.db"))
			require.Error(t, err, "a missing directory is not created")
			path = filepath.Join(t.TempDir(), "odd ?#% name.db")
		}
		s, err := Open(ctx, path)
		require.NoError(t, err)
		v, err := s.Version(ctx)
		require.NoError(t, err)
		assert.Equal(t, latestVersion(t), v)
		_, _, err = s.EnsureWallet(ctx, "g", "alice", 100, t0)
		require.NoError(t, err)
		require.NoError(t, s.Close())

		s, err = Open(ctx, path)
		require.NoError(t, err)
		defer s.Close()
		v, err = s.Migrate(ctx)
		require.NoError(t, err)
		assert.Equal(t, latestVersion(t), v)
		w, err := s.Wallet(ctx, "g", "alice")
		require.NoError(t, err)
		assert.EqualValues(t, 100, w.Balance)
		if bk.name == "sqlite" {
			assert.FileExists(t, path)
		}
	})
}

// TestConnectionSettings checks that both pools' connections carry the DSN's
// settings: a setting made by one PRAGMA would reach only one connection.
func TestConnectionSettings(t *testing.T) {
	s := openTest(t)
	for name, db := range map[string]interface {
		QueryRow(string, ...any) *sql.Row
	}{"writer": s.w, "reader": s.r} {
		var mode string
		var fk, sync, busy, queryOnly int
		require.NoError(t, db.QueryRow(`PRAGMA journal_mode`).Scan(&mode), name)
		require.NoError(t, db.QueryRow(`PRAGMA foreign_keys`).Scan(&fk), name)
		require.NoError(t, db.QueryRow(`PRAGMA synchronous`).Scan(&sync), name)
		require.NoError(t, db.QueryRow(`PRAGMA busy_timeout`).Scan(&busy), name)
		require.NoError(t, db.QueryRow(`PRAGMA query_only`).Scan(&queryOnly), name)
		assert.Equal(t, "wal", mode, name)
		assert.Equal(t, 1, fk, name)
		assert.Equal(t, 1, sync, name+": NORMAL")
		assert.Equal(t, 5000, busy, name)
		assert.Equal(t, name == "reader", queryOnly == 1, name)
	}
	_, err := s.r.Exec(`INSERT INTO interactions (id, seen_at) VALUES ('x', 'y')`)
	require.Error(t, err, "the read pool must not write")
	assert.Equal(t, 1, s.w.Stats().MaxOpenConnections)

	// database.synchronous: full reaches every connection too.
	full := sqliteBackend.open(t, Synchronous("full"))
	for name, db := range map[string]*pool{"writer": full.w, "reader": full.r} {
		var sync int
		require.NoError(t, db.QueryRow(`PRAGMA synchronous`).Scan(&sync), name)
		assert.Equal(t, 2, sync, name+": FULL")
	}
	_, err = Open(context.Background(), sqliteBackend.location(t), Synchronous("off"))
	assert.ErrorIs(t, err, ErrInvalid)
}

// TestPostgresSettings: Synchronous sets synchronous_commit on every pooled
// connection, and writes are SERIALIZABLE, reads REPEATABLE READ.
func TestPostgresSettings(t *testing.T) {
	ctx := context.Background()
	for mode, want := range map[string]string{"normal": "off", "full": "on"} {
		s := postgresBackend.open(t, Synchronous(mode))
		var got string
		require.NoError(t, s.w.QueryRow(`SHOW synchronous_commit`).Scan(&got))
		assert.Equal(t, want, got, mode)
		err := s.write(ctx, "test", func(tx *txn) error {
			return tx.QueryRowContext(ctx, `SHOW transaction_isolation`).Scan(&got)
		})
		require.NoError(t, err)
		assert.Equal(t, "serializable", got)
		rtx, err := s.beginRead(ctx)
		require.NoError(t, err)
		require.NoError(t, rtx.QueryRowContext(ctx, `SHOW transaction_isolation`).Scan(&got))
		require.NoError(t, rtx.Rollback())
		assert.Equal(t, "repeatable read", got)
		assert.NotContains(t, s.Path(), "password")
	}
}

func TestOpenRefusesMemory(t *testing.T) {
	for _, p := range []string{"", ":memory:", "file::memory:?cache=shared", "file:x?mode=memory"} {
		_, err := Open(context.Background(), p)
		assert.ErrorIs(t, err, ErrInvalid, p)
	}
}

// latestVersion is the number of the last migration file.
func latestVersion(t *testing.T) int64 {
	t.Helper()
	names, err := fs.Glob(migrations.FS, "*.sql")
	require.NoError(t, err)
	require.NotEmpty(t, names)
	slices.Sort(names)
	v, err := strconv.ParseInt(strings.SplitN(names[len(names)-1], "_", 2)[0], 10, 64)
	require.NoError(t, err)
	return v
}

// TestMigrationsDown runs the Down sections, then Up again.
func TestMigrationsDown(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		_, err := s.goose.DownTo(ctx, 0)
		require.NoError(t, err)
		v, err := s.Version(ctx)
		require.NoError(t, err)
		assert.EqualValues(t, 0, v)
		var n int
		tables := `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'goose%' AND name NOT LIKE 'sqlite%'`
		if bk.name == "postgres" {
			tables = `SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name NOT LIKE 'goose%'`
		}
		require.NoError(t, s.r.QueryRow(tables).Scan(&n))
		assert.Zero(t, n, "Down leaves no table behind")
		v, err = s.Migrate(ctx)
		require.NoError(t, err)
		assert.Equal(t, latestVersion(t), v)
	})
}

// TestMigrationActionLegs: migration 00090 on a database that has played. Before it, an
// action's legs are ledger rows; after it, those rows stay where they are, new actions
// carry their legs in their own rows, and the books balance either way; its Down turns
// the legs back into ledger rows.
func TestMigrationActionLegs(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		wallets(t, s, "g", 100, "alice", "bob")
		tb, r := openTableWithRound(t, s, "g", "c", "alice", "bob")
		_, err := s.goose.DownTo(ctx, 80)
		require.NoError(t, err)
		// An action as the bot before 00090 wrote it: the row, its legs in the ledger.
		_, err = s.w.Exec(`INSERT INTO actions (round_id, seq, member_id, verb, args, interaction_id, created_at)
			VALUES (?, 1, 'bob', 'stake', '10', 'old-1', ?)`, r.ID, formatTime(t0))
		require.NoError(t, err)
		_, err = s.w.Exec(`UPDATE accounts SET balance = balance - 10 WHERE guild_id = 'g' AND account = 'wallet:bob'`)
		require.NoError(t, err)
		_, err = s.w.Exec(`INSERT INTO accounts (guild_id, account, balance) VALUES ('g', ?, 10)`, EscrowAccount(tb.ID, "bob"))
		require.NoError(t, err)
		_, err = s.w.Exec(`INSERT INTO ledger (guild_id, from_account, to_account, amount, reason, table_id, round_id, action_seq, leg, created_at)
			VALUES ('g', 'wallet:bob', ?, 10, 'stake', ?, ?, 1, 0, ?)`, EscrowAccount(tb.ID, "bob"), tb.ID, r.ID, formatTime(t0))
		require.NoError(t, err)

		v, err := s.Migrate(ctx)
		require.NoError(t, err)
		assert.Equal(t, latestVersion(t), v)
		requireAudit(t, s)
		acts, err := s.Actions(ctx, r.ID)
		require.NoError(t, err)
		require.Len(t, acts, 1, "the rebuilt table keeps its rows")
		assert.Equal(t, "old-1", acts[0].InteractionID)
		assert.ErrorIs(t, s.ApplyAction(ctx, stake(tb, r, 2, "old-1", 5)), ErrDuplicateInteraction)
		require.NoError(t, s.ApplyAction(ctx, stake(tb, r, 2, "new-2", 5)))
		requireAudit(t, s)
		var entries int
		require.NoError(t, s.r.QueryRow(`SELECT count(*) FROM ledger_entries WHERE round_id = ?`, r.ID).Scan(&entries))
		assert.Equal(t, 2, entries, "the old action's ledger row and the new one's leg")

		_, err = s.goose.DownTo(ctx, 80)
		require.NoError(t, err)
		var rows int
		require.NoError(t, s.r.QueryRow(`SELECT count(*) FROM ledger WHERE round_id = ? AND action_seq > 0`, r.ID).Scan(&rows))
		assert.Equal(t, 2, rows, "Down makes the new action's leg a ledger row")
		var off int
		require.NoError(t, s.r.QueryRow(`SELECT count(*) FROM accounts a WHERE a.balance <> (
			SELECT coalesce(sum(CASE WHEN l.to_account = a.account THEN l.amount ELSE -l.amount END), 0) FROM ledger l
			WHERE l.guild_id = a.guild_id AND (l.to_account = a.account OR l.from_account = a.account))`).Scan(&off))
		assert.Zero(t, off, "every balance is its ledger rows' sum at version 80")
		_, err = s.Migrate(ctx)
		require.NoError(t, err)
	})
}

// TestFormatTime: the hand-written formatter writes what time.Format writes with
// timeLayout, whatever the zone, and parseTime reads it back.
func TestFormatTime(t *testing.T) {
	zone := time.FixedZone("east", 5*3600+30*60)
	for _, tm := range []time.Time{
		time.Date(2026, 12, 1, 20, 45, 7, 123456789, time.UTC),
		time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC),
		time.Date(1999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(2027, 1, 1, 2, 0, 0, 0, zone), // the previous day in UTC
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 1, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		t0,
	} {
		want := tm.UTC().Format(timeLayout)
		assert.Equal(t, want, formatTime(tm), "%v", tm)
		if tm.UTC().Year() > 9999 {
			continue // past the fixed width: time.Format's text, which no layout reads back
		}
		if back, err := parseTime(formatTime(tm)); assert.NoError(t, err) {
			assert.True(t, back.Equal(tm), "%v read back as %v", tm, back)
		}
	}
}

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Backup writes a consistent copy of the database to dest, a file that must not exist
// yet, while the bot goes on serving, and checks the copy's integrity before it returns.
// A copy that fails the check is removed.
//
// The copy is made with VACUUM INTO rather than SQLite's page-by-page online backup API
// (sqlite3_backup_*): VACUUM INTO runs as one read transaction, so in WAL mode the copy
// is the database exactly as of one commit and writers never wait for it, whereas the
// stepwise backup API restarts whenever another connection writes between two steps and,
// run in one step, holds its lock in the same way with no gain. VACUUM INTO also goes
// through database/sql with no driver-specific connection, writes a compact file with no
// -wal beside it, and refuses to overwrite an existing file.
//
// The store of the copy (or of any file restored from one) is opened like any other:
// Open brings it into WAL mode and to the current schema.
//
// Backup is for SQLite only. On PostgreSQL it refuses (ErrInvalid) and names pg_dump,
// the server's own consistent online copy, which needs no help from the bot.
func (s *Store) Backup(ctx context.Context, dest string) error {
	if s.postgres {
		return invalid("backup: the database is PostgreSQL (%s); back it up with pg_dump, e.g. pg_dump --format=custom --file=%s 'postgres://…', and restore with pg_restore", s.path, dest)
	}
	if dest == "" {
		return invalid("backup file is empty")
	}
	if _, err := os.Stat(dest); err == nil {
		return invalid("backup file %s exists; choose a new name", dest)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("store: backup: %w", err)
	}
	abs, err := filepath.Abs(dest)
	if err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	uri, err := fileURI(abs)
	if err != nil {
		return err
	}
	if err := s.vacuumInto(ctx, abs); err != nil {
		return err
	}
	if err := checkIntegrity(ctx, uri); err != nil {
		_ = os.Remove(dest)
		return err
	}
	return nil
}

// vacuumInto runs VACUUM INTO on a connection of its own. The read pool's connections
// are query_only, which refuses VACUUM INTO, and the write connection must stay free
// for the bot's commits while the copy is written; the file is already in WAL mode, so
// this reader does not block them. The name is a parameter (a plain path, which
// SQLite never reads as a URI), so quotes in it are no concern.
func (s *Store) vacuumInto(ctx context.Context, dest string) error {
	src, err := fileURI(s.path)
	if err != nil {
		return err
	}
	db, err := sql.Open("sqlite3", src+"?_busy_timeout=5000")
	if err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, dest); err != nil {
		return fmt.Errorf("store: backup to %s: %w", dest, err)
	}
	return nil
}

// checkIntegrity runs PRAGMA integrity_check on a file, read-only.
func checkIntegrity(ctx context.Context, uri string) error {
	db, err := sql.Open("sqlite3", uri+"?mode=ro")
	if err != nil {
		return fmt.Errorf("store: backup check: %w", err)
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `PRAGMA integrity_check`)
	if err != nil {
		return fmt.Errorf("store: backup check: %w", err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return fmt.Errorf("store: backup check: %w", err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: backup check: %w", err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("store: backup check: the copy is damaged: %s", strings.Join(problems, "; "))
	}
	return nil
}

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	// The driver registers itself as "sqlite3".
	_ "github.com/mattn/go-sqlite3"
	"github.com/pressly/goose/v3"

	"github.com/pontoon-bot/pontoon/migrations"
)

// Store is the bot's persistence: chips, tables, rounds and settings in one
// SQLite file. It is safe for concurrent use by many goroutines.
//
// Every method is one transaction. Writers share a single connection, so
// concurrent writers in this process queue in Go instead of racing for
// SQLite's write lock; readers use a separate pool and, in WAL mode, never
// wait for a writer.
type Store struct {
	w     *sql.DB // exactly one connection; every write goes through it
	r     *sql.DB // read-only connections for queries
	goose *goose.Provider
	path  string

	observe func(op string) func(error) // WithCommitObserver; nil: none
}

// Open opens the SQLite database at path, creating the file if it is missing,
// and applies every pending migration before it returns. path is a file name;
// ":memory:" is refused, because an in-memory database is private to one
// connection and the store uses several. Options (observe.go) add hooks.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	if path == "" || strings.Contains(path, ":memory:") || strings.Contains(path, "mode=memory") {
		return nil, invalid("database path %q: need a file name", path)
	}
	writeDSN, readDSN, err := dsns(path)
	if err != nil {
		return nil, err
	}

	w, err := sql.Open("sqlite3", writeDSN)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	// SQLite has one writer at a time. With a single write connection the
	// queue is database/sql's: fair, cancellable by ctx, and no writer of this
	// process ever sees SQLITE_BUSY ("database is locked"). busy_timeout still
	// matters for other processes on the same file (pontoon migrate, the
	// sqlite3 shell, a second bot).
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)

	var o options
	for _, f := range opts {
		f(&o)
	}
	s := &Store{w: w, path: path, observe: o.observe}
	if err := w.PingContext(ctx); err != nil {
		w.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}

	// The provider keeps no connection; it borrows the write connection for
	// each call. It must never be Closed: that would close s.w.
	s.goose, err = goose.NewProvider(goose.DialectSQLite3, w, migrations.FS,
		goose.WithDisableGlobalRegistry(true))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("store: migrations: %w", err)
	}
	if _, err := s.Migrate(ctx); err != nil {
		w.Close()
		return nil, err
	}

	// Readers open after the migrations so the file is in WAL mode already.
	r, err := sql.Open("sqlite3", readDSN)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	r.SetMaxOpenConns(max(4, runtime.GOMAXPROCS(0)))
	r.SetMaxIdleConns(max(4, runtime.GOMAXPROCS(0)))
	if err := r.PingContext(ctx); err != nil {
		r.Close()
		w.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	s.r = r
	return s, nil
}

// dsns builds the write and read DSNs for path. The settings live in the DSN,
// not in a one-off PRAGMA, because database/sql opens connections when it
// likes: each new connection must come up with the same settings.
//
//   - _journal_mode=WAL: readers do not block the writer nor the writer
//     readers; commits append to the log instead of rewriting pages.
//   - _synchronous=NORMAL: in WAL mode a commit is not fsynced, only
//     checkpoints are. A power cut can lose the last commits but never
//     corrupts the file; a crash of the process loses nothing.
//   - _foreign_keys=on: SQLite leaves them off unless asked, per connection.
//   - _busy_timeout=5000: wait up to 5 s for a lock held by another process
//     instead of failing at once.
//   - _txlock=immediate (writer): BEGIN takes the write lock at once. A
//     deferred transaction that reads and then writes may find another
//     writer has committed in between, and that SQLITE_BUSY cannot be waited
//     out; taking the lock first makes busy_timeout apply to every writer.
//   - _txlock=deferred, _query_only=1 (readers): a read transaction is a
//     snapshot and never takes the write lock, and nothing can write by
//     mistake through the read pool.
//   - _stmt_cache_size: each connection keeps its prepared statements, so a
//     method's dozen statements are not compiled again on every call.
func dsns(path string) (write, read string, err error) {
	uri, err := fileURI(path)
	if err != nil {
		return "", "", err
	}
	base := uri + "?_journal_mode=WAL&_synchronous=NORMAL&_foreign_keys=on&_busy_timeout=5000&_stmt_cache_size=64"
	return base + "&_txlock=immediate", base + "&_txlock=deferred&_query_only=1", nil
}

// fileURI is path as an absolute file: URI, so that '?', '#' or '%' in a path cannot be
// taken for parameters; SQLite decodes the escapes.
func fileURI(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("store: database path %q: %w", path, err)
	}
	u := url.URL{Path: filepath.ToSlash(abs)}
	if !strings.HasPrefix(u.Path, "/") {
		u.Path = "/" + u.Path // a Windows drive letter
	}
	return "file:" + u.EscapedPath(), nil
}

// Close closes the database. Calls in progress finish first.
func (s *Store) Close() error {
	return errors.Join(s.r.Close(), s.w.Close())
}

// Path returns the file name the store was opened with.
func (s *Store) Path() string { return s.path }

// Migrate applies every pending migration, each in its own transaction, and
// returns the schema version reached. Open calls it; it is exported for the
// migrate subcommand and does nothing when the schema is current.
func (s *Store) Migrate(ctx context.Context) (version int64, err error) {
	if _, err := s.goose.Up(ctx); err != nil {
		return 0, fmt.Errorf("store: migrate: %w", err)
	}
	return s.Version(ctx)
}

// Version returns the schema version of the database: the number of the last
// migration applied.
func (s *Store) Version(ctx context.Context) (int64, error) {
	v, err := s.goose.GetDBVersion(ctx)
	if err != nil {
		return 0, fmt.Errorf("store: schema version: %w", err)
	}
	return v, nil
}

// beginWrite starts a write transaction on the single write connection.
// Callers defer tx.Rollback and end with tx.Commit.
func (s *Store) beginWrite(ctx context.Context) (*sql.Tx, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("store: begin: %w", err)
	}
	return tx, nil
}

// beginRead starts a read transaction: one consistent snapshot of the file.
func (s *Store) beginRead(ctx context.Context) (*sql.Tx, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("store: begin: %w", err)
	}
	return tx, nil
}

// commit commits tx, the write transaction of method op, telling the commit observer
// (WithCommitObserver) if there is one, and wraps the error.
func (s *Store) commit(tx *sql.Tx, op string) error {
	var done func(error)
	if s.observe != nil {
		done = s.observe(op)
	}
	err := tx.Commit()
	if done != nil {
		done(err)
	}
	if err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}

// timeLayout is how times are stored: UTC, fixed width, so that text order is
// time order.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("store: bad time %q in database: %w", s, err)
	}
	return t, nil
}

// parseNullTime returns the zero time for NULL.
func parseNullTime(s sql.NullString) (time.Time, error) {
	if !s.Valid {
		return time.Time{}, nil
	}
	return parseTime(s.String)
}

// nullString maps "" to NULL.
func nullString(s string) sql.NullString {
	return sql.NullString{String: s, Valid: s != ""}
}

// checkNow refuses the zero time: the store reads no clock, so a zero time
// is a caller that forgot to pass one.
func checkNow(now time.Time) error {
	if now.IsZero() {
		return invalid("time is zero")
	}
	return nil
}

// checkIDs refuses empty ids; names and values alternate.
func checkIDs(namesAndValues ...string) error {
	for i := 0; i+1 < len(namesAndValues); i += 2 {
		if namesAndValues[i+1] == "" {
			return invalid("%s is empty", namesAndValues[i])
		}
	}
	return nil
}

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
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

// Store is the bot's persistence: chips, tables, rounds and settings, in one
// SQLite file or one PostgreSQL database. It is safe for concurrent use by
// many goroutines, and on PostgreSQL by many processes.
//
// Every method is one transaction. On SQLite, writers share a single
// connection, so concurrent writers in this process queue in Go instead of
// racing for SQLite's write lock; readers use a separate pool and, in WAL
// mode, never wait for a writer. On PostgreSQL one pool serves both; writes
// are SERIALIZABLE and retried when they lose a race (see write).
type Store struct {
	w        *pool // SQLite: exactly one connection; every write goes through it
	r        *pool // read-only connections for queries (PostgreSQL: the same pool as w)
	d        *dialect
	goose    *goose.Provider
	path     string // the SQLite file, or the PostgreSQL URL without its password
	postgres bool
	rounds   roundTables // each round's table and guild, for ApplyAction
	hot      *hotState   // SQLite: what actions read, kept in memory (hot.go); nil on PostgreSQL
	group    groupCommit // SQLite: the writer and the checkpointer
	ckpt     *sql.DB     // SQLite: the checkpointer's connection

	observe func(op string) func(error) // WithCommitObserver; nil: none
}

// Option changes how Open opens the database.
type Option func(*options)

type options struct {
	synchronous string
	observe     func(op string) func(error) // WithCommitObserver (observe.go); nil: none
	// manualCheckpoints: no checkpointer goroutine; the store's own tests run its
	// steps themselves, with no other checkpoint running beside them.
	manualCheckpoints bool
}

// Synchronous sets how durable a commit is: "normal" (the default) or
// "full". On SQLite, in WAL mode, normal does not fsync a commit, only
// checkpoints: a power cut may lose the last commits (about a second of them, see
// checkpointInterval) but never corrupts the file, and a crash of the process loses
// nothing. Full fsyncs the log at
// every commit, so a committed action survives a power cut too. On
// PostgreSQL the same two words set synchronous_commit: normal is off (the
// same trade), full is on (the server's default durability).
func Synchronous(mode string) Option {
	return func(o *options) { o.synchronous = mode }
}

// IsPostgres reports whether location names a PostgreSQL database
// (postgres:// or postgresql://) rather than a SQLite file.
func IsPostgres(location string) bool {
	return strings.HasPrefix(location, "postgres://") || strings.HasPrefix(location, "postgresql://")
}

// Open opens the database at location and applies every pending migration
// before it returns. A location starting with postgres:// or postgresql://
// is a PostgreSQL URL (see OpenPostgres); anything else is the name of a
// SQLite file, created if it is missing. ":memory:" is refused, because an
// in-memory database is private to one connection and the store uses
// several.
func Open(ctx context.Context, location string, opts ...Option) (*Store, error) {
	o := options{synchronous: "normal"}
	for _, f := range opts {
		f(&o)
	}
	if o.synchronous != "normal" && o.synchronous != "full" {
		return nil, invalid("synchronous %q: want normal or full", o.synchronous)
	}
	if IsPostgres(location) {
		return openPostgres(ctx, location, o)
	}
	return openSQLite(ctx, location, o)
}

func openSQLite(ctx context.Context, path string, o options) (*Store, error) {
	if path == "" || strings.Contains(path, ":memory:") || strings.Contains(path, "mode=memory") {
		return nil, invalid("database path %q: need a file name", path)
	}
	writeDSN, readDSN, err := dsns(path, o.synchronous)
	if err != nil {
		return nil, err
	}

	w, err := sql.Open(sqliteWriter, writeDSN)
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

	s := &Store{w: &pool{DB: w, d: sqliteDialect}, d: sqliteDialect, path: path, observe: o.observe, hot: &hotState{}}
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
	s.r = &pool{DB: r, d: sqliteDialect}
	// The checkpointer's connection: neither the writer's (it must not wait
	// for a commit) nor a read-only one (a checkpoint writes the file).
	ckpt, err := sql.Open("sqlite3", strings.Replace(readDSN, "&_query_only=1", "", 1))
	if err != nil {
		r.Close()
		w.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	ckpt.SetMaxOpenConns(1)
	s.ckpt = ckpt
	s.startWriter(ckpt, !o.manualCheckpoints)
	return s, nil
}

// dsns builds the write and read DSNs for path. The settings live in the DSN,
// not in a one-off PRAGMA, because database/sql opens connections when it
// likes: each new connection must come up with the same settings.
//
//   - _journal_mode=WAL: readers do not block the writer nor the writer
//     readers; commits append to the log instead of rewriting pages.
//   - _synchronous=NORMAL (the default, see Synchronous): in WAL mode a
//     commit is not fsynced, only checkpoints are. A power cut can lose the
//     last commits but never corrupts the file; a crash of the process loses
//     nothing. FULL fsyncs the log at every commit.
//   - _foreign_keys=on: SQLite leaves them off unless asked, per connection.
//   - _busy_timeout=5000: wait up to 5 s for a lock held by another process
//     instead of failing at once.
//   - _txlock=immediate (writer): BEGIN takes the write lock at once. A
//     deferred transaction that reads and then writes may find another
//     writer has committed in between, and that SQLITE_BUSY cannot be waited
//     out; taking the lock first makes busy_timeout apply to every writer.
//   - _stmt_cache_size: each connection keeps its prepared statements
//     (go-sqlite3's cache), so a method's statements are not compiled again
//     on every call. A statement SQLite re-prepares at each new binding
//     defeats it: see the round lookup of applyAction.
//   - _txlock=deferred, _query_only=1 (readers): a read transaction is a
//     snapshot and never takes the write lock, and nothing can write by
//     mistake through the read pool.
func dsns(path, synchronous string) (write, read string, err error) {
	uri, err := fileURI(path)
	if err != nil {
		return "", "", err
	}
	base := uri + "?_journal_mode=WAL&_synchronous=" + strings.ToUpper(synchronous) + "&_foreign_keys=on&_busy_timeout=5000&_stmt_cache_size=128"
	return base + "&_txlock=immediate", base + "&_txlock=deferred&_query_only=1", nil
}

// fileURI is path as an absolute file: URI, so that '?', '#' or '%' in a path
// cannot be taken for parameters; SQLite decodes the escapes.
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
	if s.postgres {
		return s.w.Close()
	}
	s.stopWriter()
	return errors.Join(s.ckpt.Close(), s.r.Close(), s.w.Close())
}

// Path returns the SQLite file the store was opened with, or the PostgreSQL
// URL with its password replaced by "xxxxx": safe to log.
func (s *Store) Path() string { return s.path }

// Dialect returns "sqlite" or "postgres".
func (s *Store) Dialect() string { return s.d.name }

// Migrate applies every pending migration, each in its own transaction, and
// returns the schema version reached. Open calls it; it is exported for the
// migrate subcommand and does nothing when the schema is current.
func (s *Store) Migrate(ctx context.Context) (version int64, err error) {
	up := func(ctx context.Context) error {
		_, err := s.goose.Up(ctx)
		return err
	}
	if s.postgres {
		err = s.migrateLocked(ctx, up)
	} else {
		err = up(ctx)
	}
	if err != nil {
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

// retryFor bounds how long write keeps running a transaction that loses
// races on PostgreSQL. Each loss means another transaction committed, so the
// system as a whole progresses; the bound only stops a pathological loop.
const retryFor = 10 * time.Second

// write runs f in one write transaction and commits it: the body of every
// method that writes. f must set its results afresh on each run, because on
// PostgreSQL a transaction that loses a race (retryable) is rolled back and
// f runs again, after a random pause that doubles with each loss (up to
// 50 ms), so that many writers on one hot row take turns instead of failing
// together again and again.
//
// op is the method's name, for the commit observer (WithCommitObserver).
//
//	var out Thing
//	err := s.write(ctx, "Thing", func(tx *txn) error {
//		... tx.ExecContext(ctx, `UPDATE ... WHERE id = ?`, id) ...
//		out, err = thing(ctx, tx, id)
//		return err
//	})
//
// A write made for an interaction (WithInteraction) records its id first, in the same
// transaction, unless a write of the same delivery already has (interaction.go).
func (s *Store) write(ctx context.Context, op string, f func(tx *txn) error) error {
	return s.writeIso(ctx, op, s.d.writeOptions(), f)
}

// writeAside is write for a body that is never what an interaction is for, only what
// its effect needs first (a wallet created on first sight): it records no interaction,
// so that the write that is the effect does, and a delivery cut short between the two
// is applied whole when it comes again.
func (s *Store) writeAside(ctx context.Context, op string, f func(tx *txn) error) error {
	return s.writeIso(context.WithValue(ctx, interactionKey{}, nil), op, s.d.writeOptions(), f)
}

// writeLocked is write for a body that locks, before it reads anything,
// every row its decision depends on (txn.lockRow, and the FOR UPDATE of the
// accounts it moves chips between). On PostgreSQL it then runs at READ
// COMMITTED: each statement after the lock sees what the transactions that
// held it committed, and concurrent bodies on different rows never fail
// each other's commit, as SERIALIZABLE's page-level predicate locks made
// 100 tables' actions do. On SQLite it is write.
func (s *Store) writeLocked(ctx context.Context, op string, f func(tx *txn) error) error {
	return s.writeIso(ctx, op, s.d.lockedOptions(), f)
}

func (s *Store) writeIso(ctx context.Context, op string, opts *sql.TxOptions, f func(tx *txn) error) error {
	return s.writeRecording(ctx, op, opts, "", f)
}

// writeRecording is writeIso for a body that records the interaction id itself, in a
// row of its own (an action's): when ctx's interaction is id, the body's row is its
// record, and nothing else is written for it.
func (s *Store) writeRecording(ctx context.Context, op string, opts *sql.TxOptions, id string, f func(tx *txn) error) error {
	f, claimed := withClaim(ctx, id, f)
	err := s.writeTx(ctx, op, opts, f)
	claimed(err)
	return err
}

func (s *Store) writeTx(ctx context.Context, op string, opts *sql.TxOptions, f func(tx *txn) error) error {
	if !s.postgres {
		return s.writeSQLite(ctx, op, f)
	}
	start := time.Now()
	for attempt := 1; ; attempt++ {
		err := s.writeOnce(ctx, op, opts, f)
		if err == nil || !retryable(err) || time.Since(start) > retryFor {
			return err
		}
		ceiling := min(50*time.Millisecond, 250*time.Microsecond<<min(attempt, 10))
		select {
		case <-ctx.Done():
			return fmt.Errorf("store: %w (after %d attempts: %v)", ctx.Err(), attempt, err)
		case <-time.After(time.Duration(rand.Int64N(int64(ceiling)))):
		}
	}
}

func (s *Store) writeOnce(ctx context.Context, op string, opts *sql.TxOptions, f func(tx *txn) error) error {
	release, err := s.w.take(ctx)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	defer release() // after the connection is back in the pool
	// The transaction runs on a connection of its own, so that a body can also
	// send several of its statements at once through pgx (txn.batch).
	conn, err := s.w.DB.Conn(ctx)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, opts)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	t := &txn{tx: tx, d: s.d, conn: conn}
	defer t.Rollback()
	if err := f(t); err != nil {
		return err
	}
	return s.commit(t, op)
}

// beginWrite starts a write transaction (on SQLite, on the single write
// connection). Callers defer tx.Rollback and end with s.commit(tx, op). Methods
// use write, which also retries on PostgreSQL; beginWrite is for a body that
// must not be retried.
func (s *Store) beginWrite(ctx context.Context) (*txn, error) {
	release, err := s.w.take(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: begin: %w", err)
	}
	tx, err := s.w.DB.BeginTx(ctx, s.d.writeOptions())
	if err != nil {
		release()
		return nil, fmt.Errorf("store: begin: %w", err)
	}
	return &txn{tx: tx, d: s.d, hot: s.hot, release: release}, nil
}

// beginRead starts a read transaction: one consistent snapshot.
func (s *Store) beginRead(ctx context.Context) (*txn, error) {
	release, err := s.r.take(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: begin: %w", err)
	}
	tx, err := s.r.DB.BeginTx(ctx, s.d.readOptions())
	if err != nil {
		release()
		return nil, fmt.Errorf("store: begin: %w", err)
	}
	return &txn{tx: tx, d: s.d, release: release}, nil
}

// commit commits tx, wrapping the error. ops are the names of the methods
// whose changes the commit carries (one, or on SQLite a group's), each told
// to the commit observer (WithCommitObserver) with the commit's result.
func (s *Store) commit(tx *txn, ops ...string) error {
	var done []func(error)
	if s.observe != nil {
		done = make([]func(error), len(ops))
		for i, op := range ops {
			done[i] = s.observe(op)
		}
	}
	var err error
	if tx.hot != nil {
		err = tx.hot.commit(tx) // the notes, once committed
	} else {
		err = tx.Commit()
	}
	for _, d := range done {
		d(err)
	}
	if err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}

// timeLayout is how times are stored: UTC, fixed width, so that text order is
// time order.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

// formatTime formats t as timeLayout. Every action stores its time, and time.Format,
// which reads its layout as it goes, was a fifth of the store's own CPU per action;
// this writes the fixed-width fields directly. Years outside 0000-9999 take
// time.Format's way (TestFormatTime holds the two to the same text).
func formatTime(t time.Time) string {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.Format(timeLayout)
	}
	hour, minute, sec := t.Clock()
	var b [len(timeLayout)]byte
	put := func(at, v, width int) {
		for i := at + width - 1; i >= at; i-- {
			b[i] = byte('0' + v%10)
			v /= 10
		}
	}
	put(0, year, 4)
	b[4] = '-'
	put(5, int(month), 2)
	b[7] = '-'
	put(8, day, 2)
	b[10] = 'T'
	put(11, hour, 2)
	b[13] = ':'
	put(14, minute, 2)
	b[16] = ':'
	put(17, sec, 2)
	b[19] = '.'
	put(20, t.Nanosecond(), 9)
	b[29] = 'Z'
	return string(b[:])
}

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

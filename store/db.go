package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// pool is a *sql.DB that speaks the store's one SQL spelling: every query
// passes through the dialect, so "?" placeholders work on PostgreSQL too.
// Store methods use it only to begin transactions; tests and tools use
// Exec/Query/QueryRow for SQL outside a method.
type pool struct {
	*sql.DB
	d *dialect
	// turns, when set (PostgreSQL), hands out the pool's connections in the
	// order transactions asked for them (take).
	turns *turns
}

func (p *pool) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return p.DB.ExecContext(ctx, p.d.q(query), args...)
}

func (p *pool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return p.DB.QueryContext(ctx, p.d.q(query), args...)
}

func (p *pool) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return p.DB.QueryRowContext(ctx, p.d.q(query), args...)
}

func (p *pool) Exec(query string, args ...any) (sql.Result, error) {
	return p.ExecContext(context.Background(), query, args...)
}

func (p *pool) Query(query string, args ...any) (*sql.Rows, error) {
	return p.QueryContext(context.Background(), query, args...)
}

func (p *pool) QueryRow(query string, args ...any) *sql.Row {
	return p.QueryRowContext(context.Background(), query, args...)
}

// take waits for a turn at one of the pool's connections, first come first
// served, and returns the function that gives it back (once). Without turns (SQLite,
// whose writes queue in groupCommit) it returns at once.
func (p *pool) take(ctx context.Context) (release func(), err error) {
	if p.turns == nil {
		return func() {}, nil
	}
	if err := p.turns.take(ctx); err != nil {
		return nil, err
	}
	return p.turns.give, nil
}

// turns is a count of free connections and a queue of the transactions waiting
// for one, served in order. database/sql alone hands a freed connection to a
// random one of its waiters: with 100 tables acting at once on 16 connections,
// an unlucky action waited through many turns of the others, and the slowest
// hundredth took several times the mean. Taking a turn first leaves
// database/sql no waiter to choose from.
type turns struct {
	mu    sync.Mutex
	free  int
	queue []chan struct{} // closed when its turn comes
}

func newTurns(n int) *turns { return &turns{free: n} }

// take returns once the caller holds a turn, or ctx's error without one.
func (t *turns) take(ctx context.Context) error {
	t.mu.Lock()
	if t.free > 0 && len(t.queue) == 0 {
		t.free--
		t.mu.Unlock()
		return nil
	}
	ready := make(chan struct{})
	t.queue = append(t.queue, ready)
	t.mu.Unlock()
	select {
	case <-ready:
		return nil
	case <-ctx.Done():
	}
	t.mu.Lock()
	if i := slices.Index(t.queue, ready); i >= 0 {
		t.queue = slices.Delete(t.queue, i, i+1)
		t.mu.Unlock()
		return ctx.Err()
	}
	t.mu.Unlock()
	t.give() // the turn came as ctx ended: it goes to the next in line
	return ctx.Err()
}

// give hands a turn back: to the first in line, else to the free count.
func (t *turns) give() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.queue) > 0 {
		close(t.queue[0])
		t.queue = slices.Delete(t.queue, 0, 1)
		return
	}
	t.free++
}

// waiting is how many transactions are in line for a turn.
func (t *turns) waiting() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.queue)
}

// txn is a transaction in the store's SQL spelling. Unexported helpers take a
// *txn where they used to take a *sql.Tx; the methods they call have the same
// names and arguments, so a method written for SQLite ports by changing
// that one type.
type txn struct {
	tx *sql.Tx
	d  *dialect
	// conn is the connection tx runs on, for batch; nil but in write's
	// transactions on PostgreSQL.
	conn *sql.Conn
	// SQLite's write transactions: the store's hotState, what this transaction
	// learnt for it (added once it commits), and whether it has checked the state's
	// data_version yet. nil on PostgreSQL and for reads.
	hot        *hotState
	notes      []hotNote
	hotChecked bool
	// release gives back the pool's turn (pool.take) the transaction holds,
	// once it ends; nil when it holds none or has given it back.
	release func()
}

func (t *txn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return t.tx.ExecContext(ctx, t.d.q(query), args...)
}

func (t *txn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return t.tx.QueryContext(ctx, t.d.q(query), args...)
}

func (t *txn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return t.tx.QueryRowContext(ctx, t.d.q(query), args...)
}

// lockRow locks the row of table with this id until the transaction ends,
// where writers run concurrently (PostgreSQL: SELECT ... FOR UPDATE); on
// SQLite the transaction holds the write lock already and it does nothing.
// table is a constant of the caller's, never input.
func (t *txn) lockRow(ctx context.Context, table string, id int64) error {
	if t.d.forUpdate == "" {
		return nil
	}
	var one int
	err := t.QueryRowContext(ctx, `SELECT 1 FROM `+table+` WHERE id = ?`+t.d.forUpdate, id).Scan(&one)
	if err != nil && err != sql.ErrNoRows {
		return fmt.Errorf("store: lock %s %d: %w", table, id, err)
	}
	return nil
}

// Rollback ends the transaction without its changes; after Commit it does
// nothing, so callers defer it.
func (t *txn) Rollback() error {
	defer t.done()
	return t.tx.Rollback()
}

// Commit commits the transaction.
func (t *txn) Commit() error {
	defer t.done()
	return t.tx.Commit()
}

// done gives back the transaction's turn at the pool, once it has ended.
func (t *txn) done() {
	if t.release != nil {
		t.release()
		t.release = nil
	}
}

// batch sends the queued statements of b in tx at once, in order, and calls
// read with their results: one round trip for all of them, where each
// statement through tx would take one. Each statement still runs on its own
// at READ COMMITTED, seeing what was committed before it started. Only on
// PostgreSQL, inside write (tx.conn set); b's statements are in PostgreSQL's
// spelling ($1).
func (t *txn) batch(ctx context.Context, b *pgx.Batch, read func(pgx.BatchResults) error) error {
	return t.conn.Raw(func(dc any) error {
		br := dc.(*stdlib.Conn).Conn().SendBatch(ctx, b)
		if err := read(br); err != nil {
			br.Close()
			return err
		}
		return br.Close()
	})
}

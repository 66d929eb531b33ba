package store

import (
	"context"
	"database/sql"
	"fmt"

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
func (t *txn) Rollback() error { return t.tx.Rollback() }

// Commit commits the transaction.
func (t *txn) Commit() error { return t.tx.Commit() }

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

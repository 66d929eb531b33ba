package store

import (
	"context"
	"fmt"
)

// What the live tables of the bot need beyond the rest of the store: finding, after a
// restart, the open tables that have no message, and keeping "stop after this round".

// UnpostedTables returns the open tables that have no recorded public message (a start
// killed before the message was posted or recorded), oldest first, with their seats.
func (s *Store) UnpostedTables(ctx context.Context) ([]Table, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return tablesWhere(ctx, tx, `status = 'open' AND id NOT IN (SELECT table_id FROM table_messages)`)
}

// SetStopping records (or withdraws) that an open table closes when its round settles.
func (s *Store) SetStopping(ctx context.Context, tableID int64, stopping bool) error {
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := openTable(ctx, tx, tableID); err != nil {
		return err
	}
	q := `DELETE FROM table_stops WHERE table_id = ?`
	if stopping {
		q = `INSERT INTO table_stops (table_id) VALUES (?) ON CONFLICT (table_id) DO NOTHING`
	}
	if _, err := tx.ExecContext(ctx, q, tableID); err != nil {
		return fmt.Errorf("store: set stopping: %w", err)
	}
	return commit(tx)
}

// Stopping reports whether an open table closes when its round settles.
func (s *Store) Stopping(ctx context.Context, tableID int64) (bool, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM table_stops WHERE table_id = ?`, tableID).Scan(&n); err != nil {
		return false, fmt.Errorf("store: stopping: %w", err)
	}
	return n > 0, nil
}

// StoppingTables returns the open tables that close when their round settles, oldest
// first, with their seats.
func (s *Store) StoppingTables(ctx context.Context) ([]Table, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return tablesWhere(ctx, tx, `status = 'open' AND id IN (SELECT table_id FROM table_stops)`)
}

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// SetTableMessage records the public message that shows a table (one per table; a new
// one replaces the old).
func (s *Store) SetTableMessage(ctx context.Context, tableID int64, messageID string) error {
	if messageID == "" {
		return invalid("message id is empty")
	}
	return s.write(ctx, "SetTableMessage", func(tx *txn) error {
		if _, err := table(ctx, tx, tableID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO table_messages (table_id, message_id) VALUES (?, ?)
			ON CONFLICT (table_id) DO UPDATE SET message_id = excluded.message_id`, tableID, messageID); err != nil {
			return fmt.Errorf("store: table message: %w", err)
		}
		return nil
	})
}

// TableMessage returns the public message of a table, or "" when none was recorded.
func (s *Store) TableMessage(ctx context.Context, tableID int64) (string, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return "", err
	}
	defer tx.Rollback()
	var id string
	err = tx.QueryRowContext(ctx, `SELECT message_id FROM table_messages WHERE table_id = ?`, tableID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: table message: %w", err)
	}
	return id, nil
}

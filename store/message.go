package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// SetTableMessage records the public message that shows a table (one per table; a new
// one replaces the old, and what the old one was drawn from is forgotten).
func (s *Store) SetTableMessage(ctx context.Context, tableID int64, messageID string) error {
	if messageID == "" {
		return invalid("message id is empty")
	}
	return s.write(ctx, "SetTableMessage", func(tx *txn) error {
		if _, err := table(ctx, tx, tableID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO table_messages (table_id, message_id) VALUES (?, ?)
			ON CONFLICT (table_id) DO UPDATE SET message_id = excluded.message_id, drawn = NULL`, tableID, messageID); err != nil {
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

// TableDrawn is what a table's message was drawn from: a digest of its rendering.
type TableDrawn struct {
	TableID   int64
	MessageID string
	Drawn     string
}

// SetTablesDrawn records, in one transaction, what each table message was last drawn
// from, once Discord has accepted the draws. A record about a message that is no
// longer its table's (a repost replaced it meanwhile) changes nothing.
func (s *Store) SetTablesDrawn(ctx context.Context, drawn []TableDrawn) error {
	for _, d := range drawn {
		if d.MessageID == "" || d.Drawn == "" {
			return invalid("message id and digest must not be empty")
		}
	}
	if len(drawn) == 0 {
		return nil
	}
	return s.write(ctx, "SetTablesDrawn", func(tx *txn) error {
		for _, d := range drawn {
			if _, err := tx.ExecContext(ctx, `UPDATE table_messages SET drawn = ? WHERE table_id = ? AND message_id = ?`,
				d.Drawn, d.TableID, d.MessageID); err != nil {
				return fmt.Errorf("store: tables drawn: %w", err)
			}
		}
		return nil
	})
}

// TableDrawn returns what the table's message messageID was last drawn from, or ""
// when that is not known (never recorded, or messageID is not the table's message).
func (s *Store) TableDrawn(ctx context.Context, tableID int64, messageID string) (string, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return "", err
	}
	defer tx.Rollback()
	var drawn sql.NullString
	err = tx.QueryRowContext(ctx, `SELECT drawn FROM table_messages WHERE table_id = ? AND message_id = ?`, tableID, messageID).Scan(&drawn)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: table drawn: %w", err)
	}
	return drawn.String, nil
}

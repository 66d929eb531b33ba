package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// PendingPack is the pack a table's next round will be dealt from, committed to before
// the deal: the table shows Commitment between rounds, and the round reveals Salt.
type PendingPack struct {
	ForRound   int      // the round number it will be dealt as
	Pack       []string // top first
	Salt       string
	Commitment string
}

// SetPendingPack records the next round's pack, replacing any earlier one.
func (s *Store) SetPendingPack(ctx context.Context, tableID int64, p PendingPack) error {
	pack, err := pendingJSON(p)
	if err != nil {
		return err
	}
	return s.write(ctx, "SetPendingPack", func(tx *txn) error {
		if _, err := table(ctx, tx, tableID); err != nil {
			return err
		}
		return setPendingPack(ctx, tx, tableID, p, pack)
	})
}

// pendingJSON checks a pending pack and returns its cards as stored.
func pendingJSON(p PendingPack) (string, error) {
	if p.ForRound < 1 || len(p.Pack) == 0 || p.Salt == "" || p.Commitment == "" {
		return "", invalid("pending pack: round, pack, salt and commitment are required")
	}
	pack, err := json.Marshal(p.Pack)
	return string(pack), err
}

// setPendingPack records p (its cards as pendingJSON gave them) in tx, replacing any
// earlier pending pack of the table.
func setPendingPack(ctx context.Context, tx *txn, tableID int64, p PendingPack, pack string) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO pending_packs (table_id, for_round, pack, salt, commitment) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (table_id) DO UPDATE SET for_round = excluded.for_round, pack = excluded.pack, salt = excluded.salt,
		commitment = excluded.commitment`, tableID, p.ForRound, pack, p.Salt, p.Commitment); err != nil {
		return fmt.Errorf("store: pending pack: %w", err)
	}
	return nil
}

// Pending returns the table's pending pack; ok is false when there is none.
func (s *Store) Pending(ctx context.Context, tableID int64) (p PendingPack, ok bool, err error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return p, false, err
	}
	defer tx.Rollback()
	var pack string
	err = tx.QueryRowContext(ctx, `SELECT for_round, pack, salt, commitment FROM pending_packs WHERE table_id = ?`, tableID).
		Scan(&p.ForRound, &pack, &p.Salt, &p.Commitment)
	if errors.Is(err, sql.ErrNoRows) {
		return p, false, nil
	}
	if err != nil {
		return p, false, fmt.Errorf("store: pending pack: %w", err)
	}
	if err := json.Unmarshal([]byte(pack), &p.Pack); err != nil {
		return p, false, fmt.Errorf("store: pending pack: %w", err)
	}
	return p, true, nil
}

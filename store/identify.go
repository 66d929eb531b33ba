package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// ReserveIdentify reserves the next gateway identify of a rate-limit bucket for a
// shard process, in one transaction, and returns when it may be sent: now, or the end
// of the window the bucket's last reservation opened, whichever is later. The next
// reservation of the bucket comes window after that. Processes that share the
// database so pace their identifies as Discord requires without talking to each other
// (package shard paces the shards of one process).
func (s *Store) ReserveIdentify(ctx context.Context, bucket int, window time.Duration, now time.Time) (time.Time, error) {
	if err := checkNow(now); err != nil {
		return time.Time{}, err
	}
	if bucket < 0 || window <= 0 {
		return time.Time{}, invalid("identify bucket %d, window %v", bucket, window)
	}
	at := now
	err := s.write(ctx, "ReserveIdentify", func(tx *txn) error {
		at = now
		var next string
		err := tx.QueryRowContext(ctx, `SELECT next_at FROM identify_slots WHERE bucket = ?`+tx.d.forUpdate, bucket).Scan(&next)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			if _, err := tx.ExecContext(ctx, `INSERT INTO identify_slots (bucket, next_at) VALUES (?, ?)`,
				bucket, formatTime(now.Add(window))); err != nil {
				return fmt.Errorf("store: reserve identify: %w", err)
			}
			return nil
		case err != nil:
			return fmt.Errorf("store: reserve identify: %w", err)
		}
		t, err := parseTime(next)
		if err != nil {
			return fmt.Errorf("store: reserve identify: %w", err)
		}
		if t.After(at) {
			at = t
		}
		if _, err := tx.ExecContext(ctx, `UPDATE identify_slots SET next_at = ? WHERE bucket = ?`,
			formatTime(at.Add(window)), bucket); err != nil {
			return fmt.Errorf("store: reserve identify: %w", err)
		}
		return nil
	})
	return at, err
}

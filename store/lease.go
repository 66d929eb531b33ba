package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Table leases: several processes answering one application's interactions
// over HTTP share one PostgreSQL, and any of them may receive any click. Each keeps
// tables in memory only as a cache; before working on a table it claims the table's
// lease, and while it holds it no other process applies a command or fires a timer
// there. The lease remembers its last holder, so a process learns from its claim
// whether anyone else worked on the table since it last did (its copy is then stale,
// and it rebuilds it from the store).

// ClaimTable claims the lease of table tableID for holder until now+ttl, in one
// transaction. claimed is false while another holder's lease runs (the caller waits and
// tries again); current is true when holder was also the lease's last holder, so that
// nothing was written to the table by anyone else since.
func (s *Store) ClaimTable(ctx context.Context, tableID int64, holder string, now time.Time, ttl time.Duration) (claimed, current bool, err error) {
	if err := checkIDs("holder", holder); err != nil {
		return false, false, err
	}
	if err := checkNow(now); err != nil {
		return false, false, err
	}
	if ttl <= 0 {
		return false, false, invalid("lease ttl must be positive")
	}
	until := formatTime(now.Add(ttl))
	err = s.writeAside(ctx, "ClaimTable", func(tx *txn) error {
		claimed, current = false, false
		var last, lastUntil string
		err := tx.QueryRowContext(ctx, `SELECT holder, until FROM table_leases WHERE table_id = ?`+tx.d.forUpdate, tableID).Scan(&last, &lastUntil)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			if _, err := tx.ExecContext(ctx, `INSERT INTO table_leases (table_id, holder, until) VALUES (?, ?, ?)`, tableID, holder, until); err != nil {
				return fmt.Errorf("store: claim table: %w", err)
			}
			claimed = true
			return nil
		case err != nil:
			return fmt.Errorf("store: claim table: %w", err)
		}
		if last != holder && lastUntil > formatTime(now) {
			return nil // another holder's lease runs
		}
		if _, err := tx.ExecContext(ctx, `UPDATE table_leases SET holder = ?, until = ? WHERE table_id = ?`, holder, until, tableID); err != nil {
			return fmt.Errorf("store: claim table: %w", err)
		}
		claimed, current = true, last == holder
		return nil
	})
	return claimed, current, err
}

// ReleaseTable ends holder's lease of the table at now, so another holder may claim it
// at once. The holder stays recorded as the last one. Releasing a lease held by
// another (ours lapsed and was taken) changes nothing.
func (s *Store) ReleaseTable(ctx context.Context, tableID int64, holder string, now time.Time) error {
	if err := checkNow(now); err != nil {
		return err
	}
	return s.writeAside(ctx, "ReleaseTable", func(tx *txn) error {
		if _, err := tx.ExecContext(ctx, `UPDATE table_leases SET until = ? WHERE table_id = ? AND holder = ?`,
			formatTime(now), tableID, holder); err != nil {
			return fmt.Errorf("store: release table: %w", err)
		}
		return nil
	})
}

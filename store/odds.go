package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Odds returns the simulation report kept for a rule set (its JSON) at a table size;
// ok is false when none is kept yet.
func (s *Store) Odds(ctx context.Context, rules string, seats int) (report string, ok bool, err error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return "", false, err
	}
	defer tx.Rollback()
	err = tx.QueryRowContext(ctx, `SELECT report FROM odds WHERE rules = ? AND seats = ?`, rules, seats).Scan(&report)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("store: odds: %w", err)
	}
	return report, true, nil
}

// SaveOdds keeps a simulation report for a rule set at a table size. The first one kept
// stays: the same rule set always gives the same figures, so a second is only a race.
// At most keep reports stay: the oldest beyond them go in the same transaction (the one
// just saved always stays), so members naming ever new rule sets cannot grow the table
// without end; a report that went is simulated again when asked for.
func (s *Store) SaveOdds(ctx context.Context, rules string, seats int, report string, now time.Time, keep int) error {
	if err := checkNow(now); err != nil {
		return err
	}
	if rules == "" || report == "" {
		return invalid("odds: rules and report are required")
	}
	if keep < 1 {
		return invalid("odds: keep must be at least 1")
	}
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO odds (rules, seats, report, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (rules, seats) DO NOTHING`,
		rules, seats, report, formatTime(now)); err != nil {
		return fmt.Errorf("store: odds: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM odds WHERE (rules, seats) NOT IN
		(SELECT rules, seats FROM odds ORDER BY (rules = ? AND seats = ?) DESC, created_at DESC, rules, seats LIMIT ?)`,
		rules, seats, keep); err != nil {
		return fmt.Errorf("store: odds: %w", err)
	}
	return s.commit(tx, "SaveOdds")
}

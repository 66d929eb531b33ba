package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// prune runs delete, a DELETE whose last parameter is the cut-off time now - maxAge
// (args come before it), in one transaction, and returns how many rows it deleted.
func (s *Store) prune(ctx context.Context, op string, now time.Time, maxAge time.Duration, delete string, args ...any) (int64, error) {
	if err := checkNow(now); err != nil {
		return 0, err
	}
	var n int64
	err := s.write(ctx, op, func(tx *txn) error {
		res, err := tx.ExecContext(ctx, delete, append(args, formatTime(now.Add(-maxAge)))...)
		if err != nil {
			return fmt.Errorf("store: %s: %w", op, err)
		}
		if n, err = res.RowsAffected(); err != nil {
			return fmt.Errorf("store: %s: %w", op, err)
		}
		return nil
	})
	return n, err
}

// GuildSettings returns the guild's settings document (default house rules,
// limits, turn timer, language) as JSON; "{}" when none were set.
func (s *Store) GuildSettings(ctx context.Context, guild string) (string, error) {
	if err := checkIDs("guild", guild); err != nil {
		return "", err
	}
	tx, err := s.beginRead(ctx)
	if err != nil {
		return "", err
	}
	defer tx.Rollback()
	var doc string
	err = tx.QueryRowContext(ctx, `SELECT json FROM settings WHERE guild_id = ?`, guild).Scan(&doc)
	if err == sql.ErrNoRows {
		return "{}", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: guild settings: %w", err)
	}
	return doc, nil
}

// SetGuildSettings replaces the guild's settings document, which must be JSON.
func (s *Store) SetGuildSettings(ctx context.Context, guild, settings string, now time.Time) error {
	if err := checkIDs("guild", guild); err != nil {
		return err
	}
	if err := checkNow(now); err != nil {
		return err
	}
	doc, err := jsonText("settings", settings, "{}")
	if err != nil {
		return err
	}
	return s.write(ctx, "SetGuildSettings", func(tx *txn) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO settings (guild_id, json, updated_at) VALUES (?, ?, ?)
			ON CONFLICT (guild_id) DO UPDATE SET json = excluded.json, updated_at = excluded.updated_at`,
			guild, doc, formatTime(now)); err != nil {
			return fmt.Errorf("store: set guild settings: %w", err)
		}
		return nil
	})
}

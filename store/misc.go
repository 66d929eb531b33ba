package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// RememberInteraction records a Discord interaction id and reports whether it
// is the first time the store sees it. The bot calls it on receipt and drops
// an interaction seen before: Discord may deliver one twice, and a member may
// double-click. It knows only the ids it recorded: an action's id is checked
// within its round by ApplyAction.
func (s *Store) RememberInteraction(ctx context.Context, id string, now time.Time) (first bool, err error) {
	if err := checkIDs("interaction id", id); err != nil {
		return false, err
	}
	if err := checkNow(now); err != nil {
		return false, err
	}
	err = s.write(ctx, "RememberInteraction", func(tx *txn) error {
		// The ids actions carry are not looked at: an action's is checked within its
		// round (ApplyAction), and a process that remembers interactions (HTTP
		// replicas) remembers each before it acts on it.
		res, err := tx.ExecContext(ctx, `INSERT INTO interactions (id, seen_at) VALUES (?, ?) ON CONFLICT DO NOTHING`,
			id, formatTime(now))
		if err != nil {
			return fmt.Errorf("store: remember interaction: %w", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("store: remember interaction: %w", err)
		}
		first = n == 1
		return nil
	})
	return first, err
}

// PruneInteractions forgets interaction ids seen more than maxAge before now
// and returns how many it forgot. Discord gives up on an interaction after
// 15 minutes, so ids older than that can no longer come back.
func (s *Store) PruneInteractions(ctx context.Context, now time.Time, maxAge time.Duration) (int64, error) {
	return s.prune(ctx, "PruneInteractions", now, maxAge, `DELETE FROM interactions WHERE seen_at < ?`)
}

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

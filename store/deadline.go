package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Deadlines: the rules' timers kept in the store, in every deployment, so that they
// outlive the process that set them: a table's turn timer (R7.4), a bank offer's expiry
// and an auction's close (bank.go). Several processes may share one PostgreSQL (HTTP
// replicas), and a timer must fire once even when the process that last touched the
// table has died and no other has the table in memory; one process on SQLite finds the
// timers it set before a restart. A row is written in the transaction of what starts the
// timer and deleted by what ends it (the settlement, a voided round, a close; an offer's
// answer, an auction's close), so the store never says a timer runs that does not.
//
// A turn's row is written by the deal (StartRoundParams.TurnDue) and not by each action
// after it (ApplyParams.TurnDue may move it, and the table leaves it as it is): every
// action only moves the turn's real deadline later, so the row is the earliest the turn
// can time out, and an action costs no deadline write. The process that claims the row
// when due times the turn out if its real deadline (the last action's time plus the turn
// timer) has come, and else moves the row there (PostponeDeadline).
//
// A process claims due rows (ClaimDue, ClaimDeadlines): a due row is claimed by exactly
// one process (on PostgreSQL SELECT ... FOR UPDATE SKIP LOCKED, so concurrent claimants
// skip each other's rows rather than wait; on SQLite the one writer does it), and the
// claim lapses if its process dies before firing it. When to look is the process's
// choice (package table's Waker): NextDeadline tells a process that owns its database
// when the earliest is.

// DeadlineTurn is the kind of a table's turn deadline (R7.4): when whoever the round in
// play waits on times out.
const DeadlineTurn = "turn"

// Deadline is one timer kept in the store.
type Deadline struct {
	TableID int64
	Kind    string // DeadlineTurn
	Ref     string // tells several timers of one kind at a table apart; "" for the turn
	Due     time.Time
	// ClaimedBy is the process that claimed the deadline to fire it, until ClaimedUntil;
	// "" when unclaimed.
	ClaimedBy    string
	ClaimedUntil time.Time
}

// setDeadline writes a table's deadline of a kind, due at due, unclaimed: a timer
// started again is a new one, whoever claimed the last.
func setDeadline(ctx context.Context, tx *txn, tableID int64, kind, ref string, due time.Time) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO deadlines (table_id, kind, ref, due) VALUES (?, ?, ?, ?)
		ON CONFLICT (table_id, kind, ref) DO UPDATE SET due = excluded.due, claimed_by = NULL, claimed_until = NULL`,
		tableID, kind, ref, formatTime(due)); err != nil {
		return fmt.Errorf("store: set deadline: %w", err)
	}
	return nil
}

// clearDeadline deletes a table's deadline of a kind, if any.
func clearDeadline(ctx context.Context, tx *txn, tableID int64, kind, ref string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM deadlines WHERE table_id = ? AND kind = ? AND ref = ?`, tableID, kind, ref); err != nil {
		return fmt.Errorf("store: clear deadline: %w", err)
	}
	return nil
}

// clearDeadlines deletes the turn deadline of a table that closes. A bank offer's or
// auction's stays (bank.go): its end still comes, and edits its message to say so, as a
// timer in the memory of a process that owns its tables does.
func clearDeadlines(ctx context.Context, tx *txn, tableID int64) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM deadlines WHERE table_id = ? AND kind = ?`, tableID, DeadlineTurn); err != nil {
		return fmt.Errorf("store: clear deadlines: %w", err)
	}
	return nil
}

// ClaimDeadlines claims for holder, until now+ttl, up to limit deadlines of kind (of
// every kind when kind is "") that are due at now and not claimed (or whose claim
// lapsed), earliest first, in one transaction: a deadline is claimed by one holder at a
// time however many call at once.
// The holder fires each and then calls FinishDeadline, or ReleaseDeadline to leave it to
// another poll; what firing writes (an action's next TurnDue) unclaims it by itself.
func (s *Store) ClaimDeadlines(ctx context.Context, kind, holder string, now time.Time, ttl time.Duration, limit int) ([]Deadline, error) {
	return s.claimDeadlines(ctx, kind, holder, now, ttl, limit, nil)
}

// ClaimDue is ClaimDeadlines of every kind for a process that serves only some servers'
// tables (gateway shards in several processes): a deadline of a table whose server
// serves rejects stays unclaimed, for the process that serves it. A nil serves serves
// every server.
func (s *Store) ClaimDue(ctx context.Context, holder string, now time.Time, ttl time.Duration, limit int, serves func(guild string) bool) ([]Deadline, error) {
	return s.claimDeadlines(ctx, "", holder, now, ttl, limit, serves)
}

func (s *Store) claimDeadlines(ctx context.Context, kind, holder string, now time.Time, ttl time.Duration, limit int, serves func(string) bool) ([]Deadline, error) {
	if err := checkIDs("holder", holder); err != nil {
		return nil, err
	}
	if err := checkNow(now); err != nil {
		return nil, err
	}
	if ttl <= 0 || limit <= 0 {
		return nil, invalid("claim deadlines: ttl and limit must be positive")
	}
	at, until := formatTime(now), now.Add(ttl)
	cond, args := `kind = ? AND `, []any{kind, at, at}
	if kind == "" {
		cond, args = "", args[1:]
	}
	// With a filter the rows of servers served elsewhere must not fill the batch: every
	// due row is read (few fall due at once) and the batch is cut after the filter.
	lim := ` LIMIT ?`
	if serves == nil {
		args = append(args, limit)
	} else {
		lim = ""
	}
	var out []Deadline
	// Locked (READ COMMITTED on PostgreSQL): the SELECT locks the rows it returns and
	// skips those another claimant has locked; a row another claimant claimed and
	// committed meanwhile is read again as committed, its claim running, and left out.
	err := s.writeLocked(ctx, "ClaimDeadlines", func(tx *txn) error {
		out = out[:0]
		// The server's id is a scalar subquery, so that the lock stays on the deadlines'
		// rows and never takes the tables' (which every action writes).
		rows, err := tx.QueryContext(ctx, `SELECT table_id, kind, ref, due,
			coalesce((SELECT guild_id FROM tables WHERE tables.id = deadlines.table_id), '') FROM deadlines
			WHERE `+cond+`due <= ? AND (claimed_until IS NULL OR claimed_until <= ?)
			ORDER BY due`+lim+tx.d.skipLocked, args...)
		if err != nil {
			return fmt.Errorf("store: claim deadlines: %w", err)
		}
		for rows.Next() {
			d := Deadline{ClaimedBy: holder, ClaimedUntil: until}
			var due, guild string
			if err := rows.Scan(&d.TableID, &d.Kind, &d.Ref, &due, &guild); err != nil {
				rows.Close()
				return fmt.Errorf("store: claim deadlines: %w", err)
			}
			if d.Due, err = parseTime(due); err != nil {
				rows.Close()
				return err
			}
			if serves != nil && (len(out) >= limit || !serves(guild)) {
				continue
			}
			out = append(out, d)
		}
		if err := rows.Close(); err != nil {
			return fmt.Errorf("store: claim deadlines: %w", err)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("store: claim deadlines: %w", err)
		}
		for _, d := range out {
			if _, err := tx.ExecContext(ctx, `UPDATE deadlines SET claimed_by = ?, claimed_until = ?
				WHERE table_id = ? AND kind = ? AND ref = ?`, holder, formatTime(until), d.TableID, d.Kind, d.Ref); err != nil {
				return fmt.Errorf("store: claim deadlines: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Claimed reports whether d, as ClaimDeadlines returned it, is still the table's deadline
// and still holder's claim: nothing set the timer again since (an action, a deal) and the
// claim did not lapse to another holder. A holder checks it under the table's lease
// before firing, so that a deadline is fired once.
func (s *Store) Claimed(ctx context.Context, d Deadline, holder string) (bool, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM deadlines
		WHERE table_id = ? AND kind = ? AND ref = ? AND due = ? AND claimed_by = ?`,
		d.TableID, d.Kind, d.Ref, formatTime(d.Due), holder).Scan(&n); err != nil {
		return false, fmt.Errorf("store: claimed: %w", err)
	}
	return n > 0, nil
}

// FinishDeadline deletes d once holder has fired it and nothing set it again: a deadline
// whose firing found nothing to do (its round gone) would otherwise be claimed forever.
// A deadline set again since (the firing's own action writes the next turn's) stays.
func (s *Store) FinishDeadline(ctx context.Context, d Deadline, holder string) error {
	return s.write(ctx, "FinishDeadline", func(tx *txn) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM deadlines WHERE table_id = ? AND kind = ? AND ref = ? AND due = ? AND claimed_by = ?`,
			d.TableID, d.Kind, d.Ref, formatTime(d.Due), holder); err != nil {
			return fmt.Errorf("store: finish deadline: %w", err)
		}
		return nil
	})
}

// PostponeDeadline moves d, claimed by holder, to due and unclaims it: a turn's
// deadline is written at the deal and not at every action, so the row is the earliest the
// turn can time out, and the process that claims it when due moves it to the table's
// real deadline (the last action's time plus the turn timer) if that is later. It
// changes nothing if d is no longer holder's claim.
func (s *Store) PostponeDeadline(ctx context.Context, d Deadline, holder string, due time.Time) error {
	if err := checkNow(due); err != nil {
		return err
	}
	return s.write(ctx, "PostponeDeadline", func(tx *txn) error {
		if _, err := tx.ExecContext(ctx, `UPDATE deadlines SET due = ?, claimed_by = NULL, claimed_until = NULL
			WHERE table_id = ? AND kind = ? AND ref = ? AND due = ? AND claimed_by = ?`,
			formatTime(due), d.TableID, d.Kind, d.Ref, formatTime(d.Due), holder); err != nil {
			return fmt.Errorf("store: postpone deadline: %w", err)
		}
		return nil
	})
}

// ReleaseDeadline gives up holder's claim on d, unfired (the table was busy), so that the
// next poll of any holder claims it again at once rather than after the claim lapses.
func (s *Store) ReleaseDeadline(ctx context.Context, d Deadline, holder string) error {
	return s.write(ctx, "ReleaseDeadline", func(tx *txn) error {
		if _, err := tx.ExecContext(ctx, `UPDATE deadlines SET claimed_by = NULL, claimed_until = NULL
			WHERE table_id = ? AND kind = ? AND ref = ? AND due = ? AND claimed_by = ?`,
			d.TableID, d.Kind, d.Ref, formatTime(d.Due), holder); err != nil {
			return fmt.Errorf("store: release deadline: %w", err)
		}
		return nil
	})
}

// EnsureDeadline writes a table's deadline of a kind, due at due, unless it has one: a
// round started before the store kept turn deadlines gets one when a process recovers it.
func (s *Store) EnsureDeadline(ctx context.Context, tableID int64, kind, ref string, due time.Time) error {
	if err := checkIDs("kind", kind); err != nil {
		return err
	}
	return s.write(ctx, "EnsureDeadline", func(tx *txn) error {
		if _, err := openTable(ctx, tx, tableID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO deadlines (table_id, kind, ref, due) VALUES (?, ?, ?, ?)
			ON CONFLICT (table_id, kind, ref) DO NOTHING`, tableID, kind, ref, formatTime(due)); err != nil {
			return fmt.Errorf("store: ensure deadline: %w", err)
		}
		return nil
	})
}

// Deadlines lists a table's deadlines.
func (s *Store) Deadlines(ctx context.Context, tableID int64) ([]Deadline, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT kind, ref, due, coalesce(claimed_by, ''), claimed_until FROM deadlines
		WHERE table_id = ? ORDER BY kind, ref`, tableID)
	if err != nil {
		return nil, fmt.Errorf("store: deadlines: %w", err)
	}
	defer rows.Close()
	var out []Deadline
	for rows.Next() {
		d := Deadline{TableID: tableID}
		var due string
		var until sql.NullString
		if err := rows.Scan(&d.Kind, &d.Ref, &due, &d.ClaimedBy, &until); err != nil {
			return nil, fmt.Errorf("store: deadlines: %w", err)
		}
		if d.Due, err = parseTime(due); err != nil {
			return nil, err
		}
		if d.ClaimedUntil, err = parseNullTime(until); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// nextLook is how many deadlines NextDeadline reads, earliest first, looking for one of a
// server the caller serves; when none of them is, the last one's time is when to look
// again.
const nextLook = 64

// NextDeadline is when the earliest deadline of a table of a server serves (nil: every
// server) next wants firing: its due time, or the end of a running claim on it; false
// when there is none. A process that owns its database arms one timer at it.
func (s *Store) NextDeadline(ctx context.Context, serves func(guild string) bool) (time.Time, bool, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return time.Time{}, false, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT due, claimed_until,
		coalesce((SELECT guild_id FROM tables WHERE tables.id = deadlines.table_id), '') FROM deadlines
		ORDER BY due LIMIT ?`, nextLook)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("store: next deadline: %w", err)
	}
	defer rows.Close()
	var next, last time.Time
	n := 0
	for rows.Next() {
		var due, guild string
		var until sql.NullString
		if err := rows.Scan(&due, &until, &guild); err != nil {
			return time.Time{}, false, fmt.Errorf("store: next deadline: %w", err)
		}
		at, err := parseTime(due)
		if err != nil {
			return time.Time{}, false, err
		}
		n++
		last = at
		if serves != nil && !serves(guild) {
			continue
		}
		if claimed, err := parseNullTime(until); err != nil {
			return time.Time{}, false, err
		} else if claimed.After(at) {
			at = claimed
		}
		if next.IsZero() || at.Before(next) {
			next = at
		}
	}
	if err := rows.Err(); err != nil {
		return time.Time{}, false, fmt.Errorf("store: next deadline: %w", err)
	}
	if next.IsZero() && n == nextLook {
		return last, true, nil
	}
	return next, !next.IsZero(), nil
}

// CountDeadlines is the number of deadlines kept: the rules' timers armed and not yet
// fired (turns, bank offers, auctions), whichever process set them.
func (s *Store) CountDeadlines(ctx context.Context) (int, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM deadlines`).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: count deadlines: %w", err)
	}
	return n, nil
}

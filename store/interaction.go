package store

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// A Discord interaction is applied once: the first write made for it records its id
// in the interactions table, in that write's own transaction, and a write for an id
// already there changes nothing and returns ErrDuplicateInteraction. The bot says
// which interaction a write is for by its context (WithInteraction), so no method's
// signature carries it, and every write a member's click or command causes (a gift, a
// daily claim, a bank sale, a seat, an action) is recorded where its effect is.

// interactionKey is the context key of the interaction a write is made for.
type interactionKey struct{}

// interactionClaim is one delivery of an interaction: its id, the time the bot
// received it (the row's seen_at, by which PruneInteractions forgets it), and whether
// a write of this delivery has committed the id. A delivery's later writes find the
// id recorded by itself and go on: an interaction may take several transactions (a
// table opened, then its first seat), and only another delivery is a duplicate.
type interactionClaim struct {
	id  string
	at  time.Time
	mu  sync.Mutex
	own bool // a write of this delivery committed the id
}

// WithInteraction returns ctx carrying the interaction the writes made with it are
// the effect of: the first of them that commits records id (at now) in its own
// transaction, and a write for an id that another delivery recorded returns
// ErrDuplicateInteraction and changes nothing. An empty id returns ctx unchanged.
func WithInteraction(ctx context.Context, id string, now time.Time) context.Context {
	if id == "" {
		return ctx
	}
	return context.WithValue(ctx, interactionKey{}, &interactionClaim{id: id, at: now})
}

// Applied reports whether a write made with ctx (WithInteraction) has committed its
// interaction's id: this delivery changed something. False for a ctx without one.
func Applied(ctx context.Context) bool {
	c, _ := ctx.Value(interactionKey{}).(*interactionClaim)
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.own
}

// pendingClaim is the interaction ctx carries that no write of its delivery has
// recorded yet, or nil.
func pendingClaim(ctx context.Context) *interactionClaim {
	c, _ := ctx.Value(interactionKey{}).(*interactionClaim)
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.own {
		return nil
	}
	return c
}

// withClaim wraps a write's body so that it first records the interaction ctx
// carries, if no write of the delivery has yet: an id already recorded fails the body
// with ErrDuplicateInteraction before it runs. The record is part of the body, so a
// body that fails, is rolled back to its savepoint (SQLite's group commit) or retried
// (PostgreSQL) leaves no id behind, and a body that commits leaves it for good. done
// is to be called with the write's result, once it is committed or has failed.
// recorded is the id the body records itself (an action's row, whose checks refuse a
// duplicate), "" if none: for that id the body is its own record.
func withClaim(ctx context.Context, recorded string, f func(*txn) error) (body func(*txn) error, done func(error)) {
	c := pendingClaim(ctx)
	if c == nil {
		return f, func(error) {}
	}
	body = f
	if c.id != recorded {
		body = func(tx *txn) error {
			if err := claimInteraction(ctx, tx, c.id, c.at); err != nil {
				return err
			}
			return f(tx)
		}
	}
	done = func(err error) {
		if err == nil {
			c.mu.Lock()
			c.own = true
			c.mu.Unlock()
		}
	}
	return body, done
}

// claimInteraction inserts the interaction's row, or returns ErrDuplicateInteraction
// when it is there. ON CONFLICT DO NOTHING rather than a failed insert: on PostgreSQL
// an insert that waits for another delivery's uncommitted row then does nothing, and
// a failed statement would abort the transaction.
func claimInteraction(ctx context.Context, tx *txn, id string, at time.Time) error {
	res, err := tx.ExecContext(ctx, `INSERT INTO interactions (id, seen_at) VALUES (?, ?) ON CONFLICT DO NOTHING`,
		id, formatTime(at))
	if err != nil {
		return fmt.Errorf("store: record interaction: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("store: record interaction: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("%w: %s", ErrDuplicateInteraction, id)
	}
	return nil
}

// InteractionApplied reports whether a write recorded the interaction id: whether a
// delivery of it has changed something. An action records its interaction in its own
// row (ApplyAction), so a click that names a round (tableID and round, from its custom
// id; 0 and 0 for anything else) is looked for among that round's actions too, on the
// actions' primary key. The bot asks when it is about to refuse an interaction that
// changed nothing, since a redelivery of one already applied is usually refused before
// any write (the member's panel moved on): that one gets no second answer.
func (s *Store) InteractionApplied(ctx context.Context, id string, tableID int64, round int) (bool, error) {
	if err := checkIDs("interaction id", id); err != nil {
		return false, err
	}
	tx, err := s.beginRead(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	var seen bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM interactions WHERE id = ?)
		OR EXISTS (SELECT 1 FROM rounds r JOIN actions a ON a.round_id = r.id
			WHERE r.table_id = ? AND r.number = ? AND a.interaction_id = ?)`,
		id, tableID, round, id).Scan(&seen); err != nil {
		return false, fmt.Errorf("store: interaction applied: %w", err)
	}
	return seen, nil
}

// PruneInteractions forgets interaction ids recorded more than maxAge before now and
// returns how many it forgot. Discord gives up on an interaction after 15 minutes, so
// ids older than that can no longer come back.
func (s *Store) PruneInteractions(ctx context.Context, now time.Time, maxAge time.Duration) (int64, error) {
	return s.prune(ctx, "PruneInteractions", now, maxAge, `DELETE FROM interactions WHERE seen_at < ?`)
}

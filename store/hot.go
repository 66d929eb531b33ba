package store

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// hotState is what an action reads before it writes, kept in memory on SQLite: each
// round's last sequence number, whether it has finished and the interaction ids its
// actions carry, and the balances of the accounts actions have touched. With them
// answered here an action is its INSERT and one balances upsert; the reads were
// about a sixth of its time, and checking the interaction ids in the database would
// need the index migration 00090 dropped.
//
// The entries are always what is committed, never more:
//   - a transaction notes what it reads and writes in its txn (txn.notes), and the
//     notes reach the state only once its commit has succeeded (Store.commit), under
//     mu held across the commit, so a transaction that begins on the write
//     connection the moment the commit frees it waits for them; a body of a group
//     that is rolled back to its savepoint takes its notes back (runGroup); a failed
//     commit forgets everything;
//   - while a transaction runs, its own notes come first (txn.hotRound,
//     txn.hotBalance): a group's later body sees an earlier one's changes, as it
//     sees them in the database;
//   - another process (pontoon migrate, grant from the sqlite3 shell, a second
//     bot) writes the file through another connection, and SQLite's data_version,
//     read at the first cached read of each transaction, then differs: everything
//     is forgotten and read again. Only this store's write connection writes without
//     changing it, and every write this store makes through that connection goes
//     through flush or forgets the rounds it finishes.
//
// Only applyAction reads it; every balance change (books.flush) writes through it,
// whoever makes it. PostgreSQL has none: any replica may write any row.
type hotState struct {
	mu       sync.Mutex
	version  int64 // data_version the entries hold for
	rounds   map[int64]*hotRound
	balances map[hotAccount]int64
}

// hotRound is what an action checks of its round.
type hotRound struct {
	last     int  // the last action's seq, 0 for none
	finished bool // the round has finished
	// ids are the interaction ids the round's actions carry (migration 00090: an id
	// is unique within its round). Changed only under mu, by apply.
	ids map[string]struct{}
}

// hotAccount names an account of a guild.
type hotAccount struct{ guild, name string }

// hotMax bounds each map: past it, it starts again empty. A round's entry holds its
// actions' interaction ids, a few hundred bytes for a round of a few dozen actions.
const hotMax = 1 << 14

// hotNote is one thing a transaction learnt: a round's state after one of its
// actions, an account's balance, or (forget) that every round's state must be read
// again.
type hotNote struct {
	round    int64 // non-zero: a round's state
	last     int
	finished bool
	id       string     // the interaction id the action carried, "" for none
	loaded   []string   // with load: every id the round's actions carried before it, as read
	load     bool       // the round's state was read from the database (it was not known)
	acct     hotAccount // round zero: an account's balance
	bal      int64
	forget   bool // every round's state is unknown (a round finished outside applyAction)
}

// begin makes the state valid for tx, once per transaction: it reads data_version and
// forgets everything another connection may have changed.
func (h *hotState) begin(ctx context.Context, tx *txn) error {
	if tx.hotChecked {
		return nil
	}
	var v int64
	if err := tx.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&v); err != nil {
		return fmt.Errorf("store: data version: %w", err)
	}
	h.mu.Lock()
	if v != h.version || h.rounds == nil {
		h.version = v
		h.rounds = make(map[int64]*hotRound)
		h.balances = make(map[hotAccount]int64)
	}
	h.mu.Unlock()
	tx.hotChecked = true
	return nil
}

// apply adds a committed transaction's notes.
func (h *hotState) apply(notes []hotNote) {
	for _, n := range notes {
		switch {
		case n.forget:
			h.rounds = make(map[int64]*hotRound)
		case n.round != 0:
			r := h.rounds[n.round]
			if n.load {
				if len(h.rounds) >= hotMax {
					h.rounds = make(map[int64]*hotRound)
				}
				r = &hotRound{ids: make(map[string]struct{}, len(n.loaded)+8)}
				for _, id := range n.loaded {
					r.ids[id] = struct{}{}
				}
				h.rounds[n.round] = r
			}
			if r == nil { // forgotten meanwhile: read again next time
				continue
			}
			r.last, r.finished = n.last, n.finished
			if n.id != "" {
				r.ids[n.id] = struct{}{}
			}
		default:
			if len(h.balances) >= hotMax {
				h.balances = make(map[hotAccount]int64)
			}
			h.balances[n.acct] = n.bal
		}
	}
}

// reset forgets everything: after a commit that failed, when what is committed is unknown.
func (h *hotState) reset() {
	h.rounds, h.balances = nil, nil
}

// commit commits tx and, if that succeeds, adds its notes, all under mu.
func (h *hotState) commit(tx *txn) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	err := tx.Commit()
	if err != nil {
		h.reset()
		return err
	}
	if h.rounds != nil {
		h.apply(tx.notes)
	}
	return nil
}

// hotRound returns round's last seq and whether it has finished, if known, and
// whether an action of the round carries the interaction id (never, for ""): tx's own
// notes first, then the state.
func (tx *txn) hotRound(round int64, id string) (last int, finished, used, known bool) {
	for i := len(tx.notes) - 1; i >= 0; i-- {
		n := tx.notes[i]
		if n.forget {
			return 0, false, false, false
		}
		if n.round != round {
			continue
		}
		if !known {
			last, finished, known = n.last, n.finished, true
		}
		if id != "" && (n.id == id || (n.load && slices.Contains(n.loaded, id))) {
			used = true
		}
		if n.load { // what came before is in the note
			return last, finished, used, true
		}
	}
	tx.hot.mu.Lock()
	defer tx.hot.mu.Unlock()
	r, ok := tx.hot.rounds[round]
	if !ok {
		return 0, false, false, false // a note without its round's state: read again
	}
	if !known {
		last, finished = r.last, r.finished
	}
	if _, ok := r.ids[id]; ok && id != "" {
		used = true
	}
	return last, finished, used, true
}

// hotBalance returns an account's balance, if known.
func (tx *txn) hotBalance(a hotAccount) (int64, bool) {
	for i := len(tx.notes) - 1; i >= 0; i-- {
		if n := tx.notes[i]; n.round == 0 && !n.forget && n.acct == a {
			return n.bal, true
		}
	}
	tx.hot.mu.Lock()
	defer tx.hot.mu.Unlock()
	v, ok := tx.hot.balances[a]
	return v, ok
}

// note records what tx learnt, for the state once tx commits. It does nothing on
// PostgreSQL.
func (tx *txn) note(n hotNote) {
	if tx.hot != nil {
		tx.notes = append(tx.notes, n)
	}
}

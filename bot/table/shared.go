package table

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/pontoon-bot/pontoon/store"
)

// Tables shared by several processes, (HTTP replicas on one PostgreSQL): any
// process may receive any click, so a process's table in memory is only a cache. Work
// on a table (a command, a timer, a public edit) happens inside Hold, which claims the
// table's lease in the store for this process; when the claim says another process held
// the table since, the cached copy is dropped and the table is loaded again, its round
// rebuilt by replaying the actions the store holds. Commits stay guarded by the store's
// own keys (the round's unique (round, seq), a deal's round number), so a copy that
// went stale anyway (a lease that lapsed mid-command) fails its commit rather than
// overwrite another's.

// Shared is what tables shared between processes need of the store; *store.Store has it.
type Shared interface {
	ClaimTable(ctx context.Context, tableID int64, holder string, now time.Time, ttl time.Duration) (claimed, current bool, err error)
	ReleaseTable(ctx context.Context, tableID int64, holder string, now time.Time) error
	// The turn deadlines kept in the store (deadlines.go).
	ClaimDeadlines(ctx context.Context, kind, holder string, now time.Time, ttl time.Duration, limit int) ([]store.Deadline, error)
	Claimed(ctx context.Context, d store.Deadline, holder string) (bool, error)
	FinishDeadline(ctx context.Context, d store.Deadline, holder string) error
	ReleaseDeadline(ctx context.Context, d store.Deadline, holder string) error
	EnsureDeadline(ctx context.Context, tableID int64, kind, ref string, due time.Time) error
	// The bank's offers and auctions kept in the store (bank_shared.go).
	OpenOffer(ctx context.Context, of store.BankOffer) ([]store.BankOffer, error)
	Offer(ctx context.Context, id string) (store.BankOffer, error)
	SetOfferMessage(ctx context.Context, id, messageID string) error
	EndOffer(ctx context.Context, id, status string) (store.BankOffer, error)
	StartAuction(ctx context.Context, a store.BankAuction) error
	Auction(ctx context.Context, tableID int64) (store.BankAuction, error)
	SetAuctionMessage(ctx context.Context, tableID int64, messageID string) error
	PlaceBid(ctx context.Context, tableID int64, member string, amount int64, now time.Time) (store.BankAuction, error)
	EndAuction(ctx context.Context, tableID int64) (store.BankAuction, error)
}

const (
	// leaseTTL bounds how long a crashed process keeps a table from the others.
	leaseTTL = 15 * time.Second
	// holdWait is how long Hold waits for another process's lease; an interaction has
	// three seconds to be answered (the endpoint defers after two).
	holdWait = 5 * time.Second
)

// ErrBusy is Hold's error when another process kept the table's lease for holdWait.
var ErrBusy = errors.New("table: another process holds the table")

// holds serialises this process's own work on a table's lease, per table. A table's
// lock is kept only while some work holds it or waits for it, so the map holds the
// tables in use, not every table ever held.
type holds struct {
	mu sync.Mutex
	m  map[int64]*holdLock
}

// holdLock is one table's lock in holds; users counts the work holding or waiting.
type holdLock struct {
	h     *holds
	id    int64
	mu    sync.Mutex
	users int // guarded by h.mu
}

// of is table id's lock, counted as used until its Unlock: each of is paired with one
// Lock and one Unlock.
func (h *holds) of(id int64) *holdLock {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.m == nil {
		h.m = map[int64]*holdLock{}
	}
	l := h.m[id]
	if l == nil {
		l = &holdLock{h: h, id: id}
		h.m[id] = l
	}
	l.users++
	return l
}

func (l *holdLock) Lock() { l.mu.Lock() }

// Unlock releases the lock and forgets it once no work holds or waits for it.
func (l *holdLock) Unlock() {
	l.mu.Unlock()
	l.h.mu.Lock()
	defer l.h.mu.Unlock()
	if l.users--; l.users == 0 {
		delete(l.h.m, l.id)
	}
}

// len is how many tables' locks are kept.
func (h *holds) len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.m)
}

// Hold claims table id for this process until release is called, waiting up to
// holdWait for another process to let it go, and drops a stale cached copy so that Get
// loads it afresh. Without Options.Shared (one process owns its tables) it does nothing.
// The caller must not hold a table's lock.
func (m *Manager) Hold(ctx context.Context, id int64) (release func(), err error) {
	sh := m.opt.Shared
	if sh == nil || id <= 0 {
		return func() {}, nil
	}
	mu := m.holds.of(id)
	mu.Lock()
	deadline := time.Now().Add(holdWait)
	for wait := 2 * time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		claimed, current, err := sh.ClaimTable(ctx, id, m.opt.Holder, m.now(), leaseTTL)
		if err != nil {
			mu.Unlock()
			return nil, err
		}
		if claimed {
			if !current {
				m.drop(id)
			}
			break
		}
		if time.Now().After(deadline) {
			mu.Unlock()
			return nil, ErrBusy
		}
		select {
		case <-ctx.Done():
			mu.Unlock()
			return nil, ctx.Err()
		case <-time.After(wait):
		}
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := sh.ReleaseTable(rctx, id, m.opt.Holder, m.now()); err != nil {
				m.log.Warn("table lease not released; it lapses by itself", "table", id, "err", err)
			}
			mu.Unlock()
		})
	}, nil
}

// drop forgets the cached copy of a table another process has changed.
func (m *Manager) drop(id int64) {
	m.mu.Lock()
	t := m.tables[id]
	m.mu.Unlock()
	if t == nil {
		return
	}
	t.mu.Lock()
	t.stopTimer()
	t.mu.Unlock()
	m.forget(t)
}

// rebuild replays a freshly loaded table's current or last round from the actions the
// store holds, and sets its turn deadline as recovery does for a restart (R7.4: the
// deadline runs from the round's last action; the store's copy of it is what fires,
// deadlines.go). Only shared tables need it: a process
// that owns its tables keeps every round in play in memory from recovery on.
func (m *Manager) rebuild(ctx context.Context, t *Table) error {
	if t.round.ID == 0 {
		return nil
	}
	g, actions, err := m.replayRound(ctx, t.round)
	if err != nil {
		return fmt.Errorf("table %d round %d: %w", t.id, t.round.Number, err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.g, t.seq = g, len(actions)
	t.notice = timedOutNotice(actions)
	last := t.round.StartedAt
	for _, a := range actions {
		t.mseq[a.Member]++
		last = a.CreatedAt
	}
	if g.InRound() {
		t.recovered = true
		t.deadline = last.Add(t.turn)
	}
	t.armTimer()
	return nil
}

// Refresh forgets the cached copy of a shared table whose commit failed as stale (the
// store's (round, seq) key, a deal's round number): the next Get rebuilds it from the
// store. Call it inside Hold.
func (m *Manager) Refresh(id int64) {
	if m.opt.Shared != nil {
		m.drop(id)
	}
}

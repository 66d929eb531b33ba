package table

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
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

// Leases are the tables' leases in the store; *store.Store has them.
type Leases interface {
	ClaimTable(ctx context.Context, tableID int64, holder string, now time.Time, ttl time.Duration) (claimed, current bool, err error)
	ReleaseTable(ctx context.Context, tableID int64, holder string, now time.Time) error
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

// holds serialises this process's own work on a table's lease, per table.
type holds struct {
	mu sync.Mutex
	m  map[int64]*sync.Mutex
}

func (h *holds) of(id int64) *sync.Mutex {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.m == nil {
		h.m = map[int64]*sync.Mutex{}
	}
	mu := h.m[id]
	if mu == nil {
		mu = &sync.Mutex{}
		h.m[id] = mu
	}
	return mu
}

// Hold claims table id for this process until release is called, waiting up to
// holdWait for another process to let it go, and drops a stale cached copy so that Get
// loads it afresh. Without Options.Leases (one process owns its tables) it does nothing.
// The caller must not hold a table's lock.
func (m *Manager) Hold(ctx context.Context, id int64) (release func(), err error) {
	sh := m.opt.Leases
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
	m.forget(t)
}

// rebuild replays a freshly loaded table's current or last round from the actions the
// store holds, and sets its turn deadline as recovery does for a restart (R7.4: the
// deadline runs from the round's last action; the store's copy of it is what fires,
// deadlines.go). A table loaded by Get after Recover has a round in play only when
// another process dealt it (HTTP replicas) or recovery left it to its shard.
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
		t.deadline = last.Add(t.turn)
	}
	return nil
}

// Refresh forgets the cached copy of a table whose commit failed as stale (the store's
// (round, seq) key, a deal's round number): the next Get rebuilds it from the store.
// Call it inside Hold.
func (m *Manager) Refresh(id int64) { m.drop(id) }

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
	// leaseTTL bounds how long a crashed process keeps a table from the others. A
	// live holder renews its lease every leaseTTL/3 (Hold), so however long the work
	// under a hold takes, its lease never lapses under it.
	leaseTTL = 15 * time.Second
	// renewEvery is how often a held lease is renewed: a third of leaseTTL, so that
	// two renewals may fail (a slow database) before the lease lapses.
	renewEvery = leaseTTL / 3
)

// ErrBusy is Hold's error when the table was not free before the caller's context
// ended: another process, or work of this one, kept it.
var ErrBusy = errors.New("table: another process holds the table")

// holds serialises this process's own work on a table, per table. A hold is a
// one-slot channel rather than a mutex so that waiting for it ends with the waiter's
// context; an entry lives while someone holds or waits for it, so the map stays as
// small as the tables being worked on.
type holds struct {
	mu sync.Mutex
	m  map[int64]*holdSlot
	// renew is how often a held lease is renewed, on real time; renewEvery when 0
	// (tests, whose clock stands still, renew more often).
	renew time.Duration
}

// lease is how long a lease runs from its claim or renewal, and how often it is renewed.
func (h *holds) lease() (ttl, every time.Duration) {
	if h.renew > 0 {
		return leaseTTL, h.renew
	}
	return leaseTTL, renewEvery
}

type holdSlot struct {
	ch   chan struct{} // full while held
	refs int           // holders and waiters; guarded by holds.mu
}

// acquire takes table id's slot, or gives up when ctx ends.
func (h *holds) acquire(ctx context.Context, id int64) (*holdSlot, error) {
	h.mu.Lock()
	if h.m == nil {
		h.m = map[int64]*holdSlot{}
	}
	s := h.m[id]
	if s == nil {
		s = &holdSlot{ch: make(chan struct{}, 1)}
		h.m[id] = s
	}
	s.refs++
	h.mu.Unlock()
	select {
	case s.ch <- struct{}{}:
		return s, nil
	default:
	}
	select {
	case s.ch <- struct{}{}:
		return s, nil
	case <-ctx.Done():
		h.put(id, s, false)
		return nil, fmt.Errorf("%w: %w", ErrBusy, ctx.Err())
	}
}

// put gives up a reference to id's slot, emptying it first when held.
func (h *holds) put(id int64, s *holdSlot, held bool) {
	if held {
		<-s.ch
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if s.refs--; s.refs == 0 && h.m[id] == s {
		delete(h.m, id)
	}
}

// Hold gives the caller table id until release is called: one piece of work at a
// time per table in this process and, with Options.Leases, in every process sharing
// the store (the table's lease, claimed in Holder's name). A stale cached copy (another
// process held the table since) is dropped, so that Get loads it afresh. Waiting, for
// this process's own work or another's lease, lasts as long as ctx at most, and then
// fails with ErrBusy.
//
// Nothing that waits on Discord may run under a hold: a hold is for reading or
// changing the table, and its holder lets go before any call to Discord (the publisher
// copies a Snapshot under it, then edits). The lease is renewed while it is held all
// the same, so that work that does take long never loses it to another process
// half-way. The caller must not hold a table's lock.
func (m *Manager) Hold(ctx context.Context, id int64) (release func(), err error) {
	if id <= 0 {
		return func() {}, nil
	}
	slot, err := m.holds.acquire(ctx, id)
	if err != nil {
		return nil, err
	}
	sh := m.opt.Leases
	if sh == nil {
		// One process owns its tables: no other process takes them, so the slot is the
		// whole hold and costs no write.
		var once sync.Once
		return func() { once.Do(func() { m.holds.put(id, slot, true) }) }, nil
	}
	ttl, _ := m.holds.lease()
	for wait := 2 * time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		claimed, current, err := sh.ClaimTable(ctx, id, m.opt.Holder, m.now(), ttl)
		if err != nil {
			m.holds.put(id, slot, true)
			if ctx.Err() != nil {
				return nil, fmt.Errorf("%w: %w", ErrBusy, err)
			}
			return nil, err
		}
		if claimed {
			if !current {
				m.drop(id)
			}
			break
		}
		select {
		case <-ctx.Done():
			m.holds.put(id, slot, true)
			return nil, fmt.Errorf("%w: %w", ErrBusy, ctx.Err())
		case <-time.After(wait):
		}
	}
	stop := m.renew(id)
	var once sync.Once
	return func() {
		once.Do(func() {
			stop()
			rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := sh.ReleaseTable(rctx, id, m.opt.Holder, m.now()); err != nil {
				m.log.Warn("table lease not released; it lapses by itself", "table", id, "err", err)
			}
			m.holds.put(id, slot, true)
		})
	}, nil
}

// renew keeps this process's lease of table id from lapsing until stop is called:
// every renewEvery it is claimed again, which for its holder only moves its end. stop
// waits for a renewal under way, so that none lands after the release and keeps the
// table from the others.
func (m *Manager) renew(id int64) (stop func()) {
	var (
		mu      sync.Mutex
		stopped bool
		timer   *time.Timer
	)
	ttl, every := m.holds.lease()
	tick := func() {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), every)
		claimed, _, err := m.opt.Leases.ClaimTable(ctx, id, m.opt.Holder, m.now(), ttl)
		cancel()
		switch {
		case err != nil:
			m.log.Warn("table lease not renewed", "table", id, "err", err)
		case !claimed:
			m.log.Error("table lease lapsed and was taken while held", "table", id)
		}
		timer.Reset(every)
	}
	// The timer runs on real time, as the work it outlasts does.
	mu.Lock()
	timer = time.AfterFunc(every, tick)
	mu.Unlock()
	return func() {
		mu.Lock()
		defer mu.Unlock()
		stopped = true
		timer.Stop()
	}
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

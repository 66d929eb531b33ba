package table

import (
	"context"
	"errors"
	"time"

	"github.com/pontoon-bot/pontoon/store"
)

// Turn timers of shared tables. A table in memory is only a cache when several
// processes share the store, and a timer armed in one process's memory dies with it:
// a table no other process has loaded would then never time out. So the turn deadline
// lives in the store (store/deadline.go), written in the transaction of the deal or
// action that starts the turn, and every process polls it: a due deadline is claimed
// by exactly one process, which takes the table's lease (Hold), loads the table (Get
// rebuilds a copy another process changed), checks under the lease that the deadline
// it claimed is still the table's and still its claim, and applies the timeouts as the
// timer of a process that owns its tables would (timeOut). A process that dies
// mid-way leaves a claim that lapses; another then fires it.

const (
	// pollEvery is how often a process looks for due deadlines: how late, at most, a
	// turn times out past its deadline (R7.4's timers are tens of seconds).
	pollEvery = time.Second
	// claimTTL is how long a claimed deadline waits for its claimant before another
	// process may claim it: longer than a Hold may wait (holdWait) plus the timeouts.
	claimTTL = 30 * time.Second
	// claimBatch is how many due deadlines one claim takes.
	claimBatch = 16
)

// startPolling starts this process's poll of the store's turn deadlines, once; only
// shared tables need it.
func (m *Manager) startPolling() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.opt.Shared == nil || m.closed || m.poll != nil {
		return
	}
	m.poll = m.opt.AfterFunc(pollEvery, m.pollDeadlines)
}

// pollDeadlines fires the turn deadlines due now and polls again in pollEvery.
func (m *Manager) pollDeadlines() {
	if !m.Enter() {
		return
	}
	defer m.Done()
	ctx, cancel := context.WithTimeout(context.Background(), claimTTL)
	m.fireDue(ctx)
	cancel()
	m.mu.Lock()
	if !m.closed {
		m.poll = m.opt.AfterFunc(pollEvery, m.pollDeadlines)
	}
	m.mu.Unlock()
}

// fireDue claims the deadlines due now, kind by kind and a batch at a time, and fires
// each: turns (R7.4), bank offers' expiries (R6.3) and auctions' closes (R9.8,
// bank_shared.go).
//
// One claim takes every kind, so an idle poll costs one transaction.
func (m *Manager) fireDue(ctx context.Context) {
	for {
		ds, err := m.opt.Shared.ClaimDeadlines(ctx, "", m.opt.Holder, m.now(), claimTTL, claimBatch)
		if err != nil {
			m.log.Warn("timers: due deadlines not claimed; trying again", "err", err)
			return
		}
		for _, d := range ds {
			switch d.Kind {
			case store.DeadlineTurn:
				m.fireTurn(ctx, d)
			case store.DeadlineOffer:
				m.fireOffer(ctx, d)
			case store.DeadlineAuction:
				m.fireAuction(ctx, d)
			default:
				// A kind a newer version writes: its claim lapses for a process that knows it.
				m.log.Warn("timer of an unknown kind left alone", "kind", d.Kind, "table", d.TableID)
			}
		}
		if len(ds) < claimBatch {
			return
		}
	}
}

// holdClaimed takes table d.TableID's lease for firing d, claimed by this process, and
// reports whether d is still the table's deadline and still this process's claim once
// the lease is held; the caller then fires it and releases.
func (m *Manager) holdClaimed(ctx context.Context, d store.Deadline) (release func(), ok bool) {
	sh, holder := m.opt.Shared, m.opt.Holder
	release, err := m.Hold(ctx, d.TableID)
	if err != nil {
		// Busy with another process's click: any process's next poll tries again.
		m.log.Warn("timer: table not claimed; trying again", "kind", d.Kind, "table", d.TableID, "err", err)
		if err := sh.ReleaseDeadline(ctx, d, holder); err != nil {
			m.log.Warn("timer: claim not released; it lapses by itself", "kind", d.Kind, "table", d.TableID, "err", err)
		}
		return nil, false
	}
	if ok, err := sh.Claimed(ctx, d, holder); err != nil || !ok {
		// Set again since (someone acted before the lease was ours), or the claim
		// lapsed to another process: not ours to fire.
		if err != nil {
			m.log.Warn("timer: claim not checked; it lapses by itself", "kind", d.Kind, "table", d.TableID, "err", err)
		}
		release()
		return nil, false
	}
	return release, true
}

// fireTurn times out whoever table d.TableID's round waits on, if d, claimed by this
// process, is still the table's turn deadline once the table's lease is held.
func (m *Manager) fireTurn(ctx context.Context, d store.Deadline) {
	release, ok := m.holdClaimed(ctx, d)
	if !ok {
		return
	}
	defer release()
	t, err := m.Get(ctx, d.TableID)
	var r *Refusal
	if errors.As(err, &r) {
		m.finish(ctx, d) // the table closed
		return
	}
	if err != nil {
		m.log.Error("turn timer: table not loaded; the claim lapses and is tried again", "table", d.TableID, "err", err)
		return
	}
	t.mu.Lock()
	waited, n := t.timeOut(ctx)
	t.mu.Unlock()
	if !waited {
		m.finish(ctx, d) // no round waits: the deadline outlived it
		return
	}
	if n > 0 {
		// The timeouts wrote the next turn's deadline (or none, at the settlement),
		// which unclaimed this one.
		return
	}
	m.log.Error("turn timer: no timeout applied; the claim lapses and is tried again", "table", d.TableID)
}

// finish deletes a claimed deadline that had nothing left to fire.
func (m *Manager) finish(ctx context.Context, d store.Deadline) {
	if err := m.opt.Shared.FinishDeadline(ctx, d, m.opt.Holder); err != nil {
		m.log.Warn("turn timer: spent deadline not deleted", "table", d.TableID, "err", err)
	}
}

package table

import (
	"context"
	"errors"
	"time"

	"github.com/pontoon-bot/pontoon/store"
)

// The rules' timers, one path in every deployment. A turn's deadline (R7.4), a bank
// offer's expiry (R6.3) and an auction's close (R9.8) live in the store
// (store/deadline.go), written in the transaction of the deal, offer or auction that
// starts them and deleted by the one that ends them, so they outlive the process that
// set them. A turn's row is the earliest the turn can time out (actions leave it as it
// is); fireTurn moves it on to the table's own deadline when that is later. When the process's Waker (due.go) says deadlines may be due, the
// manager claims those due now (a due deadline is claimed by exactly one process), takes
// the table's hold, checks under it that the deadline it claimed is still the table's
// and still its claim, and fires it: the timeouts (timeOut), the expiry, the close. A
// process that dies mid-way leaves a claim that lapses; a process then fires it.

// DeadlineStore is what firing the store's deadlines needs; *store.Store is one.
type DeadlineStore interface {
	ClaimDue(ctx context.Context, holder string, now time.Time, ttl time.Duration, limit int, serves func(guild string) bool) ([]store.Deadline, error)
	Claimed(ctx context.Context, d store.Deadline, holder string) (bool, error)
	FinishDeadline(ctx context.Context, d store.Deadline, holder string) error
	ReleaseDeadline(ctx context.Context, d store.Deadline, holder string) error
	PostponeDeadline(ctx context.Context, d store.Deadline, holder string, due time.Time) error
	EnsureDeadline(ctx context.Context, tableID int64, kind, ref string, due time.Time) error
	NextDeadline(ctx context.Context, serves func(guild string) bool) (time.Time, bool, error)
	CountDeadlines(ctx context.Context) (int, error)
}

const (
	// claimTTL is how long a claimed deadline waits for its claimant before another
	// process may claim it: longer than a Hold may wait (the interaction's context) plus the timeouts.
	claimTTL = 30 * time.Second
	// claimBatch is how many due deadlines one claim takes.
	claimBatch = 16
)

// fireDue fires the deadlines due now; it reports false once the manager is closing,
// when it fires nothing. Its Waker calls it.
func (m *Manager) fireDue() bool {
	if !m.Enter() {
		return false
	}
	defer m.Done()
	ctx, cancel := context.WithTimeout(context.Background(), claimTTL)
	defer cancel()
	for {
		ds, err := m.st.ClaimDue(ctx, m.opt.Holder, m.now(), claimTTL, claimBatch, m.opt.Serves)
		if err != nil {
			m.log.Warn("timers: due deadlines not claimed; trying again", "err", err)
			return true
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
			return true
		}
	}
}

// holdClaimed takes table d.TableID's hold for firing d, claimed by this process, and
// reports whether d is still the table's deadline and still this process's claim once
// the hold is taken; the caller then fires it and releases.
func (m *Manager) holdClaimed(ctx context.Context, d store.Deadline) (release func(), ok bool) {
	holder := m.opt.Holder
	release, err := m.Hold(ctx, d.TableID)
	if err != nil {
		// Busy with another process's click: the next look tries again.
		m.log.Warn("timer: table not claimed; trying again", "kind", d.Kind, "table", d.TableID, "err", err)
		if err := m.st.ReleaseDeadline(ctx, d, holder); err != nil {
			m.log.Warn("timer: claim not released; it lapses by itself", "kind", d.Kind, "table", d.TableID, "err", err)
		}
		return nil, false
	}
	if ok, err := m.st.Claimed(ctx, d, holder); err != nil || !ok {
		// Set again since (someone acted before the hold was ours), or the claim
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
// process, is still the table's turn deadline once the table's hold is taken and the
// table's own deadline (the last action's time plus the turn timer, R7.4) has come. The
// store's row is written at the deal and left as it is by the actions after it, so it
// is often earlier than the table's deadline: then it is moved there, unfired.
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
	defer t.mu.Unlock()
	if !t.inRound() || t.broken != "" || t.deadline.IsZero() {
		m.finish(ctx, d) // no round waits: the deadline outlived it
		return
	}
	if t.deadline.After(m.now()) {
		m.postpone(ctx, d, t.deadline)
		return
	}
	if _, n := t.timeOut(ctx); n == 0 {
		m.log.Error("turn timer: no timeout applied; the claim lapses and is tried again", "table", d.TableID)
		return
	}
	if t.inRound() {
		m.postpone(ctx, d, t.deadline) // the next decisions' (apply set it)
	} // else the settlement's transaction deleted it
}

// postpone moves a claimed turn deadline on to due, the table's own, and unclaims it.
func (m *Manager) postpone(ctx context.Context, d store.Deadline, due time.Time) {
	if err := m.st.PostponeDeadline(ctx, d, m.opt.Holder, due); err != nil {
		m.log.Error("turn timer: deadline not moved on; the claim lapses and is tried again", "table", d.TableID, "err", err)
		return
	}
	m.wake.Armed(due)
}

// finish deletes a claimed deadline that had nothing left to fire.
func (m *Manager) finish(ctx context.Context, d store.Deadline) {
	if err := m.st.FinishDeadline(ctx, d, m.opt.Holder); err != nil {
		m.log.Warn("timer: spent deadline not deleted", "table", d.TableID, "err", err)
	}
}

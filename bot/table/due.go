package table

import (
	"context"
	"sync"
	"time"
)

// How a process learns that a deadline kept in the store is due: the one thing about
// the rules' timers that differs between deployments. Everything else (where the
// deadlines live, who fires one, what firing does) is deadlines.go, the same for all.
//
//   - A process that owns its database (SQLite; or gateway shards, each serving only its
//     servers' tables) arms one in-process timer at the earliest deadline of the tables
//     it serves, read from the store (timerWaker). Each deadline this process commits
//     moves the timer earlier if it is (Armed), so a deadline fires within milliseconds
//     of its time, and a process started after a kill arms it from the store's row.
//   - Processes sharing one database's tables (HTTP replicas) cannot see each other's
//     commits, so each polls (pollWaker) every pollEvery: the claim in the store makes a
//     deadline fire once, in whichever process claims it first.

// Waker tells a manager when deadlines in the store may be due.
type Waker interface {
	// Start begins waking: fire claims and fires what is due, and reports false once
	// the manager is closing.
	Start(fire func() bool)
	// Armed says something of this process's may fall due at due: a deadline it
	// committed, or a turn's whose row (earlier) will be moved on to it.
	Armed(due time.Time)
	// Stop ends the waking; a fire running finishes.
	Stop()
}

// pollEvery is how often a process sharing its tables with others looks for due
// deadlines: how late, at most, one fires past its time.
const pollEvery = 500 * time.Millisecond

// newWaker is the Waker of a deployment: a poll when other processes share the tables
// (Options.Leases), else a timer at the store's next deadline.
func newWaker(m *Manager) Waker {
	if m.opt.Leases != nil {
		return &pollWaker{after: m.opt.AfterFunc}
	}
	return &timerWaker{after: m.opt.AfterFunc, now: m.now, next: func() (time.Time, bool, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return m.st.NextDeadline(ctx, m.opt.Serves)
	}}
}

// pollWaker looks every pollEvery.
type pollWaker struct {
	after func(time.Duration, func()) Timer

	mu      sync.Mutex
	t       Timer
	stopped bool
}

func (w *pollWaker) Start(fire func() bool) {
	var poll func()
	poll = func() {
		if !fire() {
			return
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		if !w.stopped {
			w.t = w.after(pollEvery, poll)
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.stopped && w.t == nil {
		w.t = w.after(pollEvery, poll)
	}
}

func (*pollWaker) Armed(time.Time) {} // the next poll finds it

func (w *pollWaker) Stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	if w.t != nil {
		w.t.Stop()
	}
}

const (
	// retryAfter is when a timerWaker looks again after the store could not say when
	// the next deadline is.
	retryAfter = time.Second
	// refire is the least a timerWaker waits between two looks.
	refire = 100 * time.Millisecond
)

// timerWaker keeps one timer at the earliest deadline it knows of.
type timerWaker struct {
	after func(time.Duration, func()) Timer
	now   func() time.Time
	next  func() (time.Time, bool, error)

	mu      sync.Mutex
	fire    func() bool
	t       Timer     // nil: none armed
	at      time.Time // when t fires
	running bool      // a fire is under way
	again   bool      // woken while running: run once more
	stopped bool
}

func (w *timerWaker) Start(fire func() bool) {
	w.mu.Lock()
	w.fire = fire
	w.mu.Unlock()
	go w.run() // the deadlines that fell due while no process ran, then the next
}

// Armed moves the timer earlier when due is before it. It takes only the waker's own
// lock, a leaf: the table's lock may be held.
func (w *timerWaker) Armed(due time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fire == nil || w.stopped || w.t != nil && !due.Before(w.at) {
		return
	}
	w.armLocked(due)
}

func (w *timerWaker) armLocked(at time.Time) {
	if w.t != nil {
		w.t.Stop()
	}
	w.at = at
	w.t = w.after(max(0, at.Sub(w.now())), w.run)
}

// run fires what is due, then arms the timer at the store's next deadline. Runs never
// overlap: one woken while another runs makes that one run again.
func (w *timerWaker) run() {
	w.mu.Lock()
	if w.stopped || w.fire == nil {
		w.mu.Unlock()
		return
	}
	if w.running {
		w.again = true
		w.mu.Unlock()
		return
	}
	w.running, w.t = true, nil
	fire := w.fire
	w.mu.Unlock()
	for {
		if !fire() {
			w.mu.Lock()
			w.running = false
			w.mu.Unlock()
			return
		}
		next, ok, err := w.next()
		w.mu.Lock()
		if w.again {
			w.again = false
			w.mu.Unlock()
			continue
		}
		w.running = false
		if err != nil {
			next, ok = w.now().Add(retryAfter), true
		}
		if now := w.now(); ok && next.Before(now.Add(refire)) {
			// Still due after a look that fired what it could: one the table's hold kept
			// from firing, left unclaimed. Looking again at once would spin.
			next = now.Add(refire)
		}
		if ok && !w.stopped && (w.t == nil || next.Before(w.at)) {
			w.armLocked(next)
		}
		w.mu.Unlock()
		return
	}
}

func (w *timerWaker) Stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	if w.t != nil {
		w.t.Stop()
	}
}

package bot_test

import (
	"sort"
	"sync"
	"time"

	"github.com/pontoon-bot/pontoon/bot"
)

// manualClock is the bot's clock in tests that move time instead of sleeping: Now for
// Options.Now, AfterFunc for Options.AfterFunc; Advance fires what falls due.
type manualClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*manualTimer
}

type manualTimer struct {
	c       *manualClock
	at      time.Time
	f       func()
	stopped bool
}

func newClock() *manualClock {
	return &manualClock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
}

// use makes o run on the clock.
func (c *manualClock) use(o *bot.Options) {
	o.Now = c.Now
	o.AfterFunc = c.AfterFunc
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) AfterFunc(d time.Duration, f func()) bot.Timer {
	c.mu.Lock()
	t := &manualTimer{c: c, at: c.now.Add(d), f: f}
	due := d <= 0
	if !due {
		c.timers = append(c.timers, t)
	}
	c.mu.Unlock()
	if due {
		go f() // as time.AfterFunc(0) does: at once, on its own goroutine
	}
	return t
}

func (t *manualTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := !t.stopped
	t.stopped = true
	for i, x := range t.c.timers {
		if x == t {
			t.c.timers = append(t.c.timers[:i], t.c.timers[i+1:]...)
			return was
		}
	}
	return false
}

// Advance moves the clock on by d and runs, in order and one at a time, every timer
// that has fallen due.
func (c *manualClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []*manualTimer
	keep := c.timers[:0]
	for _, t := range c.timers {
		if !t.at.After(c.now) {
			t.stopped = true
			due = append(due, t)
		} else {
			keep = append(keep, t)
		}
	}
	c.timers = keep
	c.mu.Unlock()
	sort.SliceStable(due, func(i, j int) bool { return due[i].at.Before(due[j].at) })
	for _, t := range due {
		t.f()
	}
}

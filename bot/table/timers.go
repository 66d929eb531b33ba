package table

import (
	"context"
	"time"

	"github.com/pontoon-bot/pontoon/game"
)

func (t *Table) stopTimer() {
	if t.timer != nil {
		t.timer.Stop()
	}
	t.timerGen++
}

// armTimer (re)starts the turn timer for whoever the round waits on (R7.4). Every
// decision gets the table's full turn timer; a deadline already past (after a restart)
// fires at once. t.mu must be held.
func (t *Table) armTimer() {
	t.stopTimer()
	if !t.inRound() || t.broken != "" {
		t.deadline = time.Time{}
		return
	}
	now := t.m.now()
	if !t.recovered || t.deadline.IsZero() {
		t.deadline = now.Add(t.turn)
	}
	gen := t.timerGen
	t.timer = t.m.opt.AfterFunc(max(0, t.deadline.Sub(now)), func() { t.onTimer(gen) })
}

// onTimer applies timeouts to everyone the round waits on (R7.4).
func (t *Table) onTimer(gen int) {
	if !t.m.Enter() {
		return
	}
	defer t.m.Done()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if t.m.opt.Shared != nil {
		// A shared table's timer fires in one process at a time, under its lease; a
		// copy another process changed since is stale, and the copy loaded afresh arms
		// a timer for the deadline the store's actions give (shared.go).
		release, err := t.m.Hold(ctx, t.id)
		if err != nil {
			t.m.log.Warn("turn timer: table not claimed; trying again", "table", t.id, "err", err)
			t.mu.Lock()
			if gen == t.timerGen {
				t.timer = t.m.opt.AfterFunc(time.Second, func() { t.onTimer(gen) })
			}
			t.mu.Unlock()
			return
		}
		defer release()
		if !t.m.current(t) {
			if _, err := t.m.Get(ctx, t.id); err != nil {
				t.m.log.Error("turn timer: table not reloaded", "table", t.id, "err", err)
			}
			return
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if gen != t.timerGen || !t.inRound() {
		return
	}
	t.recovered = false
	var timedOut []string
	for _, p := range t.g.ToAct() {
		if !t.inRound() {
			break
		}
		if _, err := t.apply(ctx, game.Action{Player: p, Verb: game.VerbTimeout}, ""); err != nil {
			t.m.log.Error("timeout not applied", "table", t.id, "member", p, "err", err)
			continue
		}
		timedOut = append(timedOut, p)
	}
	if len(timedOut) > 0 {
		t.notice = &Notice{Kind: NoticeTimedOut, Members: timedOut}
	}
	t.armTimer()
	t.m.n.Changed(t)
}

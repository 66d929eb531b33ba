package table

import (
	"context"
	"slices"
	"time"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
)

func (t *Table) stopTimer() {
	if t.timer != nil {
		t.timer.Stop()
	}
	t.timerGen++
}

// armTimer (re)starts the turn timer for whoever the round waits on (R7.4). Every
// decision gets the table's full turn timer; a deadline already past (after a restart)
// fires at once. A shared table (Options.Shared) arms no timer in memory: its deadline
// is the store's, written with the action that started the turn, and the process that
// claims it when due fires it (deadlines.go), whichever process that is. t.mu must be
// held.
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
	if t.m.opt.Shared != nil {
		return
	}
	gen := t.timerGen
	t.timer = t.m.opt.AfterFunc(max(0, t.deadline.Sub(now)), func() { t.onTimer(gen) })
}

// onTimer applies timeouts to everyone the round waits on (R7.4), for a table this
// process owns alone.
func (t *Table) onTimer(gen int) {
	if !t.m.Enter() {
		return
	}
	defer t.m.Done()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	t.mu.Lock()
	defer t.mu.Unlock()
	if gen != t.timerGen {
		return
	}
	t.timeOut(ctx)
}

// timedOutNotice is the notice a table shows after a round's actions: the members
// timed out since the last decision anyone made (R7.4), each once; nil when the last
// action is not a timeout. timeOut keeps the same notice as it applies timeouts, so a
// copy of the table rebuilt from the store (another replica's, a restart's) shows what
// the process that timed them out showed.
func timedOutNotice(actions []store.Action) *Notice {
	var n *Notice
	for _, a := range actions {
		if a.Verb != string(game.VerbTimeout) {
			n = nil
			continue
		}
		n = n.timedOut(a.Member)
	}
	return n
}

// timedOut is the timed-out notice n (nil: none yet) with member added if it is not
// named already.
func (n *Notice) timedOut(member string) *Notice {
	if n == nil || n.Kind != NoticeTimedOut {
		return &Notice{Kind: NoticeTimedOut, Members: []string{member}}
	}
	if slices.Contains(n.Members, member) {
		return n
	}
	return &Notice{Kind: NoticeTimedOut, Members: append(slices.Clip(n.Members), member)}
}

// timeOut applies a timeout to everyone the round waits on (R7.4), notes it on the
// table and arms the next turn's timer. It reports how many timed out, and whether the
// round waited on anyone at all (false: no round in play, or a broken one). t.mu must be
// held.
func (t *Table) timeOut(ctx context.Context) (waited bool, timedOut int) {
	if !t.inRound() || t.broken != "" {
		return false, 0
	}
	t.recovered = false
	notice := t.notice // the members timed out since the last decision (timedOutNotice)
	timedOut = 0
	for _, p := range t.g.ToAct() {
		if !t.inRound() {
			break
		}
		if _, err := t.apply(ctx, game.Action{Player: p, Verb: game.VerbTimeout}, ""); err != nil {
			t.m.log.Error("timeout not applied", "table", t.id, "member", p, "err", err)
			continue
		}
		notice = notice.timedOut(p)
		timedOut++
	}
	if timedOut > 0 {
		t.notice = notice // apply cleared it, as every decision does
	}
	t.armTimer()
	t.m.n.Changed(t)
	return true, timedOut
}

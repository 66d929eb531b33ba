package table

import (
	"context"
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
// timed out since the last decision anyone made (R7.4), as timeOut notes them and the
// next action clears them; nil when the last action is not a timeout. A copy of the
// table rebuilt from the store (another replica's, a restart's) shows what the process
// that timed them out showed.
func timedOutNotice(actions []store.Action) *Notice {
	i := len(actions)
	for i > 0 && actions[i-1].Verb == string(game.VerbTimeout) {
		i--
	}
	if i == len(actions) {
		return nil
	}
	members := make([]string, 0, len(actions)-i)
	for _, a := range actions[i:] {
		members = append(members, a.Member)
	}
	return &Notice{Kind: NoticeTimedOut, Members: members}
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
	var members []string
	for _, p := range t.g.ToAct() {
		if !t.inRound() {
			break
		}
		if _, err := t.apply(ctx, game.Action{Player: p, Verb: game.VerbTimeout}, ""); err != nil {
			t.m.log.Error("timeout not applied", "table", t.id, "member", p, "err", err)
			continue
		}
		members = append(members, p)
	}
	if len(members) > 0 {
		t.notice = &Notice{Kind: NoticeTimedOut, Members: members}
	}
	t.armTimer()
	t.m.n.Changed(t)
	return true, len(members)
}

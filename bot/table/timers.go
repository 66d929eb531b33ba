package table

import (
	"context"
	"slices"
	"time"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
)

// armTimer sets the table's turn deadline for whoever the round waits on (R7.4): due,
// or none when no round waits. Every decision gets the table's full turn timer. The
// store's row, written at the deal, is what fires (deadlines.go): at due or before it,
// when the firing moves it on to due. The manager's Waker learns of it here. t.mu must
// be held.
func (t *Table) armTimer(due time.Time) {
	if !t.inRound() || t.broken != "" {
		t.deadline = time.Time{}
		return
	}
	t.deadline = due
	t.m.wake.Armed(due)
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

// timeOut applies a timeout to everyone the round waits on (R7.4) and notes it on the
// table; apply sets the next decisions' deadline, which the firing writes (fireTurn). It
// reports how many timed out, and whether the round waited on anyone at all (false: no
// round in play, or a broken one). t.mu must be held.
func (t *Table) timeOut(ctx context.Context) (waited bool, timedOut int) {
	if !t.inRound() || t.broken != "" {
		return false, 0
	}
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
	t.m.n.Changed(t)
	return true, timedOut
}

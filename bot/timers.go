package bot

import (
	"context"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/game"
)

// armTimer (re)starts the turn timer for whoever the round waits on (R7.4). Every
// decision gets the table's full turn timer; a deadline already past (after a restart)
// fires at once. t.mu must be held.
func (b *Bot) armTimer(t *liveTable) {
	if t.timer != nil {
		t.timer.Stop()
	}
	t.timerGen++
	if !t.inRound() || t.broken != "" {
		t.deadline = time.Time{}
		return
	}
	now := b.now()
	if !t.recovered || t.deadline.IsZero() {
		t.deadline = now.Add(t.turn)
	}
	gen := t.timerGen
	t.timer = b.opt.AfterFunc(max(0, t.deadline.Sub(now)), func() { b.onTimer(t, gen) })
}

// onTimer applies timeouts to everyone the round waits on (R7.4).
func (b *Bot) onTimer(t *liveTable, gen int) {
	if !b.enter() {
		return
	}
	defer b.inflight.Done()
	t.mu.Lock()
	defer t.mu.Unlock()
	if gen != t.timerGen || !t.inRound() {
		return
	}
	t.recovered = false
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var timedOut []string
	for _, p := range t.g.ToAct() {
		if !t.inRound() {
			break
		}
		if _, err := b.apply(ctx, t, game.Action{Player: p, Verb: game.VerbTimeout}, ""); err != nil {
			b.log.Error("timeout not applied", "table", t.id, "member", p, "err", err)
			continue
		}
		timedOut = append(timedOut, p)
	}
	if len(timedOut) > 0 {
		t.notice = b.cat.T(b.publicLang(ctx, t.guild, ""), "table.timed_out", "Players", mentions(timedOut), "Count", len(timedOut))
	}
	b.armTimer(t)
	b.scheduleEdit(t)
}

// scheduleEdit marks the public table message for an edit. Edits are coalesced: a burst
// of actions within EditDelay becomes one edit carrying the latest state, and only one
// edit per table is in flight, which keeps well inside Discord's per-channel limits.
// t.mu must be held.
func (b *Bot) scheduleEdit(t *liveTable) {
	t.dirty = true
	if t.editing || t.messageID == "" || b.s == nil {
		return
	}
	t.editing = true
	t.editTimer = time.AfterFunc(b.opt.EditDelay, func() { b.flushEdit(t) })
}

func (b *Bot) flushEdit(t *liveTable) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	t.mu.Lock()
	if !t.dirty {
		t.editing = false
		t.mu.Unlock()
		return
	}
	t.dirty = false
	lang := b.publicLang(ctx, t.guild, "")
	msg := b.renderTable(lang, t)
	channel, id := t.channel, t.messageID
	t.mu.Unlock()

	edit := discordgo.NewMessageEdit(channel, id)
	edit.Content = &msg.Content
	edit.Embeds = &msg.Embeds
	edit.Components = &msg.Components
	if _, err := b.s.ChannelMessageEditComplex(edit, discordgo.WithContext(ctx)); err != nil {
		b.log.Warn("table message not edited", "table", t.id, "err", err)
	}

	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dirty {
		t.editTimer = time.AfterFunc(b.opt.EditDelay, func() { b.flushEdit(t) })
		return
	}
	t.editing = false
}

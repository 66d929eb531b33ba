package bot

import (
	"context"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/table"
	"github.com/pontoon-bot/pontoon/bot/view"
)

// publisher keeps the public messages up to date: the table messages, bank offers and
// auctions. It is the table package's Notifier: told of a change (possibly under a
// table's lock), it only takes note; the edit happens later on its own goroutine, which
// takes the table's lock just long enough to copy a Snapshot, then renders and calls
// Discord with no lock held. So a slow or rate-limited edit never holds up a click.
//
// Table edits are coalesced: a burst of changes within EditDelay becomes one edit of the
// latest state, and one edit per table is in flight at a time, which keeps well inside
// Discord's per-channel limits.
type publisher struct {
	b *Bot

	mu    sync.Mutex // a leaf: nothing else is locked while it is held
	state map[int64]*pubState
	done  bool
}

type pubState struct {
	dirty   bool
	editing bool
}

func newPublisher(b *Bot) *publisher { return &publisher{b: b, state: map[int64]*pubState{}} }

func (p *publisher) close() {
	p.mu.Lock()
	p.done = true
	p.mu.Unlock()
}

// Changed implements table.Notifier.
func (p *publisher) Changed(t *table.Table) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done || p.b.s == nil {
		return
	}
	st := p.state[t.ID()]
	if st == nil {
		st = &pubState{}
		p.state[t.ID()] = st
	}
	st.dirty = true
	if st.editing {
		return
	}
	st.editing = true
	time.AfterFunc(p.b.opt.EditDelay, func() { p.flush(t) })
}

func (p *publisher) flush(t *table.Table) {
	p.mu.Lock()
	st := p.state[t.ID()]
	if p.done || st == nil || !st.dirty {
		if st != nil {
			st.editing = false
		}
		p.mu.Unlock()
		return
	}
	st.dirty = false
	p.mu.Unlock()

	s := t.Snapshot()
	if s.MessageID != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		lang := p.b.lang.public(ctx, s.Guild, "")
		p.edit(ctx, s.Channel, s.MessageID, p.b.view.Table(lang, &s))
		cancel()
	}

	p.mu.Lock()
	defer p.mu.Unlock()
	if st.dirty && !p.done {
		time.AfterFunc(p.b.opt.EditDelay, func() { p.flush(t) })
		return
	}
	st.editing = false
	if s.Closed || s.MessageID == "" {
		delete(p.state, t.ID())
	}
}

// edit replaces a message whole. Components go as an empty list when there are none:
// Discord keeps the old ones when the field is null.
func (p *publisher) edit(ctx context.Context, channel, id string, m view.Message) {
	edit := discordgo.NewMessageEdit(channel, id)
	edit.Content = &m.Content
	embeds := m.Embeds
	if embeds == nil {
		embeds = []*discordgo.MessageEmbed{}
	}
	comps := m.Components
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	edit.Embeds = &embeds
	edit.Components = &comps
	if _, err := p.b.s.ChannelMessageEditComplex(edit, discordgo.WithContext(ctx)); err != nil {
		p.b.log.Warn("message not edited", "channel", channel, "err", err)
	}
}

// post posts a new table's public message and records it, so that after a restart the
// bot edits the same message.
func (p *publisher) post(ctx context.Context, t *table.Table, lang string) {
	s := t.Snapshot()
	m := p.b.view.Table(lang, &s)
	sent, err := p.b.s.ChannelMessageSendComplex(s.Channel, &discordgo.MessageSend{Embeds: m.Embeds, Components: m.Components,
		AllowedMentions: &discordgo.MessageAllowedMentions{}}, discordgo.WithContext(ctx))
	if err != nil {
		p.b.log.Error("table message not posted", "table", s.ID, "err", err)
		return
	}
	if err := t.SetMessage(ctx, sent.ID); err != nil {
		p.b.log.Error("table message not recorded", "table", s.ID, "err", err)
	}
}

// OfferEnded implements table.Notifier.
func (p *publisher) OfferEnded(of table.Offer, key string) {
	if of.MessageID == "" || p.b.s == nil {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		lang := p.b.lang.public(ctx, of.Guild, "")
		p.edit(ctx, of.Channel, of.MessageID, p.b.view.Offer(lang, of, key))
	}()
}

// AuctionChanged implements table.Notifier.
func (p *publisher) AuctionChanged(a table.Auction, key string) {
	if a.MessageID == "" || p.b.s == nil {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		lang := p.b.lang.public(ctx, a.Guild, "")
		p.edit(ctx, a.Channel, a.MessageID, view.Message{Content: p.b.view.Auction(lang, a, key)})
	}()
}

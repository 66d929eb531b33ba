package bot

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/pontoon-bot/pontoon/bot/discordapi"
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

	mu      sync.Mutex // a leaf: nothing else is locked while it is held
	wake    *sync.Cond
	state   map[int64]*pubState
	queue   []pubJob
	done    bool // no more table changes: Close has begun
	stopped bool // the workers have finished
	workers sync.WaitGroup
}

// pubState is one table's edit state: dirty (its message is behind), scheduled (a
// job is queued or waiting for EditDelay) and busy (a worker is editing it).
//
// answering counts the interactions whose own answer is updating the message (type 7,
// see claim); soon asks for the next edit without waiting for EditDelay, because a
// member's click was acknowledged without an update and waits for this one. Edits and
// answers of one table never overlap: two calls that replace the same message could land
// in either order, and the older picture would then stay on the table (a member saw the
// next round's buttons vanish again under them).
type pubState struct {
	t                            *table.Table
	dirty, scheduled, busy, soon bool
	answering                    int
	idle                         chan struct{} // closed when the edit in progress (busy) is done
}

// pubJob is a table to redraw, or (post) one with no message to post, or (msg) another
// public message to edit: an offer or an auction.
type pubJob struct {
	t    *table.Table
	post bool
	msg  *msgJob
}

type msgJob struct {
	guild, channel, id string
	render             func(lang string) view.Message
}

// publishWorkers bounds the Discord calls the publisher makes at once, and so its
// memory, however many tables change together (a restart with thousands open); the
// rate limiter paces each.
const publishWorkers = 8

func newPublisher(b *Bot) *publisher {
	p := &publisher{b: b, state: map[int64]*pubState{}}
	p.wake = sync.NewCond(&p.mu)
	return p
}

// start runs the workers once the session is open.
func (p *publisher) start() {
	for range publishWorkers {
		p.workers.Add(1)
		go p.work()
	}
}

// close stops taking changes, queues what is still behind, lets the workers finish the
// queue, and returns when they have.
func (p *publisher) close() {
	p.mu.Lock()
	if p.done {
		p.mu.Unlock()
		return
	}
	p.done = true
	for _, st := range p.state {
		if st.dirty && !st.busy {
			p.queue = append(p.queue, pubJob{t: st.t}) // do not wait for EditDelay
		}
	}
	p.wake.Broadcast()
	p.mu.Unlock()
	p.workers.Wait()
	p.mu.Lock()
	p.stopped = true
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
		st = &pubState{t: t}
		p.state[t.ID()] = st
	}
	st.dirty = true
	if st.scheduled || st.busy {
		return
	}
	st.scheduled = true
	p.b.opt.EditAfterFunc(p.b.opt.EditDelay, func() { p.enqueue(pubJob{t: t}) })
}

func (p *publisher) enqueue(j pubJob) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.queue = append(p.queue, j)
	p.wake.Signal()
}

// postLater queues tables that have no message, to be posted (or found) by the workers.
func (p *publisher) postLater(ts []*table.Table) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, t := range ts {
		p.queue = append(p.queue, pubJob{t: t, post: true})
	}
	p.wake.Broadcast()
}

func (p *publisher) work() {
	defer p.workers.Done()
	for {
		p.mu.Lock()
		for len(p.queue) == 0 && !p.done {
			p.wake.Wait()
		}
		if len(p.queue) == 0 {
			p.mu.Unlock()
			return
		}
		j := p.queue[0]
		p.queue[0] = pubJob{}
		p.queue = p.queue[1:]
		if j.post {
			p.mu.Unlock()
			p.repost(j.t)
			continue
		}
		if j.msg != nil {
			p.mu.Unlock()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			p.edit(ctx, j.msg.channel, j.msg.id, j.msg.render(p.b.lang.public(ctx, j.msg.guild, "")))
			cancel()
			continue
		}
		st := p.state[j.t.ID()]
		if st == nil || st.busy || !st.dirty {
			p.mu.Unlock() // a duplicate: the table was drawn since, or is being drawn
			continue
		}
		if st.answering > 0 {
			st.scheduled = false // an answer is updating the message: its release reschedules
			p.mu.Unlock()
			continue
		}
		st.scheduled, st.busy, st.dirty = false, true, false
		st.idle = make(chan struct{})
		p.mu.Unlock()

		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		s, release := p.b.latest(ctx, j.t)
		if s.MessageID != "" {
			lang := p.b.lang.public(ctx, s.Guild, "")
			p.editTable(ctx, &s, lang)
		}
		release()
		cancel()

		p.mu.Lock()
		st.busy = false
		close(st.idle)
		switch {
		case st.answering > 0:
			// An answer waited for this edit and now updates the message; its release
			// schedules what is still behind.
		case st.dirty && (p.done || st.soon):
			st.scheduled, st.soon = true, false
			p.queue = append(p.queue, pubJob{t: j.t})
			p.wake.Signal()
		case st.dirty:
			st.scheduled = true
			p.b.opt.EditAfterFunc(p.b.opt.EditDelay, func() { p.enqueue(pubJob{t: j.t}) })
		case st.answering == 0:
			delete(p.state, j.t.ID())
		}
		p.mu.Unlock()
	}
}

// claim reserves the table message for the answer of an interaction that updates it in
// place (type 7): until release, once the answer is out, no edit of the publisher's
// starts. An edit already on its way was drawn from an earlier state and would land on
// top of the answer, so claim waits for it, up to Options.EditWait; past that (a rate-limited
// edit) it fails, and the caller acknowledges the click without an update (type 6): the
// publisher then draws the table again as soon as its edit is done. The caller takes its
// snapshot after a successful claim, so that it is at least as new as anything the
// publisher has drawn.
//
// Replicas need no claim: there the answer and the publisher's edit each hold the
// table's lease (scale.go), which orders them already.
func (p *publisher) claim(ctx context.Context, t *table.Table) (release func(), ok bool) {
	if p.b.shared() {
		return func() {}, true
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	st := p.state[t.ID()]
	if st == nil {
		st = &pubState{t: t}
		p.state[t.ID()] = st
	}
	st.answering++ // from here no new edit starts
	if st.busy {
		timer := time.NewTimer(p.b.opt.EditWait)
		defer timer.Stop()
		for st.busy {
			idle := st.idle
			p.mu.Unlock()
			select {
			case <-idle:
			case <-timer.C:
			case <-ctx.Done():
			}
			p.mu.Lock()
			if st.busy {
				st.answering--
				st.dirty, st.soon = true, true
				return nil, false
			}
		}
	}
	var once sync.Once
	return func() { once.Do(func() { p.unclaim(t.ID(), st) }) }, true
}

func (p *publisher) unclaim(id int64, st *pubState) {
	p.mu.Lock()
	defer p.mu.Unlock()
	st.answering--
	switch {
	case st.answering > 0 || st.busy || st.scheduled:
	case st.dirty && !p.stopped:
		// A change the publisher skipped while the answer was out (or made since).
		st.scheduled = true
		if p.done {
			p.queue = append(p.queue, pubJob{t: st.t})
			p.wake.Signal()
		} else {
			p.b.opt.EditAfterFunc(p.b.opt.EditDelay, func() { p.enqueue(pubJob{t: st.t}) })
		}
	case !st.dirty:
		if p.state[id] == st {
			delete(p.state, id)
		}
	}
}

// edit replaces a message whole. Components go as an empty list when there are none:
// Discord keeps the old ones when the field is null.
func (p *publisher) edit(ctx context.Context, channel, id string, m view.Message) {
	edit := wholeEdit(channel, id, m)
	for _, e := range *edit.Embeds {
		if e.Type == "" {
			e.Type = discordgo.EmbedTypeRich // as discordgo sets it
		}
	}
	if err := discordapi.Edit(ctx, p.b.s, edit); err != nil {
		p.b.log.Warn("message not edited", "channel", channel, "err", err)
	}
}

// wholeEdit is an edit that replaces the message whole: content, embeds and
// components, empty lists where m has none (Discord keeps a field sent as null).
//
// A V2 message goes with its flag and no content: Discord lets an edit set
// IS_COMPONENTS_V2 on a message that lacks it (never clear it), when the edit empties
// the embeds, so the first edit of a table message posted as an embed by an earlier
// version turns it into the V2 table in place, with its id, and nothing is reposted.
func wholeEdit(channel, id string, m view.Message) *discordgo.MessageEdit {
	edit := discordgo.NewMessageEdit(channel, id)
	edit.Flags = m.Flags()
	if !m.V2 {
		edit.Content = &m.Content
	}
	embeds := m.Embeds
	if embeds == nil {
		embeds = []*discordgo.MessageEmbed{}
	}
	comps := m.Components
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	edit.Embeds, edit.Components = &embeds, &comps
	return edit
}

// post posts a new table's public message and records it, so that after a restart the
// bot edits the same message.
func (p *publisher) post(ctx context.Context, t *table.Table, lang string) error {
	s := t.Snapshot()
	m := p.b.view.Table(lang, &s)
	// A start's post logs with the interaction's ids; a restart's with the table's.
	log, ok := table.LoggerFrom(ctx)
	if !ok {
		log = p.b.log.With("table", s.ID)
	}
	sent, err := p.b.s.ChannelMessageSendComplex(s.Channel, &discordgo.MessageSend{Embeds: m.Embeds, Components: m.Components,
		Flags: m.Flags(), AllowedMentions: &discordgo.MessageAllowedMentions{}}, discordgo.WithContext(ctx))
	if err != nil {
		log.Error("table message not posted", "err", err)
		return err
	}
	if err := t.SetMessage(ctx, sent.ID); err != nil {
		log.Error("table message not recorded", "err", err)
	}
	return nil
}

// repost gives a table that has no recorded message one after a restart: the message a
// start posted before it was killed, when Discord has it (found by the table's custom
// ids among the channel's recent messages), else a new one.
func (p *publisher) repost(t *table.Table) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s := t.Snapshot()
	lang := p.b.lang.public(ctx, s.Guild, "")
	if id := p.findOrphan(ctx, &s); id != "" {
		if err := t.SetMessage(ctx, id); err != nil {
			p.b.log.Error("table message not recorded", "table", s.ID, "err", err)
		}
		return // SetMessage asked for the redraw
	}
	_ = p.post(ctx, t, lang)
}

// findOrphan looks for the table's own message among the first messages of the channel
// since the table opened: a start posts it at once, so it is among them however busy the
// channel has been since (a search of the latest ones would miss it after a chatty hour).
func (p *publisher) findOrphan(ctx context.Context, s *table.Snapshot) string {
	after := ""
	if !s.Opened.IsZero() {
		// A minute early, for the difference between this clock and Discord's.
		after = snowflakeAt(s.Opened.Add(-time.Minute))
	}
	msgs, err := p.b.s.ChannelMessages(s.Channel, 100, "", after, "", discordgo.WithContext(ctx))
	if err != nil {
		p.b.log.Warn("channel not searched for a table message", "table", s.ID, "err", err)
		return ""
	}
	for _, m := range msgs {
		if m.Author != nil && p.b.s.State != nil && p.b.s.State.User != nil && m.Author.ID != p.b.s.State.User.ID {
			continue
		}
		if hasTableButton(m.Components, s.ID) {
			return m.ID
		}
	}
	return ""
}

// hasTableButton reports whether one of the table's buttons is among cs: in an action
// row at the top (an embed message of an earlier version) or in one inside a container
// (the V2 table).
func hasTableButton(cs []discordgo.MessageComponent, table int64) bool {
	for _, c := range cs {
		switch v := c.(type) {
		case *discordgo.Container:
			if hasTableButton(v.Components, table) {
				return true
			}
		case *discordgo.ActionsRow:
			if hasTableButton(v.Components, table) {
				return true
			}
		case *discordgo.Button:
			if view.IsTableButton(v.CustomID, table) {
				return true
			}
		}
	}
	return false
}

// snowflakeAt is the smallest Discord id of a moment: ids start with the milliseconds
// since Discord's epoch (2015), so listing "after" it lists what came since.
func snowflakeAt(t time.Time) string {
	ms := t.UnixMilli() - discordEpochMS
	if ms < 0 {
		ms = 0
	}
	return strconv.FormatInt(ms<<22, 10)
}

const discordEpochMS = 1420070400000

// OfferEnded implements table.Notifier.
func (p *publisher) OfferEnded(of table.Offer, key string) {
	if of.MessageID == "" {
		return
	}
	p.editLater(&msgJob{guild: of.Guild, channel: of.Channel, id: of.MessageID,
		render: func(lang string) view.Message { return p.b.view.Offer(lang, of, key) }})
}

// AuctionChanged implements table.Notifier.
func (p *publisher) AuctionChanged(a table.Auction, key string) {
	if a.MessageID == "" {
		return
	}
	p.editLater(&msgJob{guild: a.Guild, channel: a.Channel, id: a.MessageID,
		render: func(lang string) view.Message { return view.Message{Content: p.b.view.Auction(lang, a, key)} }})
}

// editLater queues the edit of an offer's or an auction's message for the workers; it is
// taken even while closing, so that Close ends the offers on Discord too.
func (p *publisher) editLater(j *msgJob) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.b.s == nil || p.stopped {
		return
	}
	p.queue = append(p.queue, pubJob{msg: j})
	p.wake.Signal()
}

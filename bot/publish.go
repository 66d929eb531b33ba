package bot

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"hash"
	"hash/fnv"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/pontoon-bot/pontoon/bot/discordapi"
	"github.com/pontoon-bot/pontoon/bot/table"
	"github.com/pontoon-bot/pontoon/bot/view"
	"github.com/pontoon-bot/pontoon/store"
)

// publisher keeps the public messages up to date: the table messages, bank offers and
// auctions. It is the table package's Notifier: told of a change (possibly under a
// table's lock), it only takes note; the edit happens later on its own goroutine, which
// copies a Snapshot (for a shared table under its hold, table.Manager's Hold), lets go,
// then renders and calls Discord with no lock, hold or lease held. So a slow or
// rate-limited edit never holds up a click, on this process or another.
//
// Each edit that Discord accepts records what the message was drawn from (a digest of
// its rendering) in the store, so that after a restart only the messages that do not
// show their table's latest state are drawn again (check).
//
// Table edits are coalesced: a burst of changes within EditDelay becomes one edit of the
// latest state, and one edit per table is in flight at a time, which keeps well inside
// Discord's per-channel limits.
type publisher struct {
	b *Bot

	mu    sync.Mutex // a leaf: nothing else is locked while it is held
	wake  *sync.Cond
	state map[int64]*pubState
	queue []pubJob
	// checks after a restart wait here until queue is empty: a member's table is
	// redrawn before the thousands a restart looks at. Close drops them (the next start
	// looks again).
	later   []pubJob
	done    bool // no more table changes: Close has begun
	stopped bool // the workers have finished
	workers sync.WaitGroup
	// checks counts the restart's checks still to make, and behind those that found a
	// message behind its table (check).
	checks, behind int
	// drawn is what each table message was drawn from, and when, since the last write
	// of it (noteDrawn); flushing says a write is due in drawnEvery.
	drawn    map[int64]drawnAt
	flushing bool
	flushMu  sync.Mutex // held through each write of drawn, so that Close waits for one under way
}

// drawnStore keeps what each table message was last drawn from (check).
type drawnStore interface {
	SetTablesDrawn(ctx context.Context, drawn []store.TableDrawn) error
	TableDrawn(ctx context.Context, tableID int64, messageID string) (string, error)
}

// What each message was drawn from is written in one transaction every drawnEvery,
// for the tables whose message has not been drawn again for drawnQuiet: a table in
// play is drawn again and again, and a write per draw would cost as much as the clicks
// themselves, while a restart only needs it for the tables that have gone quiet. A
// kill loses what was not written yet, and the next start redraws those tables once.
const (
	drawnEvery = 2 * time.Second
	drawnQuiet = 5 * time.Second
)

// pubState is one table's edit state: dirty (its message is behind), scheduled (a
// job is queued or waiting for EditDelay), busy (a worker is drawing it) and editing
// (that worker's call to Discord is under way).
//
// answering counts the interactions whose own answer is updating the message (type 7,
// see claim), and answers every claim made: a worker that sees it move while it copied
// the table was overtaken by an answer drawn from a newer state, and gives way. soon
// asks for the next edit without waiting for EditDelay, because a member's click was
// acknowledged without an update and waits for this one. Edits and
// answers of one table never overlap: two calls that replace the same message could land
// in either order, and the older picture would then stay on the table (a member saw the
// next round's buttons vanish again under them).
type pubState struct {
	t                                     *table.Table
	dirty, scheduled, busy, editing, soon bool
	answering                             int
	answers                               uint64
	idle                                  chan struct{} // closed when the edit in progress (editing) is done
}

// pubJob is a table to redraw, or (post) one with no message to post, or (check) one
// to redraw only if its message does not show its state, or (msg) another public
// message to edit: an offer or an auction.
type pubJob struct {
	t           *table.Table
	load        int64 // for check: the table to load first, when t is nil
	post, check bool
	msg         *msgJob
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
	p.flushDrawn(true)
}

type drawnAt struct {
	store.TableDrawn
	at time.Time
}

// noteDrawn remembers that the table message now shows what digest was drawn from,
// for the next write (flushDrawn).
func (p *publisher) noteDrawn(tableID int64, message, digest string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn == nil {
		p.drawn = map[int64]drawnAt{}
	}
	p.drawn[tableID] = drawnAt{store.TableDrawn{TableID: tableID, MessageID: message, Drawn: digest}, time.Now()}
	if !p.flushing && !p.stopped {
		p.flushing = true
		time.AfterFunc(drawnEvery, func() { p.flushDrawn(false) })
	}
}

// flushDrawn writes what the messages were drawn from: those quiet for drawnQuiet, or
// all of them.
func (p *publisher) flushDrawn(all bool) {
	p.flushMu.Lock()
	defer p.flushMu.Unlock()
	p.mu.Lock()
	var drawn []store.TableDrawn
	quiet := time.Now().Add(-drawnQuiet)
	for id, d := range p.drawn {
		if all || d.at.Before(quiet) {
			drawn = append(drawn, d.TableDrawn)
			delete(p.drawn, id)
		}
	}
	p.flushing = len(p.drawn) > 0 && !p.stopped
	if p.flushing {
		time.AfterFunc(drawnEvery, func() { p.flushDrawn(false) })
	}
	p.mu.Unlock()
	if len(drawn) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := p.b.drawn.SetTablesDrawn(ctx, drawn); err != nil {
		p.b.log.Warn("what table messages were drawn from not recorded; a restart draws them again", "tables", len(drawn), "err", err)
	}
}

// Changed implements table.Notifier.
func (p *publisher) Changed(t *table.Table) {
	p.b.watch.changed(t.Guild(), t.Channel()) // the web pages watching the table read it again
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

// checkLater queues tables whose message may be behind after a restart, for the
// workers to redraw those whose message does not show their state (check): recovered
// ones (ts), and those changed lately that are still on disk (ids), which a worker loads
// first. The edits are paced by the rate limiter like any other.
func (p *publisher) checkLater(ts []*table.Table, ids []int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, t := range ts {
		p.later = append(p.later, pubJob{t: t, check: true})
	}
	for _, id := range ids {
		p.later = append(p.later, pubJob{load: id, check: true})
	}
	p.checks += len(ts) + len(ids)
	if p.checks == 0 {
		p.b.log.Info("table messages checked after the start", "tables", 0, "behind", 0)
	}
	p.wake.Broadcast()
}

func (p *publisher) work() {
	defer p.workers.Done()
	for {
		p.mu.Lock()
		for len(p.queue) == 0 && len(p.later) == 0 && !p.done {
			p.wake.Wait()
		}
		var j pubJob
		switch {
		case len(p.queue) > 0:
			j = p.queue[0]
			p.queue[0] = pubJob{}
			p.queue = p.queue[1:]
		case len(p.later) > 0 && !p.done:
			j = p.later[0]
			p.later[0] = pubJob{}
			p.later = p.later[1:]
		default:
			p.mu.Unlock()
			return
		}
		if j.post {
			p.mu.Unlock()
			p.repost(j.t)
			continue
		}
		if j.check {
			p.mu.Unlock()
			p.check(j.t, j.load)
			continue
		}
		if j.msg != nil {
			p.mu.Unlock()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			_ = p.edit(ctx, j.msg.channel, j.msg.id, j.msg.render(p.b.lang.public(ctx, j.msg.guild, ""))) // logged
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
		gen := st.answers
		p.mu.Unlock()
		p.draw(j.t, st, gen)
	}
}

// draw brings a table's message up to date, for a worker that has made st busy: it
// copies the table's state (under the table's hold when tables are shared), lets go,
// and edits. The message's digest is recorded once Discord has the edit; a table of
// replicas is then looked at again, since an answer on another replica may have drawn
// a newer state that this slower edit has just covered.
func (p *publisher) draw(t *table.Table, st *pubState, gen uint64) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, ok := p.snapshot(ctx, t)
	var (
		lang string
		m    view.Message
	)
	if ok && s.MessageID != "" {
		lang = p.b.lang.public(ctx, s.Guild, "")
		m = p.b.view.Table(lang, &s)
	}
	p.mu.Lock()
	if !ok || st.answering > 0 || st.answers != gen {
		// Not read (tried again, unless the bot is closing), or an answer updating the
		// message in place got there first with a state newer than this copy: draw
		// again after it.
		st.busy, st.dirty = false, ok || !p.done
		p.settle(t, st)
		p.mu.Unlock()
		return
	}
	st.editing = true
	st.idle = make(chan struct{})
	p.mu.Unlock()

	digest, edited := "", false
	if s.MessageID != "" {
		digest = drawnDigest(m, view.PictureMoment(&s))
		edited = p.editTable(ctx, &s, lang, m) == nil
	}
	p.mu.Lock()
	st.editing = false
	close(st.idle)
	p.mu.Unlock()

	// Claims waiting for the edit go on now: what follows takes the table's hold, which
	// their interactions keep.
	behind := false
	if edited {
		p.noteDrawn(s.ID, s.MessageID, digest)
		behind = p.b.shared() && !p.shows(ctx, t, digest)
	}
	p.mu.Lock()
	st.busy = false
	st.dirty = st.dirty || behind
	p.settle(t, st)
	p.mu.Unlock()
}

// settle schedules what a table still needs once a worker is done with it. p.mu is held.
func (p *publisher) settle(t *table.Table, st *pubState) {
	switch {
	case st.answering > 0:
		// An answer waited for this edit and now updates the message; its release
		// schedules what is still behind.
	case st.dirty && (p.done || st.soon):
		st.scheduled, st.soon = true, false
		p.queue = append(p.queue, pubJob{t: t})
		p.wake.Signal()
	case st.dirty:
		st.scheduled = true
		p.b.opt.EditAfterFunc(p.b.opt.EditDelay, func() { p.enqueue(pubJob{t: t}) })
	default:
		if p.state[t.ID()] == st {
			delete(p.state, t.ID())
		}
	}
}

// snapshot copies the table's state for a public edit. A table of replicas is read
// under its hold, which reloads it when another replica changed it, and the hold ends
// before any call to Discord; when it cannot be had, nothing is drawn (false) rather
// than a copy that may be stale, and the edit is tried again. Any other table is the
// copy in memory.
func (p *publisher) snapshot(ctx context.Context, t *table.Table) (table.Snapshot, bool) {
	b := p.b
	if !b.shared() {
		return t.Snapshot(), true
	}
	release, err := b.tables.Hold(ctx, t.ID())
	if err != nil {
		b.log.Warn("table edit: table not held; tried again later", "table", t.ID(), "err", err)
		return table.Snapshot{}, false
	}
	defer release()
	cur, err := b.tables.Get(ctx, t.ID())
	var refusal *table.Refusal
	switch {
	case err == nil:
		return cur.Snapshot(), true
	case errors.As(err, &refusal):
		// Closed: the copy of the process that closed it says so.
		s := t.Snapshot()
		return s, s.Closed
	default:
		b.log.Warn("table edit: table not loaded; tried again later", "table", t.ID(), "err", err)
		return table.Snapshot{}, false
	}
}

// shows reports whether the table's latest state renders to digest, for a table of
// replicas after an edit: false asks for another edit. Unknown counts as shown (the
// table could not be read, so nothing better can be drawn now).
func (p *publisher) shows(ctx context.Context, t *table.Table, digest string) bool {
	s, ok := p.snapshot(ctx, t)
	if !ok || s.MessageID == "" {
		return true
	}
	return drawnDigest(p.b.view.Table(p.b.lang.public(ctx, s.Guild, ""), &s), view.PictureMoment(&s)) == digest
}

// check draws a recovered table's message again only if it does not show the
// table's state: its rendering now is compared with what the message was last drawn
// from, as the store recorded it. So a restart over idle tables sends nothing.
func (p *publisher) check(t *table.Table, load int64) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	behind := false
	defer func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if behind {
			p.behind++
		}
		if p.checks--; p.checks == 0 {
			// Operators (and the restart benchmark) learn when the pass is over.
			p.b.log.Info("table messages checked after the start", "behind", p.behind)
		}
	}()
	if t == nil {
		var err error
		if t, err = p.b.tables.LoadRecent(ctx, load); err != nil {
			if !errors.As(err, new(*table.Refusal)) {
				p.b.log.Warn("table changed before the start not loaded; its message is not checked", "table", load, "err", err)
			}
			return
		}
	}
	p.mu.Lock()
	_, known := p.state[t.ID()]
	p.mu.Unlock()
	if known {
		return // a change since the start draws it anyway
	}
	s, ok := p.snapshot(ctx, t)
	if ok && s.MessageID != "" {
		digest := drawnDigest(p.b.view.Table(p.b.lang.public(ctx, s.Guild, ""), &s), view.PictureMoment(&s))
		drawn, err := p.b.drawn.TableDrawn(ctx, s.ID, s.MessageID)
		if err == nil && drawn == digest {
			return
		}
	}
	behind = true
	p.Changed(t)
}

// drawnDigest is what a table message is drawn from, as the store keeps it: a digest of
// its rendering (every field a table message uses) and its picture moment. It is
// written field by field: a JSON encoding of the message cost a tenth of a click.
func drawnDigest(m view.Message, moment string) string {
	d := digester{h: fnv.New128a()}
	d.str(m.Content)
	d.str(moment)
	d.flag(m.V2)
	for _, e := range m.Embeds {
		d.str("embed")
		d.str(e.Title)
		d.str(e.Description)
		d.str(e.URL)
		d.num(int64(e.Color))
		if e.Footer != nil {
			d.str(e.Footer.Text)
		}
		if e.Author != nil {
			d.str(e.Author.Name)
		}
		if e.Image != nil {
			d.str(e.Image.URL)
		}
		if e.Thumbnail != nil {
			d.str(e.Thumbnail.URL)
		}
		for _, f := range e.Fields {
			d.str(f.Name)
			d.str(f.Value)
			d.flag(f.Inline)
		}
	}
	d.components(m.Components)
	return hex.EncodeToString(d.h.Sum(nil))
}

// digester feeds a message's fields to a hash, each closed by its length, so that no
// two different messages feed the same bytes.
type digester struct{ h hash.Hash }

func (d digester) str(s string) {
	d.h.Write([]byte(s))
	d.num(int64(len(s)))
}

func (d digester) num(n int64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(n))
	d.h.Write(b[:])
}

func (d digester) flag(b bool) {
	if b {
		d.num(1)
	} else {
		d.num(0)
	}
}

func (d digester) components(cs []discordgo.MessageComponent) {
	for _, c := range cs {
		switch c := c.(type) {
		case discordgo.ActionsRow:
			d.str("row")
			d.components(c.Components)
		case *discordgo.ActionsRow:
			d.str("row")
			d.components(c.Components)
		case discordgo.Button:
			d.button(&c)
		case *discordgo.Button:
			d.button(c)
		case discordgo.SelectMenu:
			d.menu(&c)
		case *discordgo.SelectMenu:
			d.menu(c)
		case discordgo.Container:
			d.container(&c)
		case *discordgo.Container:
			d.container(c)
		case discordgo.TextDisplay:
			d.str("text")
			d.str(c.Content)
		case *discordgo.TextDisplay:
			d.str("text")
			d.str(c.Content)
		case discordgo.MediaGallery:
			d.gallery(&c)
		case *discordgo.MediaGallery:
			d.gallery(c)
		default:
			// A kind the table message does not use today: its JSON, slower but whole.
			raw, _ := json.Marshal(c)
			d.str(string(raw))
		}
	}
}

func (d digester) container(c *discordgo.Container) {
	d.str("container")
	if c.AccentColor != nil {
		d.num(int64(*c.AccentColor))
	}
	d.flag(c.Spoiler)
	d.components(c.Components)
	d.str("end")
}

func (d digester) gallery(g *discordgo.MediaGallery) {
	d.str("gallery")
	for _, it := range g.Items {
		d.str(it.Media.URL)
		if it.Description != nil {
			d.str(*it.Description)
		}
		d.flag(it.Spoiler)
	}
	d.str("end")
}

func (d digester) button(b *discordgo.Button) {
	d.str("button")
	d.str(b.Label)
	d.str(b.CustomID)
	d.str(b.URL)
	d.num(int64(b.Style))
	d.flag(b.Disabled)
	if b.Emoji != nil {
		d.str(b.Emoji.Name)
		d.str(b.Emoji.ID)
	}
}

func (d digester) menu(m *discordgo.SelectMenu) {
	d.str("menu")
	d.str(m.CustomID)
	d.str(m.Placeholder)
	d.flag(m.Disabled)
	d.num(int64(m.MaxValues))
	if m.MinValues != nil {
		d.num(int64(*m.MinValues))
	}
	for _, o := range m.Options {
		d.str(o.Label)
		d.str(o.Value)
		d.str(o.Description)
		d.flag(o.Default)
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
// On replicas the answer is made under the table's hold, and so is the publisher's copy
// of the table before its edit: a claim either comes first (the publisher's copy then
// gives way, see draw) or finds the edit under way. An edit on another replica is not
// waited for: that replica looks at the table again once its edit is done (shows).
func (p *publisher) claim(ctx context.Context, t *table.Table) (release func(), ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	st := p.state[t.ID()]
	if st == nil {
		st = &pubState{t: t}
		p.state[t.ID()] = st
	}
	st.answering++ // from here no new edit starts
	st.answers++
	if st.editing {
		timer := time.NewTimer(p.b.opt.EditWait)
		defer timer.Stop()
		for st.editing {
			idle := st.idle
			p.mu.Unlock()
			select {
			case <-idle:
			case <-timer.C:
			case <-ctx.Done():
			}
			p.mu.Lock()
			if st.editing {
				st.answering--
				st.dirty, st.soon = true, true
				return nil, false
			}
		}
	}
	var once sync.Once
	return func() { once.Do(func() { p.unclaim(t.ID(), st) }) }, true
}

// answered is told by an interaction that updates the table message in place, with a
// rendering whose digest is digest, whether its answer reached Discord (see
// ictx.drew): delivered, what the message now shows is recorded, as for an edit of the
// publisher's; not delivered, the message is behind, and the publisher draws it.
func (p *publisher) answered(t *table.Table, message, digest string) func(delivered bool) {
	return func(delivered bool) {
		if !delivered || message == "" {
			p.Changed(t)
			return
		}
		p.noteDrawn(t.ID(), message, digest)
	}
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
func (p *publisher) edit(ctx context.Context, channel, id string, m view.Message) error {
	edit := wholeEdit(channel, id, m)
	for _, e := range *edit.Embeds {
		if e.Type == "" {
			e.Type = discordgo.EmbedTypeRich // as discordgo sets it
		}
	}
	err := discordapi.Edit(ctx, p.b.s, edit)
	if err != nil {
		p.b.log.Warn("message not edited", "channel", channel, "err", err)
	}
	return err
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
	if err := p.setMessage(ctx, t, sent.ID); err != nil {
		log.Error("table message not recorded", "err", err)
	}
	return nil
}

// setMessage records the table's message on the table as it now stands: under the
// table's hold, on the copy Get returns. Tables of replicas may have been dropped and
// loaded again since t was handed over (the first hold of a new table's lease reloads
// it), and a copy loaded before the message was recorded would otherwise never learn
// it, and its message would never be edited again.
func (p *publisher) setMessage(ctx context.Context, t *table.Table, id string) error {
	release, err := p.b.tables.Hold(ctx, t.ID())
	if err != nil {
		return err
	}
	defer release()
	if cur, err := p.b.tables.Get(ctx, t.ID()); err == nil {
		t = cur
	}
	return t.SetMessage(ctx, id)
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
		if err := p.setMessage(ctx, t, id); err != nil {
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
	for _, c := range view.Leaves(cs) {
		if b, ok := c.(*discordgo.Button); ok && view.IsTableButton(b.CustomID, table) {
			return true
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

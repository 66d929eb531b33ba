package load

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
)

// Members find what to press only in what Discord would show them: the custom ids of
// the buttons and selects on the public table and on their own panel (the bot's
// pt:<kind>:... ids, matched by prefix and verb), the mentions in the panel's
// "waiting for" line, and the "⛔" a refusal starts with.
const (
	prefixJoin    = "pt:join:"
	prefixDeal    = "pt:deal:"
	prefixCards   = "pt:cards:" // My cards on the table, Refresh on a panel
	prefixAct     = "pt:act:"
	prefixAmount  = "pt:amt:"
	refusalMarker = "⛔"
)

// kind is what a click does, for the report's mix.
type kind int

const (
	kindDeal kind = iota // Deal on the table message
	kindLook             // My cards on the table, or Refresh on the panel
	kindAct              // a game action on the panel: a button or an amount chosen in a select
	kinds
)

var kindNames = [kinds]string{"deal", "look", "act"}

// click is one interaction a member is about to send.
type click struct {
	t      *table
	member string
	kind   kind
	// fromTable: the component is looked up on the table message as it stands when the
	// click is sent (prefix), since the bot edits that message in between.
	fromTable bool
	prefix    string
	// after: with fromTable, the click waits until the component's round is past this
	// one (the Deal was acknowledged and the table is still to show the new round).
	after    int
	msgID    string
	customID string
	values   []string // a select's chosen values; nil for a button
	inWindow bool     // sent inside the measured window
	sent     time.Time
}

// answer is what came back for a click.
type answer struct {
	c   *click
	r   *discordtest.Response
	err error
}

// outcome is what the report keeps of a click sent in the window.
type outcome struct {
	sent    time.Time
	latency time.Duration // dispatch to callback, at the fake
	failed  bool
}

// table is one channel's table and the members seated at it. Only the players
// goroutine touches it once play starts.
type table struct {
	n              int
	guild, channel string
	msgID          string             // the public table message
	view           *discordgo.Message // the table message as the last Deal left it; nil after trouble
	after          int                // the round the table shows must be past this one (a Deal acknowledged with no update); -1 if none
	members        []string           // seated, the host first
	panels         map[string]*discordgo.Message
	busy           map[string]bool // a click of the member is queued or in flight
	roundOver      bool            // a panel showed no round in play: Deal is next
	looks          int             // looks since the last deal, to catch a table going round in circles
	rounds         int             // Deals accepted
	resyncs        int             // look-agains since the last Deal
	troubles       int             // errors and refusals since the last good answer
	dead           bool
}

func (t *table) anyBusy() bool {
	for _, b := range t.busy {
		if b {
			return true
		}
	}
	return false
}

// queue holds the clicks that are ready. Each arrival takes one of them at random:
// taking the oldest would keep every table in step with the others (all dealing,
// then all looking, then all staking) from the first deal on, so the mix of a window
// would depend on where in the round it fell; at random, the tables drift apart
// within a round or two and any window sees every phase.
type queue struct {
	mu    sync.Mutex
	rng   *rand.Rand
	items []*click
}

func (q *queue) push(c *click) {
	q.mu.Lock()
	q.items = append(q.items, c)
	q.mu.Unlock()
}

func (q *queue) pop() *click {
	q.mu.Lock()
	defer q.mu.Unlock()
	n := len(q.items)
	if n == 0 {
		return nil
	}
	i := q.rng.IntN(n)
	c := q.items[i]
	q.items[i] = q.items[n-1]
	q.items[n-1] = nil
	q.items = q.items[:n-1]
	return c
}

func (q *queue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items)
}

// players plays every table from the answers: it decides each member's next click and
// queues it. It runs in one goroutine, so tables need no locks.
type players struct {
	q   *queue
	rng *rand.Rand

	// counts of clicks answered inside the window, and what they were
	answered, refused, errs [kinds]int
	outcomes                []outcome // of the clicks sent in the window
	roundsDealt             int       // Deals accepted inside the window
	roundsSettled           int       // rounds seen to end inside the window
	stuck                   int       // tables given up on
	samples                 []string
}

func (p *players) note(format string, args ...any) {
	if len(p.samples) < 10 {
		p.samples = append(p.samples, fmt.Sprintf(format, args...))
	}
}

// enqueue marks the member busy and queues the click.
func (p *players) enqueue(c *click) {
	c.t.busy[c.member] = true
	p.q.push(c)
}

// look queues the member's look at their cards: Refresh on the panel of this round if
// they have one, else My cards on the table.
func (p *players) look(t *table, member string) {
	t.looks++
	if pm := t.panels[member]; pm != nil {
		if id, ok := discordtest.CustomID(pm, prefixCards, ""); ok {
			p.enqueue(&click{t: t, member: member, kind: kindLook, msgID: pm.ID, customID: id})
			return
		}
	}
	// My cards carries only the table and the round, so the table message as the Deal
	// left it offers the same button all round (the fake refuses the click if not).
	if t.view != nil {
		if id, ok := discordtest.CustomID(t.view, prefixCards, ""); ok {
			p.enqueue(&click{t: t, member: member, kind: kindLook, msgID: t.msgID, customID: id})
			return
		}
	}
	p.enqueue(&click{t: t, member: member, kind: kindLook, fromTable: true, prefix: prefixCards, after: t.after})
}

// deal queues Deal by a seated member, taking turns.
func (p *players) deal(t *table, round int) {
	m := t.members[round%len(t.members)]
	p.enqueue(&click{t: t, member: m, kind: kindDeal, fromTable: true, prefix: prefixDeal, after: -1})
}

// everyoneLooks is what members do after a Deal, and how a confused table starts over:
// each member not already busy opens their cards from the table.
func (p *players) everyoneLooks(t *table) {
	t.panels = map[string]*discordgo.Message{}
	for _, m := range t.members {
		if !t.busy[m] {
			p.look(t, m)
		}
	}
}

// limits on a table that does not make progress; past them it is given up and counted
// as stuck, and the report shows it. They catch members going round in circles (a
// change in what the bot shows), which a healthy bot passes in seconds, and are loose
// enough for an overloaded bot that misses the 3 s now and then.
const (
	maxLooksPerRound   = 200 // a round takes about 8
	maxResyncsPerRound = 20
	maxTroubles        = 20 // in a row
)

var mentionRE = regexp.MustCompile(`<@!?(\d+)>`)

// handle takes one answer and queues what the members do next.
func (p *players) handle(a answer) {
	c, t := a.c, a.c.t
	t.busy[c.member] = false
	if a.err == nil && a.r == nil {
		a.err = errors.New("no response")
	}
	if c.inWindow {
		o := outcome{sent: c.sent, failed: a.err != nil}
		if a.err != nil {
			p.errs[c.kind]++
		} else {
			p.answered[c.kind]++
			o.latency = a.r.Latency
		}
		p.outcomes = append(p.outcomes, o)
	}
	if t.dead {
		return
	}
	if a.err != nil {
		p.note("table %d: %s by %s: %v", t.n, kindNames[c.kind], c.member, a.err)
		p.trouble(t)
		return
	}
	msg := a.r.Message
	text := discordtest.Text(msg)
	if strings.Contains(text, refusalMarker) {
		if c.inWindow {
			p.refused[c.kind]++
		}
		p.note("table %d: %s %s by %s refused: %s", t.n, kindNames[c.kind], c.customID, c.member, firstLine(text))
		if c.kind == kindDeal || !hasComponent(msg, prefixCards) {
			p.trouble(t)
			return
		}
		// A refused action still answers with the panel as it stands: carry on from it.
		if t.troubles++; t.troubles > maxTroubles {
			p.giveUp(t)
			return
		}
	} else {
		t.troubles = 0 // only trouble in a row gives a table up: an overloaded bot recovers
	}
	if c.kind == kindDeal {
		if c.inWindow {
			p.roundsDealt++
		}
		t.rounds++
		t.roundOver, t.looks = false, 0
		t.view, t.after = nil, -1
		switch {
		case a.r.Type == discordgo.InteractionResponseDeferredMessageUpdate:
			// Acknowledged with no update (the bot was still editing the message): the
			// table shows the new round shortly, past the round the Deal was pressed in.
			t.after = idRound(c.customID)
		case msg != nil && msg.ID == t.msgID:
			t.view = msg
		}
		p.everyoneLooks(t)
		return
	}
	inRound := hasComponent(msg, prefixCards) // between rounds the panel has no Refresh
	if inRound {
		t.panels[c.member] = msg
	} else {
		delete(t.panels, c.member)
	}
	if next := p.choose(t, c.member, msg); next != nil {
		p.enqueue(next)
		return
	}
	waiting := false
	for _, m := range mentionRE.FindAllStringSubmatch(text, -1) {
		id := m[1]
		if !inRound || id == c.member || !seated(t, id) {
			continue
		}
		waiting = true
		if !t.busy[id] {
			p.look(t, id)
		}
	}
	if !waiting && !t.roundOver {
		// No move for this member and nobody waited on (or no Refresh at all): no
		// round in play. Either sign alone is enough, so a settled panel that names
		// the banker, or one that keeps a Refresh button, still ends the round.
		t.roundOver = true
		if c.inWindow {
			p.roundsSettled++
		}
	}
	switch {
	case t.roundOver && !t.anyBusy():
		t.resyncs = 0
		p.deal(t, t.n+t.rounds)
	case !t.anyBusy():
		p.note("table %d: nothing to do after %s by %s: %s", t.n, kindNames[c.kind], c.member, firstLine(text))
		p.resync(t)
	case t.looks > maxLooksPerRound:
		p.note("table %d: %d looks in one round", t.n, t.looks)
		p.giveUp(t)
	}
}

// trouble handles an error or a refused Deal: the members look again from the table,
// unless the table keeps failing.
func (p *players) trouble(t *table) {
	t.troubles++
	t.view = nil // read the table message afresh from now on
	if t.troubles > maxTroubles {
		p.giveUp(t)
		return
	}
	if !t.anyBusy() {
		p.resync(t)
	}
}

func (p *players) resync(t *table) {
	t.resyncs++
	if t.resyncs > maxResyncsPerRound {
		p.giveUp(t)
		return
	}
	t.roundOver = false
	p.everyoneLooks(t)
}

func (p *players) giveUp(t *table) {
	if !t.dead {
		t.dead = true
		p.stuck++
	}
}

func seated(t *table, id string) bool {
	for _, m := range t.members {
		if m == id {
			return true
		}
	}
	return false
}

// choose picks the member's next action from their panel, or nil when it offers none.
// A stake (or shoot) comes first, with the smallest amount offered; then mostly stick
// (or the banker's stay), sometimes twist (or draw), so rounds vary; then any other
// action on offer.
func (p *players) choose(t *table, member string, panel *discordgo.Message) *click {
	if panel == nil {
		return nil
	}
	acts := map[string]string{} // verb -> custom id
	var verbs []string
	var amounts []*discordgo.SelectMenu
	for _, comp := range discordtest.Components(panel) {
		switch v := comp.(type) {
		case *discordgo.Button:
			if strings.HasPrefix(v.CustomID, prefixAct) && !v.Disabled {
				verb := v.CustomID[strings.LastIndexByte(v.CustomID, ':')+1:]
				acts[verb] = v.CustomID
				verbs = append(verbs, verb)
			}
		case *discordgo.SelectMenu:
			if strings.HasPrefix(v.CustomID, prefixAmount) && len(v.Options) > 0 && !v.Disabled {
				amounts = append(amounts, v)
			}
		}
	}
	act := func(id string) *click {
		return &click{t: t, member: member, kind: kindAct, msgID: panel.ID, customID: id}
	}
	amount := func(s *discordgo.SelectMenu) *click {
		return &click{t: t, member: member, kind: kindAct, msgID: panel.ID, customID: s.CustomID, values: []string{s.Options[0].Value}}
	}
	for _, s := range amounts {
		if strings.HasSuffix(s.CustomID, ":stake") || strings.HasSuffix(s.CustomID, ":shoot") {
			return amount(s)
		}
	}
	calm, bold := []string{"stick", "stay", "nodouble"}, []string{"twist", "draw"}
	if p.rng.IntN(4) == 0 {
		calm, bold = bold, calm
	}
	for _, verb := range append(calm, bold...) {
		if id, ok := acts[verb]; ok {
			return act(id)
		}
	}
	if len(verbs) > 0 {
		return act(acts[verbs[0]])
	}
	if len(amounts) > 0 {
		return amount(amounts[0])
	}
	return nil
}

// idRound is the round in one of the bot's custom ids (pt:<kind>:<table>:<round>:...).
func idRound(customID string) int {
	f := strings.SplitN(customID, ":", 5)
	if len(f) < 4 {
		return -1
	}
	n, err := strconv.Atoi(f[3])
	if err != nil {
		return -1
	}
	return n
}

func hasComponent(m *discordgo.Message, prefix string) bool {
	_, ok := discordtest.CustomID(m, prefix, "")
	return ok
}

// firstLine is the line of a message's text worth quoting: the refusal if there is
// one, else the first that is not empty.
func firstLine(s string) string {
	line := ""
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if strings.Contains(l, refusalMarker) {
			line = l
			break
		}
		if line == "" {
			line = l
		}
	}
	if r := []rune(line); len(r) > 160 {
		line = string(r[:160]) + "…"
	}
	return line
}

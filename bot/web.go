package bot

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/i18n"
	"github.com/pontoon-bot/pontoon/bot/table"
	"github.com/pontoon-bot/pontoon/bot/view"
	"github.com/pontoon-bot/pontoon/bot/view/picture"
)

// The table in the browser (package bot/activity): what a member sees of a channel's
// table, drawn from the same views as the Discord messages, and their clicks, answered
// through the same path as Discord's (answer). Nothing here decides anything: a click
// from the page is an interaction like any other, with an id the page's nonce fixes,
// so that it applies once however often the page sends it.

// Viewer is a member looking at a channel from the web page. The activity server fills
// it from the member's session (the place comes from Discord, never from the page).
type Viewer struct {
	Guild, Channel, User string
	Name                 string // the member's name as Discord shows it; "" if unknown
	Locale               string // their Discord client's locale, if known
}

// WebState is everything the page shows a member: the public table, their private panel
// and the page's own words, in the member's language. Encoded as JSON it is the body of
// the socket's state frame.
type WebState struct {
	Lang  string            `json:"lang"`
	Words map[string]string `json:"words"`
	Me    WebMe             `json:"me"`
	Table *WebTable         `json:"table"`
	Panel *WebPanel         `json:"panel"`
}

// WebMe is the member the state is for.
type WebMe struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Seated bool   `json:"seated"`
}

// WebTable is what the public table message shows, seat by seat. A face-down card
// carries its value only in its owner's state.
type WebTable struct {
	ID        int64        `json:"id"`
	Round     int          `json:"round"`
	Title     string       `json:"title"`
	Phase     string       `json:"phase"`
	Text      []string     `json:"text"`
	Bank      int64        `json:"bank"`
	Kitty     int64        `json:"kitty"`
	ShowKitty bool         `json:"show_kitty"`
	Deadline  int64        `json:"deadline"` // unix milliseconds; 0 when nobody is on the clock
	Labels    WebLabels    `json:"labels"`
	Seats     []WebSeat    `json:"seats"`
	Actions   []WebControl `json:"actions"`
}

// WebLabels are the table's words the page puts beside its numbers.
type WebLabels struct {
	Banker string `json:"banker"`
	Bank   string `json:"bank"`
	Kitty  string `json:"kitty"`
	Turn   string `json:"turn"`
}

// WebSeat is one member at the table.
type WebSeat struct {
	Name   string    `json:"name"`
	Me     bool      `json:"me"`
	Banker bool      `json:"banker"`
	Turn   bool      `json:"turn"`
	Hands  []WebHand `json:"hands"`
}

// WebHand is one hand of a seat.
type WebHand struct {
	Cards     []WebCard `json:"cards"`
	Stake     int64     `json:"stake"`
	StakeText string    `json:"stake_text"`
	Result    string    `json:"result"`
	Tone      string    `json:"tone"` // win, loss, push or neutral with a result; "" without
	Turn      bool      `json:"turn"`
}

// WebCard is a card as its reader may see it: Card ("AS", "TH") is empty for a
// face-down card of somebody else's.
type WebCard struct {
	Card string `json:"card,omitempty"`
	Down bool   `json:"down"`
}

// WebPanel is a member's private panel, as /pontoon hand shows it.
type WebPanel struct {
	Text    []string     `json:"text"`
	Actions []WebControl `json:"actions"`
}

// WebControl is a button or a select of a message, with the custom id a click on it
// sends back.
type WebControl struct {
	Kind        string      `json:"kind"` // "button" or "select"
	ID          string      `json:"id"`
	Label       string      `json:"label"`
	Style       int         `json:"style"`
	Disabled    bool        `json:"disabled"`
	Emoji       string      `json:"emoji"`
	Placeholder string      `json:"placeholder"`
	Min         int         `json:"min"`
	Max         int         `json:"max"`
	Options     []WebOption `json:"options,omitempty"` // a select's
}

// WebOption is one choice of a select.
type WebOption struct {
	Label       string `json:"label"`
	Value       string `json:"value"`
	Description string `json:"description"`
}

// WebAction is a member's click, choice or form from the page.
type WebAction struct {
	// Interaction is the id the answer runs under: the activity server derives it from
	// the page's nonce, so the same action sent again is the same interaction, which
	// the store applies once (store.WithInteraction).
	Interaction string
	ID          string            // the custom id of the button, select or modal
	Values      []string          // a select's choice
	Fields      map[string]string // a modal's inputs by custom id; nil for a click or a choice
}

// WebResult is the answer to one WebAction: refused (OK false) with the member's
// words, or done with an optional private line, or a form to fill in (Modal).
type WebResult struct {
	OK    bool
	Text  string
	Modal *WebModal
}

// WebModal is a form the answer asks the member to fill in.
type WebModal struct {
	ID     string     `json:"id"`
	Title  string     `json:"title"`
	Inputs []WebInput `json:"inputs"`
}

// WebInput is one field of a WebModal.
type WebInput struct {
	ID          string `json:"id"`
	Label       string `json:"label"`
	Placeholder string `json:"placeholder"`
	MinLength   int    `json:"min_length"`
	MaxLength   int    `json:"max_length"`
	Required    bool   `json:"required"`
	Value       string `json:"value"`
}

// ErrWebUnanswered is WebAct's error for an interaction the bot gave no answer: the
// bot is closing.
var ErrWebUnanswered = errors.New("bot: no answer (closing)")

// webKinds are the custom id kinds a page may send, each with whether it is on the
// table's message (else on the member's panel or its form). The rest (a bank offer's
// answer, a leaderboard's page, Open table) are never drawn on the page.
var webKinds = map[string]bool{
	view.KindJoin: true, view.KindLeave: true, view.KindDeal: true, view.KindRules: true,
	view.KindCards: false, view.KindAct: false, view.KindAmount: false, view.KindAsk: false,
	view.KindHint: false, view.KindModal: false,
}

// WebState is what the member sees of the channel now. The table's text, its buttons
// and the member's panel are the Discord messages' own renderings (view.Table,
// view.Panel), in the member's language.
func (b *Bot) WebState(ctx context.Context, v Viewer) (WebState, error) {
	pub := b.lang.public(ctx, v.Guild, "")
	lang := b.memberLang(ctx, v.Guild, v.User, v.Locale, pub)
	st := WebState{Lang: lang, Words: b.webWords(lang), Me: WebMe{ID: v.User, Name: v.Name}}
	if n, ok := b.names.Get(v.Guild + "/" + v.User); ok && st.Me.Name == "" {
		st.Me.Name = n[0]
	}
	t, err := b.tables.ByChannel(ctx, v.Guild, v.Channel)
	if err != nil {
		if errors.As(err, new(*table.Refusal)) {
			return st, nil // no open table here
		}
		return st, err
	}
	// The copy in memory, with no hold: every page of the table reads it after each
	// change, and on replicas that share tables pollWatched has just brought it up to
	// date under the table's hold before it tells them, so a page costs no lease.
	s := t.Snapshot()
	if s.Closed {
		return st, nil
	}
	st.Me.Seated = s.Seated(v.User)
	st.Table = b.webTable(lang, &s, v.User)
	if st.Me.Seated || s.Banker() == v.User || (s.Game != nil && table.Playing(s.Game, v.User)) {
		wallet := int64(view.NoBalance)
		if !s.InRound() && s.Seated(v.User) {
			if w, err := b.economy.Wallet(ctx, v.Guild, v.User); err == nil {
				wallet = w.Balance
			}
		}
		m := b.view.Panel(lang, &s, v.User, "", wallet)
		st.Panel = &WebPanel{Text: b.webLines(v.Guild, v.Channel, lang, view.Text(m.Components)), Actions: webControls(m.Components)}
	}
	return st, nil
}

// webTable is the public table of s for member, in lang.
func (b *Bot) webTable(lang string, s *table.Snapshot, member string) *WebTable {
	m := b.view.Table(lang, s)
	pt := b.view.Picture(lang, s, b.memberName(s.Guild, s.Channel), member)
	wt := &WebTable{ID: s.ID, Round: s.Round.Number, Title: pt.Labels.Title, Phase: pt.Labels.Phase,
		Text: b.webLines(s.Guild, s.Channel, lang, view.Text(m.Components)), Bank: pt.Bank, Kitty: pt.Kitty, ShowKitty: pt.ShowKitty,
		Labels:  WebLabels{Banker: pt.Labels.Banker, Bank: pt.Labels.Bank, Kitty: pt.Labels.Kitty, Turn: pt.Labels.Turn},
		Seats:   []WebSeat{},
		Actions: []WebControl{}}
	if s.InRound() && !s.Deadline.IsZero() {
		wt.Deadline = s.Deadline.UnixMilli()
	}
	for _, c := range webControls(m.Components) {
		if id, ok := view.ParseID(c.ID); ok && id.Kind == view.KindOpen {
			continue // the page is what Open table opens
		}
		wt.Actions = append(wt.Actions, c)
	}
	// The member's own face-down cards are theirs to see, the banker's once the stakes
	// are in, as on their panel (R3.2).
	seesOwn := s.Game == nil || s.Game.SeesOwnCards(member)
	shown := map[string]bool{}
	for _, seat := range pt.Seats {
		shown[seat.Member] = true
		ws := WebSeat{Name: seat.Name, Me: seat.Member == member, Banker: seat.Banker, Turn: seat.Turn, Hands: []WebHand{}}
		for _, h := range seat.Hands {
			wh := WebHand{Cards: []WebCard{}, Stake: h.Stake, Result: h.Result, Turn: h.Turn}
			if h.Stake > 0 && pt.Labels.Stake != nil {
				wh.StakeText = pt.Labels.Stake(i18n.Number(lang, h.Stake))
			}
			if h.Result != "" {
				wh.Tone = webTones[h.Tone]
			}
			for _, c := range h.Cards {
				switch {
				case c.FaceUp:
					wh.Cards = append(wh.Cards, WebCard{Card: c.Card.String()})
				case h.Own && seat.Member == member && (!seat.Banker || seesOwn):
					wh.Cards = append(wh.Cards, WebCard{Card: c.Card.String(), Down: true})
				default:
					wh.Cards = append(wh.Cards, WebCard{Down: true})
				}
			}
			ws.Hands = append(ws.Hands, wh)
		}
		wt.Seats = append(wt.Seats, ws)
	}
	// Members seated since the round on show (or before any) sit with no hand yet.
	names := b.memberName(s.Guild, s.Channel)
	for i, m := range s.Seats {
		if shown[m] {
			continue
		}
		name, _, ok := names(m)
		if !ok {
			name = b.cat.T(lang, "table.seat", "N", i+1)
		}
		wt.Seats = append(wt.Seats, WebSeat{Name: name, Me: m == member, Banker: m == s.Banker(), Hands: []WebHand{}})
	}
	return wt
}

var webTones = map[picture.Tone]string{picture.Neutral: "neutral", picture.Win: "win", picture.Loss: "loss", picture.Push: "push"}

// webControls lists a message's buttons and selects in order.
func webControls(cs []discordgo.MessageComponent) []WebControl {
	out := []WebControl{}
	for _, c := range view.Leaves(cs) {
		switch v := c.(type) {
		case discordgo.Button:
			wc := WebControl{Kind: "button", ID: v.CustomID, Label: v.Label, Style: int(v.Style), Disabled: v.Disabled}
			if v.Emoji != nil {
				wc.Emoji = v.Emoji.Name
			}
			out = append(out, wc)
		case discordgo.SelectMenu:
			wc := WebControl{Kind: "select", ID: v.CustomID, Placeholder: v.Placeholder, Min: 1, Max: max(v.MaxValues, 1),
				Disabled: v.Disabled, Options: []WebOption{}}
			if v.MinValues != nil {
				wc.Min = *v.MinValues
			}
			for _, o := range v.Options {
				wc.Options = append(wc.Options, WebOption{Label: o.Label, Value: o.Value, Description: o.Description})
			}
			out = append(out, wc)
		}
	}
	return out
}

// mentionRE is Discord's markup of a member, which the page cannot resolve.
var mentionRE = regexp.MustCompile(`<@!?([0-9]+)>`)

// webLines is a message's text, one entry per line, with each member's mention
// written as their name: the page has no Discord client to resolve it. Timestamps
// (<t:unix:R>) stay for the page to count down.
func (b *Bot) webLines(guild, channel, lang, text string) []string {
	names := b.memberName(guild, channel)
	text = mentionRE.ReplaceAllStringFunc(text, func(m string) string {
		id := mentionRE.FindStringSubmatch(m)[1]
		if name, _, ok := names(id); ok {
			return "@" + name
		}
		return "@" + b.cat.T(lang, "web.someone")
	})
	if text == "" {
		return []string{}
	}
	return strings.Split(text, "\n")
}

// webWords are the catalog's web.* texts in lang: the page's own words. The catalog
// never changes while the bot runs, so each language's are gathered once.
func (b *Bot) webWords(lang string) map[string]string {
	if w, ok := b.webw.Load(lang); ok {
		return w.(map[string]string)
	}
	out := map[string]string{}
	keys, err := i18n.Keys("en") // every language has the source's keys (the catalog tests)
	if err == nil {
		for _, k := range keys {
			if strings.HasPrefix(k, "web.") {
				out[k] = b.cat.T(lang, k)
			}
		}
	}
	b.webw.Store(lang, out)
	return out
}

// WebAct runs a member's action from the page through the one path every interaction
// takes (answer: routing, where it was clicked, option checks, the table, refusals,
// exactly once by its id), as a component clicked on the message the page drew it
// from: the table's own message for the table's buttons, an ephemeral panel for the
// panel's. What the answer would have sent Discord comes back as a WebResult instead;
// an answer that redraws the table message in place is reported undelivered, so the
// publisher edits the Discord message for everyone else.
//
// An action sent again with the same Interaction is answered as applied, with no
// second effect, also after a restart.
func (b *Bot) WebAct(ctx context.Context, v Viewer, a WebAction) (WebResult, error) {
	id, ok := view.ParseID(a.ID)
	onTable, known := webKinds[id.Kind]
	if !ok || !known || a.Interaction == "" {
		return WebResult{Text: b.cat.T(b.memberLang(ctx, v.Guild, v.User, v.Locale, b.lang.public(ctx, v.Guild, "")), "err.web_not_here")}, nil
	}
	if !b.tables.Enter() {
		return WebResult{}, ErrWebUnanswered
	}
	defer b.tables.Done()
	i := &discordgo.Interaction{ID: a.Interaction, AppID: b.appID, GuildID: v.Guild, ChannelID: v.Channel,
		Member: &discordgo.Member{User: &discordgo.User{ID: v.User, Username: v.Name}}, Locale: discordgo.Locale(v.Locale)}
	switch {
	case id.Kind == view.KindModal:
		i.Type = discordgo.InteractionModalSubmit
		var inputs []discordgo.MessageComponent
		for k, val := range a.Fields {
			inputs = append(inputs, discordgo.ActionsRow{Components: []discordgo.MessageComponent{&discordgo.TextInput{CustomID: k, Value: val}}})
		}
		i.Data = discordgo.ModalSubmitInteractionData{CustomID: a.ID, Components: webRows(inputs)}
	case a.Values != nil:
		i.Type = discordgo.InteractionMessageComponent
		i.Data = discordgo.MessageComponentInteractionData{CustomID: a.ID, ComponentType: discordgo.SelectMenuComponent, Values: a.Values}
	default:
		i.Type = discordgo.InteractionMessageComponent
		i.Data = discordgo.MessageComponentInteractionData{CustomID: a.ID, ComponentType: discordgo.ButtonComponent}
	}
	// The message the component is on, as place.go checks it.
	i.Message = &discordgo.Message{ID: "0", ChannelID: v.Channel, Flags: discordgo.MessageFlagsEphemeral | discordgo.MessageFlagsIsComponentsV2}
	if onTable {
		msg := ""
		if t, err := b.tables.Get(ctx, id.Table); err == nil {
			msg = t.Snapshot().MessageID
		}
		i.Message = &discordgo.Message{ID: msg, ChannelID: v.Channel, Flags: discordgo.MessageFlagsIsComponentsV2}
	}
	actx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	c := b.answer(actx, i, time.Now())
	if c == nil {
		// Applied before (the page sent it again): no second effect, nothing to add.
		return WebResult{OK: true}, nil
	}
	res := b.webResult(c)
	// The answer never went to Discord: a table message it would have redrawn in place
	// is behind, and the publisher edits it.
	drew := c.drew
	c.drew = nil
	b.record(c, nil)
	if drew != nil {
		drew(false)
	}
	c.done()
	if c.resp != nil && c.resp.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource {
		// A deferred answer's later work completes it through Discord's webhook for
		// an interaction Discord never issued: none of the page's kinds defers, and
		// one that did is refused rather than left hanging.
		return WebResult{Text: b.cat.T(c.lang, "err.web_not_here")}, nil
	}
	runLater(table.WithLogger(context.Background(), c.log), c.later)
	return res, nil
}

// webRows gives a modal's rows as discordgo decodes them (pointers), which is how the
// handlers read them.
func webRows(rows []discordgo.MessageComponent) []discordgo.MessageComponent {
	out := make([]discordgo.MessageComponent, 0, len(rows))
	for _, r := range rows {
		row := r.(discordgo.ActionsRow)
		out = append(out, &row)
	}
	return out
}

// webResult translates the answer the bot would have sent Discord.
func (b *Bot) webResult(c *ictx) WebResult {
	if c.resp == nil {
		return WebResult{Text: b.cat.T(c.lang, "err.not_saved")}
	}
	if c.shown != nil {
		return WebResult{Text: b.words(c.lang, c.shown, c.log)}
	}
	d := c.resp.Data
	switch c.resp.Type {
	case discordgo.InteractionResponseModal:
		m := &WebModal{ID: d.CustomID, Title: d.Title, Inputs: []WebInput{}}
		for _, row := range d.Components {
			r, ok := row.(discordgo.ActionsRow)
			if !ok {
				continue
			}
			for _, comp := range r.Components {
				if in, ok := comp.(discordgo.TextInput); ok {
					m.Inputs = append(m.Inputs, WebInput{ID: in.CustomID, Label: in.Label, Placeholder: in.Placeholder,
						MinLength: in.MinLength, MaxLength: in.MaxLength, Required: in.Required, Value: in.Value})
				}
			}
		}
		return WebResult{OK: true, Modal: m}
	case discordgo.InteractionResponseChannelMessageWithSource:
		// A private reply (the rules, a hint): its words are the result's line.
		if d == nil {
			return WebResult{OK: true, Text: c.note}
		}
		var lines []string
		if d.Content != "" {
			lines = append(lines, d.Content)
		}
		for _, e := range d.Embeds {
			for _, s := range []string{e.Title, e.Description} {
				if s != "" {
					lines = append(lines, s)
				}
			}
			for _, f := range e.Fields {
				lines = append(lines, f.Name+": "+f.Value)
			}
		}
		if t := view.Text(d.Components); t != "" {
			lines = append(lines, t)
		}
		return WebResult{OK: true, Text: strings.Join(b.webLines(c.guild, c.channel, c.lang, strings.Join(lines, "\n")), "\n")}
	}
	return WebResult{OK: true, Text: c.note}
}

// WebWatch tells of every change of the table in a channel (one may be opened there
// later): the channel gets a value soon after each change, several changes in a row
// perhaps as one. stop ends the watch.
func (b *Bot) WebWatch(guild, channel string) (changes <-chan struct{}, stop func()) {
	return b.watch.add(guild, channel)
}

// watchers are the pages watching channels' tables. changed is called by the
// publisher (possibly under a table's lock), so it only signals, never blocks.
type watchers struct {
	mu sync.Mutex
	m  map[string]map[chan struct{}]struct{} // guild/channel -> its watchers
}

func (w *watchers) add(guild, channel string) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	key := guild + "/" + channel
	w.mu.Lock()
	if w.m == nil {
		w.m = map[string]map[chan struct{}]struct{}{}
	}
	if w.m[key] == nil {
		w.m[key] = map[chan struct{}]struct{}{}
	}
	w.m[key][ch] = struct{}{}
	w.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			w.mu.Lock()
			defer w.mu.Unlock()
			delete(w.m[key], ch)
			if len(w.m[key]) == 0 {
				delete(w.m, key)
			}
		})
	}
}

func (w *watchers) changed(guild, channel string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for ch := range w.m[guild+"/"+channel] {
		select {
		case ch <- struct{}{}:
		default: // already told; the watcher reads the latest state when it wakes
		}
	}
}

// watched lists the channels watched now, as guild/channel pairs.
func (w *watchers) watched() [][2]string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([][2]string, 0, len(w.m))
	for k := range w.m {
		g, c, _ := strings.Cut(k, "/")
		out = append(out, [2]string{g, c})
	}
	slices.SortFunc(out, func(a, b [2]string) int { return strings.Compare(a[0]+a[1], b[0]+b[1]) })
	return out
}

// webPollEvery is how often a replica looks at the watched tables: another replica's
// change of a shared table tells only its own publisher.
const webPollEvery = 500 * time.Millisecond

// pollWatched looks at every watched channel's table each webPollEvery, when tables
// are shared with other processes, and tells the watchers of those whose rendering
// moved.
func (b *Bot) pollWatched() {
	tick := time.NewTicker(webPollEvery)
	defer tick.Stop()
	last := map[string]string{}
	for {
		select {
		case <-b.stop:
			return
		case <-tick.C:
		}
		seen := map[string]bool{}
		for _, gc := range b.watch.watched() {
			key := gc[0] + "/" + gc[1]
			seen[key] = true
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			digest := b.tableDigest(ctx, gc[0], gc[1])
			cancel()
			// A channel seen for the first time may have changed since its pages read
			// it: they read it again, as after any change.
			if prev, ok := last[key]; !ok || prev != digest {
				b.watch.changed(gc[0], gc[1])
			}
			last[key] = digest
		}
		for k := range last {
			if !seen[k] {
				delete(last, k)
			}
		}
	}
}

// tableDigest sums up what a channel's table shows anyone: its public rendering and how
// many actions each member has taken this round.
func (b *Bot) tableDigest(ctx context.Context, guild, channel string) string {
	tb, err := b.history.TableByChannel(ctx, guild, channel)
	if err != nil {
		return "none"
	}
	t, err := b.tables.Get(ctx, tb.ID)
	if err != nil {
		return "none"
	}
	s, ok := b.pub.snapshot(ctx, t)
	if !ok {
		return "unread"
	}
	var seq strings.Builder
	members := make([]string, 0, len(s.MSeq))
	for m := range s.MSeq {
		members = append(members, m)
	}
	slices.Sort(members)
	for _, m := range members {
		seq.WriteString(m + ":" + strconv.Itoa(s.MSeq[m]) + ",")
	}
	return drawnDigest(b.view.Table("en", &s), view.PictureMoment(&s)) + seq.String() + s.MessageID
}

// launchActivity is the interaction callback type that opens the application's Activity
// (LAUNCH_ACTIVITY), which discordgo does not name.
const launchActivity discordgo.InteractionResponseType = 12

// clickOpen answers Open table by launching the table's web page in the channel: a
// Discord Activity, which Discord opens for the member with no message.
func (b *Bot) clickOpen(c *ictx, _ view.ID) error {
	if !b.opt.Activity {
		return refuse("err.unknown_button")
	}
	return b.respond(c, &discordgo.InteractionResponse{Type: launchActivity})
}

// WebText is a catalog text for the page in the language a locale (a member's Discord
// locale, or a browser's Accept-Language) chooses: the activity server's own refusals
// (err.activity_*), said before any state tells the member's language.
func (b *Bot) WebText(locale, key string) string {
	lang := "en"
	for _, tag := range strings.Split(locale, ",") {
		tag, _, _ = strings.Cut(strings.TrimSpace(tag), ";")
		if l := i18n.Choose("", tag); l != "" {
			lang = l
			break
		}
	}
	return b.cat.T(lang, key)
}

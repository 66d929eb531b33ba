package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/pontoon-bot/pontoon/bot/discordapi"
	"github.com/pontoon-bot/pontoon/bot/i18n"
	"github.com/pontoon-bot/pontoon/bot/table"
	"github.com/pontoon-bot/pontoon/bot/view"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
)

// Replies, and the choice of language, in one place.

func refuse(key string, args ...any) error { return table.Refuse(key, args...) }

// ictx is one interaction being answered.
type ictx struct {
	ctx     context.Context
	i       *discordgo.Interaction
	guild   string
	channel string
	user    string
	lang    string // the member's language, for ephemeral replies
	pub     string // the server's language, for public messages
	perms   int64
	now     time.Time
	resp    *discordgo.InteractionResponse // the reply, sent by handle once the handler has returned
	later   []func(context.Context)        // work that may wait on Discord, done after the reply
	release func()                         // ends a shared table's hold once the reply is out (scale.go); nil if none
	unclaim func()                         // lets the publisher edit the table message the reply updates (updateTable); nil if none
	drew    func(delivered bool)           // told whether the reply that redraws the table message reached Discord (updateTable); nil if none

	log     *slog.Logger // every line about this interaction carries its ids (interactionLogger)
	kind    string       // interactionKind, for metrics and logs
	arrived time.Time    // when the event came in: latency is measured from here to the answer
	shown   error        // the error the answer tells the member about, for the outcome
	note    string       // the line a member's own action shows once done (act), which the page shows on its own
}

// afterReply schedules work that calls Discord (posting a message) for after the reply,
// so a slow or rate-limited REST call cannot push the reply past Discord's 3 seconds.
func (c *ictx) afterReply(f func(context.Context)) { c.later = append(c.later, f) }

// manager reports whether the member may run the admin commands (perms.go: Manage
// Server or Administrator).
func (c *ictx) manager() bool { return canManage(c.perms) }

// handle answers one interaction that came over the gateway. It runs in discordgo's
// handler goroutine: answer (route, table, view), post the reply to the callback route,
// then the work that waits on Discord.
func (b *Bot) handle(i *discordgo.Interaction) {
	if !b.tables.Enter() {
		return
	}
	defer b.tables.Done()
	arrived := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := b.answer(ctx, i, arrived)
	if c == nil {
		return
	}
	b.send(c)
	c.done()
	runLater(table.WithLogger(context.Background(), c.log), c.later)
}

// runLater does an answer's later work with a context of its own (carrying the
// interaction's logger from base): it may wait on Discord's rate limits well past the
// interaction's.
func runLater(base context.Context, later []func(context.Context)) {
	if len(later) == 0 {
		return
	}
	lctx, lcancel := context.WithTimeout(base, 60*time.Second)
	defer lcancel()
	for _, f := range later {
		f(lctx)
	}
}

// answer works out one interaction's reply, the same whether it came over the gateway
// or as an HTTP POST (Route): route, then the table, then the view. It sends nothing;
// c.resp is the reply and c.later the work to do once it is out. nil means the
// interaction was answered before (a redelivery) and must get no second answer.
// arrived is when the event came in, for the latency the Recorder hears of.
func (b *Bot) answer(ctx context.Context, i *discordgo.Interaction, arrived time.Time) (c *ictx) {
	kind := interactionKind(i)
	c = &ictx{ctx: ctx, i: i, guild: i.GuildID, channel: i.ChannelID, now: b.now(),
		kind: kind, arrived: arrived, log: interactionLogger(b.log, i, kind)}
	// What the table logs while doing this interaction's command carries its ids too,
	// and what the store writes for it records its id in the same transaction
	// (store.WithInteraction): a redelivery, here or on another replica, before or after
	// a restart, finds it there and changes nothing.
	c.ctx = store.WithInteraction(table.WithLogger(ctx, c.log), i.ID, c.now)
	if i.Member != nil && i.Member.User != nil {
		c.user, c.perms = i.Member.User.ID, i.Member.Permissions
	} else if i.User != nil {
		c.user = i.User.ID
	}
	c.pub = b.lang.public(ctx, c.guild, guildLocale(i))
	c.lang = b.memberLang(ctx, c.guild, c.user, string(i.Locale), c.pub)
	defer func() {
		if r := recover(); r != nil {
			c.log.Error("handler panic", "panic", r, "stack", string(debug.Stack()))
			c.resp, c.later = nil, nil
			b.fail(c, errors.New("internal error"))
		}
	}()
	if c.guild == "" || c.user == "" {
		b.fail(c, refuse("err.guild_only"))
		return c
	}
	// A redelivered interaction (same id) was answered the first time; answering again
	// would be refused by Discord. The store is the truth (redelivered, below); the ids
	// this process has seen are only a first filter that spares it the work.
	if !b.seen.first(i.ID) {
		b.opt.Recorder.Interaction(c.kind, "redelivered", "", time.Since(c.arrived))
		return nil
	}
	b.noteName(i)
	b.share(c)
	if c.resp == nil { // else refused before routing
		if err := b.routeShared(c); err != nil {
			b.fail(c, err)
		}
	}
	if b.redelivered(c) {
		c.log.Debug("interaction applied before: no second answer")
		c.done()
		b.opt.Recorder.Interaction(c.kind, "redelivered", "", time.Since(c.arrived))
		return nil
	}
	return c
}

// redelivered reports whether the interaction is a delivery of one that an earlier
// delivery applied, whose answer is then not this one's to give. A delivery that
// changed something is the first (the store let it record the id); one the store
// refused as a duplicate is not. One that changed nothing and is refused is asked
// about: a redelivered click is usually refused before any write (its panel is out of
// date once the first delivery applied it), and the refusal would be a second answer.
// One that changed nothing and is not refused only showed something, and is answered.
func (b *Bot) redelivered(c *ictx) bool {
	switch {
	case store.Applied(c.ctx):
		return false
	case errors.Is(c.shown, store.ErrDuplicateInteraction):
		return true
	case c.shown == nil:
		return false
	}
	var tableID int64
	var round int
	if id, ok := view.ParseID(customID(c.i)); ok {
		tableID, round = id.Table, id.Round // an action is recorded in its round's row
	}
	applied, err := b.applied.InteractionApplied(c.ctx, c.i.ID, tableID, round)
	if err != nil {
		c.log.Warn("could not tell whether the interaction was applied before; answering it", "err", err)
		return false
	}
	return applied
}

// customID is the custom id of the component clicked or the modal submitted; "" for a
// command.
func customID(i *discordgo.Interaction) string {
	switch i.Type {
	case discordgo.InteractionMessageComponent:
		return i.MessageComponentData().CustomID
	case discordgo.InteractionModalSubmit:
		return i.ModalSubmitData().CustomID
	}
	return ""
}

// send delivers the interaction's one initial response. Handlers only record it, so it
// goes out after they return and no table lock is held.
func (b *Bot) send(c *ictx) {
	if c.resp == nil || b.s == nil {
		return
	}
	err := discordapi.Answer(c.ctx, b.s, c.i, c.resp)
	if err != nil {
		c.log.Warn("interaction response refused", "err", err)
	}
	b.record(c, err)
}

// withTable adds the table a command found by its channel (not by a custom id, whose
// table and round interactionLogger already logs) to every later line about the
// interaction, the table's own included.
func (c *ictx) withTable(t *table.Table) {
	c.log = c.log.With("table", t.ID(), "round", t.Round())
	c.ctx = table.WithLogger(c.ctx, c.log)
}

// channelTable is the channel's open table, which every later line about the
// interaction names (withTable), or a refusal saying there is none.
func (b *Bot) channelTable(c *ictx) (*table.Table, error) {
	t, err := b.tables.ByChannel(c.ctx, c.guild, c.channel)
	if err != nil {
		return nil, err
	}
	c.withTable(t)
	return t, nil
}

// respond records the interaction's one initial response for handle to send.
func (b *Bot) respond(c *ictx, r *discordgo.InteractionResponse) error {
	c.resp = r
	return nil
}

// private answers with a message only the member sees.
func (b *Bot) private(c *ictx, m view.Message, files ...*discordgo.File) error {
	d := data(m, discordgo.MessageFlagsEphemeral)
	d.Files = files
	return b.respond(c, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: d})
}

// privateText answers with a line only the member sees.
func (b *Bot) privateText(c *ictx, text string) error {
	return b.private(c, view.Message{Content: text})
}

// update replaces the message the clicked component is on (type 7): an ephemeral panel
// stays ephemeral, the public table is edited for everyone, and no follow-up is needed.
func (b *Bot) update(c *ictx, m view.Message) error {
	return b.respond(c, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: data(m, 0)})
}

// onPanel reports whether the clicked component is on the member's ephemeral panel.
func (c *ictx) onPanel() bool {
	return c.i.Message != nil && c.i.Message.Flags&discordgo.MessageFlagsEphemeral != 0
}

// panel answers with a member's panel: in place when they clicked on it, else as a new
// private message.
func (b *Bot) panel(c *ictx, m view.Message) error {
	if c.onPanel() || c.i.Type == discordgo.InteractionModalSubmit {
		return b.update(c, m)
	}
	return b.private(c, m)
}

// data is a whole message for an interaction response: empty lists, never null, so that
// an update clears what it leaves out (Discord keeps a field sent as null). A V2 message
// carries its flag on every answer: an update without it would ask Discord to clear it,
// which it refuses, and the empty embeds list is how an update of an older embed message
// resets its embeds as the flag requires.
func data(m view.Message, flags discordgo.MessageFlags) *discordgo.InteractionResponseData {
	d := &discordgo.InteractionResponseData{Content: m.Content, Embeds: m.Embeds, Components: m.Components, Flags: flags | m.Flags(),
		AllowedMentions: &discordgo.MessageAllowedMentions{}}
	if d.Embeds == nil {
		d.Embeds = []*discordgo.MessageEmbed{}
	}
	if d.Components == nil {
		d.Components = []discordgo.MessageComponent{}
	}
	return d
}

// fail answers with the reason an action was refused, in the member's language and only
// to them.
func (b *Bot) fail(c *ictx, err error) {
	if c.resp != nil {
		c.log.Warn("error after the interaction was answered", "err", err)
		return
	}
	_ = b.privateText(c, b.refusalText(c, err))
}

// refusalText is the "⛔ reason" line an answer shows for err, in the member's language.
// The answer then tells of err, so record counts it as refused (or failed) rather than
// answered: every reply that shows an error takes its words from here or from fail.
func (b *Bot) refusalText(c *ictx, err error) string {
	c.shown = err
	return "⛔ " + b.words(c.lang, err, c.log)
}

// words turns any error into a member's language: it is the one place errors become
// words (an answer uses it through refusalText or fail). What it must log (a refusal
// with no catalog entry) goes to log, the interaction's.
func (b *Bot) words(lang string, err error, log *slog.Logger) string {
	var r *table.Refusal
	var ge *game.Error
	var ins *store.InsufficientChipsError
	var cd *store.CooldownError
	var gc *store.GiftCapError
	switch {
	case errors.As(err, &r):
		args := make([]any, len(r.Args))
		for i, a := range r.Args {
			if m, ok := a.(table.Member); ok {
				a = b.view.MentionOr(lang, string(m))
			}
			args[i] = a
		}
		return b.cat.T(lang, r.Key, args...)
	case errors.As(err, &ge):
		return b.gameErrText(lang, ge, log)
	case errors.As(err, &cd):
		return b.cat.T(lang, "daily.cooldown", "When", view.RelTime(cd.Next))
	case errors.As(err, &gc):
		return b.cat.T(lang, "err.give_cap", "Cap", gc.Cap, "Given", gc.Given, "Left", gc.Left())
	case errors.As(err, &ins):
		return b.cat.T(lang, "err.store_insufficient", "Need", ins.Need, "Have", ins.Have)
	case errors.Is(err, store.ErrSelfTransfer):
		return b.cat.T(lang, "err.self_transfer")
	case errors.Is(err, store.ErrBadAmount):
		return b.cat.T(lang, "err.bad_amount")
	case errors.Is(err, store.ErrOverflow):
		return b.cat.T(lang, "err.overflow")
	case errors.Is(err, store.ErrTableOpen):
		return b.cat.T(lang, "err.table_exists")
	case errors.Is(err, store.ErrDuplicateAction), errors.Is(err, store.ErrDuplicateInteraction), errors.Is(err, store.ErrStaleSeq):
		return b.cat.T(lang, "err.already_applied")
	}
	// Anything else is the store or Discord failing: say plainly that nothing changed
	// (apply keeps nothing it could not commit). The cause is logged, with the
	// interaction's ids, where the answer is recorded (record, observe.go).
	return b.cat.T(lang, "err.not_saved")
}

// gameErrText renders an engine refusal: key err.<code>[.<why>] with the error's values,
// player names shown as mentions.
func (b *Bot) gameErrText(lang string, e *game.Error, log *slog.Logger) string {
	key := "err." + string(e.Code)
	if k := cannotNowKey(e); k != "" && b.cat.Has(k) {
		key = k // the action's own words, not a sentence built around its label
	}
	var kv []any
	for k, v := range e.Args {
		if k == "why" {
			key += "." + fmt.Sprint(v)
			continue
		}
		switch k {
		case "turn", "banker", "player", "next", "buyer":
			v = view.Mention(fmt.Sprint(v))
		case "phase":
			v = b.cat.T(lang, "phase."+fmt.Sprint(v))
		case "verb":
			v = b.cat.T(lang, "verb."+fmt.Sprint(v))
		}
		kv = append(kv, strings.ToUpper(k[:1])+k[1:], v)
	}
	if e.Rule != "" {
		kv = append(kv, "Rule", e.Rule)
	}
	if !b.cat.Has(key) {
		log.Warn("no catalog entry for a refusal", "key", key)
		key = "err." + string(e.Code)
	}
	return b.cat.T(lang, key, kv...)
}

// guildLocale is the server's Discord locale as the interaction carries it, or "".
func guildLocale(i *discordgo.Interaction) string {
	if i.GuildLocale == nil {
		return ""
	}
	return string(*i.GuildLocale)
}

// guildSettings is what /pontoon settings keeps per server.
type guildSettings struct {
	Language  string          `json:"language,omitempty"`
	Rules     json.RawMessage `json:"rules,omitempty"`
	TurnTimer string          `json:"turn_timer,omitempty"`
	Give      *giveSettings   `json:"give,omitempty"`
}

// giveSettings are the give rules a server's admin set; nil fields keep the
// configured ones (Options.Give).
type giveSettings struct {
	MinRounds      *int   `json:"min_rounds,omitempty"`
	MinAccountDays *int   `json:"min_account_days,omitempty"`
	DailyCap       *int64 `json:"daily_cap,omitempty"`
}

// settingsStore keeps /pontoon settings.
type settingsStore interface {
	GuildSettings(ctx context.Context, guild string) (string, error)
	SetGuildSettings(ctx context.Context, guild, settings string, now time.Time) error
}

// appliedStore tells whether an interaction was already applied (redelivery).
type appliedStore interface {
	InteractionApplied(ctx context.Context, id string, tableID int64, round int) (bool, error)
}

// languages chooses the language of a server's public messages and keeps the settings
// of the servers used most recently in memory (read once, written through; size of them,
// Options.CacheEntries), so an interaction reads none.
type languages struct {
	st       settingsStore
	fallback string
	locales  *lru.Cache[string, string]        // guild id -> the guild_locale its last interaction carried
	settings *lru.Cache[string, guildSettings] // guild id -> its settings
}

func newLanguages(st settingsStore, fallback string, size int) *languages {
	return &languages{st: st, fallback: fallback, locales: newCache[string, string](size), settings: newCache[string, guildSettings](size)}
}

// get is a server's settings.
func (l *languages) get(ctx context.Context, guild string) guildSettings {
	if v, ok := l.settings.Get(guild); ok {
		return v
	}
	var s guildSettings
	raw, err := l.st.GuildSettings(ctx, guild)
	if err != nil {
		return s // not cached: read again next time
	}
	if raw != "" {
		_ = json.Unmarshal([]byte(raw), &s)
	}
	l.settings.Add(guild, s)
	return s
}

// set writes a server's settings through to the store.
func (l *languages) set(ctx context.Context, guild string, s guildSettings, now time.Time) error {
	js, err := json.Marshal(s)
	if err != nil {
		return err
	}
	if err := l.st.SetGuildSettings(ctx, guild, string(js), now); err != nil {
		return err
	}
	l.settings.Add(guild, s)
	return nil
}

// public is the language of a server's public messages: its setting, else its Discord
// locale when the catalog speaks it, else the configured default, else English. Work
// that has no interaction at hand (edits, timers) passes "" and gets the locale the
// guild's last interaction carried.
func (l *languages) public(ctx context.Context, guild, guildLocale string) string {
	if guildLocale != "" {
		if v, ok := l.locales.Get(guild); !ok || v != guildLocale {
			l.locales.Add(guild, guildLocale)
		}
	} else if v, ok := l.locales.Get(guild); ok {
		guildLocale = v
	}
	if s := l.get(ctx, guild); i18n.Supported(s.Language) {
		return s.Language
	}
	if lang := i18n.FromDiscord(guildLocale); lang != "" {
		return lang
	}
	if i18n.Supported(l.fallback) {
		return l.fallback
	}
	return "en"
}

// seenIDs remembers the interaction ids answered recently, in two generations so that
// memory stays bounded: a redelivery comes within seconds, well inside one generation.
type seenIDs struct {
	mu        sync.Mutex
	cur, prev map[string]struct{}
}

const seenGeneration = 50000

// first reports whether id is seen for the first time, and remembers it.
func (s *seenIDs) first(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.cur[id]; ok {
		return false
	}
	if _, ok := s.prev[id]; ok {
		return false
	}
	if s.cur == nil || len(s.cur) >= seenGeneration {
		s.prev, s.cur = s.cur, make(map[string]struct{}, 1024)
	}
	s.cur[id] = struct{}{}
	return true
}

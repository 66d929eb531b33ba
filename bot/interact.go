package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/i18n"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
)

// refusal is a bot-level "no" to a member: a catalog key and its values.
type refusal struct {
	key  string
	args []any
}

func (r *refusal) Error() string { return r.key }

func refuse(key string, args ...any) error { return &refusal{key: key, args: args} }

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

	log     *slog.Logger // every line about this interaction carries its ids (interactionLogger)
	kind    string       // interactionKind, for metrics and logs
	arrived time.Time    // when the event came in: latency is measured from here to the answer
	shown   error        // the error the answer tells the member about, for the outcome
}

// afterReply schedules work that calls Discord (posting a message) for after the reply,
// so a slow or rate-limited REST call cannot push the reply past Discord's 3 seconds.
func (c *ictx) afterReply(f func(context.Context)) { c.later = append(c.later, f) }

// handle answers one interaction. It runs in discordgo's handler goroutine.
func (b *Bot) handle(i *discordgo.Interaction) {
	if !b.enter() {
		return
	}
	defer b.inflight.Done()
	arrived := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	kind := interactionKind(i)
	c := &ictx{ctx: ctx, i: i, guild: i.GuildID, channel: i.ChannelID, now: b.now(),
		kind: kind, arrived: arrived, log: interactionLogger(b.log, i, kind)}
	if i.Member != nil && i.Member.User != nil {
		c.user, c.perms = i.Member.User.ID, i.Member.Permissions
	} else if i.User != nil {
		c.user = i.User.ID
	}
	c.pub = b.publicLang(ctx, c.guild, guildLocale(i))
	c.lang = i18n.FromDiscord(string(i.Locale))
	if c.lang == "" {
		c.lang = c.pub
	}
	defer func() {
		if r := recover(); r != nil {
			c.log.Error("handler panic", "panic", r, "stack", string(debug.Stack()))
			c.resp = nil
			b.fail(c, errors.New("internal error"))
			b.send(c)
		}
	}()
	if c.guild == "" || c.user == "" {
		b.fail(c, refuse("err.guild_only"))
		b.send(c)
		return
	}
	// A redelivered interaction (same id) was answered the first time; answering again
	// would be refused by Discord, and applying it again would apply it twice.
	first, err := b.st.RememberInteraction(ctx, i.ID, c.now)
	if err != nil {
		b.fail(c, err)
		b.send(c)
		return
	}
	if !first {
		return
	}
	switch i.Type {
	case discordgo.InteractionApplicationCommand:
		err = b.command(c)
	case discordgo.InteractionMessageComponent:
		err = b.component(c)
	case discordgo.InteractionModalSubmit:
		err = b.modalSubmit(c)
	default:
		return
	}
	if err != nil {
		b.fail(c, err)
	}
	b.send(c)
	if len(c.later) > 0 {
		lctx, lcancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer lcancel()
		for _, f := range c.later {
			f(lctx)
		}
	}
}

// send delivers the interaction's one initial response. Handlers only record it, so it
// goes out after they return and have released the table's lock: a table does not wait
// on Discord's network for the next click.
func (b *Bot) send(c *ictx) {
	if c.resp == nil || b.s == nil {
		return
	}
	err := b.s.InteractionRespond(c.i, c.resp, discordgo.WithContext(c.ctx))
	if err != nil {
		c.log.Warn("interaction response refused", "err", err)
	}
	b.record(c, err)
}

// enter counts a piece of work in flight, so Close waits for it; it reports false once the
// bot is closing. The caller defers b.inflight.Done().
func (b *Bot) enter() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return false
	}
	b.inflight.Add(1)
	return true
}

// lockedTable returns the channel's open table with its lock held; the caller defers
// t.mu.Unlock().
func (b *Bot) lockedTable(c *ictx) (*liveTable, error) {
	t, err := b.liveByChannel(c.ctx, c.guild, c.channel)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	c.log = c.log.With("table", t.id, "round", t.round.Number)
	return t, nil
}

// respond records the interaction's one initial response for handle to send.
func (b *Bot) respond(c *ictx, r *discordgo.InteractionResponse) error {
	c.resp = r
	return nil
}

// private answers with a message only the member sees.
func (b *Bot) private(c *ictx, m message) error {
	return b.respond(c, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: m.data(discordgo.MessageFlagsEphemeral)})
}

// update replaces the message the clicked component is on (type 7): an ephemeral panel
// stays ephemeral, the public table is edited for everyone, and no follow-up is needed.
func (b *Bot) update(c *ictx, m message) error {
	return b.respond(c, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: m.data(0)})
}

// message is a rendered Discord message. It is always sent whole: discordgo serializes a
// type 7 update with "embeds": null, so a partial update would erase the embeds.
type message struct {
	Content    string
	Embeds     []*discordgo.MessageEmbed
	Components []discordgo.MessageComponent
	Files      []*discordgo.File
}

func (m message) data(flags discordgo.MessageFlags) *discordgo.InteractionResponseData {
	d := &discordgo.InteractionResponseData{Content: m.Content, Embeds: m.Embeds, Components: m.Components, Flags: flags,
		Files: m.Files, AllowedMentions: &discordgo.MessageAllowedMentions{}}
	if d.Embeds == nil {
		d.Embeds = []*discordgo.MessageEmbed{}
	}
	if d.Components == nil {
		d.Components = []discordgo.MessageComponent{}
	}
	return d
}

// fail answers with the reason an action was refused, in the member's language and only
// to them. It is the one place errors become words.
func (b *Bot) fail(c *ictx, err error) {
	if c.resp != nil {
		c.log.Warn("error after the interaction was answered", "err", err)
		return
	}
	c.shown = err
	_ = b.private(c, message{Content: "⛔ " + b.errText(c.lang, err)})
}

// errText turns any error into a member's language.
func (b *Bot) errText(lang string, err error) string {
	var r *refusal
	var ge *game.Error
	var ins *store.InsufficientChipsError
	var cd *store.CooldownError
	switch {
	case errors.As(err, &r):
		return b.cat.T(lang, r.key, r.args...)
	case errors.As(err, &ge):
		return b.gameErrText(lang, ge)
	case errors.As(err, &cd):
		return b.cat.T(lang, "daily.cooldown", "When", relTime(cd.Next))
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
	// An unexpected error is logged, with the interaction's ids, where it is recorded
	// (record, observe.go).
	return b.cat.T(lang, "err.internal")
}

// gameErrText renders an engine refusal: key err.<code>[.<why>] with the error's values,
// player names shown as mentions.
func (b *Bot) gameErrText(lang string, e *game.Error) string {
	key := "err." + string(e.Code)
	var kv []any
	for k, v := range e.Args {
		if k == "why" {
			key += "." + fmt.Sprint(v)
			continue
		}
		switch k {
		case "turn", "banker", "player", "next", "buyer":
			v = "<@" + fmt.Sprint(v) + ">"
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
		b.log.Warn("no catalog entry for a refusal", "key", key)
		key = "err." + string(e.Code)
	}
	return b.cat.T(lang, key, kv...)
}

// relTime is Discord's relative timestamp ("in 3 hours"), shown in each reader's locale.
func relTime(t time.Time) string { return fmt.Sprintf("<t:%d:R>", t.Unix()) }

// guildLocale is the server's Discord locale as the interaction carries it, or "".
func guildLocale(i *discordgo.Interaction) string {
	if i.GuildLocale == nil {
		return ""
	}
	return string(*i.GuildLocale)
}

func mention(id string) string { return "<@" + id + ">" }

func mentions(ids []string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = mention(id)
	}
	return strings.Join(out, ", ")
}

// guildSettings is what /pontoon settings keeps per server.
type guildSettings struct {
	Language  string          `json:"language,omitempty"`
	Rules     json.RawMessage `json:"rules,omitempty"`
	TurnTimer string          `json:"turn_timer,omitempty"`
}

func (b *Bot) settings(ctx context.Context, guild string) guildSettings {
	var s guildSettings
	raw, err := b.st.GuildSettings(ctx, guild)
	if err == nil && raw != "" {
		_ = json.Unmarshal([]byte(raw), &s)
	}
	return s
}

// publicLang is the language of a server's public messages: its setting, else its
// Discord locale when the catalog speaks it, else the configured default, else English.
// Work that has no interaction at hand (coalesced edits, timers) passes "" and gets the
// locale the guild's last interaction carried.
func (b *Bot) publicLang(ctx context.Context, guild, guildLocale string) string {
	if guildLocale != "" {
		b.locales.Store(guild, guildLocale)
	} else if v, ok := b.locales.Load(guild); ok {
		guildLocale = v.(string)
	}
	if s := b.settings(ctx, guild); i18n.Supported(s.Language) {
		return s.Language
	}
	if l := i18n.FromDiscord(guildLocale); l != "" {
		return l
	}
	if i18n.Supported(b.opt.Language) {
		return b.opt.Language
	}
	return "en"
}

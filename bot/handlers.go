package bot

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
)

type options map[string]*discordgo.ApplicationCommandInteractionDataOption

func optionMap(opts []*discordgo.ApplicationCommandInteractionDataOption) options {
	m := options{}
	for _, o := range opts {
		m[o.Name] = o
	}
	return m
}

// command routes a slash command by its canonical subcommand name.
func (b *Bot) command(c *ictx) error {
	data := c.i.ApplicationCommandData()
	if data.Name != "pontoon" || len(data.Options) == 0 {
		return refuse("err.unknown_command")
	}
	sub := data.Options[0]
	name, opts := sub.Name, sub.Options
	if sub.Type == discordgo.ApplicationCommandOptionSubCommandGroup && len(sub.Options) > 0 {
		name += " " + sub.Options[0].Name
		opts = sub.Options[0].Options
	}
	o := optionMap(opts)
	switch name {
	case "start":
		return b.cmdStart(c, o)
	case "stop":
		return b.cmdStop(c)
	case "hand":
		return b.cmdHand(c)
	case "rules":
		return b.cmdRules(c)
	case "balance":
		return b.cmdBalance(c, o)
	case "leaderboard":
		page := 1
		if p, ok := o["page"]; ok {
			page = int(p.IntValue())
		}
		return b.private(c, b.leaderboard(c, page))
	case "daily":
		return b.cmdDaily(c)
	case "give":
		return b.cmdGive(c, o)
	case "grant":
		return b.cmdGrant(c, o)
	case "history":
		return b.cmdHistory(c, o)
	case "settings":
		return b.cmdSettings(c, o)
	case "bank sell":
		return b.cmdSell(c, o)
	case "bank kitty":
		return b.cmdKitty(c, o)
	case "bank auction":
		return b.cmdAuction(c)
	case "bank bid":
		return b.cmdBid(c, o)
	}
	return refuse("err.unknown_command")
}

// ruleKeys are the options of /pontoon start and /pontoon settings that are game rules.
var ruleKeys = []string{"variant", "min_stake", "max_stake", "kitty_min", "kitty_max", "stick_min", "split", "banker_may_double",
	"pontoon_pays", "banker_pontoon_collects", "four_low_twist_only", "royal_pontoon", "pontoon_tiers", "burn", "decks"}

// rulesFrom lays the command's rule options over base and validates the result.
func rulesFrom(base game.Rules, o options) (game.Rules, error) {
	raw, _ := json.Marshal(base)
	m := map[string]any{}
	_ = json.Unmarshal(raw, &m)
	for _, k := range ruleKeys {
		if v, ok := o[k]; ok {
			m[k] = v.Value
		}
	}
	raw, _ = json.Marshal(m)
	r, err := game.ParseRules(raw)
	if err != nil {
		switch {
		case m["max_stake"] != nil && toFloat(m["max_stake"]) < toFloat(m["min_stake"]):
			return r, refuse("err.rules_stakes", "Min", m["min_stake"], "Max", m["max_stake"])
		case toFloat(m["kitty_max"]) < toFloat(m["kitty_min"]):
			return r, refuse("err.rules_kitty", "Min", m["kitty_min"], "Max", m["kitty_max"])
		}
		return r, refuse("err.rules_invalid")
	}
	return r, nil
}

func toFloat(v any) float64 {
	f, _ := v.(float64)
	return f
}

// serverDefaults are the house rules and turn timer a new table starts from.
func (b *Bot) serverDefaults(ctx context.Context, guild string) (game.Rules, time.Duration) {
	s := b.settings(ctx, guild)
	rules, turn := b.opt.DefaultRules, b.opt.TurnTimer
	if len(s.Rules) > 0 {
		if r, err := game.ParseRules(s.Rules); err == nil {
			rules = r
		}
	}
	if d, err := time.ParseDuration(s.TurnTimer); err == nil && d > 0 {
		turn = d
	}
	return rules, turn
}

func (b *Bot) cmdStart(c *ictx, o options) error {
	base, turn := b.serverDefaults(c.ctx, c.guild)
	rules, err := rulesFrom(base, o)
	if err != nil {
		return err
	}
	if v, ok := o["turn_timer"]; ok {
		turn = time.Duration(v.IntValue()) * time.Second
	}
	cfg, _ := json.Marshal(tableConfig{Rules: rules, TurnTimer: turn.String()})
	if _, _, err := b.st.EnsureWallet(c.ctx, c.guild, c.user, b.opt.StartingChips, c.now); err != nil {
		return err
	}
	tb, err := b.st.OpenTable(c.ctx, store.OpenTableParams{Guild: c.guild, Channel: c.channel, Host: c.user, Rules: string(cfg), Now: c.now})
	if err != nil {
		return err
	}
	if err := b.st.SetSeats(c.ctx, tb.ID, []string{c.user}, c.now); err != nil {
		return err
	}
	tb.Seats = []store.Seat{{Member: c.user}}
	t, err := newLive(tb)
	if err != nil {
		return err
	}
	st, err := b.st.TableState(c.ctx, tb.ID)
	if err != nil {
		return err
	}
	t.kitty = st.Kitty
	b.mu.Lock()
	b.tables[t.id] = t
	b.mu.Unlock()
	t.mu.Lock()
	defer t.mu.Unlock()
	b.preparePack(c.ctx, t, tb.RoundNumber+1, nil)
	c.afterReply(func(ctx context.Context) { b.postTable(ctx, t, c.pub) })
	return b.private(c, message{Content: b.cat.T(c.lang, "start.opened", "Rules", b.rulesText(c.lang, t.cfg, t.turn.String()))})
}

// postTable posts a new table's public message and remembers it, so that after a restart
// the bot edits the same message.
func (b *Bot) postTable(ctx context.Context, t *liveTable, lang string) {
	t.mu.Lock()
	m := b.renderTable(lang, t)
	t.mu.Unlock()
	sent, err := b.s.ChannelMessageSendComplex(t.channel, &discordgo.MessageSend{Embeds: m.Embeds, Components: m.Components,
		AllowedMentions: &discordgo.MessageAllowedMentions{}}, discordgo.WithContext(ctx))
	if err != nil {
		b.log.Error("table message not posted", "table", t.id, "err", err)
		return
	}
	if err := b.st.SetTableMessage(ctx, t.id, sent.ID); err != nil {
		b.log.Error("table message not recorded", "table", t.id, "err", err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.messageID = sent.ID
	b.scheduleEdit(t) // anything that happened while it was being posted
}

func (b *Bot) cmdStop(c *ictx) error {
	t, err := b.lockedTable(c)
	if err != nil {
		return err
	}
	defer t.mu.Unlock()
	if c.user != t.host && c.user != t.banker() && !canManage(c.perms) {
		return refuse("err.stop_forbidden")
	}
	if t.inRound() {
		t.closing = true
		b.scheduleEdit(t)
		return b.private(c, message{Content: b.cat.T(c.lang, "stop.after_round")})
	}
	if err := b.st.CloseTable(c.ctx, t.id, c.now); err != nil {
		return err
	}
	t.closed = true
	t.stopTimers()
	t.editing = false
	b.scheduleEdit(t)
	return b.private(c, message{Content: b.cat.T(c.lang, "stop.closed")})
}

func (b *Bot) cmdHand(c *ictx) error {
	t, err := b.lockedTable(c)
	if err != nil {
		return err
	}
	defer t.mu.Unlock()
	return b.private(c, b.renderPanel(c.lang, t, c.user, ""))
}

func (b *Bot) cmdRules(c *ictx) error {
	t, err := b.liveByChannel(c.ctx, c.guild, c.channel)
	var text string
	if err == nil {
		t.mu.Lock()
		text = b.rulesText(c.lang, t.cfg, t.turn.String())
		t.mu.Unlock()
	} else {
		rules, turn := b.serverDefaults(c.ctx, c.guild)
		text = b.cat.T(c.lang, "rules.server_defaults") + "\n" + b.rulesText(c.lang, tableConfig{Rules: rules}, turn.String())
	}
	return b.private(c, message{Embeds: []*discordgo.MessageEmbed{{Title: b.cat.T(c.lang, "rules.title"), Description: text}}})
}

// cid is a parsed component custom id.
type cid struct {
	kind  string
	table int64
	round int
	mseq  int
	arg   string
}

func parseCID(s string) (cid, bool) {
	f := strings.SplitN(s, ":", 6)
	if len(f) != 6 || f[0] != "pt" {
		return cid{}, false
	}
	table, err1 := strconv.ParseInt(f[2], 10, 64)
	round, err2 := strconv.Atoi(f[3])
	mseq, err3 := strconv.Atoi(f[4])
	if err1 != nil || err2 != nil || err3 != nil {
		return cid{}, false
	}
	return cid{kind: f[1], table: table, round: round, mseq: mseq, arg: f[5]}, true
}

// component routes a button or select by its custom id.
func (b *Bot) component(c *ictx) error {
	data := c.i.MessageComponentData()
	id, ok := parseCID(data.CustomID)
	if !ok {
		return refuse("err.unknown_button")
	}
	switch id.kind {
	case "lb":
		return b.update(c, b.leaderboard(c, id.round))
	case "offer":
		return b.answerOffer(c, id)
	}
	t, err := b.live(c.ctx, id.table)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return refuse("err.table_closed")
	}
	onPanel := c.i.Message != nil && c.i.Message.Flags&discordgo.MessageFlagsEphemeral != 0
	switch id.kind {
	case "join":
		return b.join(c, t)
	case "leave":
		return b.leave(c, t)
	case "deal":
		if !t.seated(c.user) {
			return refuse("err.not_seated")
		}
		if err := b.deal(c.ctx, t); err != nil {
			b.scheduleEdit(t) // a cut may have chosen a banker even when the deal waits for a kitty
			return err
		}
		return b.update(c, b.renderTable(c.pub, t))
	case "cards":
		m := b.renderPanel(c.lang, t, c.user, "")
		if onPanel {
			return b.update(c, m)
		}
		return b.private(c, m)
	case "rules":
		return b.private(c, message{Embeds: []*discordgo.MessageEmbed{{Title: b.cat.T(c.lang, "rules.title"), Description: b.rulesText(c.lang, t.cfg, t.turn.String())}}})
	case "act", "amt", "ask":
		if err := b.fresh(t, id, c.user); err != nil {
			return b.panelRefusal(c, t, err, onPanel)
		}
		verb := game.Verb(id.arg)
		if id.kind == "ask" {
			lo, hi, ok := legalRange(t.g, c.user, verb)
			if !ok {
				return b.panelRefusal(c, t, refuse("err.not_now"), onPanel)
			}
			return b.respond(c, b.amountModal(c.lang, customID("mod", t.id, id.round, id.mseq, id.arg), verb, lo, hi))
		}
		a := game.Action{Player: c.user, Verb: verb}
		if id.kind == "amt" {
			if len(data.Values) != 1 {
				return b.panelRefusal(c, t, refuse("err.not_a_number"), onPanel)
			}
			n, err := strconv.ParseInt(data.Values[0], 10, 64)
			if err != nil {
				return b.panelRefusal(c, t, refuse("err.not_a_number"), onPanel)
			}
			a.Amount = n
		}
		return b.act(c, t, a, onPanel)
	}
	return refuse("err.unknown_button")
}

// fresh refuses a button from an earlier round, or from before the member's last
// action (a double click, or a panel left open across turns).
func (b *Bot) fresh(t *liveTable, id cid, member string) error {
	if id.round != t.round.Number {
		return refuse("err.stale_round", "Old", id.round, "Now", t.round.Number)
	}
	if id.mseq != t.mseq[member] {
		return refuse("err.stale_turn")
	}
	return nil
}

func legalRange(g *game.Game, member string, verb game.Verb) (int64, int64, bool) {
	if g == nil {
		return 0, 0, false
	}
	for _, m := range g.Legal(member) {
		if m.Verb == verb {
			return m.Min, m.Max, true
		}
	}
	return 0, 0, false
}

// act applies a member's own action and answers with their refreshed panel.
func (b *Bot) act(c *ictx, t *liveTable, a game.Action, onPanel bool) error {
	if _, err := b.apply(c.ctx, t, a, c.i.ID); err != nil {
		return b.panelRefusal(c, t, err, onPanel)
	}
	notice := "✅ " + b.cat.T(c.lang, "notice.done", "Verb", b.cat.T(c.lang, "verb."+string(a.Verb)))
	if amountVerbs[a.Verb] {
		notice = "✅ " + b.cat.T(c.lang, "notice.done_amount", "Verb", b.cat.T(c.lang, "verb."+string(a.Verb)), "Count", a.Amount)
	}
	m := b.renderPanel(c.lang, t, c.user, notice)
	if onPanel {
		return b.update(c, m)
	}
	return b.private(c, m)
}

// panelRefusal answers a refused action on the member's panel: the reason on top of the
// panel as it now stands, so the next click is a fresh one.
func (b *Bot) panelRefusal(c *ictx, t *liveTable, err error, onPanel bool) error {
	c.shown = err
	m := b.renderPanel(c.lang, t, c.user, "⛔ "+b.errText(c.lang, err))
	if onPanel {
		return b.update(c, m)
	}
	return b.private(c, m)
}

func (b *Bot) join(c *ictx, t *liveTable) error {
	if t.seated(c.user) {
		return refuse("err.already_seated")
	}
	if len(t.seats) >= b.opt.MaxSeats {
		return refuse("err.table_full", "Count", b.opt.MaxSeats)
	}
	if c.i.Member != nil && c.i.Member.User != nil && c.i.Member.User.Bot {
		return refuse("err.bot_player")
	}
	if _, _, err := b.st.EnsureWallet(c.ctx, c.guild, c.user, b.opt.StartingChips, c.now); err != nil {
		return err
	}
	seats := append(slices.Clone(t.seats), c.user)
	if err := b.st.SetSeats(c.ctx, t.id, seats, c.now); err != nil {
		return err
	}
	t.seats = seats
	return b.update(c, b.renderTable(c.pub, t))
}

func (b *Bot) leave(c *ictx, t *liveTable) error {
	if !t.seated(c.user) {
		return refuse("err.not_seated")
	}
	if t.inRound() && (c.user == t.g.Banker || inRound(t.g, c.user)) {
		return refuse("err.leave_in_round")
	}
	seats := slices.DeleteFunc(slices.Clone(t.seats), func(s string) bool { return s == c.user })
	if err := b.st.SetSeats(c.ctx, t.id, seats, c.now); err != nil {
		return err
	}
	t.seats = seats
	return b.update(c, b.renderTable(c.pub, t))
}

// modalSubmit applies a typed amount.
func (b *Bot) modalSubmit(c *ictx) error {
	data := c.i.ModalSubmitData()
	id, ok := parseCID(data.CustomID)
	if !ok || id.kind != "mod" {
		return refuse("err.unknown_button")
	}
	var value string
	for _, row := range data.Components {
		if r, ok := row.(*discordgo.ActionsRow); ok {
			for _, comp := range r.Components {
				if in, ok := comp.(*discordgo.TextInput); ok && in.CustomID == "amount" {
					value = in.Value
				}
			}
		}
	}
	t, err := b.live(c.ctx, id.table)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := b.fresh(t, id, c.user); err != nil {
		return b.panelRefusal(c, t, err, true)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
	if err != nil || n < 0 {
		return b.panelRefusal(c, t, refuse("err.not_a_number", "Value", truncate(value, 20)), true)
	}
	return b.act(c, t, game.Action{Player: c.user, Verb: game.Verb(id.arg), Amount: n}, true)
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

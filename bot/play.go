package bot

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/i18n"
	"github.com/pontoon-bot/pontoon/bot/table"
	"github.com/pontoon-bot/pontoon/bot/view"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
)

// The table's own commands and components: open, stop, seats, deal, panels and actions.

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
	s := b.lang.get(ctx, guild)
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

// tablePerms are what the bot needs in a channel to show a table there, each with its
// catalog name: see it, post it, its embed, and find it again after a restart.
var tablePerms = []struct {
	bit int64
	key string
}{
	{discordgo.PermissionViewChannel, "perm.view_channel"},
	{discordgo.PermissionSendMessages, "perm.send_messages"},
	{discordgo.PermissionEmbedLinks, "perm.embed_links"},
	{discordgo.PermissionReadMessageHistory, "perm.read_history"},
}

// missingPerms names, in lang, what the interaction's app_permissions lack of tablePerms.
func (b *Bot) missingPerms(c *ictx) i18n.List {
	var names i18n.List
	for _, p := range tablePerms {
		if c.i.AppPermissions&p.bit == 0 {
			names = append(names, b.cat.T(c.lang, p.key))
		}
	}
	return names
}

func (b *Bot) cmdStart(c *ictx, o options) error {
	// Check first that the table can be shown here: a table nobody can see would block
	// the channel (one table per channel).
	if missing := b.missingPerms(c); len(missing) > 0 {
		return refuse("err.missing_permissions", "Permissions", missing, "Count", len(missing))
	}
	base, turn := b.serverDefaults(c.ctx, c.guild)
	rules, err := rulesFrom(base, o)
	if err != nil {
		return err
	}
	if v, ok := o["turn_timer"]; ok {
		turn = time.Duration(v.IntValue()) * time.Second
	}
	t, snap, err := b.tables.Open(c.ctx, table.OpenParams{Guild: c.guild, Channel: c.channel, Host: c.user,
		Config: table.Config{Rules: rules, TurnTimer: turn.String()}})
	if errors.Is(err, store.ErrTooManyTables) {
		return refuse("err.too_many_tables", "Limit", b.opt.MaxOpenTables)
	}
	if err != nil {
		return err
	}
	c.withTable(t)
	pub, i, lang := c.pub, c.i, c.lang
	c.afterReply(func(ctx context.Context) {
		if err := b.pub.post(ctx, t, pub); err != nil {
			// Discord refused the table although app_permissions allowed it: close it again
			// and tell the member, rather than leave a table nobody sees.
			if err := t.Abandon(ctx); err != nil {
				c.log.Error("unposted table not closed", "err", err)
			}
			if _, err := b.s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: b.cat.T(lang, "start.post_failed"),
				Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: &discordgo.MessageAllowedMentions{}}, discordgo.WithContext(ctx)); err != nil {
				c.log.Warn("post failure not told", "err", err)
			}
		}
	})
	return b.privateText(c, b.cat.T(c.lang, "start.opened", "Rules", b.view.RulesText(c.lang, snap.Config.Rules, snap.Config.Turn())))
}

func (b *Bot) cmdStop(c *ictx, _ options) error {
	t, err := b.channelTable(c)
	if err != nil {
		return err
	}
	res, _, err := t.Stop(c.ctx, c.user, c.manager())
	if err != nil {
		return err
	}
	switch res {
	case table.StopAfterRound:
		return b.privateText(c, b.cat.T(c.lang, "stop.after_round"))
	case table.StopResolved:
		return b.privateText(c, b.cat.T(c.lang, "stop.resolved"))
	}
	return b.privateText(c, b.cat.T(c.lang, "stop.closed"))
}

// panelMessage renders a member's panel, with their balance between rounds (read with no
// table lock held).
func (b *Bot) panelMessage(c *ictx, s *table.Snapshot, notice string) view.Message {
	wallet := int64(view.NoBalance)
	if !s.InRound() && s.Seated(c.user) {
		if w, err := b.economy.Wallet(c.ctx, c.guild, c.user); err == nil {
			wallet = w.Balance
		}
	}
	return b.view.Panel(c.lang, s, c.user, notice, wallet)
}

func (b *Bot) cmdHand(c *ictx, _ options) error {
	t, err := b.channelTable(c)
	if err != nil {
		return err
	}
	s := t.Snapshot()
	return b.private(c, b.panelMessage(c, &s, ""))
}

func (b *Bot) cmdRules(c *ictx, _ options) error {
	if t, err := b.channelTable(c); err == nil {
		s := t.Snapshot()
		return b.private(c, b.view.Rules(c.lang, s.Config.Rules, s.Config.Turn(), false))
	}
	rules, turn := b.serverDefaults(c.ctx, c.guild)
	return b.private(c, b.view.Rules(c.lang, rules, turn, true))
}

// tableOf is the open table a component belongs to.
func (b *Bot) tableOf(c *ictx, id view.ID) (*table.Table, error) {
	return b.tables.Get(c.ctx, id.Table)
}

func (b *Bot) clickJoin(c *ictx, id view.ID) error {
	if c.i.Member != nil && c.i.Member.User != nil && c.i.Member.User.Bot {
		return refuse("err.bot_player")
	}
	t, err := b.tableOf(c, id)
	if err != nil {
		return err
	}
	if _, err := t.Join(c.ctx, c.user); err != nil {
		return err
	}
	return b.updateTable(c, t)
}

func (b *Bot) clickLeave(c *ictx, id view.ID) error {
	t, err := b.tableOf(c, id)
	if err != nil {
		return err
	}
	if _, err := t.Leave(c.ctx, c.user); err != nil {
		return err
	}
	return b.updateTable(c, t)
}

func (b *Bot) clickDeal(c *ictx, id view.ID) error {
	t, err := b.tableOf(c, id)
	if err != nil {
		return err
	}
	// The Deal button carries the round the member saw last: one drawn before a round
	// they never saw (their client missed the edits) does not deal another.
	if now := t.Round(); id.Round != now {
		return refuse("err.stale_round", "Old", id.Round, "Now", now)
	}
	if _, err := t.Deal(c.ctx, c.user, c.i.ID); err != nil {
		return err
	}
	// The deal is a picture moment: once this answer has updated the message, the
	// publisher attaches the picture (before it, the answer would take it out of the container).
	c.afterReply(func(context.Context) { b.pub.Changed(t) })
	return b.updateTable(c, t)
}

// updateTable answers a click on the public table with the table as it now stands, in
// place (type 7). The publisher's edit of the same message, if one is on its way, is
// waited for (claim): drawn from an earlier state, it would land after the answer and
// show the older table again. If it takes too long the click is acknowledged (type 6)
// and the publisher's next edit, made at once, shows it.
func (b *Bot) updateTable(c *ictx, t *table.Table) error {
	// The table's web pages read it again: a change this answer draws (a seat) is one
	// the publisher never hears of.
	b.watch.changed(t.Guild(), t.Channel())
	release, ok := b.pub.claim(c.ctx, t)
	if !ok {
		return b.respond(c, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
	}
	c.unclaim = release
	s := t.Snapshot()
	m := b.view.Table(c.pub, &s)
	c.drew = b.pub.answered(t, s.MessageID, drawnDigest(m, view.PictureMoment(&s)))
	return b.update(c, b.publicTable(&s, m))
}

func (b *Bot) clickCards(c *ictx, id view.ID) error {
	t, err := b.tableOf(c, id)
	if err != nil {
		return err
	}
	s := t.Snapshot()
	if s.Closed {
		return refuse("err.table_closed")
	}
	return b.panel(c, b.panelMessage(c, &s, ""))
}

func (b *Bot) clickRules(c *ictx, id view.ID) error {
	t, err := b.tableOf(c, id)
	if err != nil {
		return err
	}
	s := t.Snapshot()
	return b.private(c, b.view.Rules(c.lang, s.Config.Rules, s.Config.Turn(), false))
}

// act applies a member's own action and answers with their refreshed panel; a refusal is
// shown on top of the panel as it now stands, so the next click is a fresh one.
func (b *Bot) act(c *ictx, t *table.Table, id view.ID, a game.Action) error {
	s, err := t.Act(c.ctx, a, c.i.ID, id.Check)
	if err != nil {
		return b.actRefused(c, &s, err)
	}
	c.note = b.view.Done(c.lang, a)
	return b.panel(c, b.panelMessage(c, &s, c.note))
}

// actRefused answers an action the table refused with the reason on the member's panel.
// A closed table's refusal, and a replica's stale copy, go back to the router instead:
// routeShared rebuilds a stale table and tries again, rather than showing the member
// the store's refusal of a commit they had no part in.
func (b *Bot) actRefused(c *ictx, s *table.Snapshot, err error) error {
	if s.Closed || (b.shared() && stale(err)) {
		return err
	}
	return b.panel(c, b.panelMessage(c, s, b.refusalText(c, err)))
}

// refusePanel answers a click that never reached the table with the reason on the panel.
func (b *Bot) refusePanel(c *ictx, t *table.Table, err error) error {
	s := t.Snapshot()
	if s.Closed {
		return refuse("err.table_closed")
	}
	return b.panel(c, b.panelMessage(c, &s, b.refusalText(c, err)))
}

func (b *Bot) clickAct(c *ictx, id view.ID) error {
	t, err := b.tableOf(c, id)
	if err != nil {
		return err
	}
	return b.act(c, t, id, game.Action{Player: c.user, Verb: game.Verb(id.Arg)})
}

func (b *Bot) clickAmount(c *ictx, id view.ID) error {
	t, err := b.tableOf(c, id)
	if err != nil {
		return err
	}
	values := c.i.MessageComponentData().Values
	if len(values) != 1 {
		return b.refusePanel(c, t, refuse("err.not_a_number"))
	}
	n, err := strconv.ParseInt(values[0], 10, 64)
	if err != nil {
		return b.refusePanel(c, t, refuse("err.not_a_number"))
	}
	if id.Arg == view.ShootTwistVerb {
		return b.shootTwist(c, t, id, n)
	}
	return b.act(c, t, id, game.Action{Player: c.user, Verb: game.Verb(id.Arg), Amount: n})
}

// clickAsk opens the typed-amount modal showing the legal range.
func (b *Bot) clickAsk(c *ictx, id view.ID) error {
	t, err := b.tableOf(c, id)
	if err != nil {
		return err
	}
	s := t.Snapshot()
	if s.Closed {
		return refuse("err.table_closed")
	}
	if err := id.Check(s.Round.Number, s.MSeq[c.user]); err != nil {
		return b.panel(c, b.panelMessage(c, &s, b.refusalText(c, err)))
	}
	if id.Arg == view.ShootBuyVerb {
		return b.askShootBuy(c, id, &s)
	}
	lo, hi, ok := legalRange(s.Game, c.user, game.Verb(id.Arg))
	if !ok {
		return b.panel(c, b.panelMessage(c, &s, b.refusalText(c, refuse("err.not_now"))))
	}
	return b.respond(c, b.view.AmountModal(c.lang, id, lo, hi))
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

// submitAmount applies a typed amount.
func (b *Bot) submitAmount(c *ictx, id view.ID) error {
	if id.Arg == view.ShootBuyVerb {
		return b.submitShootBuy(c, id)
	}
	var value string
	for _, row := range c.i.ModalSubmitData().Components {
		if r, ok := row.(*discordgo.ActionsRow); ok {
			for _, comp := range r.Components {
				if in, ok := comp.(*discordgo.TextInput); ok && in.CustomID == "amount" {
					value = in.Value
				}
			}
		}
	}
	t, err := b.tableOf(c, id)
	if err != nil {
		return err
	}
	n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
	if err != nil || n < 0 {
		s := t.Snapshot()
		if err := id.Check(s.Round.Number, s.MSeq[c.user]); err != nil {
			return b.refusePanel(c, t, err)
		}
		return b.refusePanel(c, t, refuse("err.not_a_number", "Value", truncate(value, 20)))
	}
	return b.act(c, t, id, game.Action{Player: c.user, Verb: game.Verb(id.Arg), Amount: n})
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

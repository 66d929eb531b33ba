package view

import (
	"github.com/pontoon-bot/pontoon/bot/i18n"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/table"
	"github.com/pontoon-bot/pontoon/game"
)

// maxChoices is how many options a Discord select holds.
const maxChoices = 25

// AmountChoices is the set of amounts a select offers from [lo, hi]: every amount when
// they fit, else the minimum, the maximum, the member's last amount (last; 0 for none)
// and the multiples of the smallest round step (1, 2, 5, 10, 20, 25, 50, 100, …) that
// leaves room for them: amounts a person would pick from.
func AmountChoices(lo, hi, last int64) []int64 {
	if hi < lo {
		return nil
	}
	if hi-lo < maxChoices {
		out := make([]int64, 0, hi-lo+1)
		for v := lo; v <= hi; v++ {
			out = append(out, v)
		}
		return out
	}
	extra := int64(2) // the ends
	if last > lo && last < hi {
		extra++
	}
	step := int64(1)
	for mult := int64(1); ; mult *= 10 {
		found := false
		for _, m := range []int64{1, 2, 5, 10, 20, 25, 50} {
			s := m * mult
			// multiples of s strictly between lo and hi
			if n := (hi-1)/s - lo/s; n+extra <= maxChoices {
				step, found = s, true
				break
			}
		}
		if found {
			break
		}
	}
	out := []int64{lo}
	for v := (lo/step + 1) * step; v < hi; v += step {
		if last > lo && last < hi && last < v && (len(out) == 0 || out[len(out)-1] < last) {
			out = append(out, last)
		}
		if v != last {
			out = append(out, v)
		}
	}
	if last > lo && last < hi && out[len(out)-1] < last {
		out = append(out, last)
	}
	return append(out, hi)
}

// AmountVerbs are the actions that take an amount.
var AmountVerbs = map[game.Verb]bool{game.VerbStake: true, game.VerbBuy: true, game.VerbShoot: true, game.VerbKitty: true}

// NoBalance is Panel's wallet argument when the balance is not known.
const NoBalance = -1

// accentPanel is the colour of a member's panel.
const accentPanel = 0x1565c0

// Panel is a member's private view, a Components V2 Container like the table's: their
// hands with every card in large type, the totals, and the actions legal now (from
// game.Legal), each a button or a select of amounts. wallet is the member's balance
// between rounds (NoBalance: not shown).
func (r *Renderer) Panel(lang string, t *table.Snapshot, member, notice string, wallet int64) Message {
	g := t.Game
	title := "### " + r.cat.T(lang, "panel.title")
	var lines []string
	if notice != "" {
		lines = append(lines, notice)
	}
	done := func() Message {
		return card(accentPanel, discordgo.TextDisplay{Content: title + "\n" + strings.Join(lines, "\n")})
	}
	if t.Broken {
		lines = append(lines, "⛔ "+r.cat.T(lang, "err.table_broken"))
		return done()
	}
	if g != nil && g.Round != nil && g.Round.Outcome != nil && (member == g.Round.Banker || table.Playing(g, member)) {
		// The round on show has settled (perhaps by the member's own action): their hand
		// and what it won or lost, rather than an empty panel.
		lines = append(lines, r.settled(lang, g, member)...)
		lines = append(lines, r.cat.T(lang, "panel.balance", "Count", g.Balances[member]))
		return done()
	}
	if g == nil || g.Round == nil || !g.InRound() {
		lines = append(lines, r.cat.T(lang, "panel.no_round"))
		if t.Seated(member) && wallet != NoBalance {
			lines = append(lines, r.cat.T(lang, "panel.balance", "Count", wallet))
		}
		return done()
	}
	rd := g.Round
	rules := g.Rules
	if member == g.Banker {
		if !g.SeesOwnCards(member) {
			lines = append(lines, large(r.cat.T(lang, "panel.bank_cards", "Cards", tableCards(rd.BankerHand, false), "Kind", "?")))
		} else {
			v := game.Evaluate(game.Cards(rd.BankerHand), rules, true)
			lines = append(lines, large(r.cat.T(lang, "panel.bank_cards", "Cards", cardsText(game.Cards(rd.BankerHand)), "Kind", r.kindText(lang, v.Kind.String(), v.Total))))
		}
	}
	for _, h := range rd.Hands {
		if h.Player != member {
			continue
		}
		if h.SatOut {
			lines = append(lines, r.cat.T(lang, "panel.sat_out"))
			continue
		}
		v := h.Value(rules)
		hand := r.cat.T(lang, "panel.hand", "N", h.Number, "Cards", cardsText(game.Cards(h.Cards)), "Kind", r.kindText(lang, v.Kind.String(), v.Total))
		if cur := g.Current(); cur == h && g.Phase == game.PhasePlaying {
			hand = "▶ " + hand
		}
		lines = append(lines, large(hand))
		var bets []string
		if h.Stake > 0 {
			bets = append(bets, r.cat.T(lang, "table.stake", "Count", h.Stake))
		}
		if h.Shoot > 0 {
			bets = append(bets, r.cat.T(lang, "table.shoot", "Count", h.Shoot))
		}
		if len(bets) > 0 {
			lines = append(lines, strings.Join(bets, " · "))
		}
	}
	if member == g.Banker {
		if cover := heldCover(g); cover > 0 {
			lines = append(lines, r.cat.T(lang, "panel.cover", "Amount", cover))
		}
	}
	if !t.Seated(member) && member != g.Banker && !table.Playing(g, member) {
		lines = append(lines, r.cat.T(lang, "panel.not_playing"))
	}
	lines = append(lines, r.cat.T(lang, "panel.balance", "Count", g.Balances[member]))
	moves := g.Legal(member)
	if len(moves) == 0 {
		if waiting := g.ToAct(); len(waiting) > 0 {
			lines = append(lines, r.cat.T(lang, "panel.waiting", "Players", Mentions(waiting)))
		}
	} else {
		lines = append(lines, r.cat.T(lang, "panel.your_turn", "Deadline", RelTime(t.Deadline)))
	}
	var buttons, asks []discordgo.MessageComponent
	var selects []discordgo.MessageComponent
	seq := t.MSeq[member]
	shootTwist := shootAndTwist(g, member, moves)
	for _, m := range moves {
		if shootTwist && m.Verb == game.VerbShoot {
			// R9.4: the three-card shoot goes with the card, so the shoot is offered only
			// together with the twist (see ShootTwistVerb).
			selects = append(selects, discordgo.ActionsRow{Components: []discordgo.MessageComponent{r.shootTwistSelect(lang, t, member, m)}})
			continue
		}
		if AmountVerbs[m.Verb] {
			lines = append(lines, r.cat.T(lang, "panel.range", "Verb", r.cat.T(lang, "verb."+string(m.Verb)), "Min", m.Min, "Max", m.Max))
			selects = append(selects, discordgo.ActionsRow{Components: []discordgo.MessageComponent{r.amountSelect(lang, t, member, m)}})
			asks = append(asks, r.button(lang, "button.other_amount", discordgo.SecondaryButton,
				cid(KindAsk, t.ID, t.Round.Number, seq, string(m.Verb)), "Verb", r.cat.T(lang, "verb."+string(m.Verb))))
			continue
		}
		style := discordgo.PrimaryButton
		if m.Verb == game.VerbStick || m.Verb == game.VerbStay || m.Verb == game.VerbNoDouble {
			style = discordgo.SecondaryButton
		}
		buttons = append(buttons, r.button(lang, "verb."+string(m.Verb), style, cid(KindAct, t.ID, t.Round.Number, seq, string(m.Verb))))
	}
	if shootTwist {
		if _, ok := moveOf(moves, game.VerbBuy); ok {
			asks = append(asks, r.button(lang, "button.shoot_buy", discordgo.PrimaryButton, cid(KindAsk, t.ID, t.Round.Number, seq, ShootBuyVerb)))
		}
	}
	if len(moves) > 0 {
		buttons = append(buttons, r.button(lang, "button.hint", discordgo.SecondaryButton, cid(KindHint, t.ID, t.Round.Number, 0, "")))
	}
	buttons = append(buttons, r.button(lang, "button.refresh", discordgo.SecondaryButton, cid(KindCards, t.ID, t.Round.Number, 0, "")))
	comps := append(rows(buttons), selects...)
	if len(asks) > 0 {
		comps = append(comps, rows(asks)...)
	}
	if len(comps) > 5 {
		comps = comps[:5]
	}
	return card(accentPanel, append([]discordgo.MessageComponent{discordgo.TextDisplay{Content: title + "\n" + strings.Join(lines, "\n")}}, comps...)...)
}

// large is a line in heading type, the largest a text display has: a hand, its cards and
// its total, so that rank and suit read at a glance on a phone.
func large(line string) string { return "## " + line }

// heldCover is the bank's chips held against the hands in play (R7.2).
func heldCover(g *game.Game) int64 {
	var n int64
	for _, h := range g.Round.Hands {
		n += h.Cover
	}
	return n
}

// settled is a member's part of a settled round: each of their hands with its cards,
// value and net, or the bank's hand and net for the round's banker.
func (r *Renderer) settled(lang string, g *game.Game, member string) []string {
	rd := g.Round
	lines := []string{r.cat.T(lang, "panel.settled")}
	if member == rd.Banker {
		var net int64
		for _, h := range rd.Hands {
			net -= h.Net
		}
		v := game.Evaluate(game.Cards(rd.BankerHand), g.Rules, true)
		lines = append(lines, r.cat.T(lang, "panel.bank_result", "Cards", cardsText(game.Cards(rd.BankerHand)),
			"Kind", r.kindText(lang, v.Kind.String(), v.Total), "Net", r.cat.T(lang, "table.net", "Net", i18n.Signed(net))))
	}
	for _, h := range rd.Hands {
		if h.Player != member {
			continue
		}
		if h.SatOut {
			lines = append(lines, r.cat.T(lang, "panel.sat_out"))
			continue
		}
		v := h.Value(g.Rules)
		lines = append(lines, r.cat.T(lang, "panel.hand", "N", h.Number, "Cards", cardsText(game.Cards(h.Cards)),
			"Kind", r.kindText(lang, v.Kind.String(), v.Total))+" · "+r.cat.T(lang, "table.net", "Net", i18n.Signed(h.Net)))
	}
	return lines
}

func (r *Renderer) amountSelect(lang string, t *table.Snapshot, member string, m game.Move) discordgo.SelectMenu {
	var opts []discordgo.SelectMenuOption
	var last int64
	if m.Verb == game.VerbStake {
		last = t.LastStake[member]
	}
	for _, v := range AmountChoices(m.Min, m.Max, last) {
		label := r.cat.T(lang, "amount.chips", "Count", v)
		if v == 0 && m.Verb == game.VerbShoot {
			label = r.cat.T(lang, "amount.no_shoot")
		}
		opts = append(opts, discordgo.SelectMenuOption{Label: label, Value: strconv.FormatInt(v, 10)})
	}
	return discordgo.SelectMenu{CustomID: cid(KindAmount, t.ID, t.Round.Number, t.MSeq[member], string(m.Verb)),
		Placeholder: r.cat.T(lang, "select.placeholder", "Verb", r.cat.T(lang, "verb."+string(m.Verb))), Options: opts}
}

// AmountModal asks for a typed amount; the label says the legal range. id is the
// clicked "other amount" button's id; the modal carries it on as KindModal.
func (r *Renderer) AmountModal(lang string, id ID, lo, hi int64) *discordgo.InteractionResponse {
	verb := game.Verb(id.Arg)
	id.Kind = KindModal
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseModal, Data: &discordgo.InteractionResponseData{
		CustomID: id.String(),
		Title:    r.cat.T(lang, "modal.title", "Verb", r.cat.T(lang, "verb."+string(verb))),
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.TextInput{CustomID: "amount", Label: r.cat.T(lang, "modal.label", "Min", lo, "Max", hi),
				Style: discordgo.TextInputShort, Required: true, MinLength: 1, MaxLength: 16,
				Placeholder: strconv.FormatInt(lo, 10)},
		}}},
	}}
}

// Done is the notice on a member's panel after their action was applied: each action
// has its own words, done.<verb> (a shoot bet of 0 reads done.shoot.zero), so no
// sentence is assembled from a button's label. notice.done stays for a verb the
// catalog has no words for.
func (r *Renderer) Done(lang string, a game.Action) string {
	if key := "done." + string(a.Verb); r.cat.Has(key) {
		return "✅ " + r.cat.T(lang, key, "Count", a.Amount)
	}
	verb := r.cat.T(lang, "verb."+string(a.Verb))
	if AmountVerbs[a.Verb] {
		return "✅ " + r.cat.T(lang, "notice.done_amount", "Verb", verb, "Count", a.Amount)
	}
	return "✅ " + r.cat.T(lang, "notice.done", "Verb", verb)
}

package view

import (
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/table"
	"github.com/pontoon-bot/pontoon/game"
)

// AmountChoices picks at most 25 amounts from [lo, hi] for a select menu: every amount
// when few, else the ends and round numbers between.
func AmountChoices(lo, hi int64) []int64 {
	if hi < lo {
		return nil
	}
	if hi-lo < 24 {
		out := make([]int64, 0, hi-lo+1)
		for v := lo; v <= hi; v++ {
			out = append(out, v)
		}
		return out
	}
	seen := map[int64]bool{}
	var out []int64
	add := func(v int64) {
		if v >= lo && v <= hi && !seen[v] && len(out) < 25 {
			seen[v] = true
			out = append(out, v)
		}
	}
	add(lo)
	for step := 0; step < 23; step++ {
		add(lo + (hi-lo)*int64(step+1)/24)
	}
	add(hi)
	// round the middle values to something a person would type
	for i := 1; i < len(out)-1; i++ {
		v := out[i]
		for _, m := range []int64{1000, 100, 50, 10, 5} {
			if r := v / m * m; r > out[i-1] && r > lo && hi-lo > 4*m {
				v = r
				break
			}
		}
		out[i] = v
	}
	return out
}

// AmountVerbs are the actions that take an amount.
var AmountVerbs = map[game.Verb]bool{game.VerbStake: true, game.VerbBuy: true, game.VerbShoot: true, game.VerbKitty: true}

// NoBalance is Panel's wallet argument when the balance is not known.
const NoBalance = -1

// Panel is a member's private view: their hands with every card, the totals, and the
// actions legal now (from game.Legal), each a button or a select of amounts. wallet is
// the member's balance between rounds (NoBalance: not shown).
func (r *Renderer) Panel(lang string, t *table.Snapshot, member, notice string, wallet int64) Message {
	g := t.Game
	e := &discordgo.MessageEmbed{Title: r.cat.T(lang, "panel.title"), Color: 0x1565c0}
	var lines []string
	if notice != "" {
		lines = append(lines, notice)
	}
	if t.Broken {
		lines = append(lines, "⛔ "+r.cat.T(lang, "err.table_broken"))
		e.Description = strings.Join(lines, "\n")
		return Message{Embeds: []*discordgo.MessageEmbed{e}}
	}
	if g == nil || g.Round == nil || !g.InRound() {
		lines = append(lines, r.cat.T(lang, "panel.no_round"))
		if t.Seated(member) && wallet != NoBalance {
			lines = append(lines, r.cat.T(lang, "panel.balance", "Count", wallet))
		}
		e.Description = strings.Join(lines, "\n")
		return Message{Embeds: []*discordgo.MessageEmbed{e}}
	}
	rd := g.Round
	rules := g.Rules
	if member == g.Banker {
		if !g.SeesOwnCards(member) {
			lines = append(lines, r.cat.T(lang, "panel.bank_cards", "Cards", tableCards(rd.BankerHand, false), "Kind", "?"))
		} else {
			v := game.Evaluate(game.Cards(rd.BankerHand), rules, true)
			lines = append(lines, r.cat.T(lang, "panel.bank_cards", "Cards", cardsText(game.Cards(rd.BankerHand)), "Kind", r.kindText(lang, v.Kind.String(), v.Total)))
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
		line := r.cat.T(lang, "panel.hand", "N", h.Number, "Cards", cardsText(game.Cards(h.Cards)), "Kind", r.kindText(lang, v.Kind.String(), v.Total))
		if h.Stake > 0 {
			line += " · " + r.cat.T(lang, "table.stake", "Count", h.Stake)
		}
		if h.Shoot > 0 {
			line += " · " + r.cat.T(lang, "table.shoot", "Count", h.Shoot)
		}
		if cur := g.Current(); cur == h && g.Phase == game.PhasePlaying {
			line = "▶ " + line
		}
		lines = append(lines, line)
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
	e.Description = strings.Join(lines, "\n")
	comps := append(rows(buttons), selects...)
	if len(asks) > 0 {
		comps = append(comps, rows(asks)...)
	}
	if len(comps) > 5 {
		comps = comps[:5]
	}
	return Message{Embeds: []*discordgo.MessageEmbed{e}, Components: comps}
}

func (r *Renderer) amountSelect(lang string, t *table.Snapshot, member string, m game.Move) discordgo.SelectMenu {
	var opts []discordgo.SelectMenuOption
	for _, v := range AmountChoices(m.Min, m.Max) {
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

// Done is the notice on a member's panel after their action was applied.
func (r *Renderer) Done(lang string, a game.Action) string {
	verb := r.cat.T(lang, "verb."+string(a.Verb))
	if AmountVerbs[a.Verb] {
		return "✅ " + r.cat.T(lang, "notice.done_amount", "Verb", verb, "Count", a.Amount)
	}
	return "✅ " + r.cat.T(lang, "notice.done", "Verb", verb)
}

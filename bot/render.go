package bot

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/game"
)

const faceDown = "🂠"

var suitSymbols = [...]string{"♠", "♥", "♦", "♣"}

// cardText shows a card as players write it: "10♥", "A♠".
func cardText(c game.Card) string {
	r := c.String()[:1]
	if c.Rank == game.Ten {
		r = "10"
	}
	return r + suitSymbols[c.Suit]
}

func cardsText(cs []game.Card) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = cardText(c)
	}
	return strings.Join(parts, " ")
}

// tableCards shows a hand as the table sees it: face-down cards hidden (R3.2, R5.1).
func tableCards(hc []game.HandCard, reveal bool) string {
	parts := make([]string, len(hc))
	for i, c := range hc {
		if c.FaceUp || reveal {
			parts[i] = cardText(c.Card)
		} else {
			parts[i] = faceDown
		}
	}
	return strings.Join(parts, " ")
}

// customID builds a component id: pt:<kind>:<table>:<round>:<member seq>:<arg>. The round
// and the member's action count let a stale button be refused (see component).
func customID(kind string, table int64, round, mseq int, arg string) string {
	return fmt.Sprintf("pt:%s:%d:%d:%d:%s", kind, table, round, mseq, arg)
}

func (b *Bot) button(lang, labelKey string, style discordgo.ButtonStyle, id string, kv ...any) discordgo.Button {
	return discordgo.Button{Label: b.cat.T(lang, labelKey, kv...), Style: style, CustomID: id}
}

func rows(buttons []discordgo.MessageComponent) []discordgo.MessageComponent {
	var out []discordgo.MessageComponent
	for i := 0; i < len(buttons); i += 5 {
		out = append(out, discordgo.ActionsRow{Components: buttons[i:min(i+5, len(buttons))]})
	}
	return out
}

func (b *Bot) kindText(lang string, kind string, total int) string {
	return b.cat.T(lang, "kind."+kind, "Total", total)
}

// renderTable is the public table message (R3.2 visibility: face-down cards hidden).
func (b *Bot) renderTable(lang string, t *liveTable) message {
	rules := t.cfg.Rules
	title := b.cat.T(lang, "table.title."+string(rules.Variant), "Round", t.round.Number)
	var desc []string
	g := t.g
	switch {
	case t.closed:
		desc = append(desc, b.cat.T(lang, "table.status.closed"))
	case t.broken != "":
		desc = append(desc, b.cat.T(lang, "table.status.broken"))
	case g == nil:
		desc = append(desc, b.cat.T(lang, "table.status.waiting", "Count", len(t.seats)))
	case g.InRound():
		desc = append(desc, b.statusLine(lang, t))
	default:
		desc = append(desc, b.cat.T(lang, "table.status.settled"))
	}
	if t.notice != "" {
		desc = append(desc, t.notice)
	}
	if t.closing && !t.closed {
		desc = append(desc, b.cat.T(lang, "table.closing"))
	}
	if t.cut != nil {
		var draws []string
		for i, p := range t.cut.Seats {
			if len(t.cut.Draws) > 0 && i < len(t.cut.Draws[0]) {
				draws = append(draws, mention(p)+" "+cardText(t.cut.Draws[0][i]))
			}
		}
		desc = append(desc, b.cat.T(lang, "table.cut", "Winner", mention(t.cut.Winner), "Draws", strings.Join(draws, ", ")))
	}
	e := &discordgo.MessageEmbed{Title: title, Description: strings.Join(desc, "\n"), Color: 0x2e7d32}

	bank := b.cat.T(lang, "table.bank", "Banker", mentionOr(lang, b, t.banker()))
	if rules.Variant == game.Shoot {
		kitty := t.kitty
		if g != nil {
			kitty = g.Kitty
		}
		bank += "\n" + b.cat.T(lang, "table.kitty", "Count", kitty)
		if kitty == 0 && !t.inRound() {
			bank += "\n" + b.cat.T(lang, "table.kitty_needed", "Min", rules.KittyMin, "Max", rules.KittyMax)
		}
	}
	if g != nil && g.Round != nil {
		r := g.Round
		reveal := r.Outcome != nil
		bank += "\n" + tableCards(r.BankerHand, reveal)
		if r.Outcome != nil || g.Phase == game.PhaseBanker {
			v := game.Evaluate(game.Cards(r.BankerHand), rules, true)
			bank += " — " + b.kindText(lang, v.Kind.String(), v.Total)
		}
		if r.Doubled {
			bank += "\n" + b.cat.T(lang, "table.doubled")
		}
	}
	e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: b.cat.T(lang, "table.bank_title"), Value: bank})

	for i, p := range t.seats {
		if p == t.banker() {
			continue
		}
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: b.cat.T(lang, "table.seat", "N", i+1),
			Value: b.seatText(lang, t, p), Inline: true})
	}
	if g != nil && g.Round != nil && g.Round.Outcome != nil {
		o := g.Round.Outcome
		next := b.cat.T(lang, "table.next_banker", "Banker", mention(o.NextBanker))
		shuffle := b.cat.T(lang, "table.no_shuffle")
		if o.Shuffle {
			shuffle = b.cat.T(lang, "table.shuffle")
		}
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: b.cat.T(lang, "table.result_title"), Value: next + "\n" + shuffle})
	}
	var footer []string
	if !t.inRound() && t.pending != nil && t.pending.ForRound == t.round.Number+1 && !t.closed {
		footer = append(footer, b.cat.T(lang, "table.next_commitment", "Round", t.pending.ForRound, "Commitment", t.pending.Commitment))
	}
	if t.round.Commitment != "" {
		footer = append(footer, b.cat.T(lang, "table.commitment", "Round", t.round.Number, "Commitment", t.round.Commitment))
		if g != nil && g.Round != nil && g.Round.Outcome != nil {
			footer = append(footer, b.cat.T(lang, "table.salt", "Salt", t.round.Salt))
		}
	}
	if len(footer) > 0 {
		e.Footer = &discordgo.MessageEmbedFooter{Text: strings.Join(footer, "\n")}
	}
	m := message{Embeds: []*discordgo.MessageEmbed{e}}
	if !t.closed {
		id := func(kind string) string { return customID(kind, t.id, t.round.Number, 0, "") }
		m.Components = rows([]discordgo.MessageComponent{
			b.button(lang, "button.join", discordgo.SuccessButton, id("join")),
			b.button(lang, "button.leave", discordgo.SecondaryButton, id("leave")),
			b.button(lang, "button.deal", discordgo.PrimaryButton, id("deal")),
			b.button(lang, "button.cards", discordgo.PrimaryButton, id("cards")),
			b.button(lang, "button.rules", discordgo.SecondaryButton, id("rules")),
		})
	}
	return m
}

func mentionOr(lang string, b *Bot, id string) string {
	if id == "" {
		return b.cat.T(lang, "table.bank_nobody")
	}
	return mention(id)
}

// statusLine says whose decision the round waits on and until when (R7.4).
func (b *Bot) statusLine(lang string, t *liveTable) string {
	g := t.g
	who := mentions(g.ToAct())
	deadline := relTime(t.deadline)
	switch g.Phase {
	case game.PhaseStaking:
		return b.cat.T(lang, "table.status.staking", "Players", who, "Deadline", deadline)
	case game.PhaseShooting:
		return b.cat.T(lang, "table.status.shooting", "Players", who, "Deadline", deadline)
	case game.PhaseDoubling:
		return b.cat.T(lang, "table.status.doubling", "Players", who, "Deadline", deadline)
	case game.PhasePlaying:
		h := g.Current()
		return b.cat.T(lang, "table.status.playing", "Players", who, "Hand", h.Number, "Deadline", deadline)
	default:
		return b.cat.T(lang, "table.status.banker", "Players", who, "Deadline", deadline)
	}
}

// seatText is one seat on the public table: the member and their hands as the table sees them.
func (b *Bot) seatText(lang string, t *liveTable, p string) string {
	lines := []string{mention(p)}
	g := t.g
	if g == nil || g.Round == nil {
		return lines[0]
	}
	settled := g.Round.Outcome != nil
	any := false
	for _, h := range g.Round.Hands {
		if h.Player != p {
			continue
		}
		any = true
		if h.SatOut {
			lines = append(lines, b.cat.T(lang, "table.sat_out"))
			continue
		}
		line := tableCards(h.Cards, settled)
		if h.Stake == 0 {
			lines = append(lines, line+" · "+b.cat.T(lang, "table.no_stake_yet"))
			continue
		}
		line += " · " + b.cat.T(lang, "table.stake", "Count", h.Stake)
		if h.Shoot > 0 {
			line += " · " + b.cat.T(lang, "table.shoot", "Count", h.Shoot)
		}
		if h.Settled && (settled || h.Folded || h.Value(g.Rules).Kind == game.KindBust) {
			v := h.Value(g.Rules)
			line += "\n" + b.kindText(lang, v.Kind.String(), v.Total) + " · " + b.cat.T(lang, "table.net", "Net", signed(h.Net))
		}
		if len(g.Round.Hands) > 0 && hasSplit(g, p) {
			line = b.cat.T(lang, "table.hand_no", "N", h.Number) + " " + line
		}
		lines = append(lines, line)
	}
	if !any && g.InRound() {
		lines = append(lines, b.cat.T(lang, "table.next_round"))
	}
	return strings.Join(lines, "\n")
}

func hasSplit(g *game.Game, p string) bool {
	n := 0
	for _, h := range g.Round.Hands {
		if h.Player == p {
			n++
		}
	}
	return n > 1
}

func signed(n int64) string {
	if n > 0 {
		return "+" + strconv.FormatInt(n, 10)
	}
	if n < 0 {
		return "−" + strconv.FormatInt(-n, 10)
	}
	return "0"
}

// amountChoices picks at most 25 amounts from [lo, hi] for a select menu: every amount
// when few, else the ends and round numbers between.
func amountChoices(lo, hi int64) []int64 {
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

var amountVerbs = map[game.Verb]bool{game.VerbStake: true, game.VerbBuy: true, game.VerbShoot: true, game.VerbKitty: true}

// renderPanel is a member's private view: their hands with every card, the totals, and
// the actions legal now (from game.Legal), each a button or a select of amounts.
func (b *Bot) renderPanel(lang string, t *liveTable, member, notice string) message {
	g := t.g
	e := &discordgo.MessageEmbed{Title: b.cat.T(lang, "panel.title"), Color: 0x1565c0}
	var lines []string
	if notice != "" {
		lines = append(lines, notice)
	}
	if t.broken != "" {
		lines = append(lines, "⛔ "+b.cat.T(lang, "err.table_broken"))
		e.Description = strings.Join(lines, "\n")
		return message{Embeds: []*discordgo.MessageEmbed{e}}
	}
	if g == nil || g.Round == nil || !g.InRound() {
		lines = append(lines, b.cat.T(lang, "panel.no_round"))
		if t.seated(member) {
			w, err := b.st.Wallet(context.Background(), t.guild, member)
			if err == nil {
				lines = append(lines, b.cat.T(lang, "panel.balance", "Count", w.Balance))
			}
		}
		e.Description = strings.Join(lines, "\n")
		return message{Embeds: []*discordgo.MessageEmbed{e}}
	}
	r := g.Round
	rules := g.Rules
	if member == g.Banker {
		if !g.SeesOwnCards(member) {
			lines = append(lines, b.cat.T(lang, "panel.bank_cards", "Cards", tableCards(r.BankerHand, false), "Kind", "?"))
		} else {
			v := game.Evaluate(game.Cards(r.BankerHand), rules, true)
			lines = append(lines, b.cat.T(lang, "panel.bank_cards", "Cards", cardsText(game.Cards(r.BankerHand)), "Kind", b.kindText(lang, v.Kind.String(), v.Total)))
		}
	}
	for _, h := range r.Hands {
		if h.Player != member {
			continue
		}
		if h.SatOut {
			lines = append(lines, b.cat.T(lang, "panel.sat_out"))
			continue
		}
		v := h.Value(rules)
		line := b.cat.T(lang, "panel.hand", "N", h.Number, "Cards", cardsText(game.Cards(h.Cards)), "Kind", b.kindText(lang, v.Kind.String(), v.Total))
		if h.Stake > 0 {
			line += " · " + b.cat.T(lang, "table.stake", "Count", h.Stake)
		}
		if h.Shoot > 0 {
			line += " · " + b.cat.T(lang, "table.shoot", "Count", h.Shoot)
		}
		if cur := g.Current(); cur == h && g.Phase == game.PhasePlaying {
			line = "▶ " + line
		}
		lines = append(lines, line)
	}
	if !t.seated(member) && member != g.Banker && !inRound(g, member) {
		lines = append(lines, b.cat.T(lang, "panel.not_playing"))
	}
	lines = append(lines, b.cat.T(lang, "panel.balance", "Count", g.Balances[member]))
	moves := g.Legal(member)
	if len(moves) == 0 {
		if waiting := g.ToAct(); len(waiting) > 0 {
			lines = append(lines, b.cat.T(lang, "panel.waiting", "Players", mentions(waiting)))
		}
	} else {
		lines = append(lines, b.cat.T(lang, "panel.your_turn", "Deadline", relTime(t.deadline)))
	}
	var buttons, asks []discordgo.MessageComponent
	var selects []discordgo.MessageComponent
	seq := t.mseq[member]
	for _, m := range moves {
		if amountVerbs[m.Verb] {
			lines = append(lines, b.cat.T(lang, "panel.range", "Verb", b.cat.T(lang, "verb."+string(m.Verb)), "Min", m.Min, "Max", m.Max))
			selects = append(selects, discordgo.ActionsRow{Components: []discordgo.MessageComponent{b.amountSelect(lang, t, member, m)}})
			asks = append(asks, b.button(lang, "button.other_amount", discordgo.SecondaryButton,
				customID("ask", t.id, t.round.Number, seq, string(m.Verb)), "Verb", b.cat.T(lang, "verb."+string(m.Verb))))
			continue
		}
		style := discordgo.PrimaryButton
		if m.Verb == game.VerbStick || m.Verb == game.VerbStay || m.Verb == game.VerbNoDouble {
			style = discordgo.SecondaryButton
		}
		buttons = append(buttons, b.button(lang, "verb."+string(m.Verb), style, customID("act", t.id, t.round.Number, seq, string(m.Verb))))
	}
	buttons = append(buttons, b.button(lang, "button.refresh", discordgo.SecondaryButton, customID("cards", t.id, t.round.Number, 0, "")))
	e.Description = strings.Join(lines, "\n")
	comps := append(rows(buttons), selects...)
	if len(asks) > 0 {
		comps = append(comps, rows(asks)...)
	}
	if len(comps) > 5 {
		comps = comps[:5]
	}
	return message{Embeds: []*discordgo.MessageEmbed{e}, Components: comps}
}

func inRound(g *game.Game, member string) bool {
	for _, h := range g.Round.Hands {
		if h.Player == member {
			return true
		}
	}
	return false
}

func (b *Bot) amountSelect(lang string, t *liveTable, member string, m game.Move) discordgo.SelectMenu {
	var opts []discordgo.SelectMenuOption
	for _, v := range amountChoices(m.Min, m.Max) {
		label := b.cat.T(lang, "amount.chips", "Count", v)
		if v == 0 && m.Verb == game.VerbShoot {
			label = b.cat.T(lang, "amount.no_shoot")
		}
		opts = append(opts, discordgo.SelectMenuOption{Label: label, Value: strconv.FormatInt(v, 10)})
	}
	return discordgo.SelectMenu{CustomID: customID("amt", t.id, t.round.Number, t.mseq[member], string(m.Verb)),
		Placeholder: b.cat.T(lang, "select.placeholder", "Verb", b.cat.T(lang, "verb."+string(m.Verb))), Options: opts}
}

// amountModal asks for a typed amount; the label says the legal range.
func (b *Bot) amountModal(lang string, id string, verb game.Verb, lo, hi int64) *discordgo.InteractionResponse {
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseModal, Data: &discordgo.InteractionResponseData{
		CustomID: id,
		Title:    b.cat.T(lang, "modal.title", "Verb", b.cat.T(lang, "verb."+string(verb))),
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.TextInput{CustomID: "amount", Label: b.cat.T(lang, "modal.label", "Min", lo, "Max", hi),
				Style: discordgo.TextInputShort, Required: true, MinLength: 1, MaxLength: 16,
				Placeholder: strconv.FormatInt(lo, 10)},
		}}},
	}}
}

// rulesText is a table's house rules in words.
func (b *Bot) rulesText(lang string, cfg tableConfig, turn string) string {
	r := cfg.Rules
	onOff := func(v bool) string {
		if v {
			return b.cat.T(lang, "rules.on")
		}
		return b.cat.T(lang, "rules.off")
	}
	lines := []string{
		b.cat.T(lang, "rules.variant."+string(r.Variant)),
		b.cat.T(lang, "rules.stakes", "Min", r.MinStake, "Max", r.MaxStake),
		b.cat.T(lang, "rules.stick", "Min", r.StickMin),
		b.cat.T(lang, "rules.split."+string(r.Split)),
		b.cat.T(lang, "rules.double", "OnOff", onOff(r.BankerMayDouble)),
		b.cat.T(lang, "rules.pays", "Pays", r.PontoonPays, "Collects", r.BankerPontoonCollects),
		b.cat.T(lang, "rules.four_low", "OnOff", onOff(r.FourLowTwistOnly)),
		b.cat.T(lang, "rules.royal", "OnOff", onOff(r.RoyalPontoon)),
		b.cat.T(lang, "rules.tiers."+string(r.PontoonTiers)),
		b.cat.T(lang, "rules.burn."+strconv.Itoa(r.Burn)),
		b.cat.T(lang, "rules.decks."+decksKey(r.Decks)),
		b.cat.T(lang, "rules.turn_timer", "Timer", seconds(turn)),
	}
	if r.Variant == game.Shoot {
		lines = append(lines, b.cat.T(lang, "rules.kitty", "Min", r.KittyMin, "Max", r.KittyMax))
	}
	return "• " + strings.Join(lines, "\n• ")
}

// seconds shows a Go duration ("1m0s") as seconds with the SI symbol ("60 s"), which
// reads the same in every language of the catalog.
func seconds(d string) string {
	if td, err := time.ParseDuration(d); err == nil {
		return strconv.FormatInt(int64(td/time.Second), 10) + " s"
	}
	return d
}

func decksKey(d game.Decks) string {
	if d == game.DecksAuto {
		return "auto"
	}
	return strconv.Itoa(int(d))
}

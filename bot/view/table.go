package view

import (
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/i18n"
	"github.com/pontoon-bot/pontoon/bot/table"
	"github.com/pontoon-bot/pontoon/game"
)

// Table is the public table message (R3.2 visibility: face-down cards hidden).
func (r *Renderer) Table(lang string, t *table.Snapshot) Message {
	rules := t.Config.Rules
	title := r.cat.T(lang, "table.title."+string(rules.Variant), "Round", t.Round.Number)
	var desc []string
	g := t.Game
	switch {
	case t.Closed:
		desc = append(desc, r.cat.T(lang, "table.status.closed"))
	case t.Broken:
		desc = append(desc, r.cat.T(lang, "table.status.broken"))
	case g == nil:
		desc = append(desc, r.cat.T(lang, "table.status.waiting", "Count", len(t.Seats)))
	case g.InRound():
		desc = append(desc, r.statusLine(lang, t))
	default:
		desc = append(desc, r.cat.T(lang, "table.status.settled"))
	}
	if t.Notice != nil {
		desc = append(desc, r.notice(lang, t.Notice))
	}
	if t.Closing && !t.Closed {
		desc = append(desc, r.cat.T(lang, "table.closing"))
	}
	if t.Cut != nil {
		// Every pass of the cut, the re-cuts between tied cards included (R1.4).
		var passes []string
		for k, pass := range t.Cut.Passes {
			var draws []string
			for i, p := range pass {
				if i < len(t.Cut.Draws[k]) {
					draws = append(draws, Mention(p)+" "+CardText(t.Cut.Draws[k][i]))
				}
			}
			text := strings.Join(draws, ", ")
			if k > 0 {
				text = r.cat.T(lang, "table.recut") + ": " + text
			}
			passes = append(passes, text)
		}
		desc = append(desc, r.cat.T(lang, "table.cut", "Winner", Mention(t.Cut.Winner), "Draws", strings.Join(passes, "; ")))
	}
	e := &discordgo.MessageEmbed{Title: title, Description: strings.Join(desc, "\n"), Color: 0x2e7d32}

	// The round on show is the one in play, or the last one settled: its bank is the one
	// who played it (R6.2 may have passed the bank on; the result names the next banker).
	banker := t.Banker()
	if g != nil && g.Round != nil {
		banker = g.Round.Banker
	}
	bank := r.MentionOr(lang, banker) // under the field's title: "Bank", said once
	if rules.Variant == game.Shoot {
		// Between rounds the table's own kitty is the truth: a top-up, a sale (R9.9) or a
		// cut (R6.4) changes it after the round shown settled.
		kitty := t.Kitty
		if t.InRound() {
			kitty = g.Kitty
		}
		bank += "\n" + r.cat.T(lang, "table.kitty", "Count", kitty)
		if kitty == 0 && !t.InRound() {
			bank += "\n" + r.cat.T(lang, "table.kitty_needed", "Min", rules.KittyMin, "Max", rules.KittyMax)
		}
	}
	if g != nil && g.Round != nil {
		rd := g.Round
		reveal := rd.Outcome != nil
		bank += "\n" + tableCards(rd.BankerHand, reveal)
		if rd.Outcome != nil || g.Phase == game.PhaseBanker {
			v := game.Evaluate(game.Cards(rd.BankerHand), rules, true)
			bank += " — " + r.kindText(lang, v.Kind.String(), v.Total)
		}
		if rd.Doubled {
			bank += "\n" + r.cat.T(lang, "table.doubled")
		}
	}
	e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: r.cat.T(lang, "table.bank_title"), Value: bank})

	for i, p := range t.Seats {
		if p == banker {
			continue
		}
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: r.cat.T(lang, "table.seat", "N", i+1),
			Value: r.seatText(lang, t, p), Inline: true})
	}
	if g != nil && g.Round != nil && g.Round.Outcome != nil {
		o := g.Round.Outcome
		next := r.cat.T(lang, "table.next_banker", "Banker", Mention(o.NextBanker))
		shuffle := r.cat.T(lang, "table.no_shuffle")
		if o.Shuffle {
			shuffle = r.cat.T(lang, "table.shuffle")
		}
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: r.cat.T(lang, "table.result_title"), Value: next + "\n" + shuffle})
	}
	var footer []string
	if !t.InRound() && t.Next != nil && t.Next.Round == t.Round.Number+1 && !t.Closed {
		footer = append(footer, r.cat.T(lang, "table.next_commitment", "Round", t.Next.Round, "Commitment", t.Next.Commitment))
	}
	footer = append(footer, r.seedLines(lang, t)...)
	if t.Round.Commitment != "" {
		footer = append(footer, r.cat.T(lang, "table.commitment", "Round", t.Round.Number, "Commitment", t.Round.Commitment))
		if g != nil && g.Round != nil && g.Round.Outcome != nil && t.Round.Salt != "" {
			footer = append(footer, r.cat.T(lang, "table.salt", "Salt", t.Round.Salt))
		}
	}
	if len(footer) > 0 {
		e.Footer = &discordgo.MessageEmbedFooter{Text: strings.Join(footer, "\n")}
	}
	m := Message{Embeds: []*discordgo.MessageEmbed{e}}
	if !t.Closed {
		id := func(kind string) string { return cid(kind, t.ID, t.Round.Number, 0, "") }
		m.Components = rows([]discordgo.MessageComponent{
			r.button(lang, "button.join", discordgo.SuccessButton, id(KindJoin)),
			r.button(lang, "button.leave", discordgo.SecondaryButton, id(KindLeave)),
			r.button(lang, "button.deal", discordgo.PrimaryButton, id(KindDeal)),
			r.button(lang, "button.cards", discordgo.PrimaryButton, id(KindCards)),
			r.button(lang, "button.rules", discordgo.SecondaryButton, id(KindRules)),
		})
	}
	return m
}

// statusLine says whose decision the round waits on and until when (R7.4).
func (r *Renderer) statusLine(lang string, t *table.Snapshot) string {
	g := t.Game
	who := Mentions(g.ToAct())
	deadline := RelTime(t.Deadline)
	switch g.Phase {
	case game.PhaseStaking:
		return r.cat.T(lang, "table.status.staking", "Players", who, "Deadline", deadline)
	case game.PhaseShooting:
		return r.cat.T(lang, "table.status.shooting", "Players", who, "Deadline", deadline)
	case game.PhaseDoubling:
		return r.cat.T(lang, "table.status.doubling", "Players", who, "Deadline", deadline)
	case game.PhasePlaying:
		h := g.Current()
		return r.cat.T(lang, "table.status.playing", "Players", who, "Hand", h.Number, "Deadline", deadline)
	default:
		return r.cat.T(lang, "table.status.banker", "Players", who, "Deadline", deadline)
	}
}

// seatText is one seat on the public table: the member and their hands as the table sees them.
func (r *Renderer) seatText(lang string, t *table.Snapshot, p string) string {
	lines := []string{Mention(p)}
	g := t.Game
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
			lines = append(lines, r.cat.T(lang, "table.sat_out"))
			continue
		}
		line := tableCards(h.Cards, settled)
		if h.Stake == 0 {
			lines = append(lines, line+" · "+r.cat.T(lang, "table.no_stake_yet"))
			continue
		}
		line += " · " + r.cat.T(lang, "table.stake", "Count", h.Stake)
		if h.Shoot > 0 {
			line += " · " + r.cat.T(lang, "table.shoot", "Count", h.Shoot)
		}
		if h.Settled && (settled || h.Folded || h.Value(g.Rules).Kind == game.KindBust) {
			v := h.Value(g.Rules)
			line += "\n" + r.kindText(lang, v.Kind.String(), v.Total) + " · " + r.cat.T(lang, "table.net", "Net", i18n.Signed(h.Net))
		}
		if len(g.Round.Hands) > 0 && hasSplit(g, p) {
			line = r.cat.T(lang, "table.hand_no", "N", h.Number) + " " + line
		}
		lines = append(lines, line)
	}
	if !any && g.InRound() {
		lines = append(lines, r.cat.T(lang, "table.next_round"))
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

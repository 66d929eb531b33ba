package view

import (
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/i18n"
	"github.com/pontoon-bot/pontoon/bot/table"
	"github.com/pontoon-bot/pontoon/game"
)

// Accent colours of the table's Container, one per phase, so the state of the table shows
// at a glance in the channel.
const (
	accentWaiting = 0x607d8b // no round yet
	accentStaking = 0x1565c0 // stakes, shoot bets, the bank's double
	accentPlaying = 0x2e7d32
	accentBanker  = 0xf9a825
	accentSettled = 0x6a1b9a
	accentClosed  = 0x37474f
	accentBroken  = 0xc62828
)

// Table is the public table message (R3.2 visibility: face-down cards hidden): one
// Components V2 Container whose accent colour is the phase. A heading says the round, the
// phase, whose turn it is and when it ends; the picture goes under it (WithPicture); then
// one line per seat (name, up-cards, stake, result), the result and the fairness lines,
// and the buttons. The text alone tells the whole table, for a reader without the
// picture. Its size does not grow with the seats in components (the seats share one text
// display), so the largest table stays far inside Discord's 40 components.
func (r *Renderer) Table(lang string, t *table.Snapshot) Message {
	rules := t.Config.Rules
	head := []string{"### " + r.cat.T(lang, "table.title."+string(rules.Variant), "Round", t.Round.Number)}
	g := t.Game
	accent := accentWaiting
	switch {
	case t.Closed:
		head = append(head, r.cat.T(lang, "table.status.closed"))
		accent = accentClosed
	case t.Broken:
		head = append(head, r.cat.T(lang, "table.status.broken"))
		accent = accentBroken
	case g == nil:
		head = append(head, r.cat.T(lang, "table.status.waiting", "Count", len(t.Seats)))
	case g.InRound():
		head = append(head, r.statusLine(lang, t))
		switch g.Phase {
		case game.PhasePlaying:
			accent = accentPlaying
		case game.PhaseBanker:
			accent = accentBanker
		default:
			accent = accentStaking
		}
	default:
		head = append(head, r.cat.T(lang, "table.status.settled"))
		accent = accentSettled
	}
	if t.Notice != nil {
		head = append(head, r.notice(lang, t.Notice))
	}
	if t.Closing && !t.Closed {
		head = append(head, r.cat.T(lang, "table.closing"))
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
		head = append(head, r.cat.T(lang, "table.cut", "Winner", Mention(t.Cut.Winner), "Draws", strings.Join(passes, "; ")))
	}

	// The round on show is the one in play, or the last one settled: its bank is the one
	// who played it (R6.2 may have passed the bank on; the result names the next banker).
	banker := t.Banker()
	if g != nil && g.Round != nil {
		banker = g.Round.Banker
	}
	bank := []string{"**" + r.cat.T(lang, "table.bank_title") + "** · " + r.MentionOr(lang, banker)}
	if g != nil && g.Round != nil {
		rd := g.Round
		cards := tableCards(rd.BankerHand, rd.Outcome != nil)
		if rd.Outcome != nil || g.Phase == game.PhaseBanker {
			v := game.Evaluate(game.Cards(rd.BankerHand), rules, true)
			cards += " — " + r.kindText(lang, v.Kind.String(), v.Total)
		}
		bank = append(bank, cards)
	}
	var bankMore []string
	if rules.Variant == game.Shoot {
		// Between rounds the table's own kitty is the truth: a top-up, a sale (R9.9) or a
		// cut (R6.4) changes it after the round shown settled.
		kitty := t.Kitty
		if t.InRound() {
			kitty = g.Kitty
		}
		bank = append(bank, r.cat.T(lang, "table.kitty", "Count", kitty))
		if kitty == 0 && !t.InRound() {
			bankMore = append(bankMore, r.cat.T(lang, "table.kitty_needed", "Min", rules.KittyMin, "Max", rules.KittyMax))
		}
	}
	if g != nil && g.Round != nil && g.Round.Doubled {
		bankMore = append(bankMore, r.cat.T(lang, "table.doubled"))
	}
	seats := []string{strings.Join(bank, " · ")}
	seats = append(seats, bankMore...)
	for i, p := range t.Seats {
		if p == banker {
			continue
		}
		seats = append(seats, r.seatText(lang, t, i+1, p))
	}

	var result []string
	if g != nil && g.Round != nil && g.Round.Outcome != nil {
		o := g.Round.Outcome
		result = append(result, "**"+r.cat.T(lang, "table.result_title")+"** · "+r.cat.T(lang, "table.next_banker", "Banker", Mention(o.NextBanker)))
		if o.Shuffle {
			result = append(result, r.cat.T(lang, "table.shuffle"))
		} else {
			result = append(result, r.cat.T(lang, "table.no_shuffle"))
		}
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
	for i, l := range footer {
		footer[i] = "-# " + l // Discord's small print
	}
	parts := []discordgo.MessageComponent{
		discordgo.TextDisplay{Content: strings.Join(head, "\n")},
		discordgo.TextDisplay{Content: strings.Join(seats, "\n")},
		discordgo.TextDisplay{Content: strings.Join(result, "\n")},
		discordgo.TextDisplay{Content: strings.Join(footer, "\n")},
	}
	if !t.Closed {
		id := func(kind string) string { return cid(kind, t.ID, t.Round.Number, 0, "") }
		buttons := []discordgo.MessageComponent{
			r.button(lang, "button.join", discordgo.SuccessButton, id(KindJoin)),
			r.button(lang, "button.leave", discordgo.SecondaryButton, id(KindLeave)),
			r.button(lang, "button.deal", discordgo.PrimaryButton, id(KindDeal)),
			r.button(lang, "button.cards", discordgo.PrimaryButton, id(KindCards)),
			r.button(lang, "button.rules", discordgo.SecondaryButton, id(KindRules)),
		}
		if r.Open {
			buttons = append(buttons, r.button(lang, "button.open", discordgo.SecondaryButton, id(KindOpen)))
		}
		parts = append(parts, rows(buttons)...)
	}
	return card(accent, parts...)
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

// seatText is one seat on the public table, as the table sees it: the seat's number and
// member, then each of their hands (cards, stake, shoot bet, and once settled or out, the
// value and net), a split hand on a line of its own.
func (r *Renderer) seatText(lang string, t *table.Snapshot, n int, p string) string {
	lead := "**" + r.cat.T(lang, "table.seat", "N", n) + "** · " + Mention(p)
	g := t.Game
	if g == nil || g.Round == nil {
		return lead
	}
	settled := g.Round.Outcome != nil
	split := hasSplit(g, p)
	var hands []string
	for _, h := range g.Round.Hands {
		if h.Player != p {
			continue
		}
		if h.SatOut {
			hands = append(hands, r.cat.T(lang, "table.sat_out"))
			continue
		}
		parts := []string{tableCards(h.Cards, settled)}
		if split {
			parts[0] = r.cat.T(lang, "table.hand_no", "N", h.Number) + " " + parts[0]
		}
		if h.Stake == 0 {
			parts = append(parts, r.cat.T(lang, "table.no_stake_yet"))
		} else {
			parts = append(parts, r.cat.T(lang, "table.stake", "Count", h.Stake))
			if h.Shoot > 0 {
				parts = append(parts, r.cat.T(lang, "table.shoot", "Count", h.Shoot))
			}
			if h.Settled && (settled || h.Folded || h.Value(g.Rules).Kind == game.KindBust) {
				v := h.Value(g.Rules)
				parts = append(parts, "**"+r.kindText(lang, v.Kind.String(), v.Total)+"** "+r.cat.T(lang, "table.net", "Net", i18n.Signed(h.Net)))
			}
		}
		hands = append(hands, strings.Join(parts, " · "))
	}
	if len(hands) == 0 {
		if g.InRound() {
			return lead + " · " + r.cat.T(lang, "table.next_round")
		}
		return lead
	}
	if !split {
		return lead + " · " + hands[0]
	}
	// A split player's hands, each on its own line under the seat.
	return lead + "\n" + "> " + strings.Join(hands, "\n> ")
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

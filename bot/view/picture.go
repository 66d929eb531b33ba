package view

import (
	"fmt"
	"slices"

	"github.com/pontoon-bot/pontoon/bot/i18n"
	"github.com/pontoon-bot/pontoon/bot/table"
	"github.com/pontoon-bot/pontoon/bot/view/picture"
	"github.com/pontoon-bot/pontoon/game"
)

// Names gives a member's display name and a plain fallback (their username) for the
// picture; ok is false when the bot has not seen the member yet.
type Names func(member string) (name, fallback string, ok bool)

// PictureMoment names the moment of a round the table's picture shows: the deal (the
// round is being staked and played), the banker's reveal (R5.1) or the settlement; ""
// when there is no round to show. The public table message gets a new picture only
// when its moment changes, not on every edit.
func PictureMoment(t *table.Snapshot) string {
	g := t.Game
	if g == nil || g.Round == nil || t.Broken {
		return ""
	}
	stage := "deal"
	switch {
	case g.Round.Outcome != nil:
		stage = "settled"
	case g.Phase == game.PhaseBanker:
		stage = "banker"
	}
	return fmt.Sprintf("%d/%s", t.Round.Number, stage)
}

// Picture copies a table's round into the picture's terms, with its words in lang.
// own, when not "", is the member whose own hands are drawn face up (their private
// panel); the public table passes "". It is the table as the text embed shows it:
// face-down cards stay backs until the settlement (R3.2, R5.1).
func (r *Renderer) Picture(lang string, t *table.Snapshot, names Names, own string) picture.Table {
	g := t.Game
	l := picture.Labels{
		Title:    r.cat.T(lang, "table.title."+string(t.Config.Rules.Variant), "Round", t.Round.Number),
		Banker:   r.cat.T(lang, "picture.banker"),
		Bank:     r.cat.T(lang, "picture.bank"),
		Kitty:    r.cat.T(lang, "picture.kitty"),
		Turn:     r.cat.T(lang, "picture.turn"),
		ToAct:    func(name string) string { return r.cat.T(lang, "picture.to_act", "Player", name) },
		Stake:    func(amount string) string { return r.cat.T(lang, "picture.stake_amount", "Amount", amount) },
		Showing:  func(total string) string { return r.cat.T(lang, "picture.showing", "Total", total) },
		Total:    func(total string) string { return r.cat.T(lang, "picture.total", "Total", total) },
		FaceDown: r.cat.T(lang, "picture.face_down"),
		Hand:     r.cat.T(lang, "picture.hand"),
		Amount:   func(n int64) string { return i18n.Number(lang, n) },
	}
	pt := picture.Table{Labels: l, ShowKitty: t.Config.Rules.Variant == game.Shoot}
	if g == nil || g.Round == nil {
		return pt
	}
	rd := g.Round
	settled := rd.Outcome != nil
	switch {
	case settled:
		pt.Labels.Phase = r.cat.T(lang, "picture.phase.settled")
	case g.Phase != game.PhaseBetween:
		pt.Labels.Phase = r.cat.T(lang, "picture.phase."+g.Phase.String())
	}
	pt.Bank = g.Balances[rd.Banker] + g.Escrow[rd.Banker]
	pt.Kitty = g.Kitty
	if !t.InRound() {
		pt.Kitty = t.Kitty
	}
	toAct := map[string]bool{}
	if t.InRound() {
		for _, m := range g.ToAct() {
			toAct[m] = true
		}
	}
	seats := g.Seats
	if !slices.Contains(seats, rd.Banker) {
		seats = append([]string{rd.Banker}, seats...)
	}
	for i, m := range seats {
		s := picture.Seat{Member: m, Banker: m == rd.Banker, Turn: toAct[m]}
		name, fallback, ok := names(m)
		if !ok {
			name = r.cat.T(lang, "table.seat", "N", i+1)
			fallback = name
		}
		s.Name, s.Fallback = name, fallback
		if s.Banker {
			cards := slices.Clone(rd.BankerHand)
			if settled {
				for k := range cards {
					cards[k].FaceUp = true
				}
			}
			s.Hands = []picture.Hand{{Cards: cards, Own: m == own}}
			if settled {
				v := game.Evaluate(game.Cards(rd.BankerHand), g.Rules, true)
				s.Hands[0].Result = r.kindText(lang, v.Kind.String(), v.Total)
			}
		}
		for k, h := range rd.Hands {
			if h.Player != m || s.Banker {
				continue
			}
			ph := picture.Hand{Cards: slices.Clone(h.Cards), Own: m == own, Stake: h.Stake,
				Turn: t.InRound() && g.Phase == game.PhasePlaying && rd.Turn == k}
			if settled {
				for c := range ph.Cards {
					ph.Cards[c].FaceUp = true
				}
			}
			switch {
			case h.SatOut:
				ph.Result, ph.Tone = r.cat.T(lang, "table.sat_out"), picture.Neutral
			case h.Settled && (settled || h.Folded || h.Value(g.Rules).Kind == game.KindBust):
				v := h.Value(g.Rules)
				ph.Result = r.kindText(lang, v.Kind.String(), v.Total) + " " + r.cat.T(lang, "table.net", "Net", i18n.Signed(h.Net))
				switch {
				case h.Net > 0:
					ph.Tone = picture.Win
				case h.Net < 0:
					ph.Tone = picture.Loss
				default:
					ph.Tone = picture.Push
				}
			}
			s.Hands = append(s.Hands, ph)
		}
		pt.Seats = append(pt.Seats, s)
	}
	return pt
}

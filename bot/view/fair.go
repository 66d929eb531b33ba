package view

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/table"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/game/sim"
)

// The words of fairness: the seeded shuffle on the table, the Hint, the odds and the panel's
// "Shoot & twist".

// ShootTwistVerb is the amount select's Arg for a three-card shoot bet placed together
// with the twist that takes its card (R9.4).
const ShootTwistVerb = "shoot_twist"

// shootAndTwist reports whether member's hand in play has three cards with a shoot bet
// and a twist both legal: then the panel offers them as one choice (R9.4).
func shootAndTwist(g *game.Game, member string, moves []game.Move) bool {
	if g.Phase != game.PhasePlaying {
		return false
	}
	h := g.Current()
	if h == nil || h.Player != member || len(h.Cards) != 3 {
		return false
	}
	var shoot, twist bool
	for _, m := range moves {
		shoot = shoot || m.Verb == game.VerbShoot && m.Max > 0
		twist = twist || m.Verb == game.VerbTwist
	}
	return shoot && twist
}

func (r *Renderer) shootTwistSelect(lang string, t *table.Snapshot, member string, m game.Move) discordgo.SelectMenu {
	var opts []discordgo.SelectMenuOption
	for _, v := range AmountChoices(max(m.Min, 1), m.Max, 0) {
		opts = append(opts, discordgo.SelectMenuOption{Label: r.cat.T(lang, "amount.shoot_twist", "Amount", v), Value: strconv.FormatInt(v, 10)})
	}
	return discordgo.SelectMenu{CustomID: cid(KindAmount, t.ID, t.Round.Number, t.MSeq[member], ShootTwistVerb),
		Placeholder: r.cat.T(lang, "select.shoot_twist"), Options: opts}
}

// ShootTwistDone is the panel's notice after a "Shoot & twist".
func (r *Renderer) ShootTwistDone(lang string, amount int64) string {
	return "✅ " + r.cat.T(lang, "notice.shoot_twist", "Amount", amount)
}

// seedLines are the table's footer lines about the next freshly shuffled pack: its
// server seed's commitment and how many members added a seed.
func (r *Renderer) seedLines(lang string, t *table.Snapshot) []string {
	if t.InRound() || t.Closed || t.Seeds == nil || t.Next != nil && t.Next.Round == t.Round.Number+1 {
		return nil
	}
	out := []string{r.cat.T(lang, "table.next_seed", "Round", t.Round.Number+1, "Commitment", t.Seeds.Commitment)}
	if t.Seeds.Members > 0 {
		out = append(out, r.cat.T(lang, "table.member_seeds", "Count", t.Seeds.Members))
	}
	return out
}

// Hint is the strategy's advice in words: the move, its amount, and why.
func (r *Renderer) Hint(lang string, a sim.Advice) string {
	verb := r.cat.T(lang, "verb."+string(a.Verb))
	if a.Verb == game.VerbShoot && a.Amount == 0 {
		verb = r.cat.T(lang, "amount.no_shoot")
	}
	why := r.cat.T(lang, "why."+a.Why.String())
	if AmountVerbs[a.Verb] && a.Amount > 0 {
		return "💡 " + r.cat.T(lang, "hint.move_amount", "Verb", verb, "Amount", a.Amount, "Why", why)
	}
	return "💡 " + r.cat.T(lang, "hint.move", "Verb", verb, "Why", why)
}

// Percent writes a share as a percentage with one decimal, the reader's way: "2.5%" in
// English, "2,5%" elsewhere. The sign follows the number with no space (English, Polish,
// Indonesian and Brazilian usage alike), so a line break can never part them.
func Percent(lang string, x float64) string {
	return decimal(lang, fmt.Sprintf("%.1f", 100*x)) + "%"
}

// Points writes a change of a share in percentage points, signed as other signed amounts
// are (i18n.Signed): "+0,4", "−1,2" with a minus sign, not a hyphen.
func Points(lang string, x float64) string {
	s := decimal(lang, fmt.Sprintf("%+.1f", 100*x))
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		return "−" + rest
	}
	return s
}

// unsignedPoints writes a margin (never negative) in percentage points, without a sign.
func unsignedPoints(lang string, x float64) string {
	return decimal(lang, fmt.Sprintf("%.1f", math.Abs(100*x)))
}

// decimal gives a formatted number the reader's decimal separator.
func decimal(lang, s string) string {
	if lang != "en" {
		return strings.Replace(s, ".", ",", 1)
	}
	return s
}

// Odds is /pontoon odds: the bank's edge at the table's rules and table size, and what
// each of its house rules that differs from the defaults does to it.
func (r *Renderer) Odds(lang string, rep sim.Report, effects []sim.Effect) Message {
	res := rep.Result
	lines := []string{
		r.cat.T(lang, "odds.edge", "Edge", Percent(lang, res.Edge), "Half", unsignedPoints(lang, res.EdgeHalf), "Amount", int64(res.BankPerRound+0.5), "Stake", res.Stake, "Seats", rep.Seats),
		r.cat.T(lang, "odds.defaults", "Edge", Percent(lang, rep.Defaults.Edge)),
	}
	if len(effects) == 0 {
		lines = append(lines, r.cat.T(lang, "odds.no_rules"))
	}
	for _, e := range effects {
		lines = append(lines, r.cat.T(lang, "odds.rule", "Setting", r.settingText(lang, e.Rule), "Change", Points(lang, e.Change), "Half", unsignedPoints(lang, e.ChangeHalf)))
	}
	lines = append(lines, r.cat.T(lang, "odds.how", "Rounds", rep.Rounds))
	return Message{Embeds: []*discordgo.MessageEmbed{{Title: r.cat.T(lang, "odds.title"), Description: strings.Join(lines, "\n"), Color: 0x2e7d32}}}
}

// FairPrice is a bank offer's fair-price hint: what the bank is expected to win per round
// at this table (R6.3).
func (r *Renderer) FairPrice(lang string, perRound float64, stake int64) string {
	return r.cat.T(lang, "offer.fair_hint", "Amount", int64(perRound+0.5), "Stake", stake)
}

// settingChoices names the catalog's choice prefix of each house-rule option with choices.
var settingChoices = map[string]string{"variant": "variant", "stick_min": "stick", "split": "split", "pontoon_pays": "pays",
	"banker_pontoon_collects": "pays", "pontoon_tiers": "tiers", "burn": "burn"}

// settingText puts a house rule given as key=value (sim.Effect.Rule) into words: the
// option's description in /pontoon start and its value's name.
func (r *Renderer) settingText(lang, rule string) string {
	k, v, _ := strings.Cut(rule, "=")
	val := v
	switch p, ok := settingChoices[k]; {
	case ok:
		val = r.cat.T(lang, "choice."+p+"."+v)
	case v == "true":
		val = r.cat.T(lang, "rules.on")
	case v == "false":
		val = r.cat.T(lang, "rules.off")
	}
	return r.cat.T(lang, "cmd.start."+k+".desc") + ": " + val
}

// ShootBuyVerb is the Arg of the "Shoot & buy" button and its modal: a three-card shoot
// bet placed together with buying the card it goes with (R9.4).
const ShootBuyVerb = "shoot_buy"

func moveOf(moves []game.Move, v game.Verb) (game.Move, bool) {
	for _, m := range moves {
		if m.Verb == v {
			return m, true
		}
	}
	return game.Move{}, false
}

// ShootBuyModal asks for the shoot bet and the price of the card in one form; id is the
// clicked button's id, carried on as KindModal.
func (r *Renderer) ShootBuyModal(lang string, id ID, shoot, buy game.Move) *discordgo.InteractionResponse {
	id.Kind = KindModal
	input := func(cidName, key string, m game.Move) discordgo.MessageComponent {
		return discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			// The range goes in the placeholder (100 characters), not the label (45), which
			// large amounts written the reader's way would overflow.
			discordgo.TextInput{CustomID: cidName, Label: r.cat.T(lang, key),
				Style: discordgo.TextInputShort, Required: true, MinLength: 1, MaxLength: 16,
				Placeholder: r.cat.T(lang, "modal.range", "Min", m.Min, "Max", m.Max)}}}
	}
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseModal, Data: &discordgo.InteractionResponseData{
		CustomID: id.String(), Title: r.cat.T(lang, "modal.shoot_buy"),
		Components: []discordgo.MessageComponent{input("shoot", "modal.shoot_label", game.Move{Min: max(shoot.Min, 1), Max: shoot.Max}), input("buy", "modal.buy_label", buy)},
	}}
}

// ShootBuyDone is the panel's notice after a "Shoot & buy".
func (r *Renderer) ShootBuyDone(lang string, shoot, buy int64) string {
	return "✅ " + r.cat.T(lang, "notice.shoot_buy", "Amount", shoot, "Price", buy)
}

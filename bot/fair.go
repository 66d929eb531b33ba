package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/table"
	"github.com/pontoon-bot/pontoon/bot/view"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/game/sim"
	"github.com/pontoon-bot/pontoon/store"
)

// At the table: members' seeds for the next shuffle, the odds, the Hint and the
// panel's "Shoot & twist".

// fairStore keeps the odds once per rule set and tells a round's revealed seed.
type fairStore interface {
	Odds(ctx context.Context, rules string, seats int) (string, bool, error)
	SaveOdds(ctx context.Context, rules string, seats int, report string, now time.Time, keep int) error
	RoundSeed(ctx context.Context, roundID int64) (store.ShuffleSeed, bool, error)
}

// oddsRounds is how many rounds /pontoon odds simulates per rule set: with the defaults
// and every R8 variation beside them, 3.4 million player hands at five seats, about one
// CPU-second (`pontoon simulate --rounds 50000 --seats 5`), and a 95 % interval of about
// ±0.8 points on the edge.
const oddsRounds = 50000

// hintRounds is how many rounds a bank offer's fair-price hint simulates when the odds of
// the table's rules are not kept yet: the table's rule set alone, about 40,000 player
// hands at five seats, a few hundredths of a CPU-second; its expected value per round is
// within about a chip of the odds' figure.
const hintRounds = 10000

// oddsSeed fixes the packs, so a rule set always gets the same figures.
const oddsSeed = 11

// cmdSeed adds a member's text to the entropy of the table's next freshly shuffled pack.
func (b *Bot) cmdSeed(c *ictx, o options) error {
	v, ok := o["text"]
	if !ok {
		return refuse("err.seed_empty")
	}
	text, err := table.SeedText(v.StringValue())
	if err != nil {
		return err
	}
	t, err := b.tables.ByChannel(c.ctx, c.guild, c.channel)
	if err != nil {
		return err
	}
	_, n, err := t.AddSeed(c.ctx, c.user, text)
	if err != nil {
		return err
	}
	return b.privateText(c, b.cat.T(c.lang, "seed.added", "Seed", text, "Count", n, "Deal", b.cat.T(c.lang, "button.deal")))
}

// oddsKey is the rule set as the store keeps it, and the table size simulated. Rule
// sets the simulation plays alike (sim.Canonical: other stake limits with the same flat
// stake, kitty limits it does not read) share one key, so naming them costs no new
// simulation.
func oddsKey(rules game.Rules, seated int) (string, int) {
	raw, _ := json.Marshal(sim.Canonical(rules))
	return string(raw), min(max(seated, 2), 8)
}

// cachedOdds is the report kept for the rule set, if any.
func (b *Bot) cachedOdds(ctx context.Context, rules game.Rules, seated int) (sim.Report, bool) {
	key, seats := oddsKey(rules, seated)
	raw, ok, err := b.fair.Odds(ctx, key, seats)
	if err != nil || !ok {
		return sim.Report{}, false
	}
	var rep sim.Report
	if json.Unmarshal([]byte(raw), &rep) != nil {
		return sim.Report{}, false
	}
	return rep, true
}

// odds is the report for the rule set, simulated and kept the first time: one
// simulation at a time in the process (odds.go), and a rule set simulated while this
// one waited is not simulated again.
func (b *Bot) odds(ctx context.Context, rules game.Rules, seated int) (sim.Report, error) {
	if rep, ok := b.cachedOdds(ctx, rules, seated); ok {
		return rep, nil
	}
	wait, cancel := context.WithTimeout(ctx, oddsWait)
	release, ok := b.sims.acquire(wait, b.stop)
	cancel()
	if !ok {
		return sim.Report{}, refuse("err.odds_busy")
	}
	defer release()
	if rep, ok := b.cachedOdds(ctx, rules, seated); ok {
		return rep, nil
	}
	key, seats := oddsKey(rules, seated)
	b.log.Debug("simulating odds", "seats", seats)
	started := time.Now()
	rep, err := sim.Simulate(sim.Config{Rules: rules, Seats: seats, Rounds: oddsRounds, Seed: oddsSeed})
	if err != nil {
		return sim.Report{}, err
	}
	b.log.Debug("odds simulated", "seats", seats, "took", time.Since(started).Round(time.Millisecond))
	raw, err := json.Marshal(rep)
	if err != nil {
		return sim.Report{}, err
	}
	if err := b.fair.SaveOdds(ctx, key, seats, string(raw), b.now(), b.opt.OddsKept); err != nil {
		b.log.Warn("odds not kept", "err", err)
	}
	return rep, nil
}

// ownEffects are the report's effects of the house rules in which rules differ from the
// defaults.
func ownEffects(rules game.Rules, rep sim.Report) []sim.Effect {
	var mine, defs map[string]any
	raw, _ := json.Marshal(rules)
	_ = json.Unmarshal(raw, &mine)
	raw, _ = json.Marshal(game.DefaultRules())
	_ = json.Unmarshal(raw, &defs)
	var out []sim.Effect
	for _, e := range rep.Effects {
		for k, v := range mine {
			if fmt.Sprint(v) != fmt.Sprint(defs[k]) && e.Rule == k+"="+fmt.Sprint(v) {
				out = append(out, e)
			}
		}
	}
	return out
}

// cmdOdds answers with the table's banker's edge (or the server's defaults' without a
// table). A rule set met for the first time is simulated after a deferred reply, so the
// answer is in time however long the simulation takes, within the server's hourly
// budget of new simulations (odds.go): past it the member is told the limit at once.
func (b *Bot) cmdOdds(c *ictx, _ options) error {
	rules, _ := b.serverDefaults(c.ctx, c.guild)
	seated := 5
	if t, err := b.tables.ByChannel(c.ctx, c.guild, c.channel); err == nil {
		s := t.Snapshot()
		rules, seated = s.Config.Rules, max(len(s.Seats), 2)
	}
	if rep, ok := b.cachedOdds(c.ctx, rules, seated); ok {
		return b.private(c, b.view.Odds(c.lang, rep, ownEffects(rules, rep)))
	}
	if ok, again := b.sims.take(c.guild, c.now); !ok {
		return refuse("err.odds_rate", "Limit", b.opt.OddsPerHour, "When", view.RelTime(again))
	}
	i, lang := c.i, c.lang
	c.afterReply(func(ctx context.Context) {
		rep, err := b.odds(ctx, rules, seated)
		var m view.Message
		if err != nil {
			log, ok := table.LoggerFrom(ctx)
			if !ok {
				log = b.log
			}
			if r := (*table.Refusal)(nil); !errors.As(err, &r) {
				log.Error("odds", "err", err)
			}
			m = view.Message{Content: "⛔ " + b.words(lang, err, log)}
		} else {
			m = b.view.Odds(lang, rep, ownEffects(rules, rep))
		}
		if _, err := b.s.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &m.Content, Embeds: &m.Embeds}, discordgo.WithContext(ctx)); err != nil {
			b.log.Warn("odds not delivered", "err", err)
		}
	})
	return b.respond(c, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}})
}

// fairPrice is the bank offer's hint line for the table: from kept odds, or, when
// compute is true (only after the reply: a reply never waits on a simulation), from
// sim.Run of the table's rules alone over hintRounds, so the offer is posted a moment
// after the reply rather than a second; "" when there are none.
func (b *Bot) fairPrice(ctx context.Context, lang string, t *table.Table, compute bool) string {
	s := t.Snapshot()
	rep, ok := b.cachedOdds(ctx, s.Config.Rules, max(len(s.Seats), 2))
	res := rep.Result
	key, seats := oddsKey(s.Config.Rules, len(s.Seats))
	key += "|" + strconv.Itoa(seats)
	if !ok {
		if v, found := b.hints.Get(key); found {
			res, ok = v, true
		}
	}
	if !ok && compute {
		var err error
		if res, err = sim.Run(sim.Config{Rules: s.Config.Rules, Seats: seats, Rounds: hintRounds, Seed: oddsSeed}); err != nil {
			b.log.Warn("fair price not simulated", "err", err)
			return ""
		}
		b.hints.Add(key, res)
		ok = true
	}
	if !ok {
		return ""
	}
	return b.view.FairPrice(lang, res.BankPerRound, res.Stake)
}

// clickHint tells the member privately what the documented strategy would do now, and why.
func (b *Bot) clickHint(c *ictx, id view.ID) error {
	t, err := b.tableOf(c, id)
	if err != nil {
		return err
	}
	s := t.Snapshot()
	if s.Round.Number != id.Round {
		return refuse("err.hint_none")
	}
	adv, ok := advise(&s, c.user)
	if !ok {
		return refuse("err.hint_none")
	}
	return b.privateText(c, b.view.Hint(c.lang, adv))
}

// Advice is what the Hint button would tell member at the channel's open table now: the
// documented strategy's next move (game/sim), and false when the member has nothing to
// decide or the channel has no table. The demo's scripted players play by it.
func (b *Bot) Advice(ctx context.Context, guild, channel, member string) (sim.Advice, bool) {
	t, err := b.tables.ByChannel(ctx, guild, channel)
	if err != nil {
		return sim.Advice{}, false
	}
	s := t.Snapshot()
	return advise(&s, member)
}

// advise is the strategy's move for member at a table's round in play.
func advise(s *table.Snapshot, member string) (sim.Advice, bool) {
	if !s.InRound() {
		return sim.Advice{}, false
	}
	return sim.Advise(s.Game, member)
}

// shootTwist places a three-card shoot bet and takes its card in one click (R9.4).
func (b *Bot) shootTwist(c *ictx, t *table.Table, id view.ID, amount int64) error {
	as := []game.Action{{Player: c.user, Verb: game.VerbShoot, Amount: amount}, {Player: c.user, Verb: game.VerbTwist}}
	s, err := t.ActAll(c.ctx, as, c.i.ID, id.Check)
	if err != nil {
		return b.actRefused(c, &s, err)
	}
	c.note = b.view.ShootTwistDone(c.lang, amount)
	return b.panel(c, b.panelMessage(c, &s, c.note))
}

// withSeed adds a round's revealed server seed to its history file: the history of a
// round whose pack was shuffled away carries it (HISTORY.md, "Seeded shuffles").
func (b *Bot) withSeed(ctx context.Context, roundID int64, h *game.History) (revealed bool, err error) {
	if len(h.Rounds) == 0 || h.Rounds[0].SeededShuffle == nil {
		return false, nil
	}
	p, ok, err := b.fair.RoundSeed(ctx, roundID)
	if err != nil || !ok || !p.Revealed {
		return false, err
	}
	ss := *h.Rounds[0].SeededShuffle
	ss.ServerSeed = p.ServerSeed
	h.Rounds[0].SeededShuffle = &ss
	return true, nil
}

// askShootBuy opens the "Shoot & buy" form with both legal ranges (R9.4).
func (b *Bot) askShootBuy(c *ictx, id view.ID, s *table.Snapshot) error {
	var shoot, buy game.Move
	var okS, okB bool
	if s.Game != nil {
		for _, m := range s.Game.Legal(c.user) {
			switch m.Verb {
			case game.VerbShoot:
				shoot, okS = m, m.Max > 0
			case game.VerbBuy:
				buy, okB = m, true
			}
		}
	}
	if !okS || !okB {
		return b.panel(c, b.panelMessage(c, s, b.refusalText(c, refuse("err.not_now"))))
	}
	return b.respond(c, b.view.ShootBuyModal(c.lang, id, shoot, buy))
}

// submitShootBuy places the shoot bet and buys its card as one click (R9.4).
func (b *Bot) submitShootBuy(c *ictx, id view.ID) error {
	values := map[string]string{}
	for _, row := range c.i.ModalSubmitData().Components {
		if r, ok := row.(*discordgo.ActionsRow); ok {
			for _, comp := range r.Components {
				if in, ok := comp.(*discordgo.TextInput); ok {
					values[in.CustomID] = in.Value
				}
			}
		}
	}
	t, err := b.tableOf(c, id)
	if err != nil {
		return err
	}
	shoot, err1 := strconv.ParseInt(strings.TrimSpace(values["shoot"]), 10, 64)
	buy, err2 := strconv.ParseInt(strings.TrimSpace(values["buy"]), 10, 64)
	if err1 != nil || err2 != nil || shoot < 1 || buy < 0 {
		bad := values["shoot"]
		if err1 == nil && shoot >= 1 {
			bad = values["buy"]
		}
		return b.refusePanel(c, t, refuse("err.not_a_number", "Value", truncate(bad, 20)))
	}
	as := []game.Action{{Player: c.user, Verb: game.VerbShoot, Amount: shoot}, {Player: c.user, Verb: game.VerbBuy, Amount: buy}}
	s, err := t.ActAll(c.ctx, as, c.i.ID, id.Check)
	if err != nil {
		return b.actRefused(c, &s, err)
	}
	return b.panel(c, b.panelMessage(c, &s, b.view.ShootBuyDone(c.lang, shoot, buy)))
}

package bot_test

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func shootOpts() []*discordgo.ApplicationCommandInteractionDataOption {
	return []*discordgo.ApplicationCommandInteractionDataOption{strOpt("variant", "shoot"), intOpt("kitty_min", 10), intOpt("kitty_max", 200)}
}

// Shoot Pontoon: a kitty put up, shoot bets after the stakes and before a fourth card,
// a bust feeding the kitty, a top-up, and a top-up over kitty_max refused (R9).
func TestShootGame(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, shootOpts(), bob, carol)
	h.deck.push(cutFor(t, 0, 3))
	r := h.clickTable(bob, "deal")
	require.True(t, r.Ephemeral, "no deal without a kitty")
	require.Contains(t, text(r.Message), "must put up a kitty of 10 to 200")
	h.waitBanker(alice)

	r = h.cmd(bob, group("bank", "kitty", intOpt("amount", 50)))
	require.Contains(t, text(r.Message), "Only the banker")
	r = h.cmd(alice, group("bank", "kitty", intOpt("amount", 100)))
	require.True(t, r.Ephemeral)
	require.Contains(t, text(r.Message), "now holds 100")
	h.waitTable("Kitty: 100 chips")

	// bob 9H 5D, carol TC 6C, alice 7S 9S; bob twists 2C, shoots, twists KD (bust).
	h.nextRound(stack(t, "9H TC 7S 5D 6C 9S 2C KD"))
	h.clickTable(bob, "deal")
	h.amount(bob, game.VerbStake, 10)
	h.amount(carol, game.VerbStake, 10)
	h.amount(bob, game.VerbShoot, 20)
	p := h.amount(carol, game.VerbShoot, 0)
	require.Contains(t, text(p), "✅ You placed no shoot bet.", "a shoot bet of 0 has its own words")
	h.do(bob, game.VerbTwist) // 16 with three cards: one shoot bet before the fourth (R9.4)
	// R9.4: the three-card shoot goes with the fourth card, so the panel offers them as
	// one choice, "Shoot & twist".
	p = h.amount(bob, "shoot_twist", 10)
	require.Contains(t, text(p), "Shot 10 chips and twisted")
	require.Contains(t, text(p), "Bust (26)")
	h.do(carol, game.VerbStick)
	h.do(alice, game.VerbStay)
	h.waitTable("Kitty: 130 chips") // 100 + bob's 30 of shoot bets (R9.6)
	assert.Equal(t, int64(960), h.balance(bob))
	assert.Equal(t, int64(990), h.balance(carol)) // 16 ties the bank's 16 (R2.6)
	assert.Equal(t, int64(920), h.balance(alice))

	r = h.cmd(alice, group("bank", "kitty", intOpt("amount", 71)))
	require.Contains(t, text(r.Message), "top-up may be from 1 to 70")
	r = h.cmd(alice, group("bank", "kitty", intOpt("amount", 50)))
	require.Contains(t, text(r.Message), "now holds 180")
	h.audit()
	h.noFailures()
}

// A bank sale declined, then one accepted: the price and the bank move together and the
// kitty goes back to the seller (R6.3, R9.9). Only the buyer can answer.
func TestBankSale(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, shootOpts(), bob, carol)
	h.deck.push(cutFor(t, 0, 3))
	h.clickTable(alice, "deal") // the cut makes alice the banker; the deal waits for a kitty
	h.cmd(alice, group("bank", "kitty", intOpt("amount", 60)))

	r := h.cmd(alice, group("bank", "sell", userOpt("member", alice), intOpt("price", 10)))
	require.Contains(t, text(r.Message), "cannot sell the bank to yourself")
	r = h.cmd(bob, group("bank", "sell", userOpt("member", carol), intOpt("price", 10)))
	require.Contains(t, text(r.Message), "Only the banker")
	r = h.cmd(alice, group("bank", "sell", userOpt("member", dave), intOpt("price", 10)))
	require.Contains(t, text(r.Message), "not seated")

	offer := func() *discordgo.Message {
		r := h.cmd(alice, group("bank", "sell", userOpt("member", bob), intOpt("price", 40)))
		require.True(t, r.Ephemeral)
		require.Contains(t, text(r.Message), "Offer sent")
		return h.waitOffer()
	}
	click := func(m *discordgo.Message, user, suffix string) *discordgo.Message {
		id, ok := customID(m, "pt:offer:", suffix)
		require.True(t, ok)
		r, err := h.fake.Click(channelID, m.ID, user, id)
		require.NoError(t, err)
		return r.Message
	}
	m := offer()
	got := click(m, carol, ".accept")
	require.Contains(t, text(got), "This offer is for <@"+bob+">")
	got = click(m, bob, ".decline")
	require.Contains(t, text(got), "declined")
	assert.Equal(t, int64(940), h.balance(alice))

	m = offer()
	got = click(m, bob, ".accept")
	require.Contains(t, text(got), "bought the bank")
	require.Empty(t, components(got), "a settled offer keeps no buttons")
	h.waitBanker(bob)
	assert.Equal(t, int64(1000+40), h.balance(alice), "price paid and kitty returned (R9.9)")
	assert.Equal(t, int64(960), h.balance(bob))
	h.waitTable("must put up a kitty")
	h.audit()
	h.noFailures()
}

// Bad input gets a clear private answer and changes nothing: double clicks, stale
// buttons, typed amounts out of range or not numbers, deals mid-round, strangers.
func TestBadInput(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob, carol)
	r := h.clickTable(bob, "join")
	require.True(t, r.Ephemeral)
	require.Contains(t, text(r.Message), "already seated")
	r = h.clickTable(dave, "deal")
	require.Contains(t, text(r.Message), "not seated")
	h.deal(alice, 0, "9H TC 7S 5D 6C 9S 2C KD")
	r = h.clickTable(bob, "deal")
	require.True(t, r.Ephemeral)
	require.Contains(t, text(r.Message), "already being played")
	r = h.clickTable(bob, "leave")
	require.Contains(t, text(r.Message), "you can leave once it is settled")

	// The same stake chosen twice (a double click, or two panels open): applied once.
	p := h.panel(bob)
	p2 := h.panel(bob)
	id, ok := customID(p, "pt:amt:", ":stake")
	require.True(t, ok)
	r1, err := h.fake.Select(channelID, p.ID, bob, id, []string{"10"})
	require.NoError(t, err)
	require.Contains(t, text(r1.Message), "✅")
	r2, err := h.fake.Select(channelID, p2.ID, bob, id, []string{"10"})
	require.NoError(t, err)
	require.Contains(t, text(r2.Message), "earlier turn")
	assert.Equal(t, int64(1000-20), h.balance(bob), "stake and reserve taken once (R7.1)")

	// Typed amounts: the modal says the range; out of range and words are refused.
	askStake := func() *discordtest.Response {
		p := h.panel(carol)
		id, ok := customID(p, "pt:ask:", ":stake")
		require.True(t, ok)
		ask, err := h.fake.Click(channelID, p.ID, carol, id)
		require.NoError(t, err)
		require.Equal(t, discordgo.InteractionResponseModal, ask.Type)
		require.Contains(t, ask.Modal.Title, "Stake")
		return ask
	}
	for _, tc := range []struct{ in, want string }{{"ten", "whole number"}, {"51", "from 1 to 50; 51 is not."}, {"0", "from 1 to 50"}, {"9999999999999999", "not an amount of chips"}, {"-5", "whole number"}} {
		ask := askStake()
		sr, err := h.fake.SubmitModal(channelID, carol, ask.Modal.CustomID, map[string]string{"amount": tc.in}, ask)
		require.NoError(t, err)
		require.Contains(t, text(sr.Message), tc.want, tc.in)
		require.Contains(t, text(sr.Message), "⛔")
	}
	assert.Equal(t, int64(1000), h.balance(carol))
	ask := askStake()
	sr, err := h.fake.SubmitModal(channelID, carol, ask.Modal.CustomID, map[string]string{"amount": "12"}, ask)
	require.NoError(t, err)
	require.Contains(t, text(sr.Message), "✅")
	assert.Equal(t, int64(1000-24), h.balance(carol))

	// bob holds 9H 5D (14): his panel offers only what is legal: no Stick under 15
	// (R4.5), but Twist and a Buy from 10 to 20 (R4.3).
	p = h.panel(bob)
	_, ok = customID(p, "pt:act:", ":stick")
	assert.False(t, ok, "no Stick at 14")
	_, ok = customID(p, "pt:act:", ":twist")
	assert.True(t, ok)
	require.Contains(t, text(p), "Buy: 10 to 20 chips")
	// Carol's panel has no play buttons while it is bob's turn.
	p = h.panel(carol)
	_, ok = customID(p, "pt:act:", ":twist")
	assert.False(t, ok, "carol may not twist on bob's turn")
	require.Contains(t, text(p), "Waiting for <@"+bob+">")
	// A stranger sees no hand and no actions.
	p = h.panel(dave)
	require.Contains(t, text(p), "You are not in this round")

	// Giving chips you do not have, to yourself, or to nobody valid.
	r = h.cmd(dave, sub("give", userOpt("member", dave), intOpt("amount", 5)))
	require.Contains(t, text(r.Message), "yourself")
	r = h.cmd(dave, sub("give", userOpt("member", alice), intOpt("amount", 5000)))
	require.Contains(t, text(r.Message), "You need 5,000 free chips and have 1,000")
	r = h.cmd(bob, sub("grant", userOpt("member", bob), intOpt("amount", 5000)))
	require.Contains(t, text(r.Message), "Manage Server")
	r = h.cmd(admin, sub("grant", userOpt("member", bob), intOpt("amount", 500)))
	require.Contains(t, text(r.Message), "Granted 500 chips")
	h.audit()
	h.noFailures()
}

// R7.4: a player who does not stake in time sits out; one who does not act on a turn
// sticks if allowed or folds; a banker who does not act stays. The table never hangs.
func TestTimeouts(t *testing.T) {
	h, clk := carolTimesOut(t)
	h.waitTable("ran out of time")
	// bob never acts: 13 folds. The banker then has no hand left to play against (R5.2).
	clk.Advance(time.Minute) // bob's turn
	h.waitTable("The round is settled")
	assert.Equal(t, int64(990), h.balance(bob))
	assert.Equal(t, int64(1000), h.balance(carol))
	assert.Equal(t, int64(1010), h.balance(alice))
	h.audit()
	h.noFailures()
}

// R7.4: the table names everyone who ran out of time since the last decision anyone
// made, not only the last timer's: carol sits out, then bob's turn times out and settles
// the round, and the settled table names both. A restart that redraws the settled table
// from the store (its settlement edit lost at the stop) names the same two.
// carolTimesOut seats bob and carol at alice's bank and deals bob 9H 4D (13: folds),
// carol TC 8C and alice 7S 9S; bob stakes 10, and carol, who never stakes, sits out when
// her minute runs out (R7.4). bob's turn is next.
func carolTimesOut(t *testing.T) (*harness, *manualClock) {
	clk := newClock()
	h := newHarness(t, clk.use)
	h.seat(alice, nil, bob, carol)
	h.deal(alice, 0, "9H TC 7S 4D 8C 9S")
	h.amount(bob, game.VerbStake, 10)
	clk.Advance(time.Minute) // carol's stake
	h.waitTable("<@" + carol + "> ran out of time.")
	return h, clk
}

func TestTimeoutNoticeNamesEveryoneSinceTheLastDecision(t *testing.T) {
	both := "<@" + carol + "> and <@" + bob + "> ran out of time."
	t.Run("in memory", func(t *testing.T) {
		h, clk := carolTimesOut(t)
		clk.Advance(time.Minute) // bob's turn, with no decision since carol's timeout
		m := h.waitTable("The round is settled")
		require.Contains(t, text(m), both)
		h.noFailures()
	})
	t.Run("redrawn after a restart", func(t *testing.T) {
		h, clk := carolTimesOut(t)
		// The settlement's edits (with its picture, then without) are lost at the stop.
		h.stopLosingTableEdits("The round is settled", func() {
			clk.Advance(time.Minute) // bob's turn: the round settles
		})
		h.start()
		m := h.waitTable("The round is settled")
		require.Contains(t, text(m), both)
	})
}

// A restart mid-round: the table carries on from the same state, and the buttons of a
// panel opened before the restart still work.
func TestRestartMidRound(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob, carol)
	h.deal(alice, 0, "9H TC 7S 5D 8C 9S 2C")
	h.amount(bob, game.VerbStake, 10)
	h.amount(carol, game.VerbStake, 10)
	p := h.panel(bob) // opened before the restart
	h.stop()
	h.start()
	id, ok := customID(p, "pt:act:", ":twist")
	require.True(t, ok)
	r, err := h.fake.Click(channelID, p.ID, bob, id)
	require.NoError(t, err)
	require.Contains(t, text(r.Message), "✅", text(r.Message))
	require.Contains(t, text(r.Message), "9♥ 5♦ 2♣")
	h.do(bob, game.VerbStick)
	h.do(carol, game.VerbStick)
	h.do(alice, game.VerbStay)
	h.waitTable("The round is settled")
	assert.Equal(t, int64(990), h.balance(bob))    // 9+5+2 = 16 ties the bank's 16 and loses (R2.6)
	assert.Equal(t, int64(1010), h.balance(carol)) // 18 beats 16
	h.audit()
}

// A timer that ran out while the bot was down applies at start (R7.4).
func TestRestartAppliesMissedTimeouts(t *testing.T) {
	now := time.Now()
	clock := func() time.Time { return now }
	h := newHarness(t, func(o *bot.Options) { o.Now = func() time.Time { return clock() } })
	h.seat(alice, nil, bob, carol)
	h.deal(alice, 0, "9H TC 7S 5D 8C 9S")
	h.amount(bob, game.VerbStake, 10)
	h.stop()
	later := now.Add(10 * time.Minute)
	clock = func() time.Time { return later }
	h.start()
	// carol's stake timed out while the bot was down: she sits out (R7.4).
	h.waitTable("ran out of time")
	ctx := context.Background()
	tb, err := h.st.TableByChannel(ctx, guildID, channelID)
	require.NoError(t, err)
	r, err := h.st.Round(ctx, tb.ID, 1)
	require.NoError(t, err)
	acts, err := h.st.Actions(ctx, r.ID)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(acts), 2)
	assert.Equal(t, carol, acts[1].Member)
	assert.Equal(t, "timeout", acts[1].Verb)
}

// The leaderboard after some play: richest first, the caller's own rank, paging.
func TestLeaderboard(t *testing.T) {
	h := newHarness(t, nil)
	for _, m := range []string{alice, bob, carol, dave} {
		h.cmd(m, sub("balance"))
	}
	h.cmd(admin, sub("grant", userOpt("member", carol), intOpt("amount", 300)))
	h.cmd(bob, sub("give", userOpt("member", dave), intOpt("amount", 100)))
	r := h.cmd(bob, sub("leaderboard"))
	require.True(t, r.Ephemeral)
	txt := text(r.Message)
	require.Contains(t, txt, "**1.** <@"+carol+"> — 1,300 chips")
	require.Contains(t, txt, "**2.** <@"+dave+"> — 1,100 chips")
	require.Contains(t, txt, "You: rank 4, 900 chips")
	require.Less(t, strings.Index(txt, "<@"+alice+">"), strings.Index(txt, "<@"+bob+">"))
	r = h.cmd(alice, sub("daily"))
	require.Contains(t, text(r.Message), "You claimed 200 chips")
	r = h.cmd(alice, sub("daily"))
	require.Contains(t, text(r.Message), "already; next claim <t:")
	h.audit()
	h.noFailures()
}

// R9.8: with the kitty empty the banker auctions the bank; members bid for a set time and
// the highest bid buys it, paying the old banker; the new banker must put up a kitty.
func TestBankAuction(t *testing.T) {
	clk := newClock()
	h := newHarness(t, func(o *bot.Options) { clk.use(o); o.BidWindow = 2 * time.Second })
	h.seat(alice, shootOpts(), bob, carol)
	h.deck.push(cutFor(t, 0, 3))
	h.clickTable(alice, "deal") // alice banks; no kitty yet
	r := h.cmd(bob, group("bank", "auction"))
	require.Contains(t, text(r.Message), "Only the banker")
	r = h.cmd(alice, group("bank", "auction"))
	require.Contains(t, text(r.Message), "auction has started")
	r = h.cmd(alice, group("bank", "bid", intOpt("amount", 10)))
	require.Contains(t, text(r.Message), "your own bank")
	r = h.cmd(bob, group("bank", "bid", intOpt("amount", 30)))
	require.Contains(t, text(r.Message), "30 chips is the highest")
	r = h.cmd(carol, group("bank", "bid", intOpt("amount", 30)))
	require.Contains(t, text(r.Message), "Bid more than the highest bid of 30")
	r = h.cmd(carol, group("bank", "bid", intOpt("amount", 5000)))
	require.Contains(t, text(r.Message), "You need 5,000 free chips and have 1,000")
	r = h.cmd(carol, group("bank", "bid", intOpt("amount", 45)))
	require.Contains(t, text(r.Message), "45 chips is the highest")
	clk.Advance(2 * time.Second) // the bid window closes (R9.8)
	h.waitTable("won the bank from <@" + alice + "> for 45 chips")
	h.waitBanker(carol)
	assert.Equal(t, int64(1045), h.balance(alice))
	assert.Equal(t, int64(955), h.balance(carol))
	assert.Equal(t, int64(1000), h.balance(bob))
	r = h.cmd(bob, group("bank", "bid", intOpt("amount", 50)))
	require.Contains(t, text(r.Message), "No auction is running")
	h.audit()
	h.noFailures()
}

// A panel from an earlier round is refused with both round numbers, and changes nothing.
func TestStaleRoundButton(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	h.deal(alice, 0, "9H 7S 8D 9S")
	h.amount(bob, game.VerbStake, 10)
	old := h.panel(bob)
	h.do(bob, game.VerbStick)
	h.do(alice, game.VerbStay)
	h.waitTable("The round is settled")
	h.nextRound(stack(t, "9C 7D 8S 9D"))
	h.clickTable(alice, "deal")
	before := h.balance(bob)
	id, ok := customID(old, "pt:act:", ":twist")
	require.True(t, ok)
	r, err := h.fake.Click(channelID, old.ID, bob, id)
	require.NoError(t, err)
	require.Contains(t, text(r.Message), "This button is from round 1; the table is on round 2.")
	assert.Equal(t, before, h.balance(bob))
	h.noFailures()
}

// A sale after a round has been played: the table shows the buyer as banker, the next
// deal is banked by the buyer, and the seller plays as a player (R6.3).
func TestSaleAfterARound(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	h.deal(alice, 0, "9H 7S 8D 9S")
	h.amount(bob, game.VerbStake, 10)
	h.do(bob, game.VerbStick)
	h.do(alice, game.VerbStay)
	h.waitTable("The round is settled")
	r := h.cmd(alice, group("bank", "sell", userOpt("member", bob), intOpt("price", 25)))
	require.Contains(t, text(r.Message), "Offer sent")
	offer := h.waitOffer()
	id, ok := customID(offer, "pt:offer:", ".accept")
	require.True(t, ok)
	_, err := h.fake.Click(channelID, offer.ID, bob, id)
	require.NoError(t, err)
	h.waitBanker(bob)
	h.nextRound(stack(t, "9C 7D 8S 9D"))
	h.clickTable(alice, "deal")
	p := h.panel(alice)
	_, ok = customID(p, "pt:amt:", ":stake")
	assert.True(t, ok, "alice stakes now that bob banks: %s", text(p))
	h.audit()
	h.noFailures()
}

// A round whose replay disagrees with the ledger after a restart is reported, not
// continued: the table says so and refuses play, and the chips stay where they are.
func TestRecoveryMismatchIsReported(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	h.deal(alice, 0, "9H 7S 8D 9S")
	h.amount(bob, game.VerbStake, 10)
	h.stop()
	db, err := sql.Open("sqlite3", h.dbPath)
	require.NoError(t, err)
	// Move a chip from bob's escrow to his wallet behind the bot's back.
	_, err = db.Exec(`UPDATE accounts SET balance = balance - 1 WHERE account LIKE 'escrow:%:' || ?`, bob)
	require.NoError(t, err)
	_, err = db.Exec(`UPDATE accounts SET balance = balance + 1 WHERE account = 'wallet:' || ?`, bob)
	require.NoError(t, err)
	require.NoError(t, db.Close())
	h.start()
	h.waitTable("could not be restored")
	p := h.panel(bob)
	require.Contains(t, text(p), "waiting for an admin")
	assert.Empty(t, components(p), "no actions on a table whose books disagree")
	r := h.clickTable(alice, "deal")
	require.Contains(t, text(r.Message), "waiting for an admin")
}

// R6.4: the bank and kitty belong to the channel's table. When the owner is not seated
// at a deal, a cut chooses the bank and the owner's kitty goes back to the owner; the
// bank's owner then survives the table being stopped and opened again.
func TestBankOwnerNotSeated(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, shootOpts(), bob, carol)
	h.deck.push(cutFor(t, 0, 3))
	h.clickTable(alice, "deal") // alice wins the cut; the deal waits for her kitty
	h.cmd(alice, group("bank", "kitty", intOpt("amount", 60)))
	assert.Equal(t, int64(940), h.balance(alice))
	h.clickTable(alice, "leave")
	h.deck.push(cutFor(t, 1, 2)) // bob and carol cut; carol wins
	r := h.clickTable(bob, "deal")
	require.Contains(t, text(r.Message), "must put up a kitty", "the new banker puts up a new kitty (R9.9)")
	h.waitBanker(carol)
	assert.Equal(t, int64(1000), h.balance(alice), "the kitty went back to its owner (R6.4)")

	r = h.cmd(carol, sub("stop"))
	require.Contains(t, text(r.Message), "closed")
	h.cmd(bob, sub("start", shootOpts()...))
	h.waitBanker(carol)
	h.audit()
	h.noFailures()
}

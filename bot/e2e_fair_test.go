package bot_test

import (
	"context"
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// End to end: seeded shuffles (HISTORY.md, "Seeded shuffles"), members' seeds,
// the odds, the Hint and "Shoot & twist" (R9.4).

// cuts hands out the packs pushed (the cuts, R1.4) and nil otherwise, so the table
// shuffles every round's pack itself with pontoon-shuffle/1.
type cuts struct {
	mu    sync.Mutex
	packs [][]game.Card
}

func (c *cuts) next(int) []game.Card {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.packs) == 0 {
		return nil
	}
	p := c.packs[0]
	c.packs = c.packs[1:]
	return p
}

func (c *cuts) push(p []game.Card) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.packs = append(c.packs, p)
}

func seededHarness(t *testing.T) (*harness, *cuts) {
	q := &cuts{}
	h := newHarness(t, func(o *bot.Options) { o.Deck = q.next })
	return h, q
}

var seedLine = regexp.MustCompile(`Round (\d+) will be shuffled from the server seed with commitment: ([0-9a-f]{64})`)

// shownSeed is the commitment of the next fresh shuffle the table shows before Deal.
func (h *harness) shownSeed(round string) string {
	h.t.Helper()
	m := h.waitTable("Round " + round + " will be shuffled from the server seed")
	got := seedLine.FindStringSubmatch(text(m))
	require.NotNil(h.t, got, text(m))
	return got[2]
}

func (h *harness) tableID() int64 {
	h.t.Helper()
	tb, err := h.st.TableByChannel(context.Background(), guildID, channelID)
	require.NoError(h.t, err)
	return tb.ID
}

// playOut plays round number to its end whatever the cards: every player stakes the
// least, sticks when allowed and twists otherwise; the banker stays.
func (h *harness) playOut(number int, members ...string) {
	h.t.Helper()
	ctx := context.Background()
	id := h.tableID()
	for range 40 {
		r, err := h.st.Round(ctx, id, number)
		require.NoError(h.t, err)
		if r.Finished() {
			return
		}
		for _, m := range members {
			p := h.panel(m)
			if sid, ok := customID(p, "pt:amt:", ":stake"); ok {
				_, err := h.fake.Select(channelID, p.ID, m, sid, []string{"1"})
				require.NoError(h.t, err)
				continue
			}
			for _, v := range []string{"stick", "stay", "nodouble", "twist"} {
				if bid, ok := customID(p, "pt:act:", ":"+v); ok {
					_, err := h.fake.Click(channelID, p.ID, m, bid)
					require.NoError(h.t, err)
					break
				}
			}
		}
	}
	h.t.Fatalf("round %d did not end", number)
}

// historyFile is /pontoon history's file of a round, parsed.
func (h *harness) historyFile(member string, round int64) (*game.History, string) {
	h.t.Helper()
	r := h.cmd(member, sub("history", intOpt("round", round)))
	require.True(h.t, r.Ephemeral)
	att := h.fake.Attachments(r.Message.ID)
	require.Len(h.t, att, 1, text(r.Message))
	hist, err := game.ParseHistory(att[0].Data)
	require.NoError(h.t, err)
	return hist, text(r.Message)
}

// The table commits to a server seed before Deal, the deal derives the pack from it, the
// Deal interaction's id and the members' seeds; /pontoon history carries the commitment
// and entropy while the pack is in use and the seed once it is shuffled away (R6.1), and
// the file then verifies with replay: seed against commitment, pack against derivation.
func TestSeededShuffleVerifiesWithReplay(t *testing.T) {
	h, q := seededHarness(t)
	h.seat(alice, nil, bob)
	c1 := h.shownSeed("1")

	// Members' seeds for the next pack: shown on the table as a count.
	r := h.cmd(bob, sub("seed", strOpt("text", "lucky-7")))
	require.True(t, r.Ephemeral)
	require.Contains(t, text(r.Message), "goes into the table's next fresh shuffle")
	h.waitTable("1 member added a seed")
	r = h.cmd(carol, sub("seed", strOpt("text", "  carol's 🍀  ")))
	require.Contains(t, text(r.Message), "2 members have added seeds")
	h.waitTable("2 members added seeds")

	// Bad seeds are refused clearly, privately, and change nothing.
	for _, bad := range []struct{ member, text, want string }{
		{bob, "again", "already added a seed"},
		{dave, "   ", "Your seed is empty"},
		{dave, "a\nb", "cannot be shown"},
	} {
		r := h.cmd(bad.member, sub("seed", strOpt("text", bad.text)))
		require.True(t, r.Ephemeral, bad.text)
		assert.Contains(t, text(r.Message), bad.want, "seed %q", bad.text)
	}
	p, ok, err := h.st.PendingSeed(context.Background(), h.tableID())
	require.NoError(t, err)
	require.True(t, ok)
	require.Len(t, p.MemberSeeds, 2, "a refused seed is not recorded")
	assert.Equal(t, c1, p.Commitment)

	q.push(cutFor(t, 0, 2)) // alice banks
	r = h.clickTable(alice, "deal")
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type, text(r.Message))
	dealID := r.InteractionID
	r = h.cmd(bob, sub("history", intOpt("round", 1)))
	require.Contains(t, text(r.Message), "still being played", "a round in play is never revealed")

	h.playOut(1, bob, alice)
	hist, words := h.historyFile(bob, 1)
	ss := hist.Rounds[0].SeededShuffle
	require.NotNil(t, ss, "a freshly shuffled round says how its pack was made")
	assert.Equal(t, game.ShuffleAlg, ss.Alg)
	assert.Equal(t, c1, ss.Commitment, "the commitment shown before the deal")
	assert.Equal(t, []string{dealID, "lucky-7", "carol's 🍀"}, ss.Entropy, "the Deal interaction's id, then the members' seeds in order")
	_, rep, err := game.Replay(hist)
	require.NoError(t, err)

	if !rep.Rounds[0].Shuffle {
		// No pontoon: the pack goes on to round 2 (R6.1), so its seed is still secret.
		assert.Empty(t, ss.ServerSeed, "the seed of a pack still in use stays secret")
		assert.Equal(t, game.SeedUnrevealed, rep.Rounds[0].Seeded)
		assert.Contains(t, words, "stays secret")
		// Round 2 (the test's stand-in pack) has a pontoon for bob: the pack is shuffled
		// away after it, so round 1's seed is revealed.
		h.nextRound(stack(t, "AH 2C KH 3C"))
		h.clickTable(alice, "deal")
		h.playOut(2, bob, alice)
		hist, words = h.historyFile(bob, 1)
		ss = hist.Rounds[0].SeededShuffle
		_, rep, err = game.Replay(hist)
		require.NoError(t, err)
	}
	require.NotEmpty(t, ss.ServerSeed, "the history of a round whose pack is retired carries the seed")
	assert.Equal(t, game.SeedVerified, rep.Rounds[0].Seeded, "replay checked the seed against the commitment and the pack against the derivation")
	assert.Contains(t, words, "carries the server seed")

	// The same checks by hand, as HISTORY.md describes them.
	seed, err := hex.DecodeString(ss.ServerSeed)
	require.NoError(t, err)
	assert.Equal(t, c1, game.ShuffleCommitment(seed))
	pack, err := game.DealPack(seed, dealID, []string{"lucky-7", "carol's 🍀"}, 1)
	require.NoError(t, err)
	assert.Equal(t, game.CardStrings(pack), hist.Rounds[0].Pack)

	// A file whose entropy was changed fails, naming round 1 with action 0.
	hist.Rounds[0].SeededShuffle.Entropy = []string{dealID, "lucky-8", "carol's 🍀"}
	_, _, err = game.Replay(hist)
	require.ErrorContains(t, err, "round 1, action 0:")

	// The next fresh shuffle has a new commitment.
	c2 := h.shownSeed(strconv.Itoa(h.roundNumber() + 1))
	assert.NotEqual(t, c1, c2)
	h.audit()
	h.noFailures()
}

func (h *harness) roundNumber() int {
	h.t.Helper()
	tb, err := h.st.TableByChannel(context.Background(), guildID, channelID)
	require.NoError(h.t, err)
	return tb.RoundNumber
}

// A restart keeps the committed seed and the members' seeds: the deal after it uses
// exactly the commitment shown before it.
func TestSeedCommitmentSurvivesRestart(t *testing.T) {
	h, q := seededHarness(t)
	h.seat(alice, nil, bob)
	c1 := h.shownSeed("1")
	r := h.cmd(bob, sub("seed", strOpt("text", "before the restart")))
	require.Contains(t, text(r.Message), "1 member has added a seed")

	h.stop()
	h.start()
	r = h.clickTable(carol, "join") // redraws the table from what the store kept
	require.Contains(t, text(r.Message), c1, "the same commitment after the restart")
	require.Contains(t, text(r.Message), "1 member added a seed")
	h.clickTable(carol, "leave")

	q.push(cutFor(t, 0, 2))
	r = h.clickTable(alice, "deal")
	dealID := r.InteractionID
	h.playOut(1, bob, alice)
	hist, _ := h.historyFile(bob, 1)
	ss := hist.Rounds[0].SeededShuffle
	require.NotNil(t, ss)
	assert.Equal(t, c1, ss.Commitment)
	assert.Equal(t, []string{dealID, "before the restart"}, ss.Entropy)
	_, _, err := game.Replay(hist)
	require.NoError(t, err)
	h.noFailures()
}

// /pontoon odds: the first time for a rule set it defers and then answers with the
// banker's edge and the effect of the table's own house rules; the second time the
// store has it and it answers at once with the same figures. A bank offer then carries
// the fair-price hint (R6.3).
func TestOddsAndFairPrice(t *testing.T) {
	h, q := seededHarness(t)
	h.seat(alice, []*discordgo.ApplicationCommandInteractionDataOption{intOpt("pontoon_pays", 3)}, bob)
	r := h.cmd(alice, sub("odds"))
	require.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, r.Type, "a rule set met the first time is simulated after a deferred reply")
	require.True(t, r.Ephemeral)
	m, err := r.WaitEdit(60 * time.Second)
	require.NoError(t, err)
	first := text(m)
	assert.Contains(t, first, "The bank keeps")
	assert.Contains(t, first, "Under the default house rules")
	assert.Contains(t, first, "Three times the stake", "the effect of the table's own rule, in words")
	assert.NotContains(t, first, "Once the stake", "only the rules the table plays")

	r = h.cmd(bob, sub("odds"))
	require.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, r.Type, "kept in the store: answered at once")
	assert.Equal(t, first, text(r.Message))

	q.push(cutFor(t, 0, 2))
	h.clickTable(alice, "deal")
	h.playOut(1, bob, alice)
	tb, err := h.st.TableByChannel(context.Background(), guildID, channelID)
	require.NoError(t, err)
	seller := tb.BankOwner
	buyer := bob
	if seller == bob {
		buyer = alice
	}
	r = h.cmd(seller, group("bank", "sell", userOpt("member", buyer), intOpt("price", 50)))
	require.Contains(t, text(r.Message), "Fair-price hint: at this table the bank is expected to win about")
	require.Eventually(t, func() bool {
		for _, m := range h.fake.Messages(channelID) {
			if strings.Contains(m.Content, "offers the bank") && strings.Contains(m.Content, "Fair-price hint") {
				return true
			}
		}
		return false
	}, 5*time.Second, 10*time.Millisecond, "the public offer carries the hint")
	h.noFailures()
}

// The Hint button says privately what the documented strategy would do now, and why.
func TestHint(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	h.deal(alice, 0, "TH 2C 6D 3C") // bob TH 6D = 16; alice 2C 3C
	hint := func(member string) string {
		p := h.panel(member)
		id, ok := customID(p, "pt:hint:", "")
		require.True(t, ok, "a Hint button on %s's panel:\n%s", member, text(p))
		r, err := h.fake.Click(channelID, p.ID, member, id)
		require.NoError(t, err)
		require.True(t, r.Ephemeral)
		require.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, r.Type, "a new private message: the panel stays")
		return text(r.Message)
	}
	assert.Contains(t, hint(bob), "would choose **Stake** with 10 chips now: stake the same amount every round")
	h.amount(bob, game.VerbStake, 10)
	assert.Contains(t, hint(bob), "would choose **Stick** now: you hold the stick minimum or more")
	h.do(bob, game.VerbStick)
	assert.Contains(t, hint(alice), "the bank draws under 17")
	h.noFailures()
}

// R9.4: a three-card hand is offered the shoot only together with the twist, and the
// history records the shoot bet and the card as two actions of one click.
func TestShootAndTwist(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, shootOpts(), bob)
	h.deck.push(cutFor(t, 0, 2))
	h.clickTable(bob, "deal")
	h.cmd(alice, group("bank", "kitty", intOpt("amount", 100)))
	h.nextRound(stack(t, "2H 7S 3D 9S 4C 5C")) // bob 2H 3D, twists 4C: three cards at 9; then 5C
	h.clickTable(bob, "deal")
	h.amount(bob, game.VerbStake, 10)
	h.amount(bob, game.VerbShoot, 0)
	h.do(bob, game.VerbTwist)
	p := h.panel(bob)
	_, plain := customID(p, "pt:amt:", ":shoot")
	assert.False(t, plain, "no shoot bet on its own with three cards")
	id, ok := customID(p, "pt:amt:", ":shoot_twist")
	require.True(t, ok, "Shoot & twist offered:\n%s", text(p))
	var r *discordtest.Response
	n := h.writesDuring(func() {
		var err error
		r, err = h.fake.Select(channelID, p.ID, bob, id, []string{"10"})
		require.NoError(t, err)
	})
	assert.Equal(t, 1, n, "Shoot & twist is one click: it commits %d write transactions", n)
	require.Contains(t, text(r.Message), "Shot 10 chips and twisted")
	require.Contains(t, text(r.Message), "2♥ 3♦ 4♣ 5♣")
	ctx := context.Background()
	rd, err := h.st.Round(ctx, h.tableID(), 1) // the first Deal waited for the kitty (R9.8)
	require.NoError(t, err)
	acts, err := h.st.Actions(ctx, rd.ID)
	require.NoError(t, err)
	var words []string
	for _, a := range acts {
		words = append(words, strings.TrimSpace(a.Member+" "+a.Verb+" "+a.Args))
	}
	assert.Equal(t, []string{bob + " stake 10", bob + " shoot 0", bob + " twist", bob + " shoot 10", bob + " twist"}, words)
	h.noFailures()
}

// R9.4: a three-card hand that may still buy is offered "Shoot & buy" too: one form with
// both amounts, refused whole on bad input, applied as the shoot bet and the buy.
func TestShootAndBuy(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, shootOpts(), bob)
	h.deck.push(cutFor(t, 0, 2))
	h.clickTable(bob, "deal")
	h.cmd(alice, group("bank", "kitty", intOpt("amount", 100)))
	h.nextRound(stack(t, "2H 7S 3D 9S 4C 5C")) // bob 2H 3D, buys 4C: three cards at 9; then 5C
	h.clickTable(bob, "deal")
	h.amount(bob, game.VerbStake, 10)
	h.amount(bob, game.VerbShoot, 0)
	h.amount(bob, game.VerbBuy, 10)
	open := func() *discordtest.Response {
		p := h.panel(bob)
		id, ok := customID(p, "pt:ask:", ":shoot_buy")
		require.True(t, ok, "Shoot & buy offered:\n%s", text(p))
		r, err := h.fake.Click(channelID, p.ID, bob, id)
		require.NoError(t, err)
		require.NotNil(t, r.Modal)
		return r
	}
	r := open()
	bad, err := h.fake.SubmitModal(channelID, bob, r.Modal.CustomID, map[string]string{"shoot": "ten", "buy": "10"}, r)
	require.NoError(t, err)
	require.Contains(t, text(bad.Message), "whole number")
	r = open()
	done, err := h.fake.SubmitModal(channelID, bob, r.Modal.CustomID, map[string]string{"shoot": "10", "buy": "10"}, r)
	require.NoError(t, err)
	require.Contains(t, text(done.Message), "Shot 10 chips and bought the card for 10 chips")
	require.Contains(t, text(done.Message), "2♥ 3♦ 4♣ 5♣")
	ctx := context.Background()
	rd, err := h.st.Round(ctx, h.tableID(), 1)
	require.NoError(t, err)
	acts, err := h.st.Actions(ctx, rd.ID)
	require.NoError(t, err)
	var words []string
	for _, a := range acts {
		words = append(words, strings.TrimSpace(a.Member+" "+a.Verb+" "+a.Args))
	}
	assert.Equal(t, []string{bob + " stake 10", bob + " shoot 0", bob + " buy 10", bob + " shoot 10", bob + " buy 10"}, words,
		"the bad form changed nothing")
	h.noFailures()
}

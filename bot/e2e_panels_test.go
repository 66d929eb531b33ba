package bot_test

// End-to-end tests of the member-facing panels and replies: the stake select, the hand
// shown when your action ends the round, the bank said once, the re-cut, the leaderboard's
// pages and each refusal's own words.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/discordapi"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// selectValues are the amounts the member's select for verb offers.
func selectValues(t *testing.T, p *discordgo.Message, verb game.Verb) []int64 {
	t.Helper()
	for _, c := range components(p) {
		s, ok := c.(*discordgo.SelectMenu)
		if !ok || !strings.HasSuffix(s.CustomID, ":"+string(verb)) {
			continue
		}
		var out []int64
		for _, o := range s.Options {
			v, err := strconv.ParseInt(o.Value, 10, 64)
			require.NoError(t, err)
			out = append(out, v)
		}
		return out
	}
	t.Fatalf("no %s select on the panel:\n%s", verb, text(p))
	return nil
}

// roundSteps reports whether vs, leaving out the values in except, are ascending
// multiples of one round step (2, 5, 10, 20, 25, 50, 100, …).
func roundSteps(vs []int64, except ...int64) (int64, bool) {
	var mid []int64
	for _, v := range vs {
		if !contains(except, v) {
			mid = append(mid, v)
		}
	}
	for _, step := range []int64{2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000} {
		ok := true
		for _, v := range mid {
			ok = ok && v%step == 0
		}
		if ok {
			return step, true
		}
	}
	return 0, false
}

func contains(vs []int64, v int64) bool {
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}

// Asked for: the stake select offers a set a person would pick from: every amount when
// they fit in a select (R3.3 min_stake to max_stake), else round steps with the
// minimum, the maximum and the member's last stake.
func TestStakeSelectOffersRoundAmounts(t *testing.T) {
	t.Run("every amount when they fit", func(t *testing.T) {
		h := newHarness(t, nil)
		h.seat(alice, []*discordgo.ApplicationCommandInteractionDataOption{intOpt("max_stake", 20)}, bob)
		h.deal(alice, 0, "9H 7S 8D 9S")
		vs := selectValues(t, h.panel(bob), game.VerbStake)
		want := make([]int64, 0, 20)
		for v := int64(1); v <= 20; v++ {
			want = append(want, v)
		}
		assert.Equal(t, want, vs)
	})
	t.Run("round steps, the ends and the last stake", func(t *testing.T) {
		h := newHarness(t, nil)
		h.seat(alice, nil, bob)
		h.deal(alice, 0, "9H 7S 8D 9S")
		p := h.panel(bob)
		vs := selectValues(t, p, game.VerbStake)
		require.LessOrEqual(t, len(vs), 25)
		assert.Equal(t, int64(1), vs[0], "the minimum")
		assert.Equal(t, int64(50), vs[len(vs)-1], "the maximum")
		step, ok := roundSteps(vs, 1, 50)
		assert.True(t, ok, "amounts between the ends are not round steps: %v", vs)
		assert.IsIncreasing(t, vs)

		// bob types 7 (not a round step), then next round 7 is offered beside the steps.
		id, ok := customID(p, "pt:ask:", ":stake")
		require.True(t, ok)
		ask, err := h.fake.Click(channelID, p.ID, bob, id)
		require.NoError(t, err)
		sr, err := h.fake.SubmitModal(channelID, bob, ask.Modal.CustomID, map[string]string{"amount": "7"}, ask)
		require.NoError(t, err)
		require.Contains(t, text(sr.Message), "✅")
		h.do(bob, game.VerbStick)
		h.do(alice, game.VerbStay)
		h.waitTable("The round is settled")
		h.nextRound(stack(t, "9C 7D 8S 9D"))
		h.clickTable(alice, "deal")
		vs = selectValues(t, h.panel(bob), game.VerbStake)
		assert.Contains(t, vs, int64(7), "bob's last stake is offered: %v", vs)
		_, ok = roundSteps(vs, 1, 50, 7)
		assert.True(t, ok, "amounts besides the ends and the last stake are round steps of %d: %v", step, vs)
	})
}

// Asked for: when your own action ends the round, your panel shows your hand and what
// it won or lost, not "No round is being played".
func TestPanelShowsYourHandWhenYourActionEndsTheRound(t *testing.T) {
	t.Run("the banker stays", func(t *testing.T) {
		h := newHarness(t, nil)
		h.seat(alice, nil, bob, carol)
		// bob 9H 7D (16), carol TC 6C (16), alice 7S TS (17): alice wins both (R5.4).
		h.deal(alice, 0, "9H TC 7S 7D 6C TS")
		h.amount(bob, game.VerbStake, 10)
		h.amount(carol, game.VerbStake, 10)
		h.do(bob, game.VerbStick)
		h.do(carol, game.VerbStick)
		p := h.do(alice, game.VerbStay)
		assert.NotContains(t, text(p), "No round is being played")
		assert.Contains(t, text(p), "7♠ 10♠", "the banker's hand")
		assert.Contains(t, text(p), "+20", "and what the bank won")
	})
	t.Run("a player busts, ending the round", func(t *testing.T) {
		h := newHarness(t, nil)
		h.seat(alice, nil, bob)
		// bob 9H 5D twists KD: bust, and with no hand left the round ends (R5.2).
		h.deal(alice, 0, "9H 7S 5D 9S KD")
		h.amount(bob, game.VerbStake, 10)
		p := h.do(bob, game.VerbTwist)
		assert.NotContains(t, text(p), "No round is being played")
		assert.Contains(t, text(p), "9♥ 5♦ K♦", "bob's hand")
		assert.Contains(t, text(p), "10", "and what it lost")
		assert.Equal(t, int64(990), h.balance(bob))
	})
}

// Asked for: the table's bank says "Bank" once, not "Bank" over "Banker:".
func TestBankSaidOnce(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	h.deal(alice, 0, "9H 7S 8D 9S")
	m := h.waitTable("Stakes")
	var bank *discordgo.MessageEmbedField
	for _, f := range tableFields(m) {
		if strings.Contains(f.Name+f.Value, at(alice)) || strings.HasPrefix(f.Name, "Bank") {
			bank = f
			break
		}
	}
	require.NotNil(t, bank, fieldsText(m))
	head := bank.Name + " " + strings.SplitN(bank.Value, "\n", 2)[0]
	assert.Equal(t, 1, strings.Count(head, "Bank"), "the bank field says it twice: %q", head)
}

// Asked for: a cut between equal cards shows the re-cut that decided it (R1.4: ties
// cut again).
func TestCutShowsTheReCut(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob, carol)
	h.deck.push(stack(t, "AS AH 2H KS 3D")) // alice and bob tie on aces; alice's K♠ beats bob's 3♦
	h.nextRound(stack(t, "9H TC 7S 8D 6C 9S"))
	h.clickTable(carol, "deal")
	m := h.waitTable("The cut chose the bank")
	line := ""
	for _, l := range strings.Split(text(m), "\n") {
		if strings.Contains(l, "The cut chose the bank") {
			line = l
		}
	}
	assert.Contains(t, line, at(alice))
	assert.Contains(t, line, "A♠")
	assert.Contains(t, line, "A♥")
	assert.Contains(t, line, "K♠", "the re-cut is shown: %s", line)
	assert.Contains(t, line, "3♦", "the re-cut is shown: %s", line)
}

var rankRE = regexp.MustCompile(`\*\*(\d+)\.\*\*`)

// Asked for: a leaderboard page past the end does not say "Nobody has played yet … Page
// 5 of 2"; equal balances share a rank.
func TestLeaderboardPagesAndSharedRanks(t *testing.T) {
	h := newHarness(t, nil)
	members := []string{alice, bob, carol, dave}
	for i := 0; i < 8; i++ {
		m := fmt.Sprintf("3000000000000001%02d", i)
		h.fake.AddMember(guildID, m, fmt.Sprintf("m%d", i), 0, "en-US")
		members = append(members, m)
	}
	for _, m := range members {
		h.cmd(m, sub("balance")) // 12 members, 1000 chips each
	}
	r := h.cmd(bob, sub("leaderboard", intOpt("page", 5)))
	require.True(t, r.Ephemeral)
	assert.NotContains(t, text(r.Message), "Nobody has played yet")
	assert.NotContains(t, text(r.Message), "Page 5 of 2")

	r = h.cmd(bob, sub("leaderboard"))
	ranks := rankRE.FindAllStringSubmatch(text(r.Message), -1)
	require.Len(t, ranks, 10, text(r.Message))
	for _, rk := range ranks {
		assert.Equal(t, "1", rk[1], "twelve equal balances share rank 1:\n%s", text(r.Message))
	}
	assert.Contains(t, text(r.Message), "You: rank 1,")

	h.cmd(admin, sub("grant", userOpt("member", carol), intOpt("amount", 300)))
	r = h.cmd(bob, sub("leaderboard"))
	assert.Contains(t, text(r.Message), "**1.** "+at(carol))
	ranks = rankRE.FindAllStringSubmatch(text(r.Message), -1)
	require.Len(t, ranks, 10)
	for _, rk := range ranks[1:] {
		assert.Equal(t, "2", rk[1], "the eleven at 1000 share rank 2:\n%s", text(r.Message))
	}
}

// Asked for: the banker's free chips fall while players stake because the bank's cover
// is held (R7.2); the banker's panel says so.
func TestBankerPanelExplainsTheHeldCover(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob, carol)
	h.deal(alice, 0, "9H TC 7S 8D 6C 9S")
	h.amount(bob, game.VerbStake, 10)
	p := h.panel(alice)
	require.Contains(t, text(p), "Free chips: 980", "bob's 10 holds 20 of the bank's cover (R7.2)")
	assert.Contains(t, strings.ToLower(text(p)), "cover", "the panel says why the free chips fell:\n%s", text(p))
	assert.Regexp(t, `\b20\b`, text(p), "and how much is held")
}

// Asked for: refusals are sentences of their own, never built from a button's label:
// "You cannot Don't double now" reads wrongly in every language. A Don't double button
// whose moment has passed (a stale client: the fake lets the test post such a button)
// gets words of its own, in English and in Polish.
func TestRefusalsHaveTheirOwnWords(t *testing.T) {
	for _, tc := range []struct {
		lang, locale, label string
	}{
		{"en", "en-US", "Don't double"},
		{"pl", "pl", "Nie podwajaj"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			h := newHarness(t, nil)
			h.seat(alice, []*discordgo.ApplicationCommandInteractionDataOption{boolOpt("banker_may_double", true)}, bob)
			h.deal(alice, 0, "9H 7S 8D 9S")
			tableID, round := tableAndRound(t, h.tableMessage())
			// A button the banker's client still shows although nobody may double now.
			m := h.postButton(fmt.Sprintf("pt:act:%s:%s:0:nodouble", tableID, round), tc.label)
			id, _ := customID(m, "pt:act:", "")
			h.fake.AddMember(guildID, alice, "player1", 0, tc.locale)
			r, err := h.fake.Click(channelID, m.ID, alice, id)
			require.NoError(t, err)
			require.True(t, r.Ephemeral, "the refusal is private")
			got := text(r.Message)
			require.Contains(t, got, "⛔", got)
			assert.NotContains(t, got, tc.label, "the refusal is built from the button's label: %s", got)
			if tc.lang == "pl" {
				assert.NotContains(t, got, "You cannot", "the Polish member gets Polish")
			}
		})
	}
}

var tableIDRE = regexp.MustCompile(`^pt:join:(\d+):(\d+):`)

func tableAndRound(t *testing.T, m *discordgo.Message) (string, string) {
	t.Helper()
	id, ok := customID(m, "pt:join:", "")
	require.True(t, ok)
	g := tableIDRE.FindStringSubmatch(id)
	require.NotNil(t, g, id)
	return g[1], g[2]
}

func boolOpt(name string, v bool) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionBoolean, Value: v}
}

// postButton posts, as the bot, a plain message with one button: what a member's client
// may still show after the table moved on.
func (h *harness) postButton(id, label string) *discordgo.Message {
	h.t.Helper()
	s, err := discordapi.NewSession(h.fake.Token, h.fake.URL(), nil)
	require.NoError(h.t, err)
	m, err := s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{Content: "stale panel",
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: label, Style: discordgo.SecondaryButton, CustomID: id}}}}})
	require.NoError(h.t, err)
	return m
}

package game_test

import (
	"strings"
	"testing"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func cards(t testing.TB, s string) []game.Card {
	t.Helper()
	cs, err := game.ParseCards(strings.Fields(s))
	require.NoError(t, err)
	return cs
}

func rulesWith(mod func(*game.Rules)) game.Rules {
	r := game.DefaultRules()
	if mod != nil {
		mod(&r)
	}
	return r
}

func TestParseCard(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"9H", "9H", true}, {"TC", "TC", true}, {"10C", "TC", true}, {"as", "AS", true}, {"KD", "KD", true},
		{"1H", "", false}, {"ZZ", "", false}, {"9X", "", false}, {"", "", false}, {"100C", "", false}, {"T", "", false},
	} {
		c, err := game.ParseCard(tc.in)
		if !tc.ok {
			assert.Error(t, err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, c.String())
	}
}

func TestEvaluate(t *testing.T) {
	def := game.DefaultRules()
	royal := rulesWith(func(r *game.Rules) { r.RoyalPontoon = true })
	for _, tc := range []struct {
		name   string
		rules  game.Rules
		cards  string
		banker bool
		kind   game.Kind
		total  int
	}{
		{"R1.3 ace counts 11 when it fits", def, "AS 7H", false, game.KindPoints, 18},
		{"R1.3 ace counts 1 when 11 would bust", def, "AS 7H 9C", false, game.KindPoints, 17},
		{"R1.3 two aces", def, "AS AH", false, game.KindPoints, 12},
		{"R1.3 picture cards are ten", def, "KS QH", false, game.KindPoints, 20},
		{"R2.1 pontoon ace-king", def, "AS KH", false, game.KindPontoon, 21},
		{"R2.1 pontoon ten-ace either order", def, "TS AH", false, game.KindPontoon, 21},
		{"R2.2 five card trick", def, "2S 3H 4C 5D 6S", false, game.KindFiveCardTrick, 20},
		{"R2.2 five card trick at 21", def, "2S 3H 4C 5D 7S", false, game.KindFiveCardTrick, 21},
		{"R2.3 twenty-one in three", def, "7S 7H 7C", false, game.KindTwentyOne, 21},
		{"R2.3 twenty-one in four", def, "5S 5H AC KD", false, game.KindTwentyOne, 21},
		{"R2.3 three aces and ten and eight is 21", def, "AS AH 9C", false, game.KindTwentyOne, 21},
		{"R2.5 bust", def, "TS 9H 5C", false, game.KindBust, 24},
		{"R2.5 five cards over 21 are bust", def, "TS 2H 3C 4D 5S", false, game.KindBust, 24},
		{"R8.6 royal pontoon for a player", royal, "7S 7H 7C", false, game.KindRoyalPontoon, 21},
		{"R8.6 never for the banker", royal, "7S 7H 7C", true, game.KindTwentyOne, 21},
		{"R8.6 off by default", def, "7S 7H 7C", false, game.KindTwentyOne, 21},
		{"R8.7 ten_not_pontoon makes A-10 twenty-one", rulesWith(func(r *game.Rules) { r.PontoonTiers = game.TiersTenNotPontoon }), "AS TH", false, game.KindTwentyOne, 21},
		{"R8.7 ten_not_pontoon keeps A-J a pontoon", rulesWith(func(r *game.Rules) { r.PontoonTiers = game.TiersTenNotPontoon }), "AS JH", false, game.KindPontoon, 21},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := game.Evaluate(cards(t, tc.cards), tc.rules, tc.banker)
			assert.Equal(t, tc.kind, v.Kind)
			assert.Equal(t, tc.total, v.Total)
		})
	}
}

// R2.7: A-J beats 7-3-4-2-2 beats 9-8-4 beats 9-A beats 9-6-A.
func TestR2_7RankingExample(t *testing.T) {
	r := game.DefaultRules()
	order := []string{"AS JH", "7S 3H 4C 2D 2S", "9S 8H 4C", "9D AH", "9C 6S AD"}
	for i := 0; i+1 < len(order); i++ {
		hi := game.Evaluate(cards(t, order[i]), r, false)
		lo := game.Evaluate(cards(t, order[i+1]), r, false)
		assert.True(t, hi.Beats(lo), "%s should beat %s", order[i], order[i+1])
		assert.False(t, lo.Beats(hi), "%s should not beat %s", order[i+1], order[i])
	}
}

func TestRanking(t *testing.T) {
	def := game.DefaultRules()
	for _, tc := range []struct {
		name  string
		rules game.Rules
		a, b  string
		beats bool
	}{
		{"R2.4 card count does not matter: 19 in two equals 19 in four", def, "TS 9H", "5S 5H 5C 4D", false},
		{"R2.4 higher total wins", def, "TS 9H", "TS 8H", true},
		{"R2.3 twenty-one beats twenty", def, "7S 7H 7C", "TS QH", true},
		{"R2.2 five card trick beats twenty-one", def, "2S 2H 2C 2D 3S", "7S 7H 7C", true},
		{"R2.1 pontoon beats five card trick", def, "AS KH", "2S 2H 2C 2D 3S", true},
		{"R2.5 bust never beats anything", def, "TS 9H 5C", "2S 3H", false},
		{"R2.1 equal pontoons tie under equal tiers", def, "AS KH", "AH TS", false},
		{"R8.7 picture_beats_ten: A-K beats A-10", rulesWith(func(r *game.Rules) { r.PontoonTiers = game.TiersPictureBeatsTen }), "AS KH", "AH TS", true},
		{"R8.7 picture_beats_ten: A-J ties A-K", rulesWith(func(r *game.Rules) { r.PontoonTiers = game.TiersPictureBeatsTen }), "AS JH", "AH KS", false},
		{"R8.7 naturals: A-Q beats A-J", rulesWith(func(r *game.Rules) { r.PontoonTiers = game.TiersNaturals }), "AS QH", "AH JS", true},
		{"R8.7 naturals: A-J ties A-10", rulesWith(func(r *game.Rules) { r.PontoonTiers = game.TiersNaturals }), "AS JH", "AH TS", false},
		{"R8.6 royal pontoon beats pontoon", rulesWith(func(r *game.Rules) { r.RoyalPontoon = true }), "7S 7H 7C", "AS KH", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := game.Evaluate(cards(t, tc.a), tc.rules, false)
			b := game.Evaluate(cards(t, tc.b), tc.rules, false)
			assert.Equal(t, tc.beats, a.Beats(b))
		})
	}
}

func TestMultiple(t *testing.T) {
	def := game.DefaultRules()
	ev := func(r game.Rules, s string, banker bool) game.Value { return game.Evaluate(cards(t, s), r, banker) }
	tiers := rulesWith(func(r *game.Rules) { r.PontoonTiers = game.TiersPictureBeatsTen })
	pays3 := rulesWith(func(r *game.Rules) { r.PontoonPays = 3 })
	collects1 := rulesWith(func(r *game.Rules) { r.BankerPontoonCollects = 1 })
	royal := rulesWith(func(r *game.Rules) { r.RoyalPontoon = true })
	for _, tc := range []struct {
		name    string
		rules   game.Rules
		player  string
		banker  string
		doubled bool
		want    int64
	}{
		{"R3.5 banker pontoon collects twice", def, "TS 9H", "AS KH", false, -2},
		{"R3.5 banker pontoon beats player pontoon of equal rank", def, "AD QH", "AS KH", false, -2},
		{"R8.4 banker_pontoon_collects 1", collects1, "TS 9H", "AS KH", false, -1},
		{"R8.7 outranking pontoon is paid by a banker's pontoon", tiers, "AD QH", "AS TH", false, 2},
		{"R8.3 banker pontoon collection is not doubled", def, "TS 9H", "AS KH", true, -2},
		{"R5.3 banker bust pays ordinary hand once", def, "TS 5H", "TS 6H 9C", false, 1},
		{"R5.3 banker bust pays pontoon double", def, "AS KH", "TS 6H 9C", false, 2},
		{"R5.3 banker bust pays five card trick double", def, "2S 2H 2C 2D 3S", "TS 6H 9C", false, 2},
		{"R5.4 higher value is paid", def, "TS 9H", "TS 8H", false, 1},
		{"R5.4 equal value pays the banker", def, "TS 8H", "9S 9H", false, -1},
		{"R5.4 lower value pays", def, "TS 7H", "9S 9H", false, -1},
		{"R5.4 banker on 21 pays only pontoons and tricks: 21 ties", def, "7S 7H 7C", "TS 5H 6C", false, -1},
		{"R5.4 banker on 21 pays pontoon", def, "AS KH", "TS 5H 6C", false, 2},
		{"R5.4 banker on 21 pays five card trick", def, "2S 2H 2C 2D 3S", "TS 5H 6C", false, 2},
		{"R5.5 banker five card trick collects double from twenty-one", def, "7S 7H 7C", "2S 3H 2C 2D 3S", false, -2},
		{"R5.5 banker five card trick collects double from a five card trick", def, "2H 3D 4C 5D 6S", "2S 3H 2C 2D 3S", false, -2},
		{"R5.5 banker five card trick still pays pontoon", def, "AS KH", "2S 3H 2C 2D 3S", false, 2},
		{"R8.3 doubled ordinary win", def, "TS 9H", "TS 8H", true, 2},
		{"R8.3 doubled ordinary loss", def, "TS 7H", "TS 8H", true, -2},
		{"R8.3 doubled five card trick stays twice", def, "2S 2H 2C 2D 3S", "TS 8H", true, 2},
		{"R8.3 doubled pontoon stays at pontoon_pays", def, "AS KH", "TS 8H", true, 2},
		{"R8.3 banker five card trick still collects twice when doubled", def, "TS 9H", "2S 3H 2C 2D 3S", true, -2},
		{"R8.3 bust loses undoubled", def, "TS 9H 5C", "TS 8H", true, -1},
		{"R8.4 pontoon_pays 3", pays3, "AS KH", "TS 8H", false, 3},
		{"R8.4 pontoon_pays 1", rulesWith(func(r *game.Rules) { r.PontoonPays = 1 }), "AS KH", "TS 8H", false, 1},
		{"R8.6 royal pontoon paid three times", royal, "7S 7H 7C", "TS 8H", false, 3},
		{"R8.6 royal pontoon paid three times against a five card trick", royal, "7S 7H 7C", "2S 3H 2C 2D 3S", false, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := game.Multiple(tc.rules, ev(tc.rules, tc.player, false), ev(tc.rules, tc.banker, true), tc.doubled)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestParseRules(t *testing.T) {
	r, err := game.ParseRules(nil)
	require.NoError(t, err)
	assert.Equal(t, game.DefaultRules(), r, "missing keys take RULES.md defaults")

	r, err = game.ParseRules([]byte(`{"variant":"shoot","decks":2,"split":"aces","burn":13,"pontoon_tiers":"naturals","stick_min":16}`))
	require.NoError(t, err)
	assert.Equal(t, game.Shoot, r.Variant)
	assert.Equal(t, game.Decks(2), r.Decks)
	assert.Equal(t, 16, r.StickMin)

	for _, bad := range []string{
		`{"colour":"red"}`, `{"variant":"blackjack"}`, `{"stick_min":17}`, `{"split":"kings"}`,
		`{"pontoon_pays":4}`, `{"banker_pontoon_collects":3}`, `{"burn":12}`, `{"decks":3}`,
		`{"pontoon_tiers":"best"}`, `{"min_stake":0}`, `{"min_stake":10,"max_stake":5}`, `{"kitty_min":50,"kitty_max":10}`,
		`{"min_stake":"one"}`, `{"banker_may_double":"yes"}`, `[1]`,
	} {
		_, err := game.ParseRules([]byte(bad))
		assert.Error(t, err, bad)
	}
}

func TestCut(t *testing.T) {
	// R1.4: highest card wins, Ace high; ties cut again among the tied players.
	w, draws, used, err := game.Cut(cards(t, "KS AH 5C"), []string{"a", "b", "c"})
	require.NoError(t, err)
	assert.Equal(t, "b", w)
	assert.Len(t, draws, 1)
	assert.Equal(t, 3, used)

	w, draws, _, err = game.Cut(cards(t, "KS KH 5C 2D 3S"), []string{"a", "b", "c"})
	require.NoError(t, err)
	assert.Equal(t, "b", w, "a and b tie on kings and cut again: 2 against 3")
	assert.Len(t, draws, 2)

	_, _, _, err = game.Cut(cards(t, "KS KH"), []string{"a", "b"})
	assert.ErrorIs(t, err, game.ErrPackExhausted)
}

func TestCommitment(t *testing.T) {
	pack := cards(t, "9H 7S")
	c := game.Commitment(pack, "00ff")
	// sha256("00ff:9H 7S"), computed independently with sha256sum.
	assert.Equal(t, "eff9d188b9b7302b592d55519d0322023dc0f7704e895b4769bf908e4f49773d", c)
	assert.NotEqual(t, c, game.Commitment(cards(t, "7S 9H"), "00ff"), "order matters")
}

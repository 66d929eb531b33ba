package game_test

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// table replays a one-round history with seats bank (banker), ann and bob (play order
// ann, bob, bank) and returns the game it leaves.
func table(t *testing.T, rules game.Rules, balances map[string]int64, pack string, actions ...string) *game.Game {
	t.Helper()
	bal := map[string]int64{"bank": 1000, "ann": 100, "bob": 100}
	for k, v := range balances {
		bal[k] = v
	}
	var kitty int64
	if rules.Variant == game.Shoot {
		kitty = 100
	}
	h := &game.History{Format: game.HistoryFormat, Rules: rules,
		Table:  game.HistoryTable{Seats: []string{"bank", "ann", "bob"}, Banker: "bank", Balances: bal, Kitty: kitty},
		Rounds: []game.HistoryRound{{Pack: strings.Fields(pack), Actions: actions}}}
	g, _, err := game.Replay(h)
	require.NoError(t, err)
	return g
}

func act(t *testing.T, s string) game.Action {
	t.Helper()
	a, err := game.ParseAction(s)
	require.NoError(t, err)
	return a
}

// A common pack: ann 9H+5D (14), bob 7S+8D (15), bank 5C+2C (7), then 4C 3H 2S 6D TC.
const pack14 = "9H 7S 5C 5D 8D 2C 4C 3H 2S 6D TC"

// Every illegal move of R3 to R9 is refused with its typed error and changes nothing.
func TestIllegalMoves(t *testing.T) {
	def := game.DefaultRules()
	shoot := rulesWith(func(r *game.Rules) { r.Variant = game.Shoot })
	staked := []string{"ann stake 5", "bob stake 5"}
	cases := []struct {
		name     string
		rules    game.Rules
		balances map[string]int64
		pack     string
		prelude  []string
		bad      string
		want     *game.Error
	}{
		{"R3.3 stake under min_stake", def, nil, pack14, nil, "ann stake 0", game.ErrStakeOutOfRange},
		{"R3.3 stake over max_stake", def, nil, pack14, nil, "ann stake 51", game.ErrStakeOutOfRange},
		{"R3.3 the banker does not stake", def, nil, pack14, nil, "bank stake 5", game.ErrNotForBanker},
		{"R3.3 one initial stake only", def, nil, pack14, []string{"ann stake 5"}, "ann stake 5", game.ErrAlreadyStaked},
		{"R7.1 stake needs an equal reserve", def, map[string]int64{"bob": 30}, pack14, nil, "bob stake 20", game.ErrInsufficientChips},
		{"R7.1 a member with no chips cannot stake", def, map[string]int64{"bob": 0}, pack14, nil, "bob stake 1", game.ErrInsufficientChips},
		{"R7.2 the bank must cover", def, map[string]int64{"bank": 50}, pack14, []string{"ann stake 20"}, "bob stake 10", game.ErrBankCannotCover},
		{"R3.1 out of turn", def, nil, pack14, staked, "bob twist", game.ErrNotYourTurn},
		{"R3.4 no play while staking", def, nil, pack14, []string{"ann stake 5"}, "ann twist", game.ErrWrongPhase},
		{"R4.5 stick under 15", def, nil, pack14, staked, "ann stick", game.ErrBelowStickMinimum},
		{"R8.2 stick_min 16 refuses 15", rulesWith(func(r *game.Rules) { r.StickMin = 16 }), nil, "9H 7S 5C 6D 8D 2C 4C", staked, "ann stick", game.ErrBelowStickMinimum},
		{"R4.2 Q-J is not a pair", def, nil, "QH 7S 5C JD 8D 2C 4C 3H", staked, "ann split", game.ErrCannotSplit},
		{"R4.2 Q-10 is not a pair", def, nil, "QH 7S 5C TD 8D 2C 4C 3H", staked, "ann split", game.ErrCannotSplit},
		{"R4.2 only two cards split", def, nil, "8H 7S 5C 8D 8C 2C 2D 3H", append(staked, "ann twist"), "ann split", game.ErrCannotSplit},
		{"R4.2 at most four hands", rulesWith(func(r *game.Rules) { r.Decks = 2 }), nil, "8H 2C 3C 8D 4C 5C 8C 8S 8H 8D 8C 8S 9C 9D",
			append(staked, "ann split", "ann split", "ann split"), "ann split", game.ErrCannotSplit},
		{"R8.1 split none", rulesWith(func(r *game.Rules) { r.Split = game.SplitNone }), nil, "8H 7S 5C 8D 8C 2C 4C 3H", staked, "ann split", game.ErrCannotSplit},
		{"R8.1 split aces only", rulesWith(func(r *game.Rules) { r.Split = game.SplitAces }), nil, "8H 7S 5C 8D 8C 2C 4C 3H", staked, "ann split", game.ErrCannotSplit},
		{"R7.1 split needs chips", def, map[string]int64{"ann": 25}, "8H 7S 5C 8D 8C 2C 4C 3H", []string{"ann stake 10", "bob stake 5"}, "ann split", game.ErrInsufficientChips},
		{"R4.3 third card over twice the stake", def, nil, pack14, staked, "ann buy 11", game.ErrBuyOutOfRange},
		{"R4.3 third card under the stake", def, nil, pack14, staked, "ann buy 4", game.ErrBuyOutOfRange},
		{"R4.3 fourth card over the third's price", def, nil, "2H 7S 5C 3D 8D 2C 4C 3H 2S", append(staked, "ann buy 6"), "ann buy 7", game.ErrBuyOutOfRange},
		{"R7.1 buy needs chips", def, map[string]int64{"ann": 14}, pack14, []string{"ann stake 5", "bob stake 5"}, "ann buy 3", game.ErrBuyOutOfRange},
		{"R7.1 buy needs an equal reserve", def, map[string]int64{"ann": 25}, pack14, []string{"ann stake 5", "bob stake 5"}, "ann buy 8", game.ErrInsufficientChips},
		{"R4.4 no buy after a twist", def, nil, "2H 7S 5C 3D 8D 2C 4C 3H 2S", append(staked, "ann twist"), "ann buy 5", game.ErrNoBuyAfterTwist},
		{"R4.7 no card at 21", def, nil, "9H 7S 5C 5D 8D 2C 7C 3H", append(staked, "ann twist"), "ann twist", game.ErrHandFinished},
		{"R4.7 no card after a five card trick", def, nil, "2H 7S 5C 3D 8D 2C 2D 2S 3H 6D", append(staked, "ann twist", "ann twist", "ann twist"), "ann twist", game.ErrHandFinished},
		{"R4.1 a pontoon ends the turn", def, nil, "AH 7S 5C KD 8D 2C 4C", staked, "ann stick", game.ErrHandFinished},
		{"R8.5 four low cards may only twist", rulesWith(func(r *game.Rules) { r.FourLowTwistOnly = true }), nil, "2H 7S 5C 3D 8D 2C 2D 2S 3H", append(staked, "ann buy 5", "ann buy 5"), "ann buy 5", game.ErrFourLowTwistOnly},
		{"R8.8 burning is off by default", def, nil, "9H 7S 5C 4D 8D 2C 4C", staked, "ann burn", game.ErrCannotBurn},
		{"R8.8 burn needs the exact total", rulesWith(func(r *game.Rules) { r.Burn = 14 }), nil, "9H 7S 5C 4D 8D 2C 4C", staked, "ann burn", game.ErrCannotBurn},
		{"R8.8 never with an Ace", rulesWith(func(r *game.Rules) { r.Burn = 13 }), nil, "AH 7S 5C 2D 8D 2C 4C", staked, "ann burn", game.ErrCannotBurn},
		{"R9 shoot only in Shoot Pontoon", def, nil, pack14, staked, "ann shoot 5", game.ErrShootOnly},
		{"R9.2 shoot bets may not exceed the kitty", shoot, nil, pack14, staked, "ann shoot 101", game.ErrOverKitty},
		{"R9.2 all shoot bets together within the kitty", shoot, map[string]int64{"ann": 200, "bob": 200}, pack14, append(staked, "ann shoot 60"), "bob shoot 41", game.ErrOverKitty},
		{"R9.2 shoot decisions in play order", shoot, nil, pack14, staked, "bob shoot 5", game.ErrNotYourTurn},
		{"R9.2 the banker does not shoot", shoot, nil, pack14, staked, "bank shoot 5", game.ErrNotForBanker},
		{"R9.4 the third card allows no shoot bet", shoot, nil, pack14, append(staked, "ann shoot 0", "bob shoot 0"), "ann shoot 5", game.ErrNoShootNow},
		{"R9.4 no shoot bet after the fourth card", shoot, nil, "2H 7S 5C 3D 8D 2C 4C 3H 2S 2D", append(staked, "ann shoot 0", "bob shoot 0", "ann twist", "ann twist"), "ann shoot 5", game.ErrNoShootNow},
		{"R9.4 one shoot bet before the fourth card", shoot, nil, "2H 7S 5C 3D 8D 2C 4C 3H 2S 2D", append(staked, "ann shoot 0", "bob shoot 0", "ann twist", "ann shoot 5"), "ann shoot 5", game.ErrNoShootNow},
		{"R9.4 a three-card shoot bet must buy or twist, not stick", shoot, nil, "TH 7S 5C 2D 8D 2C 4C 3H", append(staked, "ann shoot 0", "bob shoot 0", "ann buy 5", "ann shoot 5"), "ann stick", game.ErrShootMustDraw},
		{"R8.3 no doubling unless the table allows it", def, nil, pack14, staked, "bank double", game.ErrNoDoubling},
		{"R8.3 only the banker doubles", rulesWith(func(r *game.Rules) { r.BankerMayDouble = true }), nil, pack14, staked, "ann double", game.ErrBankerOnly},
		{"R5.2 only the banker draws", def, nil, pack14, staked, "ann draw", game.ErrBankerOnly},
		{"R5.2 the banker waits for the players", def, nil, pack14, staked, "bank draw", game.ErrWrongPhase},
		{"R5.2 the banker does not twist", def, nil, pack14, staked, "bank twist", game.ErrNotForBanker},
		{"R6.3 no sale during a round", def, nil, pack14, staked, "bank sell ann 10", game.ErrWrongPhase},
		{"R7.4 only whoever must act times out", def, nil, pack14, staked, "bob timeout", game.ErrNothingToTimeOut},
		{"R7.4 the banker cannot time out while players stake", def, nil, pack14, nil, "bank timeout", game.ErrNothingToTimeOut},
		{"seats: a stranger cannot act", def, nil, pack14, nil, "eve stake 5", game.ErrNotSeated},
		{"HISTORY pack exhausted refuses the action that needs the card", def, nil, "9H 7S 5C 5D", []string{"ann stake 5"}, "bob stake 5", game.ErrPackExhausted},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := table(t, tc.rules, tc.balances, tc.pack, tc.prelude...)
			before := g.Clone()
			out, err := g.Apply(act(t, tc.bad))
			require.Error(t, err)
			assert.True(t, errors.Is(err, tc.want), "want %s, got %v", tc.want.Code, err)
			var ge *game.Error
			require.ErrorAs(t, err, &ge)
			assert.NotEmpty(t, ge.Msg)
			assert.Nil(t, out)
			assert.Equal(t, before, g, "an illegal action changes nothing")
		})
	}
}

// Between rounds: the bank sale (R6.3) and the kitty (R9.1, R9.8, R9.9).
func TestBetweenRounds(t *testing.T) {
	shoot := rulesWith(func(r *game.Rules) { r.Variant = game.Shoot; r.KittyMin = 10; r.KittyMax = 120 })
	newGame := func(r game.Rules, kitty int64) *game.Game {
		g, err := game.NewGame(r, []string{"bank", "ann", "bob"}, "bank", map[string]int64{"bank": 500, "ann": 100, "bob": 100}, kitty)
		require.NoError(t, err)
		return g
	}
	for _, tc := range []struct {
		name  string
		rules game.Rules
		kitty int64
		bad   string
		want  *game.Error
	}{
		{"R6.3 not to yourself", game.DefaultRules(), 0, "bank sell bank 10", game.ErrBadSale},
		{"R6.3 only to a seated player", game.DefaultRules(), 0, "bank sell eve 10", game.ErrBadSale},
		{"R6.3 only by the banker", game.DefaultRules(), 0, "ann sell bob 10", game.ErrBankerOnly},
		{"R6.3 the buyer must pay", game.DefaultRules(), 0, "bank sell ann 101", game.ErrInsufficientChips},
		{"R9.1 no kitty in classic", game.DefaultRules(), 0, "bank kitty 10", game.ErrShootOnly},
		{"R9.1 a new kitty at least kitty_min", shoot, 0, "bank kitty 9", game.ErrKittyOutOfRange},
		{"R9.1 a new kitty at most kitty_max", shoot, 0, "bank kitty 121", game.ErrKittyOutOfRange},
		{"R9.8 never above kitty_max", shoot, 100, "bank kitty 21", game.ErrKittyOutOfRange},
		{"R9.8 only the banker tops up", shoot, 100, "ann kitty 5", game.ErrBankerOnly},
		{"R7.4 nothing to time out between rounds", game.DefaultRules(), 0, "ann timeout", game.ErrNothingToTimeOut},
		{"R3.3 no stake before the deal", game.DefaultRules(), 0, "ann stake 5", game.ErrWrongPhase},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGame(tc.rules, tc.kitty)
			before := g.Clone()
			_, err := g.Apply(act(t, tc.bad))
			assert.ErrorIs(t, err, tc.want)
			assert.Equal(t, before, g)
		})
	}

	t.Run("R9.1 no deal without a kitty", func(t *testing.T) {
		g := newGame(shoot, 0)
		err := g.Deal(game.NewPack(1))
		assert.ErrorIs(t, err, game.ErrKittyRequired)
		assert.Equal(t, game.PhaseBetween, g.Phase)
	})
	t.Run("R6.3 R9.9 a sale pays the seller and returns the kitty", func(t *testing.T) {
		g := newGame(shoot, 60)
		out, err := g.Apply(act(t, "bank sell ann 40"))
		require.NoError(t, err)
		assert.Equal(t, "ann", g.Banker)
		assert.Equal(t, int64(500+40+60), g.Balances["bank"])
		assert.Equal(t, int64(60), g.Balances["ann"])
		assert.Zero(t, g.Kitty)
		assert.Len(t, out, 2)
		assert.ErrorIs(t, g.Deal(game.NewPack(1)), game.ErrKittyRequired, "the new banker must put up a kitty (R9.9)")
		_, err = g.Apply(act(t, "ann kitty 50"))
		require.NoError(t, err)
		assert.Equal(t, int64(50), g.Kitty)
		assert.Equal(t, int64(10), g.Balances["ann"])
	})
	t.Run("R9.8 a top-up up to kitty_max", func(t *testing.T) {
		g := newGame(shoot, 100)
		_, err := g.Apply(act(t, "bank kitty 20"))
		require.NoError(t, err)
		assert.Equal(t, int64(120), g.Kitty)
	})
}

func TestParseAction(t *testing.T) {
	for _, ok := range []string{"bob stake 10", "bob twist", "alice sell bob 30", "alice kitty 50", "bob shoot 0", "bob timeout"} {
		a, err := game.ParseAction(ok)
		require.NoError(t, err, ok)
		assert.Equal(t, ok, a.String())
	}
	for _, bad := range []string{"", "bob", "bob fly", "bob stake", "bob stake ten", "bob stake -5", "bob twist 3", "alice sell bob", "bob stake 99999999999999999999", "bob stake 1.5"} {
		_, err := game.ParseAction(bad)
		assert.Error(t, err, bad)
	}
}

// R3.2: every player but the banker may look at the first card; the banker looks at both
// once the stakes are in (R3.4, R8.3).
func TestR3_2WhoSeesTheFirstCard(t *testing.T) {
	g := table(t, game.DefaultRules(), nil, pack14)
	assert.True(t, g.SeesOwnCards("ann"))
	assert.False(t, g.SeesOwnCards("bank"), "not while players stake")
	_, err := g.Apply(act(t, "ann stake 5"))
	require.NoError(t, err)
	assert.False(t, g.SeesOwnCards("bank"))
	_, err = g.Apply(act(t, "bob stake 5"))
	require.NoError(t, err)
	assert.True(t, g.SeesOwnCards("bank"), "after the stakes")
}

// R9.4 (Decision): a three-card shoot bet goes with asking for the fourth card. Ann
// holds TH 2D and buys 4C (16, three cards) in each case; bob holds 7S 8D; the bank 5C 2C.
func TestR9_4ShootGoesWithTheFourthCard(t *testing.T) {
	shoot := rulesWith(func(r *game.Rules) { r.Variant = game.Shoot })
	const pack = "TH 7S 5C 2D 8D 2C 4C 3H 9S"
	prelude := []string{"ann stake 5", "bob stake 5", "ann shoot 0", "bob shoot 0", "ann buy 5"}
	verbs := func(ms []game.Move) []game.Verb {
		var out []game.Verb
		for _, m := range ms {
			out = append(out, m.Verb)
		}
		return out
	}
	cases := []struct {
		name      string
		shot      string      // ann's three-card shoot decision
		legal     []game.Verb // what ann may do next
		stickCode *game.Error // what ann's stick gives (nil: allowed)
	}{
		{"R9.4 after a bet only buy and twist", "ann shoot 5", []game.Verb{game.VerbBuy, game.VerbTwist}, game.ErrShootMustDraw},
		{"R9.4 a pass binds nothing", "ann shoot 0", []game.Verb{game.VerbBuy, game.VerbTwist, game.VerbStick}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := table(t, shoot, nil, pack, append(prelude, tc.shot)...)
			assert.Equal(t, tc.legal, verbs(g.Legal("ann")))
			_, err := g.Clone().Apply(act(t, "ann stick"))
			if tc.stickCode == nil {
				assert.NoError(t, err)
				return
			}
			var ge *game.Error
			require.ErrorAs(t, err, &ge)
			assert.True(t, errors.Is(err, tc.stickCode))
			assert.Equal(t, "R9.4", ge.Rule)
			assert.Contains(t, ge.Msg, "buy or twist")
		})
	}

	t.Run("R9.4 the fourth card frees the hand to stick", func(t *testing.T) {
		g := table(t, shoot, nil, pack, append(prelude, "ann shoot 5", "ann twist")...) // 3H: 19
		_, err := g.Apply(act(t, "ann stick"))
		require.NoError(t, err)
		assert.Equal(t, int64(5), g.Round.Hands[0].Shoot, "the bet rides on the hand")
	})

	timeouts := []struct {
		name   string
		pack   string
		folded bool
	}{
		{"R9.4 R7.4 timeout hands the bet back, then sticks on 16", pack, false},
		{"R9.4 R7.4 timeout hands the bet back, then folds on 14", "TH 7S 5C 2D 8D 2C 2H 3H 9S", true},
	}
	for _, tc := range timeouts {
		t.Run(tc.name, func(t *testing.T) {
			g := table(t, shoot, nil, tc.pack, append(prelude, "ann shoot 5")...)
			freeBefore, kittyBefore := g.Balances["ann"], g.Kitty
			out, err := g.Apply(act(t, "ann timeout"))
			require.NoError(t, err)
			require.NotEmpty(t, out)
			assert.Equal(t, game.Transfer{From: game.Escrow("ann"), To: game.Wallet("ann"), Amount: 5, Reason: game.ReasonShootReturn, Rule: "R9.4"}, out[0],
				"the bet goes back before R7.4 is applied")
			h := g.Round.Hands[0]
			assert.Equal(t, int64(0), h.Shoot, "no shoot bet is left on the hand")
			assert.Equal(t, tc.folded, h.Folded, "R7.4: stick if allowed, else fold")
			assert.True(t, h.Done)
			assert.Equal(t, kittyBefore, g.Kitty, "the returned bet never reaches the kitty (R9.6)")
			if tc.folded {
				assert.Equal(t, freeBefore+5+10, g.Balances["ann"], "bet back and the reserve of 10 released; the stake of 10 lost")
			} else {
				assert.Equal(t, freeBefore+5, g.Balances["ann"], "bet back; the stake stays in play")
			}
		})
	}
}

// TestLegalOnlyReads: Legal writes nothing to the game, so the bot may render several
// members' panels from one snapshot's game at once (R3.3's stakes, R4's play and R8's
// banker: a decision of every phase). Run under -race, as the README's test command
// does, the goroutines here race if Legal writes any field; the moves each finds are the
// ones it finds alone, and the game is as it was.
func TestLegalOnlyReads(t *testing.T) {
	for _, g := range []*game.Game{
		table(t, game.DefaultRules(), nil, pack14),                                                                      // staking
		table(t, game.DefaultRules(), nil, pack14, "ann stake 5", "bob stake 5"),                                        // ann to play
		table(t, game.DefaultRules(), nil, pack14, "ann stake 5", "bob stake 5", "ann twist", "ann stick", "bob stick"), // the banker's turn
	} {
		before := g.Clone()
		want := map[string][]game.Move{}
		for _, p := range g.Seats {
			want[p] = g.Legal(p)
		}
		var wg sync.WaitGroup
		for range 8 {
			for _, p := range g.Seats {
				wg.Go(func() { assert.Equal(t, want[p], g.Legal(p)) })
			}
		}
		wg.Wait()
		assert.Equal(t, before, g)
	}
}

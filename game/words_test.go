package game_test

import (
	"strings"
	"testing"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// RULES.md now says in words what R3.3 and R7.4 do to the cards; each case plays a round
// from pack14 (ann 9H, bob 7S, bank 5C first) and checks the hands and the pack the next
// round would be dealt from (R6.1).
func TestR3_3AndR7_4InWords(t *testing.T) {
	def := game.DefaultRules()
	cases := []struct {
		name     string
		actions  []string
		cards    map[string]int // cards each hand holds at the end
		nextPack string         // the undealt cards, then the used ones in play order
	}{
		{"R3.3 stakes in any order", []string{"bob stake 5", "ann stake 5", "ann twist", "ann stick", "bob stick", "bank stay"},
			map[string]int{"ann": 3, "bob": 2}, "3H 2S 6D TC 9H 5D 4C 7S 8D 5C 2C"},
		{"R3.3 nobody stakes: the round ends before the second card", []string{"ann timeout", "bob timeout"},
			map[string]int{"ann": 1, "bob": 1}, "5D 8D 2C 4C 3H 2S 6D TC 9H 7S 5C"},
		{"R7.4 a sat-out first card goes under with the rest at the round's end", []string{"ann timeout", "bob stake 5", "bob twist", "bob twist", "bob stick", "bank stay"},
			map[string]int{"ann": 1, "bob": 4}, "3H 2S 6D TC 9H 7S 5D 2C 4C 5C 8D"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := table(t, def, nil, pack14, tc.actions...)
			require.False(t, g.InRound(), "the round has ended")
			for _, h := range g.Round.Hands {
				assert.Len(t, h.Cards, tc.cards[h.Player], "%s's cards", h.Player)
			}
			assert.Equal(t, tc.nextPack, game.FormatCards(g.NextPack()))
			assert.Len(t, g.NextPack(), len(strings.Fields(pack14)), "no card is lost or made")
		})
	}
}

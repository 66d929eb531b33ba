package picture

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"

	"github.com/pontoon-bot/pontoon/game"
)

// The golden pictures of every table size, two seats to twelve (the bot's
// limit is ten, MaxSeats; the picture is drawn for more), each in one of the
// round's phases in turn, and the ten-seat table in every phase.

var phases = []string{"staking", "shooting", "doubling", "playing", "banker", "settled"}

var phaseWords = map[string]string{
	"staking": "Placing stakes", "shooting": "Shoot bets", "doubling": "Banker may double",
	"playing": "Players' turns", "banker": "Banker's turn", "settled": "Round settled",
}

var sizeNames = []string{"Alice", "Bartholomew the Magnificent", "Chloé", "Dana", "Émile", "Фёдор",
	"Γιώργος", "Łukasz", "Nur", "Wulan Sari", "Ola", "Pedro"}

// playerHands are the players' hands, dealt in order: two cards each, and
// the third and later cards bought or twisted.
var playerHands = []string{"9D 5C 6H", "AS TD", "3C 2H 4S 5D 6C", "8S 9C 7H", "QC JH", "4H 4S TD",
	"2S 3H 2D 4C 6S", "7D 7H 3D", "9S KD", "KS QS", "5S 5H AC"}

// sizeScene is a table of n seats, the banker first, in phase.
func sizeScene(n int, phase string) Table {
	l := english
	l.Phase = phaseWords[phase]
	t := Table{Bank: 4250, Kitty: 320, ShowKitty: phase == "shooting", Labels: l}
	banker := Seat{Name: sizeNames[0], Banker: true}
	bcards := cards("KH 7S", false, false)
	switch phase {
	case "staking", "shooting", "doubling":
		bcards = bcards[:1]
	case "banker", "settled":
		bcards = cards("KH 7S")
	}
	banker.Hands = []Hand{{Cards: bcards}}
	if phase == "settled" {
		banker.Hands[0].Result = "17"
	}
	banker.Turn = phase == "doubling" || phase == "banker"
	t.Seats = append(t.Seats, banker)
	for i := 1; i < n; i++ {
		st := Seat{Name: sizeNames[i]}
		all := cards(playerHands[(i-1)%len(playerHands)])
		h := Hand{Stake: int64(5 * i)}
		switch phase {
		case "staking":
			h.Cards = []game.HandCard{{Card: all[0].Card}}
			if i%2 == 0 {
				h.Stake = 0
				st.Turn = true
			}
		case "shooting", "doubling":
			h.Cards = []game.HandCard{{Card: all[0].Card}}
			st.Turn = phase == "shooting" && i == 2
		case "playing", "banker":
			h.Cards = all[:2]
			for k := range h.Cards {
				h.Cards[k].FaceUp = false
			}
			played := phase == "banker" || i < n/2
			if played {
				h.Cards = all
				for k := range h.Cards {
					h.Cards[k].FaceUp = k >= 2 // bought cards come face down, twisted ones up: the picture shows either
				}
			}
			st.Turn = phase == "playing" && i == n/2
			h.Turn = st.Turn
		case "settled":
			h.Cards = all
			h.Result, h.Tone = fmt.Sprintf("%d · +%d", 18+i%3, 5*i), Win
			if i%3 == 0 {
				h.Result, h.Tone = fmt.Sprintf("Bust · −%d", 5*i), Loss
			}
		}
		st.Hands = []Hand{h}
		t.Seats = append(t.Seats, st)
	}
	return t
}

func init() {
	for n := 2; n <= 12; n++ {
		phase := phases[(n-2)%len(phases)]
		scenes = append(scenes, struct {
			name  string
			table func() Table
		}{fmt.Sprintf("seats-%02d-%s", n, phase), func() Table { return sizeScene(n, phase) }})
	}
	for _, phase := range phases {
		if phases[(10-2)%len(phases)] == phase {
			continue // drawn above
		}
		scenes = append(scenes, struct {
			name  string
			table func() Table
		}{"seats-10-" + phase, func() Table { return sizeScene(10, phase) }})
	}
}

// TestAltTextOfTheLargestTableIsWhole: at the largest table the bot seats
// (ten, its MaxSeats), with names of Discord's longest, five cards a hand
// (face down where the rules can leave them down: all but the banker's at
// the banker's turn), six-figure stakes and long results, the alt text
// says everything within Discord's 1,024 characters, without being cut.
func TestAltTextOfTheLargestTableIsWhole(t *testing.T) {
	for _, phase := range phases {
		tb := sizeScene(10, phase)
		for i := range tb.Seats {
			tb.Seats[i].Name = strings.Repeat("Ŵ", 32)
			for k := range tb.Seats[i].Hands {
				h := &tb.Seats[i].Hands[k]
				h.Cards = cards("2S 3H 2D 4C 6S", false, false, false, false, false)
				if phase == "settled" {
					h.Cards = cards("2S 3H 2D 4C 6S")
				}
				if h.Stake > 0 {
					h.Stake = 100_000
				}
				if h.Result != "" {
					h.Result = "Five card trick · +200,000"
				}
			}
		}
		alt := altText(tb)
		assert.LessOrEqual(t, utf8.RuneCountInString(alt), MaxAltText, phase)
		last := tb.Seats[len(tb.Seats)-1].Hands[0]
		want := "face down; Stake 100,000."
		if last.Result != "" {
			want = "6♠; Stake 100,000; " + last.Result + "."
		}
		assert.True(t, strings.HasSuffix(alt, want), "%s: the last seat is told whole: %s", phase, alt)
	}
}

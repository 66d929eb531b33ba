package picture

import (
	"strconv"
	"strings"

	"github.com/pontoon-bot/pontoon/game"
)

// Scenes the golden tests draw. Each is a moment the bot attaches the
// picture at: the deal, the banker's reveal, the settlement, a private panel.

func cards(s string, up ...bool) []game.HandCard {
	var out []game.HandCard
	for i, f := range strings.Fields(s) {
		c, err := game.ParseCard(f)
		if err != nil {
			panic(err)
		}
		faceUp := true
		if i < len(up) {
			faceUp = up[i]
		}
		out = append(out, game.HandCard{Card: c, FaceUp: faceUp})
	}
	return out
}

// grouped writes 1,234 as the English catalog does.
func grouped(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

var english = Labels{
	Title: "Pontoon · round 12", Phase: "Players' turns", Banker: "Banker", Bank: "Bank", Kitty: "Kitty",
	Turn: "To act", ToAct: func(n string) string { return n + " to act" },
	Stake:    func(a string) string { return "Stake " + a },
	Showing:  func(t string) string { return "Showing " + t },
	Total:    func(t string) string { return "Total " + t },
	FaceDown: "face down", Hand: "hand", Amount: grouped,
}

// tenSeatsPlaying is a 10-seat table mid-round: the banker's cards face
// down, players with two to five cards, and a split seat playing its second hand.
func tenSeatsPlaying() Table {
	return Table{
		Bank: 4250, Labels: english,
		Seats: []Seat{
			{Name: "Alice", Banker: true, Hands: []Hand{{Cards: cards("KH 7S", false, false)}}},
			{Name: "Bartholomew the Magnificent", Hands: []Hand{{Cards: cards("9D 5C 6H", false, true, true), Stake: 20}}},
			{Name: "Chloé", Hands: []Hand{{Cards: cards("AS TD", false, false), Stake: 50}}},
			{Name: "Dana", Hands: []Hand{{Cards: cards("3C 2H 4S 5D", false, false, true, true), Stake: 15}}},
			{Name: "Émile", Hands: []Hand{{Cards: cards("8S", false), Stake: 10}}},
			{Name: "Фёдор", Hands: []Hand{{Cards: cards("QC JH", false, false), Stake: 100}}},
			{Name: "Γιώργος", Turn: true, Hands: []Hand{{Cards: cards("8H 8C", true, false), Stake: 25}, {Cards: cards("8D 3S", true, false), Stake: 25, Turn: true}}},
			{Name: "Łukasz", Hands: []Hand{{Cards: cards("2S 3H 2D 4C 6S", false, true, true, true, true), Stake: 5}}},
			{Name: "Nur", Hands: []Hand{{Cards: cards("7D 7H", false, false), Stake: 40}}},
			{Name: "Wulan Sari", Hands: []Hand{{Cards: cards("9S KD", false, false), Stake: 1200}}},
		},
	}
}

// tenSeatsSettled is the same table settled in Shoot: every card face up
// and each hand's result.
func tenSeatsSettled() Table {
	l := english
	l.Title = "Shoot Pontoon · round 12"
	l.Phase = "Round settled"
	return Table{
		Bank: 4185, Kitty: 320, ShowKitty: true, Labels: l,
		Seats: []Seat{
			{Name: "Alice", Banker: true, Hands: []Hand{{Cards: cards("KH 7S"), Result: "17"}}},
			{Name: "Bartholomew the Magnificent", Hands: []Hand{{Cards: cards("9D 5C 6H"), Stake: 20, Result: "20 · +20", Tone: Win}}},
			{Name: "Chloé", Hands: []Hand{{Cards: cards("AS TD"), Stake: 50, Result: "Pontoon · +100", Tone: Win}}},
			{Name: "Dana", Hands: []Hand{{Cards: cards("3C 2H 4S 5D 6C"), Stake: 15, Result: "Five card trick · +30", Tone: Win}}},
			{Name: "Émile", Hands: []Hand{{Cards: cards("8S 9C 7H"), Stake: 10, Result: "Bust · −10", Tone: Loss}}},
			{Name: "Фёдор", Hands: []Hand{{Cards: cards("QC JH"), Stake: 100, Result: "20 · +100", Tone: Win}}},
			{Name: "Γιώργος", Hands: []Hand{{Cards: cards("8H 8C TC"), Stake: 25, Result: "Bust · −25", Tone: Loss}, {Cards: cards("8D 3S 6S"), Stake: 25, Result: "17 · −25", Tone: Loss}}},
			{Name: "Łukasz", Hands: []Hand{{Cards: cards("2S 3H 2D 4C 6S"), Stake: 5, Result: "Five card trick · +10", Tone: Win}}},
			{Name: "Nur", Hands: []Hand{{Cards: cards("7D 7H 3D"), Stake: 40, Result: "17 · −40", Tone: Loss}}},
			{Name: "Wulan Sari", Hands: []Hand{{Cards: cards("9S KD"), Stake: 1200, Result: "19 · +1,200", Tone: Win}}},
		},
	}
}

// bankerReveal is a four-seat table at the banker's turn: the banker's
// cards turned up (R5.1), the players' hidden cards still down.
func bankerReveal() Table {
	l := english
	l.Phase = "Banker's turn"
	return Table{
		Bank: 980, Labels: l,
		Seats: []Seat{
			{Name: "Priya", Hands: []Hand{{Cards: cards("5H 9C", false, false), Stake: 30}}},
			{Name: "Tomás", Banker: true, Turn: true, Hands: []Hand{{Cards: cards("QS 6D")}}},
			{Name: "Kofi", Hands: []Hand{{Cards: cards("4D 7C 8H", false, true, true), Stake: 20}}},
			{Name: "Mei", Hands: []Hand{{Cards: cards("JC QD 5S", false, true, true), Stake: 10, Result: "Bust", Tone: Loss}}},
		},
	}
}

// privatePanel is the table as one member sees it in their panel: their
// own face-down cards shown with the folded corner.
func privatePanel() Table {
	t := bankerReveal()
	t.Seats[0].Hands[0].Own = true
	t.Seats[0].Turn = true
	t.Seats[1].Turn = false
	t.Seats[1].Hands[0].Cards = cards("QS 6D", false, false)
	t.Labels.Phase = "Players' turns"
	return t
}

// scripts seats members whose names are in many scripts, some the Go fonts
// cannot draw, with emoji and over-long names.
func scripts() Table {
	return Table{
		Bank: 123456789, Kitty: 9876543210, ShowKitty: true,
		Labels: Labels{Title: "Pontoon dengan nama yang sangat panjang sekali untuk diuji apakah judulnya dipotong dengan benar", Banker: "Bandar",
			Bank: "Bank", Kitty: "Kitty", Turn: "Giliran", FaceDown: "tertutup"},
		Seats: []Seat{
			{Name: "山田太郎", Fallback: "yamada", Banker: true, Hands: []Hand{{Cards: cards("AH 2C", false, false)}}},
			{Name: "محمد", Fallback: "mohammed_99", Hands: []Hand{{Cards: cards("TS TH", false, false), Stake: 50}}},
			{Name: "สมชาย", Hands: []Hand{{Cards: cards("5C 5D", false, false), Stake: 5}}},
			{Name: "🎲🃏 Lucky 🍀", Turn: true, Hands: []Hand{{Cards: cards("KC 4H", false, false), Stake: 7}}},
			{Name: "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", Hands: []Hand{{Cards: cards("6C 6H", false, false), Stake: 999999999}}},
			{Name: "\u202eevil\u200b\tname\n", Hands: []Hand{{Cards: cards("2H 3H", false, false), Stake: 1}}},
			{Name: "Zoë 🇧🇷", Hands: []Hand{{Cards: cards("AD JS", false, false), Stake: 2, Result: "Pontoon — menang dengan kartu yang luar biasa", Tone: Win}}},
			{Name: "", Fallback: "", Hands: nil},
		},
	}
}

// twelveSeats is a table above the bot's ten seats: the players take a
// fourth row.
func twelveSeats() Table {
	t := tenSeatsSettled()
	t.Seats = append(t.Seats,
		Seat{Name: "Ola", Hands: []Hand{{Cards: cards("4H 4S TD"), Stake: 10, Result: "18 · +10", Tone: Win}}},
		Seat{Name: "Pedro", Hands: []Hand{{Cards: cards("KS QS"), Stake: 10, Result: "20 · +10", Tone: Push}}})
	return t
}

// scenes names the golden pictures.
var scenes = []struct {
	name  string
	table func() Table
}{
	{"ten-seats-playing", tenSeatsPlaying},
	{"ten-seats-settled", tenSeatsSettled},
	{"banker-reveal", bankerReveal},
	{"private-panel", privatePanel},
	{"scripts", scripts},
	{"twelve-seats", twelveSeats},
}

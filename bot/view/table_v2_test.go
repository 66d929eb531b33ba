package view_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/i18n"
	"github.com/pontoon-bot/pontoon/bot/table"
	"github.com/pontoon-bot/pontoon/bot/view"
	"github.com/pontoon-bot/pontoon/game"
)

// maxSeats is the most seats a table takes (bot.Options.MaxSeats' default).
const maxSeats = 10

// member is the i-th member of a full table, with an id as long as Discord's.
func member(i int) string { return fmt.Sprintf("11234567890123456%02d", i) }

// fullTable is a ten-seat Shoot table with a kitty, replayed to the end of the first
// n actions of a round in which every player stakes 10, shoots, sticks, and the bank
// draws and stays: 0 is the stakes, 9 the shoot bets, 18 play, 27 the bank's turn, 29
// settled. Every notice, commitment and cut line is filled in, for the longest text.
func fullTable(t *testing.T, n int) *table.Snapshot {
	t.Helper()
	rules := game.DefaultRules()
	rules.Variant = game.Shoot
	seats := make([]string, maxSeats)
	balances := map[string]int64{}
	for i := range seats {
		seats[i] = member(i)
		balances[seats[i]] = 1_000_000
	}
	var actions []string
	for i := 1; i < maxSeats; i++ {
		actions = append(actions, seats[i]+" stake 10")
	}
	for i := 1; i < maxSeats; i++ {
		actions = append(actions, seats[i]+" shoot 5")
	}
	for i := 1; i < maxSeats; i++ {
		actions = append(actions, seats[i]+" stick")
	}
	actions = append(actions, seats[0]+" draw", seats[0]+" stay")
	// Players' first cards, the bank's, the players' second cards, the bank's, then the
	// bank's draw: every player holds 16 or 15, the bank 2 3 and a king.
	pack := "9H 9C 9D 9S TH TC TD TS JH 2H 7H 7C 7D 7S 6H 6C 6D 6S 5H 3H KH QH QC QD QS KC KD KS 4H 4C 4D 4S"
	h := &game.History{Format: game.HistoryFormat, Rules: rules,
		Table:  game.HistoryTable{Seats: seats, Banker: seats[0], Balances: balances, Kitty: 100},
		Rounds: []game.HistoryRound{{Pack: strings.Fields(pack), Actions: actions[:n]}}}
	g, _, err := game.Replay(h)
	require.NoError(t, err)
	var passes [][]string
	var draws [][]game.Card
	pass := make([]string, len(seats))
	cards := make([]game.Card, len(seats))
	copy(pass, seats)
	for i := range cards {
		cards[i] = game.Card{Rank: game.Ten, Suit: game.Suit(i % 4)}
	}
	passes, draws = append(passes, pass, pass), append(draws, cards, cards)
	timedOut := slicesClone(seats[1:])
	return &table.Snapshot{ID: 123456789, Guild: "g", Channel: "c", Host: seats[0], Config: table.Config{Rules: rules, TurnTimer: "1m0s"},
		Seats: seats, Owner: seats[0], Game: g, MSeq: map[string]int{}, Kitty: g.Kitty, Closing: true,
		Cut:    &table.Cut{Passes: passes, Draws: draws, Winner: seats[0]},
		Notice: &table.Notice{Kind: table.NoticeTimedOut, Members: timedOut},
		Round: table.RoundInfo{Number: 99999, Commitment: strings.Repeat("9f86d081", 8),
			Salt: strings.Repeat("0011223344556677", 2)},
		Next:     &table.Next{Round: 100000, Commitment: strings.Repeat("ab", 32)},
		Deadline: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

// size counts a V2 message's components, nested ones included, and the characters of
// its text displays, and collects its custom ids.
func size(cs []discordgo.MessageComponent, ids map[string]int) (comps, chars int) {
	for _, c := range cs {
		comps++
		switch v := c.(type) {
		case discordgo.Container:
			n, k := size(v.Components, ids)
			comps, chars = comps+n, chars+k
		case discordgo.ActionsRow:
			n, k := size(v.Components, ids)
			comps, chars = comps+n, chars+k
		case discordgo.TextDisplay:
			chars += utf8.RuneCountInString(v.Content)
		case discordgo.Button:
			ids[v.CustomID]++
		case discordgo.SelectMenu:
			ids[v.CustomID]++
		}
	}
	return comps, chars
}

// checkLimits fails t where Discord would refuse m as a V2 message.
func checkLimits(t *testing.T, what string, m view.Message) {
	t.Helper()
	require.True(t, m.V2, what)
	assert.Equal(t, discordgo.MessageFlagsIsComponentsV2, m.Flags(), what)
	assert.Empty(t, m.Content, what)
	assert.Empty(t, m.Embeds, what)
	require.Len(t, m.Components, 1, "%s: one container", what)
	ids := map[string]int{}
	comps, chars := size(m.Components, ids)
	assert.LessOrEqual(t, comps, 40, "%s: components", what)
	assert.LessOrEqual(t, chars, 4000, "%s: characters of text", what)
	for id, n := range ids {
		assert.Equal(t, 1, n, "%s: custom id %s used %d times", what, id, n)
	}
	var walk func(cs []discordgo.MessageComponent)
	walk = func(cs []discordgo.MessageComponent) {
		for _, c := range cs {
			switch v := c.(type) {
			case discordgo.Container:
				walk(v.Components)
			case discordgo.TextDisplay:
				assert.NotEmpty(t, v.Content, "%s: an empty text display", what)
			}
		}
	}
	walk(m.Components)
}

// phases are the moments of the full table the tests render.
var phases = []struct {
	name    string
	actions int
	edit    func(s *table.Snapshot)
}{
	{"waiting", 0, func(s *table.Snapshot) { s.Game = nil }},
	{"staking", 0, nil},
	{"shooting", 9, nil},
	{"playing", 18, nil},
	{"banker", 27, nil},
	{"settled", 29, nil},
	{"closed", 29, func(s *table.Snapshot) { s.Closed = true }},
	{"broken", 18, func(s *table.Snapshot) { s.Broken = true }},
}

// At the largest table the rules allow, with every line a table can show filled in, the
// table message in every phase and language, with its picture and the longest alt text
// Discord takes, and every member's panel, stay inside Discord's limits for a V2
// message: 40 components counting the nested ones, 4,000 characters of text, custom ids
// unique, no content or embeds; the table message with its Open table button too.
func TestTheLargestTableStaysInsideDiscordsLimits(t *testing.T) {
	r := view.New(i18n.MustLoad())
	r.Open = true
	alt := strings.Repeat("a", 2000)
	for _, lang := range i18n.Languages {
		for _, ph := range phases {
			s := fullTable(t, ph.actions)
			if ph.edit != nil {
				ph.edit(s)
			}
			m := view.WithPicture(r.Table(lang, s), "attachment://table.png", alt)
			checkLimits(t, lang+"/"+ph.name+"/table", m)
			for _, p := range s.Seats {
				checkLimits(t, lang+"/"+ph.name+"/panel "+p, r.Panel(lang, s, p, "✅ notice", 1000))
			}
		}
	}
}

// The text alone tells the whole table: without the picture, a reader learns the round,
// the phase, whose turn and its deadline, and for every seat its member, up-cards, stake
// and, once settled, its result.
func TestTheTableTextAloneTellsTheTable(t *testing.T) {
	r := view.New(i18n.MustLoad())
	play := view.Text(r.Table("en", fullTable(t, 18)).Components)
	assert.Contains(t, play, "round 99999")
	assert.Contains(t, play, "is playing hand 1")
	assert.Contains(t, play, view.Mention(member(1)), "whose turn")
	assert.Contains(t, play, "<t:1796040000:R>", "when the turn ends")
	settled := view.Text(r.Table("en", fullTable(t, 29)).Components)
	for i := 1; i < maxSeats; i++ {
		line := ""
		for _, l := range strings.Split(settled, "\n") {
			if strings.Contains(l, view.Mention(member(i))) && strings.HasPrefix(l, "**Seat") {
				line = l
			}
		}
		require.NotEmpty(t, line, "seat %d has a line of its own:\n%s", i+1, settled)
		assert.Contains(t, line, fmt.Sprintf("**Seat %d**", i+1))
		assert.Contains(t, line, "stake 10")
		assert.Contains(t, line, "shoot 5")
		assert.Regexp(t, `[+−-]\d+`, line, "the seat's result")
	}
	assert.Contains(t, settled, "**Bank** · "+view.Mention(member(0))+" · 2♥ 3♥ K♥")
}

// The table's text in the main phases, pinned in English. Run with -update after a
// deliberate change and read the diff.
func TestGoldenTableText(t *testing.T) {
	r := view.New(i18n.MustLoad())
	for _, ph := range []struct {
		name string
		s    func(t *testing.T) *table.Snapshot
	}{
		{"waiting", func(t *testing.T) *table.Snapshot {
			s := goldenTable(t, false)
			s.Game = nil
			s.Round.Commitment = ""
			return s
		}},
		{"playing", func(t *testing.T) *table.Snapshot { return goldenTable(t, false) }},
		{"settled", func(t *testing.T) *table.Snapshot { return goldenTable(t, true) }},
		{"closed", func(t *testing.T) *table.Snapshot { s := goldenTable(t, true); s.Closed = true; return s }},
		{"staking-full", func(t *testing.T) *table.Snapshot { return fullTable(t, 0) }},
		{"banker-full", func(t *testing.T) *table.Snapshot { return fullTable(t, 27) }},
	} {
		t.Run(ph.name, func(t *testing.T) {
			got := view.Text(r.Table("en", ph.s(t)).Components) + "\n"
			path := filepath.Join("testdata", "golden", "text", ph.name+".en.txt")
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "no golden file; run go test ./bot/view -run TestGoldenTableText -update")
			require.Equal(t, string(want), got)
		})
	}
}

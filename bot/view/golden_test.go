package view_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pontoon-bot/pontoon/bot/i18n"
	"github.com/pontoon-bot/pontoon/bot/table"
	"github.com/pontoon-bot/pontoon/bot/view"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// goldenTable is a table mid-round: ann has split her eights and plays hand 1, bob has
// staked and shot, the bank waits. It is built by replaying a history, as recovery does,
// and needs no bot, store or Discord: a Snapshot is all view renders.
func goldenTable(t *testing.T, settled bool) *table.Snapshot {
	t.Helper()
	rules := game.DefaultRules()
	rules.Variant = game.Shoot
	actions := []string{"ann stake 10", "bob stake 5", "ann shoot 20", "bob shoot 0", "ann split"}
	if settled {
		actions = append(actions, "ann stick", "ann twist", "ann twist", "ann stick", "bob stick", "bank draw", "bank stay")
	}
	h := &game.History{Format: game.HistoryFormat, Rules: rules,
		Table:  game.HistoryTable{Seats: []string{"bank", "ann", "bob"}, Banker: "bank", Balances: map[string]int64{"bank": 5000, "ann": 300, "bob": 300}, Kitty: 100},
		Rounds: []game.HistoryRound{{Pack: strings.Fields("8H 9C 7S 8D TC 5D 9D 2C 3H 4S 6C"), Actions: actions}}}
	g, _, err := game.Replay(h)
	require.NoError(t, err)
	return &table.Snapshot{ID: 7, Guild: "g", Channel: "c", Host: "ann", Config: table.Config{Rules: rules, TurnTimer: "1m0s"},
		Seats: []string{"bank", "ann", "bob"}, Owner: "bank", Game: g, MSeq: map[string]int{"ann": 3, "bob": 2},
		Round:    table.RoundInfo{Number: 3, Commitment: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", Salt: "00112233445566778899aabbccddeeff"},
		Deadline: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), Kitty: g.Kitty}
}

// TestGoldenRendering pins the public table and a member's panel in every language. Run
// with -update after a deliberate change and read the diff.
func TestGoldenRendering(t *testing.T) {
	r := view.New(i18n.MustLoad())
	for _, lang := range i18n.Languages {
		for _, tc := range []struct {
			name string
			msg  func(t *testing.T) view.Message
		}{
			{"table", func(t *testing.T) view.Message { return r.Table(lang, goldenTable(t, false)) }},
			{"panel", func(t *testing.T) view.Message {
				return r.Panel(lang, goldenTable(t, false), "ann", "", view.NoBalance)
			}},
			{"settled", func(t *testing.T) view.Message { return r.Table(lang, goldenTable(t, true)) }},
			{"rules", func(t *testing.T) view.Message {
				return view.Message{Content: r.RulesText(lang, goldenTable(t, false).Config.Rules, time.Minute)}
			}},
		} {
			t.Run(lang+"/"+tc.name, func(t *testing.T) {
				got, err := json.MarshalIndent(tc.msg(t), "", "  ")
				require.NoError(t, err)
				require.NotContains(t, string(got), "⟦", "every key renders")
				require.NotContains(t, string(got), "<no value>", "every placeholder is filled")
				path := filepath.Join("testdata", "golden", tc.name+"."+lang+".json")
				if *update {
					require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
					require.NoError(t, os.WriteFile(path, got, 0o644))
				}
				want, err := os.ReadFile(path)
				require.NoError(t, err, "no golden file; run go test ./bot/view -run TestGoldenRendering -update")
				require.Equal(t, string(want), string(got))
			})
		}
	}
}

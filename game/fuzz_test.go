package game_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pontoon-bot/pontoon/game"
)

// FuzzHistory feeds arbitrary bytes to the history parser and replay: bad JSON, bad
// cards and bad actions must give an error, never a panic. Run it with
// go test -fuzz FuzzHistory ./game
func FuzzHistory(f *testing.F) {
	for _, dir := range []string{"testdata/histories", "../../shared/examples"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte(`{"format":"pontoon-history/1","table":{"seats":["a","b"],"banker":"a","balances":{"a":10,"b":10}},"rounds":[{"pack":["AS","KH","QQ"],"actions":["b stake 1"]}]}`))
	f.Add([]byte(`{"format":"pontoon-history/1","rules":{"variant":"shoot"},"table":{"seats":["a","b"],"banker":"a","balances":{"a":10,"b":10},"kitty":-4},"rounds":[]}`))
	f.Add([]byte(`{`))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := game.ParseHistory(data)
		if err != nil {
			return
		}
		g, rep, err := game.Replay(h)
		if err == nil {
			if rep == nil || g == nil {
				t.Fatal("a successful replay returns its game and report")
			}
			for p, v := range g.Balances {
				if v < 0 {
					t.Fatalf("balance of %s below zero: %d", p, v)
				}
			}
		}
	})
}

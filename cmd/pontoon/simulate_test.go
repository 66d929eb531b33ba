package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// simulate runs `pontoon simulate ARGS` in-process.
func simulate(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Main(append([]string{"simulate"}, args...), strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// TestSimulateCommand: house rules from key=value pairs and from a file reach the
// simulation, the JSON carries the edge and every variation, and the table says it in words.
func TestSimulateCommand(t *testing.T) {
	file := filepath.Join(t.TempDir(), "rules.json")
	require.NoError(t, os.WriteFile(file, []byte(`{"variant": "shoot", "kitty_max": 150}`), 0o600))
	code, out, errOut := simulate(t, "--rounds", "3000", "--seats", "4", "--seed", "9", "--rules", "split=aces,burn=13", "--rules", file, "--json")
	require.Equal(t, 0, code, errOut)
	var rep struct {
		Seats  int `json:"seats"`
		Rounds int `json:"rounds"`
		Result struct {
			Rules struct {
				Variant  string `json:"variant"`
				Split    string `json:"split"`
				Burn     int    `json:"burn"`
				KittyMax int    `json:"kitty_max"`
			} `json:"rules"`
			Rounds      int                `json:"rounds"`
			PlayerHands int                `json:"player_hands"`
			Edge        float64            `json:"edge"`
			EdgeHalf    float64            `json:"edge_ci95"`
			PlayerKinds map[string]float64 `json:"player_kinds"`
		} `json:"result"`
		Effects []struct {
			Rule       string  `json:"rule"`
			Change     float64 `json:"change"`
			ChangeHalf float64 `json:"change_ci95"`
		} `json:"effects"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	assert.Equal(t, 4, rep.Seats)
	assert.Equal(t, 3000, rep.Result.Rounds)
	assert.Equal(t, "shoot", rep.Result.Rules.Variant)
	assert.Equal(t, "aces", rep.Result.Rules.Split)
	assert.Equal(t, 13, rep.Result.Rules.Burn)
	assert.Equal(t, 150, rep.Result.Rules.KittyMax)
	assert.GreaterOrEqual(t, rep.Result.PlayerHands, 3*3000)
	assert.Positive(t, rep.Result.EdgeHalf)
	assert.Len(t, rep.Effects, 15, "every R8 variation and Shoot")
	assert.Contains(t, rep.Result.PlayerKinds, "five_card_trick")

	code, out, errOut = simulate(t, "--rounds", "2000", "--rules", "pontoon_pays=3")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "Banker's edge: ")
	assert.Contains(t, out, "rules: pontoon_pays=3")
	assert.Contains(t, out, "banker_may_double=true")
}

// TestSimulateRefusesBadInput: a bad key, value or table size is named on one line and
// nothing is simulated.
func TestSimulateRefusesBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--rules", "splitt=aces"}, "splitt"},
		{[]string{"--rules", "burn=12"}, "burn is 12; allowed: 0, 13, 14"},
		{[]string{"--rules", "split"}, "split"},
		{[]string{"--seats", "9"}, "seats must be from 2 to 8"},
		{[]string{"--rounds", "0"}, "rounds must be at least 1"},
	} {
		code, out, errOut := simulate(t, tc.args...)
		assert.NotEqual(t, 0, code, "%v", tc.args)
		assert.Empty(t, out, "%v", tc.args)
		assert.Contains(t, errOut, tc.want, "%v", tc.args)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %q", errOut)
	}
}

package game_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// historyExpect is a NAME.expect.json file: what `pontoon replay NAME.json --json` must
// give, worked by hand from RULES.md (the working is in NAME.md beside it). A legal
// history names the final balances, kitty, banker and the last round's shuffle; an
// illegal one names the round and action replay must refuse (why is for people only).
type historyExpect struct {
	Balances         map[string]int64 `json:"balances"`
	Kitty            *int64           `json:"kitty"`
	Banker           string           `json:"banker"`
	LastRoundShuffle *bool            `json:"last_round_shuffle"`
	Error            *struct {
		Round  int    `json:"round"`
		Action int    `json:"action"`
		Why    string `json:"why"`
	} `json:"error"`
}

func readHistoryExpect(t *testing.T, path string) historyExpect {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err, "every history needs its .expect.json")
	var e historyExpect
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&e), "%s", path)
	if e.Error == nil {
		require.NotNil(t, e.Balances, "%s: a legal history names its balances", path)
		require.NotNil(t, e.Kitty, "%s: a legal history names its kitty", path)
		require.NotEmpty(t, e.Banker, "%s: a legal history names its banker", path)
		require.NotNil(t, e.LastRoundShuffle, "%s: a legal history names last_round_shuffle", path)
	}
	return e
}

// historyFiles lists the histories of dir (NAME.json, not NAME.expect.json), sorted.
func historyFiles(t *testing.T, dir string) []string {
	t.Helper()
	all, err := filepath.Glob(filepath.Join(dir, "*.json"))
	require.NoError(t, err)
	var out []string
	for _, f := range all {
		if !strings.HasSuffix(f, ".expect.json") {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// checkHistory replays one history through ParseHistory and Replay and compares the
// outcome with its expect file.
func checkHistory(t *testing.T, path string) {
	t.Helper()
	want := readHistoryExpect(t, strings.TrimSuffix(path, ".json")+".expect.json")
	data, err := os.ReadFile(path)
	require.NoError(t, err)

	h, err := game.ParseHistory(data)
	if err != nil {
		// A malformed file is refused before any round: round 0, action 0.
		require.NotNil(t, want.Error, "ParseHistory refused a history expected to be legal: %v", err)
		assert.Equal(t, 0, want.Error.Round, "ParseHistory refused the file (%v) but the expectation names a round", err)
		assert.Equal(t, 0, want.Error.Action, "ParseHistory refused the file (%v) but the expectation names an action", err)
		return
	}
	g, rep, err := game.Replay(h)
	if want.Error != nil {
		require.Error(t, err, "replay accepted a history expected to fail at round %d, action %d (%s)",
			want.Error.Round, want.Error.Action, want.Error.Why)
		var re *game.ReplayError
		require.True(t, errors.As(err, &re), "replay error %v is not a *game.ReplayError", err)
		assert.Equal(t, want.Error.Round, re.Round, "round of %q (expected: %s)", re.Error(), want.Error.Why)
		assert.Equal(t, want.Error.Action, re.Action, "action of %q (expected: %s)", re.Error(), want.Error.Why)
		return
	}
	require.NoError(t, err)
	require.NotNil(t, rep)
	require.NotEmpty(t, rep.Rounds, "a legal history reports at least one round")

	assert.Equal(t, want.Balances, rep.Balances, "balances")
	assert.Equal(t, *want.Kitty, rep.Kitty, "kitty")
	assert.Equal(t, want.Banker, rep.Banker, "banker")
	assert.Equal(t, *want.LastRoundShuffle, rep.Rounds[len(rep.Rounds)-1].Shuffle, "last round's shuffle")

	// R7.3: chips are only moved, never made or lost, inside or between rounds.
	total := h.Table.Kitty
	for _, b := range h.Table.Balances {
		total += b
	}
	assert.Equal(t, total, g.Total(), "R7.3: balances, escrow and kitty must still add up to the table's chips")
}

// TestHistories replays every scripted history under testdata/histories, one subtest
// per file named after the rule it pins.
func TestHistories(t *testing.T) {
	dir := filepath.Join("testdata", "histories")
	files := historyFiles(t, dir)
	require.GreaterOrEqual(t, len(files), 45, "testdata/histories should pin every rule")

	// Every expect file belongs to a history, so none is silently skipped.
	expects, err := filepath.Glob(filepath.Join(dir, "*.expect.json"))
	require.NoError(t, err)
	for _, e := range expects {
		_, err := os.Stat(strings.TrimSuffix(e, ".expect.json") + ".json")
		assert.NoError(t, err, "%s has no history", e)
	}

	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".json"), func(t *testing.T) {
			checkHistory(t, f)
		})
	}
}

// TestSharedExamples replays the project's shared examples (HISTORY.md's examples/)
// when the checkout has them beside it.
func TestSharedExamples(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "examples")
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set and the shared examples are missing at %s: %v", dir, err)
		}
		t.Skipf("no shared examples at %s: %v", dir, err)
	}
	files := historyFiles(t, dir)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".json"), func(t *testing.T) {
			checkHistory(t, f)
		})
	}
}

// TestReplayStopsBeforeKitty: a recovered Shoot table whose last round waits for the
// kitty (R9.8) is between rounds, and the banker's kitty then lets the round be dealt.
func TestReplayStopsBeforeKitty(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "histories", "history-incomplete-shoot-round-before-kitty.json"))
	require.NoError(t, err)
	h, err := game.ParseHistory(data)
	require.NoError(t, err)
	g, rep, err := game.Replay(h)
	require.NoError(t, err)
	last := rep.Rounds[len(rep.Rounds)-1]
	require.NotNil(t, last.Complete)
	assert.False(t, *last.Complete)
	assert.True(t, last.NotDealt)
	assert.Equal(t, game.PhaseBetween, g.Phase)
	assert.Equal(t, 1, g.Dealt, "only round 1 was dealt")
	_, err = g.Apply(game.Action{Player: "alice", Verb: game.VerbKitty, Amount: 20})
	require.NoError(t, err)
	pack, err := game.ParseCards(h.Rounds[1].Pack)
	require.NoError(t, err)
	require.NoError(t, g.Deal(pack), "with the kitty up the round deals (R9.1)")
}

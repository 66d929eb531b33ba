package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// replayExpect is a NAME.expect.json file (see game/history_test.go).
type replayExpect struct {
	Balances         map[string]int64 `json:"balances"`
	Kitty            int64            `json:"kitty"`
	Banker           string           `json:"banker"`
	LastRoundShuffle bool             `json:"last_round_shuffle"`
	Error            *struct {
		Round  int    `json:"round"`
		Action int    `json:"action"`
		Why    string `json:"why"`
	} `json:"error"`
}

// replayOutput is what `pontoon replay --json` prints: a report or an error.
type replayOutput struct {
	Balances map[string]int64 `json:"balances"`
	Kitty    int64            `json:"kitty"`
	Banker   string           `json:"banker"`
	Rounds   []struct {
		Shuffle bool `json:"shuffle"`
	} `json:"rounds"`
	Error *struct {
		Round  int    `json:"round"`
		Action int    `json:"action"`
		Why    string `json:"why"`
	} `json:"error"`
}

func replayHistories(t *testing.T, dir string) []string {
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

// errorPrefix is how the stderr line of a refused history starts (HISTORY.md): the
// round and action (action 0 for the round's pack or seeded shuffle, found before any
// action), or "history:" for the file itself.
func errorPrefix(round, action int) string {
	switch {
	case round == 0:
		return "history: "
	case action == 0:
		return fmt.Sprintf("round %d, action 0: ", round)
	}
	return fmt.Sprintf("round %d, action %d \"", round, action)
}

// checkReplayCLI runs `pontoon replay --json FILE` in-process and checks the exit
// status, the JSON on stdout and, for an illegal history, the one stderr line.
func checkReplayCLI(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(strings.TrimSuffix(path, ".json") + ".expect.json")
	require.NoError(t, err)
	var want replayExpect
	require.NoError(t, json.Unmarshal(data, &want))

	var stdout, stderr bytes.Buffer
	code := Main([]string{"replay", "--json", path}, strings.NewReader(""), &stdout, &stderr)
	var got replayOutput
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &got), "stdout is not one JSON object: %q", stdout.String())

	if want.Error != nil {
		assert.Equal(t, 1, code, "exit status of an illegal history (stderr %q)", stderr.String())
		require.NotNil(t, got.Error, "stdout of an illegal history carries an error: %s", stdout.String())
		assert.Equal(t, want.Error.Round, got.Error.Round, "round (%s; expected: %s)", got.Error.Why, want.Error.Why)
		assert.Equal(t, want.Error.Action, got.Error.Action, "action (%s; expected: %s)", got.Error.Why, want.Error.Why)
		line := stderr.String()
		assert.True(t, strings.HasSuffix(line, "\n") && strings.Count(line, "\n") == 1, "stderr is one line: %q", line)
		assert.True(t, strings.HasPrefix(line, errorPrefix(want.Error.Round, want.Error.Action)),
			"stderr %q starts with %q", line, errorPrefix(want.Error.Round, want.Error.Action))
		return
	}
	assert.Equal(t, 0, code, "exit status of a legal history (stderr %q)", stderr.String())
	assert.Empty(t, stderr.String(), "stderr of a legal history")
	require.Nil(t, got.Error, "a legal history was refused: %+v", got.Error)
	require.NotEmpty(t, got.Rounds)
	assert.Equal(t, want.Balances, got.Balances, "balances")
	assert.Equal(t, want.Kitty, got.Kitty, "kitty")
	assert.Equal(t, want.Banker, got.Banker, "banker")
	assert.Equal(t, want.LastRoundShuffle, got.Rounds[len(got.Rounds)-1].Shuffle, "last round's shuffle")

	// The readable account of the same history succeeds too.
	stdout.Reset()
	stderr.Reset()
	assert.Equal(t, 0, Main([]string{"replay", path}, strings.NewReader(""), &stdout, &stderr), "text replay: %s", stderr.String())
	assert.Contains(t, stdout.String(), "Balances:")
}

// TestReplayCommand runs the real command line on every history of game/testdata and,
// when present, the shared examples.
func TestReplayCommand(t *testing.T) {
	dirs := []string{filepath.Join("..", "..", "game", "testdata", "histories")}
	shared := filepath.Join("..", "..", "..", "shared", "examples")
	if _, err := os.Stat(shared); err == nil {
		dirs = append(dirs, shared)
	} else {
		t.Logf("no shared examples at %s; replaying game/testdata only", shared)
	}
	for _, dir := range dirs {
		files := replayHistories(t, dir)
		require.NotEmpty(t, files, "no histories in %s", dir)
		for _, f := range files {
			t.Run(filepath.Base(dir)+"/"+strings.TrimSuffix(filepath.Base(f), ".json"), func(t *testing.T) {
				checkReplayCLI(t, f)
			})
		}
	}
}

// TestReplayMissingFile: a file that cannot be read is refused like a malformed one.
func TestReplayMissingFile(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Main([]string{"replay", "--json", filepath.Join(t.TempDir(), "none.json")}, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, 1, code)
	assert.True(t, strings.HasPrefix(stderr.String(), "history: "), "stderr %q", stderr.String())
}

// TestReplayShootRoundBeforeKitty: a Shoot round listed before its banker has put up the
// kitty is a stopped round (HISTORY.md), so a crash between a settled round and the next
// kitty can be recovered: complete false, nothing dealt, exit status 0.
func TestReplayShootRoundBeforeKitty(t *testing.T) {
	path := filepath.Join("..", "..", "game", "testdata", "histories", "history-incomplete-shoot-round-before-kitty.json")
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, Main([]string{"replay", "--json", path}, strings.NewReader(""), &stdout, &stderr), stderr.String())
	var got struct {
		Rounds []struct {
			Banker     string            `json:"banker"`
			Complete   *bool             `json:"complete"`
			Hands      []json.RawMessage `json:"hands"`
			BankerHand struct {
				Cards []string `json:"cards"`
			} `json:"banker_hand"`
		} `json:"rounds"`
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &got))
	require.Len(t, got.Rounds, 2)
	assert.Nil(t, got.Rounds[0].Complete, "round 1 settled")
	last := got.Rounds[1]
	require.NotNil(t, last.Complete)
	assert.False(t, *last.Complete, "the round waiting for its kitty is stopped")
	assert.Empty(t, last.Hands, "nothing dealt")
	assert.Empty(t, last.BankerHand.Cards, "nothing dealt")
	assert.Equal(t, "alice", last.Banker)

	stdout.Reset()
	require.Equal(t, 0, Main([]string{"replay", path}, strings.NewReader(""), &stdout, &stderr))
	assert.Contains(t, stdout.String(), "not dealt: alice has not put up the kitty yet")
}

// TestReplaySeededShuffleText: the readable account says what was checked of a seeded
// shuffle, and says so when the seed is still secret (HISTORY.md).
func TestReplaySeededShuffleText(t *testing.T) {
	dir := filepath.Join("..", "..", "game", "testdata", "histories")
	for file, want := range map[string]string{
		"shuffle-seeded-verified.json":   "the server seed matches the commitment and the pack matches the derivation",
		"shuffle-seeded-unrevealed.json": "the server seed is not revealed yet, so the derivation was not checked",
	} {
		var stdout, stderr bytes.Buffer
		require.Equal(t, 0, Main([]string{"replay", filepath.Join(dir, file)}, strings.NewReader(""), &stdout, &stderr), stderr.String())
		assert.Contains(t, stdout.String(), want, file)
	}
}

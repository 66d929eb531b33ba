package game_test

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shuffleVector is ../shared/fairness/shuffle-vector.json, HISTORY.md's worked case of
// pontoon-shuffle/1. A copy lives in testdata so the test runs without the shared tree.
type shuffleVector struct {
	Alg        string   `json:"alg"`
	ServerSeed string   `json:"server_seed"`
	Entropy    []string `json:"entropy"`
	Decks      int      `json:"decks"`
	Commitment string   `json:"commitment"`
	Pack       []string `json:"pack"`
}

func readVector(t *testing.T) shuffleVector {
	t.Helper()
	path := filepath.Join("..", "..", "shared", "fairness", "shuffle-vector.json")
	if _, err := os.Stat(path); err != nil {
		path = filepath.Join("testdata", "shuffle-vector.json")
	}
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var v shuffleVector
	require.NoError(t, json.Unmarshal(data, &v))
	return v
}

// TestShuffleVector reproduces the shared worked case: commitment and pack, card by card.
func TestShuffleVector(t *testing.T) {
	v := readVector(t)
	require.Equal(t, game.ShuffleAlg, v.Alg)
	seed, err := hex.DecodeString(v.ServerSeed)
	require.NoError(t, err)
	assert.Equal(t, v.Commitment, game.ShuffleCommitment(seed))
	pack, err := game.SeededPack(seed, v.Entropy, v.Decks)
	require.NoError(t, err)
	assert.Equal(t, v.Pack, game.CardStrings(pack))

	// The bot's view of the same derivation: the Deal interaction's id, then member seeds.
	dp, err := game.DealPack(seed, v.Entropy[0], v.Entropy[1:], v.Decks)
	require.NoError(t, err)
	assert.Equal(t, pack, dp)

	// The testdata copy is the shared file, so the test means the same without it.
	local, err := os.ReadFile(filepath.Join("testdata", "shuffle-vector.json"))
	require.NoError(t, err)
	var lv shuffleVector
	require.NoError(t, json.Unmarshal(local, &lv))
	assert.Equal(t, v, lv)
}

// TestSeededPackDependsOnEveryInput: each input changes the pack, two decks hold every
// card twice, and a bad seed is refused.
func TestSeededPackDependsOnEveryInput(t *testing.T) {
	seed := make([]byte, game.SeedSize)
	base, err := game.SeededPack(seed, []string{"1", "a"}, 1)
	require.NoError(t, err)
	require.NoError(t, game.ValidatePack(base, 1))
	assert.Len(t, base, 52)
	seed2 := make([]byte, game.SeedSize)
	seed2[31] = 1
	for name, got := range map[string][]string{
		"seed":          game.CardStrings(must(game.SeededPack(seed2, []string{"1", "a"}, 1))),
		"entropy text":  game.CardStrings(must(game.SeededPack(seed, []string{"1", "b"}, 1))),
		"entropy split": game.CardStrings(must(game.SeededPack(seed, []string{"1a"}, 1))),
		"entropy order": game.CardStrings(must(game.SeededPack(seed, []string{"a", "1"}, 1))),
	} {
		assert.NotEqual(t, game.CardStrings(base), got, "changing the %s changes the pack", name)
	}
	two := must(game.SeededPack(seed, nil, 2))
	assert.Len(t, two, 104)
	assert.NoError(t, game.ValidatePack(two, 2))
	_, err = game.SeededPack(seed[:31], nil, 1)
	assert.Error(t, err)
}

func must(p []game.Card, err error) []game.Card {
	if err != nil {
		panic(err)
	}
	return p
}

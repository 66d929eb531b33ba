package i18n

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The words added for the picture, the stats and the leaderboard by net are each
// language's own: no file copied another's text.
func TestStatsAndPictureWordsDifferBetweenLanguages(t *testing.T) {
	c := MustLoad()
	for _, key := range []string{"stats.text", "stats.none", "leaderboard.title_net", "leaderboard.empty_net", "cmd.stats.desc",
		"cmd.leaderboard.by.desc", "choice.leaderboard.net"} {
		seen := map[string]string{}
		for _, lang := range Languages {
			s := c.T(lang, key, "Player", "<@1>", "Rounds", 3, "Won", 2, "Lost", 1, "Pontoons", 1, "Tricks", 0, "Busts", 1,
				"Net", Signed(-1500), "Biggest", 1000, "BankerRounds", 2, "BankNet", Signed(40))
			if other, dup := seen[s]; dup {
				assert.Fail(t, "same words", "%s: %s and %s both say %q", key, other, lang, s)
			}
			seen[s] = lang
		}
	}
	// Results are signed and grouped the reader's way; the biggest win takes its plural.
	assert.Contains(t, c.T("pl", "stats.text", "Player", "x", "Net", Signed(-1500), "Biggest", 5, "BankNet", Signed(40)),
		"−1\u00a0500")
	assert.Contains(t, c.T("pl", "stats.text", "Player", "x", "Net", Signed(0), "Biggest", 5, "BankNet", Signed(40)),
		"5 żetonów")
	assert.Contains(t, c.T("pt-BR", "stats.text", "Player", "x", "Net", Signed(1000), "Biggest", 1, "BankNet", Signed(40)),
		"+1.000")
}

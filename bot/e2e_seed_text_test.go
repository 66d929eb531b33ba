package bot_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A seed is shown to everyone who checks the shuffle, so it must read as what it is:
// text with invisible format characters (a right-to-left override that shows it
// backwards, zero-width spaces and joiners, the byte order mark, a soft hyphen) is
// refused as control characters are, privately, and adds nothing to the shuffle.
func TestSeedsWithInvisibleCharactersAreRefused(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	for _, seed := range []string{
		"lucky\u202e7-ykcul", // right-to-left override
		"luc\u200bky",        // zero-width space
		"luc\u200cky",        // zero-width non-joiner
		"luc\u200dky",        // zero-width joiner
		"luc\u2060ky",        // word joiner
		"\ufefflucky",        // byte order mark
		"luc\u00adky",        // soft hyphen
	} {
		h.refusedOption(bob, sub("seed", strOpt("text", seed)), "cannot be shown")
	}
	p, ok, err := h.st.PendingSeed(context.Background(), h.tableID())
	require.NoError(t, err)
	require.True(t, ok)
	assert.Empty(t, p.MemberSeeds, "no seed was added")

	r := h.cmd(bob, sub("seed", strOpt("text", "lucky 🍀")))
	assert.Contains(t, text(r.Message), "goes into the table's next fresh shuffle", "plain text with an emoji is still a seed")
	h.noFailures()
}

package picture

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// TestFitCutsBetweenGraphemes: a name written with combining accents is
// shortened before a letter, never between a letter and its accent, at
// every width, and what is kept is as wide as the place allows at most.
func TestFitCutsBetweenGraphemes(t *testing.T) {
	ts := newTypeset()
	f := ts.face(true, 21)
	name := "Ze\u0301phyrine Zoe\u0308 Ame\u0301lie Ñ\u0303ando" // accents as separate marks
	for w := 10; w < width(f, name); w++ {
		got := fit(f, name, w)
		assert.LessOrEqual(t, width(f, got), w)
		kept := strings.TrimSuffix(got, ellipsis)
		if kept == got || kept == "" {
			continue
		}
		assert.True(t, strings.HasPrefix(name, kept), "%q", got)
		next, _ := utf8.DecodeRuneInString(name[len(kept):])
		assert.False(t, unicode.Is(unicode.M, next), "width %d: %q parts a letter from its accent", w, got)
	}
}

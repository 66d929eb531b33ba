package view_test

import (
	"strings"
	"testing"

	"github.com/pontoon-bot/pontoon/bot/i18n"
	"github.com/pontoon-bot/pontoon/bot/view"
	"github.com/stretchr/testify/assert"
)

// The words the picture draws, the phase, whose turn it is, the stake and the totals,
// come from the catalog in every language, with their placeholders filled.
func TestPictureWordsInEveryLanguage(t *testing.T) {
	r := view.New(i18n.MustLoad())
	mid, done := goldenTable(t, false), goldenTable(t, true)
	for _, lang := range []string{"en", "id", "pl", "pt-BR", "su"} {
		l := r.Picture(lang, mid, names, "").Labels
		settled := r.Picture(lang, done, names, "").Labels.Phase
		words := []string{l.Phase, settled, l.ToAct("Ann"), l.Stake("1 000"), l.Showing("14"), l.Total("21")}
		for _, w := range words {
			assert.NotEmpty(t, w, lang)
			assert.NotContains(t, w, "⟦", "%s: every key is in the catalog", lang)
			assert.NotContains(t, w, "<no value>", "%s: every placeholder is filled", lang)
		}
		assert.NotEqual(t, l.Phase, settled, "%s: the settlement has a phase of its own", lang)
		assert.Contains(t, l.ToAct("Ann"), "Ann", lang)
		assert.Contains(t, l.Stake("1 000"), "1 000", lang)
		assert.True(t, strings.Contains(l.Showing("14"), "14") && strings.Contains(l.Total("21"), "21"), lang)
	}
	en := r.Picture("en", mid, names, "").Labels
	assert.Equal(t, "Players' turns", en.Phase)
	assert.Equal(t, "Ann to act", en.ToAct("Ann"))
	assert.Equal(t, "Stake 10", en.Stake("10"))
}

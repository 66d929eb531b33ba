package i18n

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// TestXTextLacksPortugueseMany: x/text's CLDR tables still give Portuguese no "many"
// form, which is why pluralForm adds it. When an upgrade of golang.org/x/text brings it,
// this fails: pluralForm's own rule for it can then go.
func TestXTextLacksPortugueseMany(t *testing.T) {
	assert.Equal(t, plural.Other, plural.Cardinal.MatchPlural(language.BrazilianPortuguese, 1_000_000, 0, 0, 0, 0))
	assert.Equal(t, "many", pluralForm("pt-BR", 1_000_000))
	assert.Equal(t, "many", pluralForm("pt-BR", 3_000_000))
	assert.Equal(t, "other", pluralForm("pt-BR", 1_000_001))
}

// TestPluralFormsComeFromXText: the forms T chooses are x/text's for each language,
// Portuguese "many" and Brazilian zero aside.
func TestPluralFormsComeFromXText(t *testing.T) {
	for _, c := range []struct {
		lang string
		n    int64
		want string
	}{
		{"en", 0, "other"}, {"en", 1, "one"}, {"en", 2, "other"},
		{"id", 1, "other"}, {"su", 1, "other"}, {"su", 21, "other"},
		{"pl", 1, "one"}, {"pl", 3, "few"}, {"pl", 13, "many"}, {"pl", 24, "few"}, {"pl", 0, "many"},
		{"pt-BR", 0, "other"}, {"pt-BR", 1, "one"}, {"pt-BR", 2, "other"},
	} {
		assert.Equal(t, c.want, pluralForm(c.lang, c.n), "%s %d", c.lang, c.n)
	}
	for lang := range pluralTags {
		assert.Contains(t, Languages, lang)
	}
	for _, lang := range Languages {
		assert.Contains(t, pluralTags, lang, "%s chooses its plural forms through go-i18n's templates", lang)
	}
}

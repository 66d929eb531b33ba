package i18n

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A list passed to a text is joined with the reader's own conjunction, in the template
// path and the simple-message path alike.
func TestListsJoinWithEachLanguagesConjunction(t *testing.T) {
	c := MustLoad()
	two := List{"<@1>", "<@2>"}
	three := List{"<@1>", "<@2>", "<@3>"}
	for _, tc := range []struct{ lang, one, two, three string }{
		{"en", "<@1>", "<@1> and <@2>", "<@1>, <@2> and <@3>"},
		{"id", "<@1>", "<@1> dan <@2>", "<@1>, <@2>, dan <@3>"},
		{"su", "<@1>", "<@1> jeung <@2>", "<@1>, <@2>, jeung <@3>"},
		{"pl", "<@1>", "<@1> i <@2>", "<@1>, <@2> i <@3>"},
		{"pt-BR", "<@1>", "<@1> e <@2>", "<@1>, <@2> e <@3>"},
	} {
		assert.Equal(t, tc.one, c.Join(tc.lang, []string{"<@1>"}), tc.lang)
		assert.Equal(t, tc.two, c.Join(tc.lang, two), tc.lang)
		assert.Equal(t, tc.three, c.Join(tc.lang, three), tc.lang)
		// panel.waiting is a simple message; table.timed_out has plural forms.
		assert.Contains(t, c.T(tc.lang, "panel.waiting", "Players", three), tc.three, tc.lang)
		assert.Contains(t, c.T(tc.lang, "table.timed_out", "Players", two, "Count", 2), tc.two, tc.lang)
		assert.Contains(t, c.render(tc.lang, "table.timed_out", []any{"Players", two, "Count", 2}), tc.two, tc.lang)
	}
}

// Missing permissions are named as a list, in a sentence whose form follows how many.
func TestMissingPermissionsReadAsAList(t *testing.T) {
	c := MustLoad()
	perms := List{c.T("pl", "perm.view_channel"), c.T("pl", "perm.send_messages")}
	s := c.T("pl", "err.missing_permissions", "Permissions", perms, "Count", 2)
	assert.Contains(t, s, "uprawnień: "+perms[0]+" i "+perms[1])
	s = c.T("pt-BR", "err.missing_permissions", "Permissions", List{"A", "B", "C"}, "Count", 3)
	assert.Contains(t, s, "Permissões que faltam: A, B e C")
	s = c.T("en", "err.missing_permissions", "Permissions", List{"View Channel"}, "Count", 1)
	assert.Contains(t, s, "missing the View Channel permission.")
}

// Brazilian Portuguese writes zero with the plural, in every counted message and through
// {{chips}}, on both of T's paths.
func TestPortugueseZeroIsPlural(t *testing.T) {
	c := MustLoad()
	assert.Equal(t, "0 fichas", c.T("pt-BR", "amount.chips", "Count", 0))
	assert.Equal(t, "0 fichas", c.render("pt-BR", "amount.chips", []any{"Count", 0}))
	assert.Equal(t, "1 ficha", c.T("pt-BR", "amount.chips", "Count", 1))
	assert.Contains(t, c.T("pt-BR", "balance.text", "Player", "<@1>", "Count", 0, "Rank", 3), "0 fichas")
	assert.Contains(t, c.T("pt-BR", "err.over_kitty", "Kitty", 50, "Max", 0), "0 fichas")
}

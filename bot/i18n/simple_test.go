package i18n

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSimpleMessagesRenderAsTheirTemplates checks the fast path of T against go-i18n's
// template rendering (render: go-i18n with the catalog's number formatting) for every message it takes, in every language, with every value given
// and with values left out.
func TestSimpleMessagesRenderAsTheirTemplates(t *testing.T) {
	c := MustLoad()
	n := 0
	for lang, ids := range c.simple {
		for id, ps := range ids {
			var kv []any
			for i, p := range ps {
				if p.name != "" {
					kv = append(kv, p.name, i*7)
				}
			}
			for _, args := range [][]any{kv, nil} {
				want := c.render(lang, id, args)
				require.Equal(t, want, c.T(lang, id, args...), "%s %s", lang, id)
				n++
			}
		}
	}
	require.Greater(t, n, 1000)
}

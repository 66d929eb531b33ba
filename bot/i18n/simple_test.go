package i18n

import (
	"testing"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"github.com/stretchr/testify/require"
)

// TestSimpleMessagesRenderAsTheirTemplates checks the fast path of T against go-i18n's
// own rendering for every message it takes, in every language, with every value given
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
				data := map[string]any{}
				for i := 0; i+1 < len(args); i += 2 {
					data[args[i].(string)] = args[i+1]
				}
				want, err := c.localizer(lang).Localize(&i18n.LocalizeConfig{MessageID: id, TemplateData: data})
				require.NoError(t, err, "%s %s", lang, id)
				require.Equal(t, want, c.T(lang, id, args...), "%s %s", lang, id)
				n++
			}
		}
	}
	require.Greater(t, n, 1000)
}

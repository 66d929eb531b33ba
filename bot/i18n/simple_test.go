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
			argss := [][]any{kv, nil}
			// A message of one form with a count ("{{.Count}} chip" in id) takes the
			// fast path for the counts its language calls "other", a Count of 0 with a
			// ".zero" message excepted; a {{chips}} value takes amount.chips' forms.
			for _, count := range []any{0, 1, 2, 5, 21, 1000, int64(-3), Signed(-40), "7", 2.5} {
				argss = append(argss, append([]any{"Count", count}, kv...), append(append([]any{}, kv...), "Count", count))
				for _, p := range ps {
					if p.chips {
						argss = append(argss, append(append([]any{}, kv...), p.name, count))
					}
				}
			}
			for _, args := range argss {
				want := c.render(lang, id, args)
				require.Equal(t, want, c.T(lang, id, args...), "%s %s %v", lang, id, args)
				n++
			}
		}
	}
	require.Greater(t, n, 1000)
}

// TestPluralMessagesRenderAsTheirTemplates checks the plural fast path of T against
// go-i18n for every message with several forms, in every language it covers, over
// counts that exercise each CLDR rule.
func TestPluralMessagesRenderAsTheirTemplates(t *testing.T) {
	c := MustLoad()
	counts := []int64{0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 21, 22, 25, 101, 102, 111, 112, 122, 1000, 1001, 1002, 1_000_000, -1, -2, -5}
	n := 0
	for lang, ids := range c.plural {
		for id := range ids {
			for _, count := range counts {
				for _, v := range []any{count, int(count)} {
					args := []any{"Count", v, "Player", "<@1>", "Total", 17, "Min", 1, "Max", 9, "Verb", "Stake", "Kitty", 3, "Balance", 8,
						"When", "<t:1:R>", "Players", "<@2>"}
					want := c.render(lang, id, args)
					require.Equal(t, want, c.T(lang, id, args...), "%s %s count %v", lang, id, v)
					n++
				}
			}
		}
	}
	require.Greater(t, n, 100)
}

package i18n

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSmallNumbersAsPrinted checks Number's shortcut for 0–999 against the x/text
// Printer it skips, in every language and for an unknown one (English).
func TestSmallNumbersAsPrinted(t *testing.T) {
	for _, lang := range append(append([]string(nil), Languages...), "xx") {
		p, ok := printers[lang]
		if !ok {
			p = printers["en"]
		}
		for n := int64(0); n < 1000; n++ {
			require.Equal(t, p.Sprintf("%d", n), Number(lang, n), "%s %d", lang, n)
		}
		require.NotEqual(t, "1000", Number(lang, 1000), "%s: 1000 still grouped by the Printer", lang)
	}
}

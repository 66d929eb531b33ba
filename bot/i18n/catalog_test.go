package i18n

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
)

// raw loads every language file once per test.
func raw(t *testing.T) map[string]map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]map[string]string{}
	for _, lang := range Languages {
		m, err := Raw(lang)
		require.NoError(t, err, lang)
		out[lang] = m
	}
	return out
}

func sortedForms(m map[string]string) []string {
	var out []string
	for f := range m {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

func TestLanguagesAndLocales(t *testing.T) {
	assert.Equal(t, []string{"en", "id", "pl", "pt-BR", "su"}, Languages, "the languages are the files")
	assert.Equal(t, []string{"en-GB", "en-US", "id", "pl", "pt-BR"}, DiscordLocales())
	for _, dl := range DiscordLocales() {
		assert.True(t, Supported(FromDiscord(dl)), "Discord locale %s maps to %q", dl, FromDiscord(dl))
	}
	assert.Equal(t, "", FromDiscord("su"), "Discord has no Sundanese locale")
	assert.True(t, Supported("su"))
	assert.Equal(t, "", FromDiscord("pt-PT"))
}

func TestKeysMatchEnglish(t *testing.T) {
	en, err := Keys("en")
	require.NoError(t, err)
	for _, lang := range Languages[1:] {
		keys, err := Keys(lang)
		require.NoError(t, err, lang)
		have := map[string]bool{}
		for _, k := range keys {
			have[k] = true
		}
		for _, k := range en {
			assert.True(t, have[k], "%s lacks %s", lang, k)
			delete(have, k)
		}
		for k := range have {
			assert.Fail(t, "key not in English", "%s has %s, which en.toml lacks", lang, k)
		}
	}
}

func TestPlaceholdersMatchEnglish(t *testing.T) {
	all := raw(t)
	for key, forms := range all["en"] {
		want := Placeholders(forms["other"])
		for lang, m := range all {
			for form, text := range m[key] {
				assert.Equal(t, want, Placeholders(text), "%s %s [%s]: %q", lang, key, form, text)
			}
		}
	}
}

// cldrForms asks go-i18n itself which plural forms it chooses for lang, by rendering a
// probe message that names its form for integers, fractions and millions.
func cldrForms(t *testing.T, lang string) []string {
	t.Helper()
	b := i18n.NewBundle(language.English)
	tag := language.MustParse(lang)
	require.NoError(t, b.AddMessages(tag, &i18n.Message{ID: "probe",
		Zero: "zero", One: "one", Two: "two", Few: "few", Many: "many", Other: "other"}))
	loc := i18n.NewLocalizer(b, lang)
	counts := []any{"0.5", "1.5", "2.5", "21.5", 1000000, 2000000, int64(1e12)}
	for n := 0; n <= 1000; n++ {
		counts = append(counts, n)
	}
	seen := map[string]bool{}
	for _, c := range counts {
		s, err := loc.Localize(&i18n.LocalizeConfig{MessageID: "probe", PluralCount: c})
		require.NoError(t, err, "%s %v", lang, c)
		seen[s] = true
	}
	var out []string
	for f := range seen {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

func TestPluralFormsPerLanguage(t *testing.T) {
	// What CLDR (go-i18n's internal/plural/rule_gen.go) gives each language.
	want := map[string][]string{
		"en":    {"one", "other"},
		"id":    {"other"},
		"su":    {"other"},
		"pl":    {"few", "many", "one", "other"},
		"pt-BR": {"many", "one", "other"},
	}
	all := raw(t)
	for _, lang := range Languages {
		forms := cldrForms(t, lang)
		require.Equal(t, want[lang], forms, "go-i18n's plural forms for %s", lang)
		for key, en := range all["en"] {
			got := sortedForms(all[lang][key])
			if _, plural := en["one"]; plural {
				assert.Equal(t, forms, got, "%s %s: a plural message needs exactly the forms %v", lang, key, forms)
			} else {
				assert.Equal(t, []string{"other"}, got, "%s %s: English has only 'other'", lang, key)
			}
		}
	}
}

func TestPluralRendering(t *testing.T) {
	c := MustLoad()
	cases := []struct {
		lang, key string
		count     int64
		want      string
	}{
		{"en", "amount.chips", 0, "0 chips"},
		{"en", "amount.chips", 1, "1 chip"},
		{"en", "amount.chips", 2, "2 chips"},
		{"en", "amount.chips", 5, "5 chips"},
		{"en", "amount.chips", 22, "22 chips"},
		{"en", "amount.chips", 112, "112 chips"},

		{"id", "amount.chips", 0, "0 chip"},
		{"id", "amount.chips", 1, "1 chip"},
		{"id", "amount.chips", 2, "2 chip"},
		{"id", "amount.chips", 5, "5 chip"},
		{"id", "amount.chips", 22, "22 chip"},
		{"id", "amount.chips", 112, "112 chip"},

		{"su", "amount.chips", 0, "0 chip"},
		{"su", "amount.chips", 1, "1 chip"},
		{"su", "amount.chips", 2, "2 chip"},
		{"su", "amount.chips", 5, "5 chip"},
		{"su", "amount.chips", 22, "22 chip"},
		{"su", "amount.chips", 112, "112 chip"},

		// Polish: one for 1; few for 2-4, 22-24, ... but not 12-14; many otherwise.
		{"pl", "amount.chips", 0, "0 żetonów"},
		{"pl", "amount.chips", 1, "1 żeton"},
		{"pl", "amount.chips", 2, "2 żetony"},
		{"pl", "amount.chips", 5, "5 żetonów"},
		{"pl", "amount.chips", 12, "12 żetonów"},
		{"pl", "amount.chips", 22, "22 żetony"},
		{"pl", "amount.chips", 112, "112 żetonów"},
		{"pl", "err.table_full", 1, "Stół jest pełny (1 miejsce)."},
		{"pl", "err.table_full", 2, "Stół jest pełny (2 miejsca)."},
		{"pl", "err.table_full", 5, "Stół jest pełny (5 miejsc)."},
		{"pl", "err.table_full", 22, "Stół jest pełny (22 miejsca)."},
		{"pl", "err.table_full", 112, "Stół jest pełny (112 miejsc)."},

		// Brazilian Portuguese: one for 1, other for 0 (plural in Brazil), many for whole millions.
		{"pt-BR", "amount.chips", 0, "0 fichas"},
		{"pt-BR", "amount.chips", 1, "1 ficha"},
		{"pt-BR", "amount.chips", 2, "2 fichas"},
		{"pt-BR", "amount.chips", 5, "5 fichas"},
		{"pt-BR", "amount.chips", 22, "22 fichas"},
		{"pt-BR", "amount.chips", 112, "112 fichas"},
		{"pt-BR", "amount.chips", 1000000, "1.000.000 de fichas"},
		{"pt-BR", "amount.chips", 2000000, "2.000.000 de fichas"},
		{"pt-BR", "amount.chips", 1000001, "1.000.001 fichas"},
		{"pt-BR", "err.table_full", 1, "A mesa está cheia (1 lugar)."},
		{"pt-BR", "err.table_full", 8, "A mesa está cheia (8 lugares)."},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s/%s/%d", tc.lang, tc.key, tc.count), func(t *testing.T) {
			assert.Equal(t, tc.want, c.T(tc.lang, tc.key, "Count", tc.count))
		})
	}
}

// Discord's rule for command and option names (the \p{L} class covers accented letters).
var discordName = regexp.MustCompile(`^[-_\p{L}\p{N}]{1,32}$`)

func TestCommandLocalizations(t *testing.T) {
	all := raw(t)
	for _, lang := range Languages {
		m := all[lang]
		siblings := map[string]map[string]string{} // parent key -> localized name -> key
		for key, forms := range m {
			text := forms["other"]
			n := utf8.RuneCountInString(text)
			switch {
			case strings.HasPrefix(key, "cmd.") && strings.HasSuffix(key, ".name"):
				assert.Regexp(t, discordName, text, "%s %s", lang, key)
				assert.Equal(t, strings.ToLower(text), text, "%s %s must be lower case", lang, key)
				assert.LessOrEqual(t, n, 32, "%s %s", lang, key)
				if key == "cmd.pontoon.name" {
					assert.Equal(t, "pontoon", text, "%s: the command players type", lang)
					continue
				}
				path := strings.TrimSuffix(key, ".name")
				parent := path[:strings.LastIndex(path, ".")]
				if siblings[parent] == nil {
					siblings[parent] = map[string]string{}
				}
				if other, dup := siblings[parent][text]; dup {
					assert.Fail(t, "duplicate name", "%s: %s and %s are both %q", lang, key, other, text)
				}
				siblings[parent][text] = key
			case strings.HasPrefix(key, "cmd.") && strings.HasSuffix(key, ".desc"):
				assert.True(t, n >= 1 && n <= 100, "%s %s: description of %d characters", lang, key, n)
			case strings.HasPrefix(key, "choice."):
				assert.True(t, n >= 1 && n <= 100, "%s %s: choice name of %d characters", lang, key, n)
			}
		}
		assert.Contains(t, siblings, "cmd.start", lang)
		assert.Contains(t, siblings, "cmd.bank", lang)
	}
}

func TestComponentLengths(t *testing.T) {
	c := MustLoad()
	all := raw(t)
	const big = int64(1000000000000) // 13 digits: the largest amount an option allows
	for _, lang := range Languages {
		longest := ""
		for key, forms := range all[lang] {
			if strings.HasPrefix(key, "verb.") && utf8.RuneCountInString(forms["other"]) > utf8.RuneCountInString(longest) {
				longest = forms["other"]
			}
		}
		require.NotEmpty(t, longest, lang)
		for key := range all[lang] {
			if strings.HasPrefix(key, "button.") || strings.HasPrefix(key, "verb.") {
				s := c.T(lang, key, "Verb", longest)
				assert.LessOrEqual(t, utf8.RuneCountInString(s), 80, "%s %s: button label %q", lang, key, s)
			}
		}
		title := c.T(lang, "modal.title", "Verb", longest)
		assert.LessOrEqual(t, utf8.RuneCountInString(title), 45, "%s modal title %q", lang, title)
		placeholder := c.T(lang, "select.placeholder", "Verb", longest)
		assert.LessOrEqual(t, utf8.RuneCountInString(placeholder), 150, "%s select placeholder %q", lang, placeholder)
		option := c.T(lang, "amount.chips", "Count", big)
		assert.LessOrEqual(t, utf8.RuneCountInString(option), 100, "%s select option %q", lang, option)
		// Every modal text (titles and labels: 45; modal.range is a placeholder: 100).
		for key := range all[lang] {
			if !strings.HasPrefix(key, "modal.") {
				continue
			}
			s := c.T(lang, key, "Verb", longest, "Min", big, "Max", big)
			limit := 45
			if key == "modal.range" {
				limit = 100
			}
			assert.LessOrEqual(t, utf8.RuneCountInString(s), limit, "%s %s %q", lang, key, s)
		}
	}
}

func TestEveryMessageRenders(t *testing.T) {
	c, err := Load()
	require.NoError(t, err)
	all := raw(t)
	for key, forms := range all["en"] {
		require.True(t, c.Has(key))
		var kv []any
		for _, p := range Placeholders(forms["other"]) {
			if p == "Count" {
				continue
			}
			kv = append(kv, p, "X")
		}
		for _, lang := range Languages {
			for _, n := range []int64{0, 1, 2, 5, 1000000} {
				s := c.T(lang, key, append(kv, "Count", n)...)
				assert.NotContains(t, s, "⟦", "%s %s", lang, key)
				assert.NotContains(t, s, "<no value>", "%s %s", lang, key)
				assert.NotEmpty(t, s, "%s %s", lang, key)
			}
		}
	}
	assert.Equal(t, "⟦no.such.key⟧", c.T("pl", "no.such.key"))
}

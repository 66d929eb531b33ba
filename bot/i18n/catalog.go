package i18n

import (
	"embed"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"github.com/pelletier/go-toml/v2"
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

//go:embed locales/*.toml
var files embed.FS

// Languages are the catalog's languages, by the tag a server setting uses: one per file
// in locales/, English first. English is the fallback for any key the others lack.
var Languages = languages()

func languages() []string {
	entries, err := files.ReadDir("locales")
	if err != nil {
		panic(err)
	}
	out := []string{"en"}
	for _, e := range entries {
		if tag := strings.TrimSuffix(e.Name(), ".toml"); tag != "en" && tag != e.Name() {
			out = append(out, tag)
		}
	}
	sort.Strings(out[1:])
	return out
}

// discordLocaleCodes are the locales Discord knows (its Locales reference). Sundanese is
// not among them: it can only be chosen as a server setting.
var discordLocaleCodes = []string{"id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
	"no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko"}

// discordLocales maps each Discord locale the catalog speaks to its language: the file
// of the same name, else the file of its base language (en-US and en-GB are en).
var discordLocales = func() map[string]string {
	m := map[string]string{}
	for _, code := range discordLocaleCodes {
		base, _, _ := strings.Cut(code, "-")
		switch {
		case Supported(code):
			m[code] = code
		case Supported(base):
			m[code] = base
		}
	}
	return m
}()

// DiscordLocales lists the Discord locales the catalog answers in, for command
// localizations.
func DiscordLocales() []string {
	out := make([]string, 0, len(discordLocales))
	for k := range discordLocales {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// FromDiscord turns a Discord locale ("pl", "pt-BR", "en-GB") into a catalog language,
// or "" when the catalog does not speak it.
func FromDiscord(locale string) string { return discordLocales[locale] }

// Supported reports whether lang is one of Languages.
func Supported(lang string) bool {
	for _, l := range Languages {
		if l == lang {
			return true
		}
	}
	return false
}

// Catalog looks messages up. It is safe for concurrent use.
type Catalog struct {
	bundle *i18n.Bundle
	mu     sync.Mutex
	locs   map[string]*i18n.Localizer
	ids    []string
	// commandID is the registered /pontoon command's id, set once commands are
	// registered; until then command mentions render as plain text.
	commandID atomic.Pointer[string]
	simple    map[string]map[string][]piece            // lang -> id -> the text of a message with one form and only {{.Name}} values
	plural    map[string]map[string]map[string][]piece // lang -> id -> plural form -> text, for messages with several forms
	zero      map[string]map[string][]piece            // lang -> id -> the simple text of "<id>.zero", for a Count of 0
}

// piece is part of a simple message: literal text, then the value named (if any),
// through {{chips}} when chips is set.
type piece struct {
	text, name string
	chips      bool
}

// placeholder is the only template action a simple message uses: {{.Name}}, or
// {{chips .Name}} (an amount with its own plural form).
var placeholder = regexp.MustCompile(`\{\{\s*(chips\s+)?\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`)

// compile splits a message with only {{.Name}} and {{chips .Name}} actions into pieces;
// ok is false for anything else, which go-i18n renders.
func compile(text string) ([]piece, bool) {
	var out []piece
	rest := text
	for {
		loc := placeholder.FindStringSubmatchIndex(rest)
		if loc == nil {
			if strings.Contains(rest, "{{") {
				return nil, false
			}
			return append(out, piece{text: rest}), true
		}
		lit := rest[:loc[0]]
		if strings.Contains(lit, "{{") {
			return nil, false
		}
		out = append(out, piece{text: lit, name: rest[loc[4]:loc[5]], chips: loc[2] >= 0})
		rest = rest[loc[1]:]
	}
}

// Load reads the embedded catalog files.
func Load() (*Catalog, error) {
	b := i18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	for _, l := range Languages {
		if _, err := b.LoadMessageFileFS(files, "locales/"+l+".toml"); err != nil {
			return nil, fmt.Errorf("i18n: %w", err)
		}
	}
	c := &Catalog{bundle: b, locs: map[string]*i18n.Localizer{}}
	ids, err := Keys("en")
	if err != nil {
		return nil, err
	}
	c.ids = ids
	// Most messages have one form and plain {{.Name}} values: they are rendered here
	// without a template, which was most of the cost of a lookup.
	c.simple = map[string]map[string][]piece{}
	c.plural = map[string]map[string]map[string][]piece{}
	for _, l := range Languages {
		raw, err := Raw(l)
		if err != nil {
			return nil, err
		}
		c.simple[l] = map[string][]piece{}
		c.plural[l] = map[string]map[string][]piece{}
	next:
		for id, forms := range raw {
			if len(forms) == 1 && forms["other"] != "" {
				if ps, ok := compile(forms["other"]); ok {
					c.simple[l][id] = ps
				}
				continue
			}
			if _, known := pluralTags[l]; !known {
				continue
			}
			byForm := map[string][]piece{}
			for form, text := range forms {
				ps, ok := compile(text)
				if !ok {
					continue next
				}
				byForm[form] = ps
			}
			c.plural[l][id] = byForm
		}
	}
	// A ".zero" message of one simple form is what render would pick for a Count of 0
	// (TestPluralMessagesRenderAsTheirTemplates checks that they agree).
	c.zero = map[string]map[string][]piece{}
	for l, ids := range c.simple {
		c.zero[l] = map[string][]piece{}
		for id, ps := range ids {
			if base, ok := strings.CutSuffix(id, ".zero"); ok && c.plural[l][base] != nil {
				c.zero[l][base] = ps
			}
		}
	}
	return c, nil
}

// MustLoad is Load for program start-up and tests, where a broken embedded catalog is a bug.
func MustLoad() *Catalog {
	c, err := Load()
	if err != nil {
		panic(err)
	}
	return c
}

func (c *Catalog) localizer(lang string) *i18n.Localizer {
	c.mu.Lock()
	defer c.mu.Unlock()
	l, ok := c.locs[lang]
	if !ok {
		l = i18n.NewLocalizer(c.bundle, lang, "en")
		c.locs[lang] = l
	}
	return l
}

// T returns message id in lang with the named values kv ("Count", 3, "Player", "<@1>").
// A "Count" value also chooses the plural form. Integer values are written the reader's
// way (1.000 in id, 1 000 in pl; see Number), except the identifiers in rawNumbers, and a
// text may pass any amount through {{chips .X}} or {{plural "key" .X}} so that it takes
// its own plural form too. {{cmd "bank kitty"}} becomes a command mention (see Mention).
// A Count of 0 uses the message "<id>.zero" when the catalog has one (pt-BR's CLDR
// "one" covers 0, which reads oddly for an empty kitty). A missing id renders as "⟦id⟧"
// so it is visible in tests rather than silently blank.
func (c *Catalog) T(lang, id string, kv ...any) string {
	if ps, ok := c.simple[lang][id]; ok {
		if !hasKey(kv, "Count") {
			return c.fill(lang, ps, kv)
		}
		// A message of one form is that form for every count its language calls
		// "other" (every count in id and su), unless a Count of 0 picks "<id>.zero".
		if n, ok := countOf(kv); ok && hasPluralTag(lang) && pluralForm(lang, n) == "other" && (n != 0 || !c.Has(id+".zero")) {
			return c.fill(lang, ps, kv)
		}
	}
	if forms, ok := c.plural[lang][id]; ok {
		// A Count of 0 with a ".zero" message goes to render, which picks that message.
		n, ok := countOf(kv)
		if ok && n == 0 {
			// Looked up before c.Has, which builds id+".zero" and searches every id.
			if ps, ok := c.zero[lang][id]; ok {
				return c.fill(lang, ps, kv)
			}
		}
		if ok && !(n == 0 && c.Has(id+".zero")) {
			if ps, ok := forms[pluralForm(lang, n)]; ok {
				return c.fill(lang, ps, kv)
			}
		}
	}
	return c.render(lang, id, kv)
}

// Has reports whether id is in the English catalog.
func (c *Catalog) Has(id string) bool {
	i := sort.SearchStrings(c.ids, id)
	return i < len(c.ids) && c.ids[i] == id
}

// Keys lists the message ids of one language file, sorted.
func Keys(lang string) ([]string, error) {
	m, err := Raw(lang)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out, nil
}

// Raw returns a language file as id -> plural form -> text, for tests of the catalog.
func Raw(lang string) (map[string]map[string]string, error) {
	b, err := files.ReadFile("locales/" + lang + ".toml")
	if err != nil {
		return nil, err
	}
	var m map[string]map[string]string
	if err := toml.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("i18n: %s: %w", lang, err)
	}
	return m, nil
}

// Placeholders lists the values a text uses, sorted and unique: X for {{.X}} and for
// X inside an action such as {{chips .X}} or {{plural "amount.free_chips" .X}}.
func Placeholders(s string) []string {
	seen := map[string]bool{}
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			break
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			break
		}
		for _, f := range strings.Fields(s[i+2 : i+j]) {
			if strings.HasPrefix(f, ".") && len(f) > 1 {
				seen[f[1:]] = true
			}
		}
		s = s[i+j+2:]
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// fill fills a simple message's values as its template would with the catalog's value
// formatting (integers the reader's way, Signed with its sign, rawNumbers as digits): a
// missing value prints "<no value>". A {{chips}} value goes through amount.chips with
// its own count, as the template's chips function does.
func (c *Catalog) fill(lang string, ps []piece, kv []any) string {
	if len(ps) == 1 && ps[0].name == "" {
		return ps[0].text // a fixed text (a button label): no copy
	}
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.text)
		if p.name == "" {
			continue
		}
		found := -1
		for i := 0; i+1 < len(kv); i += 2 {
			if k, _ := kv[i].(string); k == p.name {
				found = i + 1 // the last value of a name wins, as in the template's map
			}
		}
		if found < 0 {
			b.WriteString("<no value>")
			continue
		}
		if p.chips {
			switch v := kv[found].(type) {
			case Signed:
				b.WriteString(c.T(lang, "amount.chips", "Count", int64(v)))
			default:
				if n, ok := toInt64(v); ok && !rawNumbers[p.name] {
					b.WriteString(c.T(lang, "amount.chips", "Count", n))
				} else {
					fmt.Fprint(&b, v)
				}
			}
			continue
		}
		switch v := kv[found].(type) {
		case string:
			b.WriteString(v)
		case List:
			b.WriteString(c.join(lang, v))
		case Signed:
			b.WriteString(number{n: int64(v), signed: true, lang: lang}.String())
		default:
			if n, ok := toInt64(v); ok && !rawNumbers[p.name] {
				b.WriteString(number{n: n, lang: lang}.String())
			} else {
				fmt.Fprint(&b, v)
			}
		}
	}
	return b.String()
}

// hasKey reports whether kv names key.
func hasKey(kv []any, key string) bool {
	for i := 0; i+1 < len(kv); i += 2 {
		if k, _ := kv[i].(string); k == key {
			return true
		}
	}
	return false
}

// pluralTags are the catalog's languages whose plural form T chooses itself (with
// pluralForm), by their x/text tags. A language missing here goes through go-i18n; tests
// check the two against each other for every message with a count.
var pluralTags = map[string]language.Tag{
	"en": language.English, "id": language.Indonesian, "pl": language.Polish,
	"pt-BR": language.BrazilianPortuguese, "su": language.MustParse("su"),
}

// pluralNames are the plural forms by the names the language files give them.
var pluralNames = [...]string{plural.Other: "other", plural.Zero: "zero", plural.One: "one",
	plural.Two: "two", plural.Few: "few", plural.Many: "many"}

// pluralForm is the CLDR cardinal plural form of the whole number n (not negative) in
// lang, one of pluralTags, by golang.org/x/text's rules. x/text's tables predate one
// rule go-i18n (which renders the templates) follows: Portuguese "many", a non-zero
// multiple of a million ("1.000.000 de fichas"), added to CLDR in version 38; that one is
// applied here so that the two agree (TestXTextLacksPortugueseMany says when it can go).
//
// Brazilian Portuguese counts zero as plural ("0 fichas") although
// CLDR's pt "one" covers 0 (a European Portuguese reading): pt-BR's 0 is "other" here,
// and render tells go-i18n the same.
func pluralForm(lang string, n int64) string {
	if lang == "pt-BR" && n == 0 {
		return "other"
	}
	if lang == "pt-BR" && n%1_000_000 == 0 {
		return "many"
	}
	return pluralNames[plural.Cardinal.MatchPlural(pluralTags[lang], int(n), 0, 0, 0, 0)]
}

func hasPluralTag(lang string) bool {
	_, ok := pluralTags[lang]
	return ok
}

// countOf is the whole-number Count among a message's values, made positive as CLDR's
// rules read it; ok is false when there is none.
func countOf(kv []any) (int64, bool) {
	var n int64
	found := false
	for i := 0; i+1 < len(kv); i += 2 {
		if k, _ := kv[i].(string); k != "Count" {
			continue
		}
		switch v := kv[i+1].(type) {
		case int:
			n, found = int64(v), true
		case int64:
			n, found = v, true
		case int32:
			n, found = int64(v), true
		default:
			return 0, false
		}
	}
	if n < 0 {
		n = -n
	}
	return n, found
}

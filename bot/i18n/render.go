package i18n

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"text/template"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	i18ntemplate "github.com/nicksnyder/go-i18n/v2/i18n/template"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// rawNumbers are the integer values that name something rather than count it. A round
// number is typed back as round:1234, so it is never grouped ("round 1.234" would be
// copied wrongly); seat and hand numbers and the two rounds of err.stale_round likewise.
var rawNumbers = map[string]bool{"Round": true, "Old": true, "Now": true, "N": true, "Hand": true}

// numberLanguage is the x/text language whose number format a catalog language uses,
// when it is not the language itself. x/text (v0.44) carries no number data for
// Sundanese and falls back to the root format, "1,000", which no Sundanese reader
// writes: Sundanese is written in Indonesia, with Indonesia's 1.000 (as Rupiah amounts
// are), so su numbers are formatted as id.
var numberLanguage = map[string]language.Tag{"su": language.Indonesian}

// printers holds one x/text printer per catalog language. A Printer keeps no state
// between calls (each Sprint takes its own buffer), so sharing it is safe.
var printers = func() map[string]*message.Printer {
	m := map[string]*message.Printer{}
	for _, lang := range Languages {
		tag, ok := numberLanguage[lang]
		if !ok {
			tag = language.MustParse(lang)
		}
		m[lang] = message.NewPrinter(tag)
	}
	return m
}()

// Number writes n the way a reader of lang writes it: 1,000 in en, 1.000 in id, su and
// pt-BR, 1 000 (a no-break space) in pl. An unknown language gets English.
func Number(lang string, n int64) string {
	if n >= 0 && n < 1000 {
		// No separator to place: most numbers on a table (totals, stakes, seats) are
		// here, and x/text's Printer cost an allocation-heavy format each
		// (TestSmallNumbersAsPrinted checks every language agrees).
		return strconv.FormatInt(n, 10)
	}
	p, ok := printers[lang]
	if !ok {
		p = printers["en"]
	}
	return p.Sprintf("%d", n)
}

// Signed is a chip result shown with its sign (+1.000, −20, 0). Pass it as a value to T
// to have it grouped the reader's way.
type Signed int64

// number is an integer value on its way into a text: it prints the reader's way and
// carries what {{chips}} and {{plural}} need to choose its plural form.
type number struct {
	n      int64
	signed bool
	lang   string
	c      *Catalog
}

func (v number) String() string {
	s := Number(v.lang, abs(v.n))
	switch {
	case v.n < 0:
		return "−" + s
	case v.n > 0 && v.signed:
		return "+" + s
	}
	return s
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// toInt64 reports the integer in v, for the kinds of integers callers pass.
func toInt64(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int8:
		return int64(n), true
	case int16:
		return int64(n), true
	case int32:
		return int64(n), true
	case int64:
		return n, true
	case uint:
		return int64(n), true
	case uint8:
		return int64(n), true
	case uint16:
		return int64(n), true
	case uint32:
		return int64(n), true
	case uint64:
		return int64(n), true
	}
	return 0, false
}

// The template functions a catalog text may use besides {{.Name}}.
var funcs = template.FuncMap{
	// {{chips .Need}}: the amount with its own plural form, through amount.chips.
	"chips": func(v any) string { return pluralOf("amount.chips", v) },
	// {{plural "amount.free_chips" .Have}}: the amount through any counted message.
	"plural": pluralOf,
	// {{cmd "bank kitty"}}: a mention of /pontoon bank kitty. The text is finished
	// after go-i18n has run (see mentions), so cmd only leaves a marker here.
	"cmd": func(path string) string { return cmdOpen + path + cmdClose },
}

const cmdOpen, cmdClose = "\x00cmd:", "\x00"

// pluralOf renders a counted message for an amount. A value that is not a number (a
// caller passed text) is shown as it is; a missing one as text/template shows it.
func pluralOf(key string, v any) string {
	switch n := v.(type) {
	case number:
		return n.c.T(n.lang, key, "Count", n.n)
	case nil:
		return "<no value>"
	}
	return fmt.Sprint(v)
}

// parser is text/template with the catalog's functions. Unlike go-i18n's own TextParser
// with Funcs it is cacheable: the functions are the same for every call (what differs
// per language travels inside the values), so each text is parsed once.
type parser struct{}

func (parser) Cacheable() bool { return true }

func (parser) Parse(src, left, right string) (i18ntemplate.ParsedTemplate, error) {
	if left == "" {
		left, right = "{{", "}}"
	}
	t, err := template.New("").Delims(left, right).Option("missingkey=default").Funcs(funcs).Parse(src)
	if err != nil {
		return nil, err
	}
	return parsed{t}, nil
}

type parsed struct{ t *template.Template }

func (p parsed) Execute(data any) (string, error) {
	var buf bytes.Buffer
	err := p.t.Execute(&buf, data)
	return buf.String(), err
}

func (c *Catalog) render(lang, id string, kv []any) string {
	data := make(map[string]any, len(kv)/2)
	var count any
	for i := 0; i+1 < len(kv); i += 2 {
		k, _ := kv[i].(string)
		v := kv[i+1]
		if k == "Count" {
			count = v
		}
		switch n := v.(type) {
		case List:
			v = c.join(lang, n)
		case Signed:
			v = number{n: int64(n), signed: true, lang: lang, c: c}
		default:
			if i, ok := toInt64(v); ok && !rawNumbers[k] {
				v = number{n: i, lang: lang, c: c}
			}
		}
		data[k] = v
	}
	if n, ok := toInt64(count); ok && n == 0 {
		if c.Has(id + ".zero") {
			id += ".zero"
		} else if lang == "pt-BR" {
			// go-i18n's CLDR pt rule makes 0 "one"; any count of "other" picks the
			// plural pluralForm gives pt-BR's 0 (the text shows the value, not this).
			count = 2
		}
	}
	s, err := c.localizer(lang).Localize(&i18n.LocalizeConfig{MessageID: id, TemplateData: data,
		PluralCount: count, TemplateParser: parser{}})
	if err != nil && s == "" {
		return "⟦" + id + "⟧"
	}
	if strings.Contains(s, cmdOpen) {
		s = c.mentions(lang, s)
	}
	return s
}

// SetCommandID records the id Discord gave the registered /pontoon command, so texts
// mention its subcommands as clickable </pontoon …:ID> mentions. Until it is set (and
// in tests that never register commands) they read as plain "/pontoon …" text.
func (c *Catalog) SetCommandID(id string) {
	c.commandID.Store(&id)
}

// CommandID is the id given to SetCommandID, or "".
func (c *Catalog) CommandID() string {
	if p := c.commandID.Load(); p != nil {
		return *p
	}
	return ""
}

// Mention is how a text in lang names the subcommand at path ("history", "bank kitty",
// always the registered names).
//
// With the command id known it is Discord's mention </pontoon bank kitty:ID>, which is
// clickable. Discord shows a mention exactly as written and resolves only the registered
// names: a mention written with localized names does nothing when clicked
// (discord/discord-api-docs #5462, #5518; #7309 calls the verbatim display intended).
// So the mention keeps the registered names, and a click puts the command into the
// reader's composer, where Discord shows it in the reader's language.
//
// Without the id it is plain text in the names the reader's command picker shows: the
// localized names where Discord has lang's locale, the registered ones otherwise (en,
// and su, which Discord lacks).
func (c *Catalog) Mention(lang, path string) string {
	words := strings.Fields(path)
	if id := c.CommandID(); id != "" {
		return "</pontoon " + strings.Join(words, " ") + ":" + id + ">"
	}
	names := lang
	if FromDiscord(lang) == "" {
		names = "en"
	}
	out := []string{"/pontoon"}
	key := "cmd"
	for _, w := range words {
		key += "." + w
		name := w
		if s := c.T(names, key+".name"); !strings.HasPrefix(s, "⟦") {
			name = s
		}
		out = append(out, name)
	}
	return strings.Join(out, " ")
}

func (c *Catalog) mentions(lang, s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, cmdOpen)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.Index(s[i+len(cmdOpen):], cmdClose)
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteString(c.Mention(lang, s[i+len(cmdOpen):i+len(cmdOpen)+j]))
		s = s[i+len(cmdOpen)+j+len(cmdClose):]
	}
}

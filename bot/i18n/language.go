package i18n

import (
	"strings"

	"golang.org/x/text/language"
)

// Match turns a language tag as a member or a setting gives it ("su", "SU", "su-ID",
// "pt_br", "pt") into one of Languages, or "" when the catalog does not speak it. A tag
// with a region matches a catalog language without one (su-ID is su); a bare language
// matches the catalog's one regional form of it (pt is pt-BR); another region of a
// regional language does not (pt-PT is not pt-BR).
func Match(tag string) string {
	t, err := language.Parse(strings.ReplaceAll(strings.TrimSpace(tag), "_", "-"))
	if err != nil {
		return ""
	}
	base, _ := t.Base()
	region, conf := t.Region()
	hasRegion := conf == language.Exact
	var sameBase []string
	for _, l := range Languages {
		lt := language.MustParse(l)
		if lt == t {
			return l
		}
		if lb, _ := lt.Base(); lb == base {
			sameBase = append(sameBase, l)
		}
	}
	for _, l := range sameBase {
		lt := language.MustParse(l)
		lr, lconf := lt.Region()
		switch {
		case lconf != language.Exact: // the catalog's form has no region: any region of it
			return l
		case !hasRegion && len(sameBase) == 1: // pt asks for the one Portuguese there is
			return l
		case hasRegion && lr == region:
			return l
		}
	}
	return ""
}

// Choose is the language to answer one member in: their own choice (as stored by
// /pontoon language; "" when they made none) wins over their Discord client's locale,
// because Discord has no Sundanese locale and a Sundanese speaker's client says id or
// en. It returns "" when neither is a catalog language; the caller then falls back as
// for any member (the server's language, then English).
func Choose(member, clientLocale string) string {
	if l := Match(member); l != "" {
		return l
	}
	return FromDiscord(clientLocale)
}

// Lang is the catalog in one language. It is a small value, safe for concurrent use.
type Lang struct {
	c   *Catalog
	tag string
}

// For returns the catalog in an explicit language such as "su", whatever the member's
// client speaks. A tag the catalog does not speak (see Match) gives English.
func (c *Catalog) For(tag string) Lang {
	l := Match(tag)
	if l == "" {
		l = "en"
	}
	return Lang{c: c, tag: l}
}

// Tag is the catalog language, one of Languages.
func (l Lang) Tag() string { return l.tag }

// T is Catalog.T in this language.
func (l Lang) T(id string, kv ...any) string { return l.c.T(l.tag, id, kv...) }

// Number is Number in this language.
func (l Lang) Number(n int64) string { return Number(l.tag, n) }

// Mention is Catalog.Mention in this language.
func (l Lang) Mention(path string) string { return l.c.Mention(l.tag, path) }

package i18n

import "strings"

// List is a list of names (members, permissions) on its way into a text. T writes it the
// reader's way: "A", "A and B", "A, B and C", with the language's own conjunction from
// the messages list.two and list.more, so a sentence written for a list reads right in
// every language whatever the number of items.
type List []string

// join writes l in lang: the items but the last comma separated, then the last through
// list.two (two items) or list.more (three or more), which hold the conjunction.
func (c *Catalog) join(lang string, l List) string {
	switch len(l) {
	case 0:
		return ""
	case 1:
		return l[0]
	}
	key := "list.two"
	if len(l) > 2 {
		key = "list.more"
	}
	return c.T(lang, key, "First", strings.Join(l[:len(l)-1], ", "), "Last", l[len(l)-1])
}

// Join writes items as a list in lang (see List).
func (c *Catalog) Join(lang string, items []string) string { return c.join(lang, List(items)) }

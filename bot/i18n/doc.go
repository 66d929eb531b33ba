// Package i18n is the bot's message catalog: every string a member sees comes from one
// of the files in locales/, one per language, through go-i18n (which brings CLDR plural
// rules, so "1 chip" and "5 chips" are right in every language).
//
// Start with Catalog.T (render.go): it takes a language and a message id with named
// values. Integers come out the reader's way (1,000 / 1.000 / 1 000, golang.org/x/text),
// "Count" chooses the message's plural form (by golang.org/x/text/feature/plural's CLDR
// rules where T renders without a template, go-i18n's otherwise; tests hold the two to
// one answer), and a text can give any other amount its
// own form with {{chips .Need}} or {{plural "amount.free_chips" .Have}}. Brazilian
// Portuguese reads a Count of 0 as plural ("0 fichas"), unlike CLDR's pt. A List value
// (members, permissions) is joined with the reader's conjunction ("A, B and C", list.go).
// A text names a
// command as {{cmd "bank kitty"}}; once the bot has called SetCommandID that becomes
// Discord's clickable mention </pontoon bank kitty:ID>. Texts never show rule numbers
// (R6.3): those belong to code and tests.
//
// The language for a member is Choose(their own choice, their client's locale): the
// choice wins, because Discord has no Sundanese locale. Catalog.For("su") gives the
// catalog bound to one language.
//
// Adding a language: copy locales/en.toml to locales/<tag>.toml, translate the values
// (keep the {{.Placeholders}}, {{chips}} and {{cmd}} and give the plural forms the
// language needs), done. The languages are the files; a file named after a Discord locale
// ("de", "es-ES") or its base language ("es") answers members whose Discord speaks it.
// The catalog tests then check that every key, placeholder, plural form, command mention
// and length limit is right. REVIEW.md records the language review and what was taken.
package i18n

// Package i18n is the bot's message catalog: every string a member sees comes from one
// of the files in locales/, one per language, through go-i18n (which brings CLDR plural
// rules, so "1 chip" and "5 chips" are right in every language).
//
// Adding a language: copy locales/en.toml to locales/<tag>.toml, translate the values
// (keep the {{.Placeholders}} and give the plural forms the language needs), done. The
// languages are the files; a file named after a Discord locale ("de", "es-ES") or its
// base language ("es") answers members whose Discord speaks it. The catalog tests then
// check that every key, placeholder and plural form is there.
package i18n

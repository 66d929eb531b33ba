package table

import "unicode"

// invisible reports whether r is a control character or a format character (Unicode
// category Cf: right-to-left overrides, zero-width spaces and joiners, the byte order
// mark), which would show a seed other than it is, or not at all.
func invisible(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }

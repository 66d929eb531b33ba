package config

import (
	"fmt"
	"log/slog"
	"strings"
)

// Secret is text that must never be printed: the Discord token. Every way Go
// formats or encodes a value (fmt verbs, String, GoString, JSON, text, slog)
// shows "[redacted]" instead, or "" when the secret is empty, so that logging
// a Config tells whether the token is set and nothing more. Reveal returns
// the text itself, for the one place that needs it.
type Secret string

const redacted = "[redacted]"

// Reveal returns the secret's text.
func (s Secret) Reveal() string { return string(s) }

// String returns "[redacted]", or "" for an empty secret.
func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return redacted
}

// GoString is the %#v form: config.Secret("[redacted]").
func (s Secret) GoString() string { return fmt.Sprintf("config.Secret(%q)", s.String()) }

// Format makes every fmt verb print the redacted form, including those that
// would bypass String (%d, %x on a struct holding a Secret).
func (s Secret) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		fmt.Fprint(f, s.GoString())
		return
	}
	if verb == 'q' {
		fmt.Fprintf(f, "%q", s.String())
		return
	}
	fmt.Fprint(f, s.String())
}

// MarshalText encodes the redacted form (YAML, and JSON map keys).
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// MarshalJSON encodes the redacted form.
func (s Secret) MarshalJSON() ([]byte, error) { return fmt.Appendf(nil, "%q", s.String()), nil }

// LogValue makes log/slog record the redacted form.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

// String describes the configuration on one line, key=value, the token
// redacted.
func (c Config) String() string {
	var b strings.Builder
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%v", f.key, f.get(&c)) // the token is a Secret: redacted
	}
	rules, _ := c.Game.RulesJSON()
	fmt.Fprintf(&b, " game.rules=%s", rules)
	return b.String()
}

// GoString is the %#v form, the same as String: the derived Go syntax would
// be no safer and harder to read.
func (c Config) GoString() string { return "config.Config{" + c.String() + "}" }

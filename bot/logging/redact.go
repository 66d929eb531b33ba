package logging

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"sync"
)

// Redacted replaces a token in a log line.
const Redacted = "[redacted]"

// pathToken matches the token in an interaction callback or webhook path,
// /interactions/<id>/<token>/... and /webhooks/<id>/<token>..., which discordgo's URL
// errors quote whole ("Post \"https://discord.com/api/v9/interactions/1/aW50…/callback\":
// context deadline exceeded"). Discord's paths are case-blind to a proxy and to a
// person pasting them (/WEBHOOKS/…), and so is this; in a JSON string a slash may be
// written \/.
var pathToken = regexp.MustCompile(`(?i)(\\*/(?:interactions|webhooks)\\*/[^/\s"'?#\\]+\\*/)[^/\s"'?#\\]+`)

// fieldToken matches a quoted value named token, as JSON ("token":"…"), Go's %#v
// (Token:"…") or logfmt (token="…") write it: at debug level discordgo logs every
// gateway event's payload, and an INTERACTION_CREATE carries the interaction's token.
var fieldToken = regexp.MustCompile(`(?i)((?:^|[^\\])"?token"?\s*[:=]\s*)"(?:[^"\\]|\\.)*"`)

// escapedFieldToken is fieldToken inside a quoted string, once or more: a JSON payload
// logged as a JSON string value ({"body":"{\"token\":\"…\"}"}) or with %q. Its
// quotes are escaped, so the value runs to the next quote; a token holds no quote, but
// its characters may be escaped (\u002e).
var escapedFieldToken = regexp.MustCompile(`(?i)((?:\\+")?token(?:\\+")?\s*[:=]\s*\\+")(?:[^"\\]|\\+u[0-9a-f]{4}|\\+[/bfnrt])*`)

// Scrub removes every token from s: the tokens in interaction and webhook paths, quoted
// values named token (escaped or not), and each of secrets (the bot token, the
// database's password) wherever it appears, written as it is or with JSON's escapes.
// Empty secrets are ignored. A secret shorter than shortSecret is masked only where it
// stands as a word of its own, so that a short password does not mask those letters
// in every other word.
//
// The regular expressions run only on text that holds what they look for: a logger
// gets its attributes scrubbed for every interaction (an id, a kind), logged or not,
// and most of them can hold no token.
func Scrub(s string, secrets ...string) string {
	return scrub(s, compile(secrets))
}

func scrub(s string, secrets []secret) string {
	if containsFold(s, "interactions") || containsFold(s, "webhooks") {
		s = pathToken.ReplaceAllString(s, "${1}"+Redacted)
	}
	if containsFold(s, "token") {
		s = fieldToken.ReplaceAllString(s, `${1}"`+Redacted+`"`)
		if strings.Contains(s, `\`) {
			s = escapedFieldToken.ReplaceAllString(s, "${1}"+Redacted)
		}
	}
	for _, sec := range secrets {
		s = sec.mask(s)
	}
	return s
}

// containsFold reports whether s holds word, which is lower case, in any mix of cases,
// as the (?i) expressions match it.
func containsFold(s, word string) bool {
	for i := 0; i+len(word) <= len(s); i++ {
		if s[i]|0x20 == word[0] && strings.EqualFold(s[i:i+len(word)], word) {
			return true
		}
	}
	return false
}

// shortSecret is the length under which a secret is masked only as a word of its own.
// A bot token is far longer; a database password may not be.
const shortSecret = 12

// secret is one text to mask, with the expression that finds it written with JSON's
// escapes as well.
type secret struct {
	text    string
	escaped *regexp.Regexp
}

func compile(secrets []string) []secret {
	var out []secret
	for _, s := range secrets {
		if s == "" {
			continue
		}
		var b strings.Builder
		for _, r := range s {
			b.WriteString("(?:" + regexp.QuoteMeta(string(r)))
			if r < 0x80 {
				fmt.Fprintf(&b, `|\\+u00(?i:%02x)`, r)
				if r == '"' || r == '\\' || r == '/' {
					b.WriteString(`|\\+` + regexp.QuoteMeta(string(r)))
				}
			}
			b.WriteString(")")
		}
		out = append(out, secret{text: s, escaped: regexp.MustCompile(b.String())})
	}
	return out
}

// mask replaces every occurrence of the secret in s by Redacted.
func (sec secret) mask(s string) string {
	var spans [][]int
	if strings.Contains(s, `\`) {
		spans = sec.escaped.FindAllStringIndex(s, -1)
	} else if strings.Contains(s, sec.text) {
		for i := 0; ; {
			j := strings.Index(s[i:], sec.text)
			if j < 0 {
				break
			}
			spans = append(spans, []int{i + j, i + j + len(sec.text)})
			i += j + len(sec.text)
		}
	}
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		if len(sec.text) < shortSecret && sec.inWord(s, sp[0], sp[1]) {
			continue
		}
		b.WriteString(s[last:sp[0]])
		b.WriteString(Redacted)
		last = sp[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// inWord reports whether s[i:j], an occurrence of the secret, is part of a longer run
// of letters and digits: /nonexistent holds "x", but not as a word.
func (sec secret) inWord(s string, i, j int) bool {
	first, last := sec.text[0], sec.text[len(sec.text)-1]
	return i > 0 && isWord(s[i-1]) && isWord(first) || j < len(s) && isWord(s[j]) && isWord(last)
}

func isWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// Redact returns a handler that passes every record to h with Scrub applied to its
// message and to every attribute: strings, errors, groups, and other values whose text
// holds a token (those are then logged as their scrubbed text). Wrap the process's
// handler with it once, at the root, and no token reaches a log line whichever package
// logs it.
func Redact(h slog.Handler, secrets ...string) slog.Handler {
	return &redactor{h: h, secrets: compile(secrets)}
}

type redactor struct {
	h       slog.Handler
	secrets []secret
}

func (r *redactor) Enabled(ctx context.Context, l slog.Level) bool { return r.h.Enabled(ctx, l) }

func (r *redactor) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, scrub(rec.Message, r.secrets), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(r.attr(a))
		return true
	})
	return r.h.Handle(ctx, out)
}

// WithAttrs defers the scrubbing and the wrapped handler's own WithAttrs (which
// formats the attributes at once) until a record is logged: the bot makes a logger
// with the ids of every interaction, and most interactions log nothing.
func (r *redactor) WithAttrs(attrs []slog.Attr) slog.Handler {
	if len(attrs) == 0 {
		return r
	}
	return &deferred{base: r, root: r, attrs: attrs}
}

// deferred is a redactor with attributes not yet handed to it. Its level checks go to
// the root redactor: a handler's level does not depend on its attributes. Attribute
// values are resolved (LogValuer) when the first record is logged.
type deferred struct {
	base  slog.Handler // a *redactor or a *deferred
	root  *redactor
	attrs []slog.Attr
	once  sync.Once
	h     slog.Handler // base with attrs, once resolved
}

func (d *deferred) resolve() slog.Handler {
	d.once.Do(func() {
		base := d.base
		if bd, ok := base.(*deferred); ok {
			base = bd.resolve()
		}
		r := base.(*redactor)
		clean := make([]slog.Attr, len(d.attrs))
		for i, a := range d.attrs {
			clean[i] = r.attr(a)
		}
		d.h = &redactor{h: r.h.WithAttrs(clean), secrets: r.secrets}
	})
	return d.h
}

func (d *deferred) Enabled(ctx context.Context, l slog.Level) bool { return d.root.Enabled(ctx, l) }

func (d *deferred) Handle(ctx context.Context, rec slog.Record) error {
	return d.resolve().Handle(ctx, rec)
}

func (d *deferred) WithAttrs(attrs []slog.Attr) slog.Handler {
	if len(attrs) == 0 {
		return d
	}
	return &deferred{base: d, root: d.root, attrs: attrs}
}

func (d *deferred) WithGroup(name string) slog.Handler { return d.resolve().WithGroup(name) }

func (r *redactor) WithGroup(name string) slog.Handler {
	return &redactor{h: r.h.WithGroup(name), secrets: r.secrets}
}

func (r *redactor) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, scrub(v.String(), r.secrets))
	case slog.KindGroup:
		g := v.Group()
		clean := make([]any, len(g))
		for i, ga := range g {
			clean[i] = r.attr(ga)
		}
		return slog.Group(a.Key, clean...)
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			return slog.String(a.Key, scrub(err.Error(), r.secrets))
		}
		text := fmt.Sprint(v.Any())
		if clean := scrub(text, r.secrets); clean != text {
			return slog.String(a.Key, clean)
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}

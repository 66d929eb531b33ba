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
// context deadline exceeded").
var pathToken = regexp.MustCompile(`(/(?:interactions|webhooks)/[^/\s"'?#]+/)[^/\s"'?#]+`)

// fieldToken matches a quoted value named token, as JSON ("token":"…"), Go's %#v
// (Token:"…") or logfmt (token="…") write it: at debug level discordgo logs every
// gateway event's payload, and an INTERACTION_CREATE carries the interaction's token.
var fieldToken = regexp.MustCompile(`(?i)("?token"?\s*[:=]\s*)"(?:[^"\\]|\\.)*"`)

// Scrub removes every token from s: the tokens in interaction and webhook paths, quoted
// values named token, and each of secrets (the bot token) wherever it appears. Empty
// secrets are ignored.
//
// The regular expressions run only on text that holds what they look for: a logger
// gets its attributes scrubbed for every interaction (an id, a kind), logged or not,
// and most of them can hold no token.
func Scrub(s string, secrets ...string) string {
	if strings.Contains(s, "/interactions/") || strings.Contains(s, "/webhooks/") {
		s = pathToken.ReplaceAllString(s, "${1}"+Redacted)
	}
	if containsToken(s) {
		s = fieldToken.ReplaceAllString(s, `${1}"`+Redacted+`"`)
	}
	for _, sec := range secrets {
		if sec != "" {
			s = strings.ReplaceAll(s, sec, Redacted)
		}
	}
	return s
}

// containsToken reports whether s holds "token" in any mix of cases, as fieldToken's
// (?i) does.
func containsToken(s string) bool {
	const word = "token"
	for i := 0; i+len(word) <= len(s); i++ {
		if s[i]|0x20 == 't' && strings.EqualFold(s[i:i+len(word)], word) {
			return true
		}
	}
	return false
}

// Redact returns a handler that passes every record to h with Scrub applied to its
// message and to every attribute: strings, errors, groups, and other values whose text
// holds a token (those are then logged as their scrubbed text). Wrap the process's
// handler with it once, at the root, and no token reaches a log line whichever package
// logs it.
func Redact(h slog.Handler, secrets ...string) slog.Handler {
	var keep []string
	for _, s := range secrets {
		if s != "" {
			keep = append(keep, s)
		}
	}
	return &redactor{h: h, secrets: keep}
}

type redactor struct {
	h       slog.Handler
	secrets []string
}

func (r *redactor) Enabled(ctx context.Context, l slog.Level) bool { return r.h.Enabled(ctx, l) }

func (r *redactor) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, Scrub(rec.Message, r.secrets...), rec.PC)
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
		return slog.String(a.Key, Scrub(v.String(), r.secrets...))
	case slog.KindGroup:
		g := v.Group()
		clean := make([]any, len(g))
		for i, ga := range g {
			clean[i] = r.attr(ga)
		}
		return slog.Group(a.Key, clean...)
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			return slog.String(a.Key, Scrub(err.Error(), r.secrets...))
		}
		text := fmt.Sprint(v.Any())
		if clean := Scrub(text, r.secrets...); clean != text {
			return slog.String(a.Key, clean)
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}

package table

import (
	"context"
	"log/slog"
)

// A member's command reaches the table with its interaction's logger in ctx (WithLogger),
// so that a line the table logs while doing that command (a pack not prepared at the
// deal, an offer taken twice) carries the interaction's ids: guild, channel, table,
// round and interaction id. Work no interaction started (timers, recovery) logs through
// Options.Logger with the table's id.

type loggerKey struct{}

// WithLogger returns ctx carrying l, the logger of the interaction being answered. l
// should already name the table and round when it knows them.
func WithLogger(ctx context.Context, l *slog.Logger) context.Context {
	return context.WithValue(ctx, loggerKey{}, l)
}

// LoggerFrom is the logger WithLogger put in ctx, if any.
func LoggerFrom(ctx context.Context) (*slog.Logger, bool) {
	l, ok := ctx.Value(loggerKey{}).(*slog.Logger)
	return l, ok && l != nil
}

// logger is the logger of a line about t in ctx: the interaction's, else the manager's
// with the table's id.
func (t *Table) logger(ctx context.Context) *slog.Logger {
	if l, ok := LoggerFrom(ctx); ok {
		return l
	}
	return t.m.log.With("table", t.id)
}

// logger is the manager's logger for a line in ctx: the interaction's, else its own.
func (m *Manager) logger(ctx context.Context) *slog.Logger {
	if l, ok := LoggerFrom(ctx); ok {
		return l
	}
	return m.log
}

// Round is the number of the table's current round, or of its last one between rounds
// (0 before the first), for the logs.
func (t *Table) Round() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.round.Number
}

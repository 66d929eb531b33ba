package store

import (
	"context"
	"errors"
	"fmt"
)

// WithCommitObserver has the store call observe(op) just before each write transaction
// commits, op being the method's name ("ApplyAction", "DealRound", ...), and the
// function it returns with the commit's result once the commit returns. On SQLite one
// commit may carry several methods' bodies (see groupCommit): observe is called for each
// body that succeeded, and each learns the one commit's result. Metrics time the commit
// with it (package bot/metrics); the store itself reads no clock for it. observe must be
// safe for concurrent use and quick: it runs on the write path.
func WithCommitObserver(observe func(op string) func(err error)) Option {
	return func(o *options) { o.observe = observe }
}

// Ping reports whether the database answers: both pools reach it. It is the store's
// part of the admin listener's /readyz.
func (s *Store) Ping(ctx context.Context) error {
	if err := errors.Join(s.w.PingContext(ctx), s.r.PingContext(ctx)); err != nil {
		return fmt.Errorf("store: ping: %w", err)
	}
	return nil
}

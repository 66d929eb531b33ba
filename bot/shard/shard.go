package shard

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"
)

// IdentifyWindow is Discord's window for max_concurrency: that many
// identifies per 5 seconds.
const IdentifyWindow = 5 * time.Second

// DefaultWindow is the window a Pacer uses unless told otherwise:
// Discord's, plus a margin for the time between Wait returning and the
// identify reaching Discord, which varies from one connection to the next.
const DefaultWindow = IdentifyWindow + 500*time.Millisecond

// GuildsPerShard is the most guilds Discord lets one shard hold; past it,
// identify is closed with 4011 (sharding required).
const GuildsPerShard = 2500

// ErrGuildID is returned by Of for a guild id that is not a snowflake.
var ErrGuildID = errors.New("shard: guild id is not a Discord id")

// Of returns the shard of a guild among count shards: (guild_id >> 22) %
// count. A count below 2 means one shard, 0.
func Of(guildID string, count int) (int, error) {
	id, err := strconv.ParseUint(guildID, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: %q", ErrGuildID, guildID)
	}
	return OfID(id, count), nil
}

// OfID is Of for a parsed id.
func OfID(guildID uint64, count int) int {
	if count < 2 {
		return 0
	}
	return int((guildID >> 22) % uint64(count))
}

// Serves reports whether a process running shards (each in [0, count))
// serves the guild. Events of guildless kinds (DMs) go to shard 0 only.
func Serves(guildID string, count int, shards []int) bool {
	want := 0
	if guildID != "" {
		var err error
		if want, err = Of(guildID, count); err != nil {
			return false
		}
	}
	for _, s := range shards {
		if s == want {
			return true
		}
	}
	return false
}

// Pacer spaces identifies as Discord requires: each rate-limit key
// (shard_id % max_concurrency) identifies at most once per window. Shards
// that share a key therefore start one window apart, in the order they
// ask; shards with different keys start together. It is safe for
// concurrent use, and one Pacer should serve every session of a process,
// reconnects included.
type Pacer struct {
	maxConcurrency int
	window         time.Duration
	now            func() time.Time

	mu   sync.Mutex
	next map[int]time.Time // per key: the earliest time its next identify may go
}

// NewPacer returns a Pacer for max_concurrency (from GET /gateway/bot; below
// 1 counts as 1) and a window (0 means DefaultWindow). now is the clock; nil
// means time.Now.
func NewPacer(maxConcurrency int, window time.Duration, now func() time.Time) *Pacer {
	if maxConcurrency < 1 {
		maxConcurrency = 1
	}
	if window <= 0 {
		window = DefaultWindow
	}
	if now == nil {
		now = time.Now
	}
	return &Pacer{maxConcurrency: maxConcurrency, window: window, now: now, next: map[int]time.Time{}}
}

// Key is the rate-limit key of a shard: shard_id % max_concurrency.
func (p *Pacer) Key(shardID int) int { return shardID % p.maxConcurrency }

// Reserve books the next identify of shardID no earlier than at and
// returns when it may go: at itself, or the end of the window its key's
// previous identify opened. Reserving is a promise to identify then.
func (p *Pacer) Reserve(shardID int, at time.Time) time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	k := p.Key(shardID)
	when := at
	if n, ok := p.next[k]; ok && n.After(when) {
		when = n
	}
	p.next[k] = when.Add(p.window)
	return when
}

// Wait blocks until shardID may identify, having reserved its slot, or
// until ctx ends. Call it right before each Session.Open (or identify).
func (p *Pacer) Wait(ctx context.Context, shardID int) error {
	now := p.now()
	d := p.Reserve(shardID, now).Sub(now)
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

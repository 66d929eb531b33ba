package shard_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/shard"
)

// guild makes a snowflake whose timestamp part (the bits above 22) is ms,
// with noise in the low bits that must not matter.
func guild(ms uint64) string { return strconv.FormatUint(ms<<22|0x2ABCDE, 10) }

func TestOf(t *testing.T) {
	for _, c := range []struct {
		id          string
		count, want int
	}{
		{guild(0), 3, 0},
		{guild(1), 3, 1},
		{guild(5), 3, 2},
		{guild(6), 3, 0},
		{guild(1_000_000_007), 16, 1_000_000_007 % 16},
		{guild(12345), 1, 0},
		{guild(12345), 0, 0},
		// The top bits count too: a real 2024 snowflake.
		{"1221234567890123456", 7, int((uint64(1221234567890123456) >> 22) % 7)},
	} {
		got, err := shard.Of(c.id, c.count)
		require.NoError(t, err)
		assert.Equal(t, c.want, got, "guild %s among %d", c.id, c.count)
	}
	_, err := shard.Of("not-an-id", 2)
	assert.ErrorIs(t, err, shard.ErrGuildID)
	_, err = shard.Of("", 2)
	assert.ErrorIs(t, err, shard.ErrGuildID)
}

// TestOfSpreads: over many guilds, every shard gets some: the formula uses
// the timestamp bits, not the low bits, which are the same here.
func TestOfSpreads(t *testing.T) {
	seen := map[int]int{}
	for ms := uint64(0); ms < 400; ms++ {
		s, err := shard.Of(guild(ms*7919), 4)
		require.NoError(t, err)
		seen[s]++
	}
	assert.Len(t, seen, 4)
	for s, n := range seen {
		assert.Equal(t, 100, n, "shard %d", s)
	}
}

func TestServes(t *testing.T) {
	assert.True(t, shard.Serves(guild(5), 3, []int{2}))
	assert.False(t, shard.Serves(guild(5), 3, []int{0, 1}))
	assert.True(t, shard.Serves(guild(5), 3, []int{0, 1, 2}))
	assert.True(t, shard.Serves("", 3, []int{0}), "guildless events go to shard 0")
	assert.False(t, shard.Serves("", 3, []int{1, 2}))
	assert.False(t, shard.Serves("x", 3, []int{0, 1, 2}))
}

// TestPacerBuckets follows Discord's example of 32 shards at
// max_concurrency 16: shards 0-15 start together, 16-31 one window later.
func TestPacerBuckets(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	p := shard.NewPacer(16, shard.IdentifyWindow, nil)
	for id := 0; id < 32; id++ {
		want := t0
		if id >= 16 {
			want = t0.Add(shard.IdentifyWindow)
		}
		assert.Equal(t, want, p.Reserve(id, t0), "shard %d", id)
		assert.Equal(t, id%16, p.Key(id))
	}
	// A reconnect of shard 3 at t0+1s waits for its key's next slot, after
	// shard 19's.
	assert.Equal(t, t0.Add(2*shard.IdentifyWindow), p.Reserve(3, t0.Add(time.Second)))
	// Long after, no wait.
	late := t0.Add(time.Hour)
	assert.Equal(t, late, p.Reserve(3, late))
}

func TestPacerOneAtATime(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	p := shard.NewPacer(0, 2*time.Second, nil) // 0 counts as 1
	for id := 0; id < 4; id++ {
		assert.Equal(t, t0.Add(time.Duration(id)*2*time.Second), p.Reserve(id, t0), "shard %d", id)
	}
}

// TestPacerWait: Wait sleeps until the reserved slot on the injected clock,
// and gives up when its context ends.
func TestPacerWait(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	p := shard.NewPacer(1, time.Hour, func() time.Time { return now })
	require.NoError(t, p.Wait(context.Background(), 0), "the first identify goes at once")

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	assert.ErrorIs(t, p.Wait(ctx, 1), context.DeadlineExceeded, "shard 1 shares key 0 and must wait an hour")

	now = now.Add(3 * time.Hour) // both reserved slots (1h and 2h) are past
	require.NoError(t, p.Wait(context.Background(), 0))
}

func TestDefaultWindowHasMargin(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	p := shard.NewPacer(1, 0, nil)
	p.Reserve(0, t0)
	assert.Equal(t, t0.Add(shard.DefaultWindow), p.Reserve(1, t0))
	assert.Greater(t, shard.DefaultWindow, shard.IdentifyWindow, "never cut Discord's window fine")
}

package store

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func seedOf(c byte) ShuffleSeed {
	return ShuffleSeed{Commitment: strings.Repeat(string(c), 64), ServerSeed: strings.Repeat(string(c+1), 64)}
}

// A table's pending seed, members' seeds for it, its use by a deal and its reveal
// (HISTORY.md, "Seeded shuffles").
func TestShuffleSeeds(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		ctx := context.Background()
		tb, err := s.OpenTable(ctx, OpenTableParams{Guild: "g", Channel: "c", Host: "a", Rules: `{"variant":"classic"}`, Now: t0})
		require.NoError(t, err)
		require.NoError(t, s.SetSeats(ctx, tb.ID, []string{"a", "b"}, t0))

		first, err := s.CommitSeed(ctx, tb.ID, seedOf('a'), t0)
		require.NoError(t, err)
		again, err := s.CommitSeed(ctx, tb.ID, seedOf('c'), t0)
		require.NoError(t, err)
		assert.Equal(t, first.Commitment, again.Commitment, "a table keeps the seed it committed to")
		_, err = s.CommitSeed(ctx, tb.ID, ShuffleSeed{Commitment: "short", ServerSeed: "x"}, t0)
		require.ErrorIs(t, err, ErrInvalid)

		n, err := s.AddMemberSeed(ctx, tb.ID, first.Commitment, "b", "hello", 2, t0)
		require.NoError(t, err)
		assert.Equal(t, 1, n)
		_, err = s.AddMemberSeed(ctx, tb.ID, first.Commitment, "b", "again", 2, t0)
		require.ErrorIs(t, err, ErrSeedTaken)
		_, err = s.AddMemberSeed(ctx, tb.ID, strings.Repeat("9", 64), "a", "x", 2, t0)
		require.ErrorIs(t, err, ErrSeedUsed)
		n, err = s.AddMemberSeed(ctx, tb.ID, first.Commitment, "a", "world", 2, t0)
		require.NoError(t, err)
		assert.Equal(t, 2, n)
		_, err = s.AddMemberSeed(ctx, tb.ID, first.Commitment, "z", "late", 2, t0)
		require.ErrorIs(t, err, ErrSeedsFull)
		p, ok, err := s.PendingSeed(ctx, tb.ID)
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, []MemberSeed{{"b", "hello"}, {"a", "world"}}, p.MemberSeeds)

		deal := func(number int, use *SeedUse) (Round, error) {
			return s.DealRound(ctx, DealParams{TableID: tb.ID, Number: number, Members: []string{"a", "b"}, Starting: 100, Seed: use,
				Start: func(map[string]int64, int64) (StartRoundParams, error) {
					return StartRoundParams{History: `{"format":"pontoon-history/1"}`, Commitment: first.Commitment}, nil
				}, Now: t0.Add(time.Duration(number) * time.Minute)})
		}
		// A deal that used fewer member seeds than the pack has is refused whole.
		_, err = deal(1, &SeedUse{Commitment: first.Commitment, MemberSeeds: 1, Next: seedOf('e')})
		require.ErrorIs(t, err, ErrSeedUsed)
		assert.Equal(t, 0, count(t, s, "rounds"))

		r1, err := deal(1, &SeedUse{Commitment: first.Commitment, MemberSeeds: 2, Next: seedOf('e')})
		require.NoError(t, err)
		got, ok, err := s.RoundSeed(ctx, r1.ID)
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, first.Commitment, got.Commitment)
		assert.Empty(t, got.ServerSeed, "secret while its pack is in use")
		next, _, err := s.PendingSeed(ctx, tb.ID)
		require.NoError(t, err)
		assert.Equal(t, seedOf('e').Commitment, next.Commitment)
		assert.Empty(t, next.MemberSeeds, "members' seeds belong to the pack they were added for")

		require.NoError(t, s.RevealSeeds(ctx, tb.ID, t0.Add(time.Hour)))
		got, _, err = s.RoundSeed(ctx, r1.ID)
		require.NoError(t, err)
		assert.True(t, got.Revealed)
		assert.Equal(t, first.ServerSeed, got.ServerSeed)

		_, ok, err = s.RoundSeed(ctx, r1.ID+100)
		require.NoError(t, err)
		assert.False(t, ok, "a round not dealt from a seed has none")
	})
}

// Odds are kept once per rule set and table size.
func TestOdds(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		ctx := context.Background()
		_, ok, err := s.Odds(ctx, `{"a":1}`, 5)
		require.NoError(t, err)
		assert.False(t, ok)
		require.NoError(t, s.SaveOdds(ctx, `{"a":1}`, 5, `{"edge":0.1}`, t0, 10))
		require.NoError(t, s.SaveOdds(ctx, `{"a":1}`, 5, `{"edge":0.2}`, t0, 10))
		got, ok, err := s.Odds(ctx, `{"a":1}`, 5)
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, `{"edge":0.1}`, got, "the first report kept stays")
		_, ok, err = s.Odds(ctx, `{"a":1}`, 3)
		require.NoError(t, err)
		assert.False(t, ok, "another table size is another simulation")
	})
}

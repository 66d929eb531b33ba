package store

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A server may open tables up to its limit; the next is refused, another server's and a
// closed table's places do not count, and closing one frees a place.
func TestOpenTableRefusesPastTheServersLimit(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		ctx := context.Background()
		open := func(guild, channel string) (Table, error) {
			return s.OpenTable(ctx, OpenTableParams{Guild: guild, Channel: channel, Host: "h", MaxOpen: 2, Now: t0})
		}
		first, err := open("g", "c1")
		require.NoError(t, err)
		_, err = open("g", "c2")
		require.NoError(t, err)
		_, err = open("other", "c1")
		require.NoError(t, err, "another server's tables do not count")
		_, err = open("g", "c3")
		require.ErrorIs(t, err, ErrTooManyTables)
		assert.Equal(t, 3, count(t, s, "tables"), "nothing opened")

		require.NoError(t, s.CloseTable(ctx, first.ID, t0))
		_, err = open("g", "c3")
		require.NoError(t, err, "a closed table frees its place")
	})
}

// Starts that race for a server's last place: one wins, the others are refused, and
// the server never has more open tables than its limit.
func TestConcurrentOpensCannotBothTakeTheLastPlace(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		ctx := context.Background()
		const limit, racers = 3, 8
		errs := atOnce(racers, func(i int) error {
			_, err := s.OpenTable(ctx, OpenTableParams{Guild: "g", Channel: "c" + strconv.Itoa(i), Host: "h", MaxOpen: limit, Now: t0})
			return err
		})
		opened := 0
		for _, err := range errs {
			if err == nil {
				opened++
				continue
			}
			require.True(t, errors.Is(err, ErrTooManyTables), "%v", err)
		}
		assert.Equal(t, limit, opened)
		tables, err := s.OpenTables(ctx)
		require.NoError(t, err)
		assert.Len(t, tables, limit)
	})
}

// The odds table keeps at most the newest reports asked for; the one just saved always
// stays, and an older one gone is simply not found.
func TestSaveOddsKeepsOnlyTheNewestReports(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		ctx := context.Background()
		const keep = 3
		for i := range 10 {
			rules := `{"max_stake":` + strconv.Itoa(i+1) + `}`
			require.NoError(t, s.SaveOdds(ctx, rules, 5, `{"n":`+strconv.Itoa(i)+`}`, t0.Add(time.Duration(i)*time.Second), keep))
			_, ok, err := s.Odds(ctx, rules, 5)
			require.NoError(t, err)
			require.True(t, ok, "the report just saved stays")
			assert.LessOrEqual(t, count(t, s, "odds"), keep)
		}
		for i, want := range []bool{false, false, false, false, false, false, false, true, true, true} {
			_, ok, err := s.Odds(ctx, `{"max_stake":`+strconv.Itoa(i+1)+`}`, 5)
			require.NoError(t, err)
			assert.Equal(t, want, ok, "report %d", i)
		}
		// Saved at one instant, the one just saved still stays.
		require.NoError(t, s.SaveOdds(ctx, `{"z":1}`, 5, `{}`, t0, keep))
		_, ok, err := s.Odds(ctx, `{"z":1}`, 5)
		require.NoError(t, err)
		assert.True(t, ok)
		assert.Equal(t, keep, count(t, s, "odds"))
	})
}

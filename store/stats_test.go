package store

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The per-round results go in with the settling action, in its transaction: a refused
// settlement writes none, and Stats, NetLeaderboard and NetRank read them back.
func TestRoundResultsAndStats(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		ctx := context.Background()
		_, r := openTableWithRound(t, s, "g", "c", "alice", "bob", "carol")
		fin := &RoundFinish{BankOwner: "alice", Results: []RoundResult{
			{Member: "bob", Hands: 2, Pontoons: 1, Busts: 1, Net: 15},
			{Member: "carol", Hands: 1, Tricks: 1, Net: -20},
			{Member: "alice", Banker: true, Net: 5},
		}}
		// A settlement the store refuses (a stale seq) writes no results.
		err := s.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 2, Member: "alice", Verb: "stay", Now: t0, Finish: fin})
		require.Error(t, err)
		assert.Equal(t, 0, count(t, s, "round_results"))
		require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 1, Member: "alice", Verb: "stay", Now: t0, Finish: fin}))
		assert.Equal(t, 3, count(t, s, "round_results"))

		bob, err := s.Stats(ctx, "g", "bob")
		require.NoError(t, err)
		assert.Equal(t, Stats{Rounds: 1, Won: 1, Pontoons: 1, Busts: 1, Net: 15, BiggestWin: 15}, bob)
		carol, err := s.Stats(ctx, "g", "carol")
		require.NoError(t, err)
		assert.Equal(t, Stats{Rounds: 1, Lost: 1, Tricks: 1, Net: -20}, carol)
		alice, err := s.Stats(ctx, "g", "alice")
		require.NoError(t, err)
		assert.Equal(t, Stats{Rounds: 1, Won: 1, Net: 5, BiggestWin: 5, BankerRounds: 1, BankNet: 5}, alice, "a round as the banker is a round played")
		none, err := s.Stats(ctx, "other guild", "bob")
		require.NoError(t, err)
		assert.Equal(t, Stats{}, none, "results are per server")

		page, total, err := s.NetLeaderboard(ctx, "g", 0, 2)
		require.NoError(t, err)
		assert.Equal(t, 3, total)
		assert.Equal(t, []NetStanding{{Rank: 1, Member: "bob", Net: 15}, {Rank: 2, Member: "alice", Net: 5}}, page)
		page, _, err = s.NetLeaderboard(ctx, "g", 2, 2)
		require.NoError(t, err)
		assert.Equal(t, []NetStanding{{Rank: 3, Member: "carol", Net: -20}}, page)
		rank, err := s.NetRank(ctx, "g", "carol")
		require.NoError(t, err)
		assert.Equal(t, NetStanding{Rank: 3, Member: "carol", Net: -20}, rank)
		_, err = s.NetRank(ctx, "g", "dave")
		assert.True(t, errors.Is(err, ErrNotFound), "a member with no round has no rank: %v", err)
	})
}

// Stats is one query over the member's own rows through the index, never a scan.
func TestStatsQueryUsesTheIndex(t *testing.T) {
	s := openTest(t)
	rows, err := s.r.Query(`EXPLAIN QUERY PLAN `+statsQuery, "g", "m")
	require.NoError(t, err)
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, notused int
		var detail string
		require.NoError(t, rows.Scan(&id, &parent, &notused, &detail))
		plan = append(plan, detail)
	}
	require.NoError(t, rows.Err())
	joined := strings.Join(plan, "; ")
	assert.Contains(t, joined, "SEARCH round_results USING INDEX round_results_member (guild_id=? AND member_id=?)", joined)
	assert.NotContains(t, joined, "SCAN", joined)
}

// A member's language is kept per server; "" forgets it.
func TestMemberLanguage(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		ctx := context.Background()
		got, err := s.MemberLanguage(ctx, "g", "m")
		require.NoError(t, err)
		assert.Equal(t, "", got, "no choice yet")
		require.NoError(t, s.SetMemberLanguage(ctx, "g", "m", "su", t0))
		require.NoError(t, s.SetMemberLanguage(ctx, "g", "m", "pl", t0))
		got, err = s.MemberLanguage(ctx, "g", "m")
		require.NoError(t, err)
		assert.Equal(t, "pl", got, "the last choice counts")
		other, err := s.MemberLanguage(ctx, "g2", "m")
		require.NoError(t, err)
		assert.Equal(t, "", other, "per server")
		require.NoError(t, s.SetMemberLanguage(ctx, "g", "m", "", t0))
		got, err = s.MemberLanguage(ctx, "g", "m")
		require.NoError(t, err)
		assert.Equal(t, "", got, "cleared")
		assert.Error(t, s.SetMemberLanguage(ctx, "", "m", "su", t0), "a guild is required")
	})
}

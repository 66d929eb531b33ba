package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEnsureWallet(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)

		w, created, err := s.EnsureWallet(ctx, "g", "alice", 1000, t0)
		require.NoError(t, err)
		assert.True(t, created)
		assert.Equal(t, Wallet{Guild: "g", Member: "alice", Balance: 1000, FirstSeen: t0}, w)

		// Second sight: nothing minted, first sight kept.
		w, created, err = s.EnsureWallet(ctx, "g", "alice", 5000, t0.Add(time.Hour))
		require.NoError(t, err)
		assert.False(t, created)
		assert.EqualValues(t, 1000, w.Balance)
		assert.Equal(t, t0, w.FirstSeen)

		// Same member in another guild is another wallet.
		w, created, err = s.EnsureWallet(ctx, "h", "alice", 0, t0)
		require.NoError(t, err)
		assert.True(t, created)
		assert.Zero(t, w.Balance)

		assert.EqualValues(t, -1000, balanceOf(t, s, "g", MintAccount))
		assert.Equal(t, 1, count(t, s, "ledger"), "starting chips are one ledger row; zero starting chips none")

		_, _, err = s.EnsureWallet(ctx, "g", "bob", -1, t0)
		assert.ErrorIs(t, err, ErrBadAmount)
		_, _, err = s.EnsureWallet(ctx, "", "bob", 1, t0)
		assert.ErrorIs(t, err, ErrInvalid)
		_, _, err = s.EnsureWallet(ctx, "g", "bob", 1, time.Time{})
		assert.ErrorIs(t, err, ErrInvalid)
		_, _, err = s.EnsureWallet(ctx, "g", "bob", MaxChips+1, t0)
		assert.ErrorIs(t, err, ErrOverflow)
		_, err = s.Wallet(ctx, "g", "bob")
		assert.ErrorIs(t, err, ErrNotFound, "a failed EnsureWallet leaves no wallet")
	})
}

func TestWalletNotFound(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		s := bk.open(t)
		_, err := s.Wallet(context.Background(), "g", "nobody")
		var nf *NotFoundError
		require.ErrorAs(t, err, &nf)
		assert.Equal(t, &NotFoundError{What: "wallet", Key: "nobody"}, nf)
		assert.ErrorIs(t, err, ErrNotFound)
	})
}

func TestClaimDaily(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		wallets(t, s, "g", 100, "alice")

		w, err := s.ClaimDaily(ctx, "g", "alice", 200, 24*time.Hour, t0)
		require.NoError(t, err)
		assert.EqualValues(t, 300, w.Balance)
		assert.Equal(t, t0, w.DailyClaimedAt)

		_, err = s.ClaimDaily(ctx, "g", "alice", 200, 24*time.Hour, t0.Add(24*time.Hour-time.Nanosecond))
		var cd *CooldownError
		require.ErrorAs(t, err, &cd)
		assert.ErrorIs(t, err, ErrCooldown)
		assert.Equal(t, t0.Add(24*time.Hour), cd.Next)

		w, err = s.ClaimDaily(ctx, "g", "alice", 200, 24*time.Hour, t0.Add(24*time.Hour))
		require.NoError(t, err)
		assert.EqualValues(t, 500, w.Balance)

		_, err = s.ClaimDaily(ctx, "g", "bob", 200, time.Hour, t0)
		assert.ErrorIs(t, err, ErrNotFound)
		_, err = s.ClaimDaily(ctx, "g", "alice", 0, time.Hour, t0.Add(48*time.Hour))
		assert.ErrorIs(t, err, ErrBadAmount)

		var reasons []string
		rows, err := s.r.Query(`SELECT reason FROM ledger ORDER BY id`)
		require.NoError(t, err)
		for rows.Next() {
			var r string
			require.NoError(t, rows.Scan(&r))
			reasons = append(reasons, r)
		}
		require.NoError(t, rows.Err())
		assert.Equal(t, []string{"starting chips", "daily", "daily"}, reasons)
	})
}

func TestGive(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		wallets(t, s, "g", 100, "alice", "bob")

		a, b, err := s.Give(ctx, "g", "alice", "bob", 30, 0, t0)
		require.NoError(t, err)
		assert.EqualValues(t, 70, a.Balance)
		assert.EqualValues(t, 130, b.Balance)

		_, _, err = s.Give(ctx, "g", "alice", "alice", 1, 0, t0)
		assert.ErrorIs(t, err, ErrSelfTransfer)
		for _, amount := range []int64{0, -5} {
			_, _, err = s.Give(ctx, "g", "alice", "bob", amount, 0, t0)
			assert.ErrorIs(t, err, ErrBadAmount)
		}
		_, _, err = s.Give(ctx, "g", "alice", "bob", 71, 0, t0)
		var ins *InsufficientChipsError
		require.ErrorAs(t, err, &ins)
		assert.Equal(t, &InsufficientChipsError{Account: "wallet:alice", Need: 71, Have: 70}, ins)
		assert.ErrorIs(t, err, ErrInsufficientChips)

		_, _, err = s.Give(ctx, "g", "carol", "bob", 1, 0, t0)
		assert.ErrorIs(t, err, ErrNotFound, "unknown giver")
		_, _, err = s.Give(ctx, "g", "alice", "carol", 1, 0, t0)
		var nf *NotFoundError
		require.ErrorAs(t, err, &nf, "unknown receiver")
		assert.Equal(t, "carol", nf.Key)
		_, _, err = s.Give(ctx, "other-guild", "alice", "bob", 1, 0, t0)
		assert.ErrorIs(t, err, ErrNotFound, "wallets are per guild")

		assert.EqualValues(t, 70, balanceOf(t, s, "g", "wallet:alice"))
		assert.EqualValues(t, 130, balanceOf(t, s, "g", "wallet:bob"))
	})
}

func TestGrant(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		wallets(t, s, "g", 0, "alice")

		w, err := s.Grant(ctx, "g", "admin", "alice", 500, t0)
		require.NoError(t, err)
		assert.EqualValues(t, 500, w.Balance)
		var reason string
		require.NoError(t, s.r.QueryRow(`SELECT reason FROM ledger`).Scan(&reason))
		assert.Equal(t, "grant by admin", reason)

		_, err = s.Grant(ctx, "g", "admin", "nobody", 5, t0)
		assert.ErrorIs(t, err, ErrNotFound)
		_, err = s.Grant(ctx, "g", "admin", "alice", 0, t0)
		assert.ErrorIs(t, err, ErrBadAmount)

		// The per-account cap.
		_, err = s.Grant(ctx, "g", "admin", "alice", MaxChips-500, t0)
		require.NoError(t, err)
		_, err = s.Grant(ctx, "g", "admin", "alice", 1, t0)
		var of *OverflowError
		require.ErrorAs(t, err, &of)
		assert.Equal(t, &OverflowError{Account: "wallet:alice", Balance: MaxChips, Amount: 1, Max: MaxChips}, of)
		assert.EqualValues(t, MaxChips, balanceOf(t, s, "g", "wallet:alice"))
	})
}

func TestLeaderboardAndRank(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		// Seen in this order; balances with ties.
		members := []struct {
			id      string
			balance int64
		}{{"m5", 300}, {"m1", 100}, {"m3", 300}, {"m2", 100}, {"m4", 500}, {"m0", 100}}
		for i, m := range members {
			_, _, err := s.EnsureWallet(ctx, "g", m.id, m.balance, t0.Add(time.Duration(i)*time.Minute))
			require.NoError(t, err)
		}
		// m0 and m2 are seen at the same moment: the member id breaks the tie.
		_, err := s.w.Exec(`UPDATE wallets SET first_seen = (SELECT first_seen FROM wallets WHERE member_id = 'm2') WHERE member_id = 'm0'`)
		require.NoError(t, err)
		wallets(t, s, "other", 1000, "x")

		want := []string{"m4", "m5", "m3", "m1", "m0", "m2"}
		page, total, err := s.Leaderboard(ctx, "g", 0, 10)
		require.NoError(t, err)
		assert.Equal(t, 6, total)
		require.Len(t, page, 6)
		for i, st := range page {
			assert.Equal(t, want[i], st.Member, "rank %d", i+1)
			assert.Equal(t, i+1, st.Rank)
			r, err := s.Rank(ctx, "g", st.Member)
			require.NoError(t, err)
			assert.Equal(t, st, r, "Rank agrees with Leaderboard")
		}

		// Paging returns the same order in slices.
		var paged []string
		for off := 0; off < total; off += 4 {
			page, total2, err := s.Leaderboard(ctx, "g", off, 4)
			require.NoError(t, err)
			assert.Equal(t, total, total2)
			for _, st := range page {
				paged = append(paged, st.Member)
				assert.Equal(t, len(paged), st.Rank)
			}
		}
		assert.Equal(t, want, paged)

		page, _, err = s.Leaderboard(ctx, "g", 10, 5)
		require.NoError(t, err)
		assert.Empty(t, page)
		_, _, err = s.Leaderboard(ctx, "g", 0, 0)
		assert.ErrorIs(t, err, ErrInvalid)
		_, _, err = s.Leaderboard(ctx, "g", -1, 5)
		assert.ErrorIs(t, err, ErrInvalid)
		page, total, err = s.Leaderboard(ctx, "empty", 0, 5)
		require.NoError(t, err)
		assert.Zero(t, total)
		assert.Empty(t, page)

		_, err = s.Rank(ctx, "g", "x")
		assert.True(t, errors.Is(err, ErrNotFound), "x plays in another guild")

		// Chips in play do not count: a stake moves m4 below m5 and m3.
		tb, r := openTableWithRound(t, s, "g", "c", "m4", "m5")
		require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 1, Member: "m4", Verb: "stake", Args: "250", Now: t0,
			Transfers: []Transfer{{From: WalletAccount("m4"), To: EscrowAccount(tb.ID, "m4"), Amount: 250}}}))
		st, err := s.Rank(ctx, "g", "m4")
		require.NoError(t, err)
		assert.Equal(t, 3, st.Rank)
		assert.EqualValues(t, 250, st.Balance)
	})
}

package store

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// DealRound is one transaction: when its Start refuses, neither the cut's change of
// bank, nor its kitty return, nor a new wallet is left behind; when it succeeds, all of
// them and the round are there, Start having seen the balances after the bank's change.
func TestDealRoundIsOneTransaction(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		ctx := context.Background()
		wallets(t, s, "g", 1000, "ann", "bob")
		tb, err := s.OpenTable(ctx, OpenTableParams{Guild: "g", Channel: "c", Host: "ann", Rules: `{"variant":"shoot"}`, BankOwner: "ann", Now: t0})
		require.NoError(t, err)
		require.NoError(t, s.SetSeats(ctx, tb.ID, []string{"bob", "cat"}, t0))
		require.NoError(t, s.UpdateBank(ctx, BankParams{TableID: tb.ID, Transfers: []Transfer{{From: WalletAccount("ann"), To: KittyAccount(tb.ID), Amount: 100}}, Now: t0}))
		bob := "bob"
		p := DealParams{TableID: tb.ID, Number: 1, Members: []string{"bob", "cat"}, Starting: 500, BankOwner: &bob,
			BankTransfers: []Transfer{{From: KittyAccount(tb.ID), To: WalletAccount("ann"), Amount: 100, Reason: "kitty return (R6.4)"}},
			BankReason:    "cut (R1.4)", Now: t0}

		refused := errors.New("refused")
		p.Start = func(map[string]int64, int64) (StartRoundParams, error) { return StartRoundParams{}, refused }
		_, err = s.DealRound(ctx, p)
		require.ErrorIs(t, err, refused)
		got, err := s.TableByID(ctx, tb.ID)
		require.NoError(t, err)
		assert.Equal(t, "ann", got.BankOwner, "the cut's owner was not kept")
		assert.Equal(t, int64(100), balanceOf(t, s, "g", KittyAccount(tb.ID)), "the kitty did not move")
		_, err = s.Wallet(ctx, "g", "cat")
		assert.ErrorIs(t, err, ErrNotFound, "cat's wallet was not created")
		assert.Zero(t, count(t, s, "rounds"))

		var seen map[string]int64
		var kitty int64
		p.Start = func(bal map[string]int64, k int64) (StartRoundParams, error) {
			seen, kitty = bal, k
			return StartRoundParams{History: `{"format":"pontoon-history/1"}`, Commitment: "c0ffee", Salt: "salt"}, nil
		}
		r, err := s.DealRound(ctx, p)
		require.NoError(t, err)
		assert.Equal(t, 1, r.Number)
		assert.Equal(t, map[string]int64{"bob": 1000, "cat": 500}, seen, "Start sees the wallets, cat's new one included")
		assert.Zero(t, kitty, "and the kitty after its return")
		got, err = s.TableByID(ctx, tb.ID)
		require.NoError(t, err)
		assert.Equal(t, "bob", got.BankOwner)
		assert.Equal(t, 1, got.RoundNumber)
		assert.Equal(t, int64(1000), balanceOf(t, s, "g", WalletAccount("ann")), "ann has her kitty back")

		_, err = s.DealRound(ctx, p)
		assert.ErrorIs(t, err, ErrRoundInProgress, "a second deal while the round is in play is refused")
	})
}

// ResolveBroken returns every escrow of the table's unfinished round to its owner with
// its own reason, finishes the round as void and closes the table, in one transaction.
func TestResolveBroken(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		ctx := context.Background()
		wallets(t, s, "g", 1000, "ann", "bob")
		tb, r := openTableWithRound(t, s, "g", "c", "ann", "bob")
		require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 1, Member: "bob", Verb: "stake", Args: "10", Now: t0,
			Transfers: []Transfer{{From: WalletAccount("bob"), To: EscrowAccount(tb.ID, "bob"), Amount: 20}}}))
		require.Equal(t, int64(980), balanceOf(t, s, "g", WalletAccount("bob")))

		require.NoError(t, s.ResolveBroken(ctx, tb.ID, t0))
		assert.ErrorIs(t, s.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 2, Member: "bob", Verb: "stick", Now: t0}),
			ErrRoundFinished, "the void round takes no more actions")
		assert.Equal(t, int64(1000), balanceOf(t, s, "g", WalletAccount("bob")))
		assert.Zero(t, balanceOf(t, s, "g", EscrowAccount(tb.ID, "bob")))
		var reason string
		require.NoError(t, s.r.QueryRow(`SELECT reason FROM ledger WHERE from_account = ? ORDER BY id DESC LIMIT 1`, EscrowAccount(tb.ID, "bob")).Scan(&reason))
		assert.Equal(t, VoidRoundReason, reason)
		got, err := s.TableByID(ctx, tb.ID)
		require.NoError(t, err)
		assert.Equal(t, StatusClosed, got.Status)
		rd, err := s.Round(ctx, tb.ID, 1)
		require.NoError(t, err)
		assert.True(t, rd.Finished(), "the void round is finished")
		requireAudit(t, s)
	})
}

// The tables a restart must look at: those without a message and those whose stop was
// asked for; Ahead counts who holds more, so equal balances share a rank.
func TestRestartListsAndAhead(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		s := bk.open(t)
		ctx := context.Background()
		wallets(t, s, "g", 1000, "ann", "bob", "cat")
		a, err := s.OpenTable(ctx, OpenTableParams{Guild: "g", Channel: "c1", Host: "ann", Rules: `{}`, Now: t0})
		require.NoError(t, err)
		b, err := s.OpenTable(ctx, OpenTableParams{Guild: "g", Channel: "c2", Host: "ann", Rules: `{}`, Now: t0})
		require.NoError(t, err)
		require.NoError(t, s.SetTableMessage(ctx, a.ID, "m1"))
		un, err := s.UnpostedTables(ctx)
		require.NoError(t, err)
		require.Len(t, un, 1)
		assert.Equal(t, b.ID, un[0].ID)

		require.NoError(t, s.SetStopping(ctx, a.ID, true))
		require.NoError(t, s.SetStopping(ctx, a.ID, true)) // asking twice is asking once
		stopping, err := s.Stopping(ctx, a.ID)
		require.NoError(t, err)
		assert.True(t, stopping)
		st, err := s.StoppingTables(ctx)
		require.NoError(t, err)
		require.Len(t, st, 1)
		assert.Equal(t, a.ID, st[0].ID)
		require.NoError(t, s.SetStopping(ctx, a.ID, false))
		st, err = s.StoppingTables(ctx)
		require.NoError(t, err)
		assert.Empty(t, st)

		_, err = s.Grant(ctx, "g", "admin", "cat", 5, t0)
		require.NoError(t, err)
		n, err := s.Ahead(ctx, "g", 1000)
		require.NoError(t, err)
		assert.Equal(t, 1, n, "only cat holds more than 1000")
		n, err = s.Ahead(ctx, "g", 1005)
		require.NoError(t, err)
		assert.Zero(t, n)
	})
}

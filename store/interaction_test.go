package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// delivery is one delivery of interaction id: a context of its own, as the bot makes
// for each event it receives, a redelivery included.
func delivery(id string) context.Context {
	return WithInteraction(context.Background(), id, t0)
}

func TestARedeliveredGiftMovesChipsOnce(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		s := bk.open(t)
		wallets(t, s, "g", 1000, "ann", "ben")
		_, _, err := s.Give(delivery("i1"), "g", "ann", "ben", 100, 0, t0)
		require.NoError(t, err)
		_, _, err = s.Give(delivery("i1"), "g", "ann", "ben", 100, 0, t0)
		assert.ErrorIs(t, err, ErrDuplicateInteraction)
		assert.EqualValues(t, 900, balanceOf(t, s, "g", WalletAccount("ann")))
		assert.EqualValues(t, 1100, balanceOf(t, s, "g", WalletAccount("ben")))
	})
}

func TestARedeliveredDailyClaimPaysOnce(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		s := bk.open(t)
		wallets(t, s, "g", 1000, "ann")
		// No cooldown, so that only the interaction's record can refuse the second.
		_, err := s.ClaimDaily(delivery("d1"), "g", "ann", 200, 0, t0)
		require.NoError(t, err)
		_, err = s.ClaimDaily(delivery("d1"), "g", "ann", 200, 0, t0.Add(time.Second))
		assert.ErrorIs(t, err, ErrDuplicateInteraction)
		assert.EqualValues(t, 1200, balanceOf(t, s, "g", WalletAccount("ann")))
	})
}

func TestARedeliveredGrantMintsOnce(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		s := bk.open(t)
		wallets(t, s, "g", 1000, "ann")
		_, err := s.Grant(delivery("g1"), "g", "admin", "ann", 50, t0)
		require.NoError(t, err)
		_, err = s.Grant(delivery("g1"), "g", "admin", "ann", 50, t0)
		assert.ErrorIs(t, err, ErrDuplicateInteraction)
		assert.EqualValues(t, 1050, balanceOf(t, s, "g", WalletAccount("ann")))
	})
}

func TestARedeliveredMemberSeedIsAddedOnce(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		s := bk.open(t)
		ctx := context.Background()
		wallets(t, s, "g", 1000, "ann", "ben")
		tb, err := s.OpenTable(ctx, OpenTableParams{Guild: "g", Channel: "c", Host: "ann", Rules: `{"variant":"classic"}`, Now: t0})
		require.NoError(t, err)
		seed, err := s.CommitSeed(ctx, tb.ID, seedOf('a'), t0)
		require.NoError(t, err)
		n, err := s.AddMemberSeed(delivery("s1"), tb.ID, seed.Commitment, "ben", "hello", 5, t0)
		require.NoError(t, err)
		assert.Equal(t, 1, n)
		_, err = s.AddMemberSeed(delivery("s1"), tb.ID, seed.Commitment, "ann", "hello", 5, t0)
		assert.ErrorIs(t, err, ErrDuplicateInteraction, "the same interaction, whatever it carries")
		p, _, err := s.PendingSeed(ctx, tb.ID)
		require.NoError(t, err)
		assert.Len(t, p.MemberSeeds, 1)
	})
}

func TestAGiftRedeliveredAfterARestartMovesNothing(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		loc := bk.location(t)
		s, err := Open(context.Background(), loc)
		require.NoError(t, err)
		wallets(t, s, "g", 1000, "ann", "ben")
		_, _, err = s.Give(delivery("i1"), "g", "ann", "ben", 100, 0, t0)
		require.NoError(t, err)
		require.NoError(t, s.Close())

		s, err = Open(context.Background(), loc)
		require.NoError(t, err)
		defer s.Close()
		_, _, err = s.Give(delivery("i1"), "g", "ann", "ben", 100, 0, t0)
		assert.ErrorIs(t, err, ErrDuplicateInteraction)
		assert.EqualValues(t, 900, balanceOf(t, s, "g", WalletAccount("ann")))
		applied, err := s.InteractionApplied(context.Background(), "i1", 0, 0)
		require.NoError(t, err)
		assert.True(t, applied)
	})
}

func TestAnInteractionWhoseWriteFailsIsNotRecorded(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		s := bk.open(t)
		wallets(t, s, "g", 100, "ann", "ben")
		ctx := delivery("i1")
		_, _, err := s.Give(ctx, "g", "ann", "ben", 500, 0, t0)
		require.ErrorIs(t, err, ErrInsufficientChips)
		assert.False(t, Applied(ctx))
		applied, err := s.InteractionApplied(context.Background(), "i1", 0, 0)
		require.NoError(t, err)
		assert.False(t, applied, "the refused gift rolled its record back")
		_, _, err = s.Give(delivery("i1"), "g", "ann", "ben", 50, 0, t0)
		assert.NoError(t, err, "a later delivery of it is applied")
	})
}

func TestOneDeliveryMayWriteSeveralTimes(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		s := bk.open(t)
		ctx := delivery("i1")
		// EnsureWallet is what the gift needs, not the gift: it records nothing, so a
		// delivery cut short after it is still applied when it comes again.
		_, created, err := s.EnsureWallet(ctx, "g", "ann", 1000, t0)
		require.NoError(t, err)
		require.True(t, created)
		assert.False(t, Applied(ctx))
		wallets(t, s, "g", 1000, "ben")
		_, _, err = s.Give(ctx, "g", "ann", "ben", 10, 0, t0)
		require.NoError(t, err)
		assert.True(t, Applied(ctx))
		// A second effect of the same delivery goes on: it is no duplicate of itself.
		_, _, err = s.Give(ctx, "g", "ann", "ben", 10, 0, t0)
		require.NoError(t, err)
		assert.EqualValues(t, 980, balanceOf(t, s, "g", WalletAccount("ann")))
	})
}

func TestConcurrentDeliveriesOfOneInteractionApplyOnce(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		s := bk.open(t)
		wallets(t, s, "g", 1000, "ann", "ben")
		const n = 16
		errs := atOnce(n, func(int) error {
			_, _, err := s.Give(delivery("i1"), "g", "ann", "ben", 10, 0, t0)
			return err
		})
		ok := 0
		for _, err := range errs {
			if err == nil {
				ok++
			} else {
				assert.ErrorIs(t, err, ErrDuplicateInteraction)
			}
		}
		assert.Equal(t, 1, ok)
		assert.EqualValues(t, 990, balanceOf(t, s, "g", WalletAccount("ann")))
	})
}

func TestInteractionsAreForgottenByAge(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		s := bk.open(t)
		ctx := context.Background()
		require.NoError(t, s.SetGuildSettings(WithInteraction(ctx, "a", t0), "g", `{}`, t0))
		require.NoError(t, s.SetGuildSettings(WithInteraction(ctx, "b", t0.Add(10*time.Minute)), "g", `{}`, t0))
		_, err := s.InteractionApplied(ctx, "", 0, 0)
		assert.ErrorIs(t, err, ErrInvalid)

		n, err := s.PruneInteractions(ctx, t0.Add(20*time.Minute), 15*time.Minute)
		require.NoError(t, err)
		assert.EqualValues(t, 1, n, "a is older than 15 minutes, b is not")
		for id, want := range map[string]bool{"a": false, "b": true} {
			applied, err := s.InteractionApplied(ctx, id, 0, 0)
			require.NoError(t, err)
			assert.Equal(t, want, applied, id)
		}
		err = s.SetGuildSettings(WithInteraction(ctx, "b", t0.Add(21*time.Minute)), "g", `{}`, t0)
		assert.True(t, errors.Is(err, ErrDuplicateInteraction))
	})
}

func TestAnActionRecordsItsInteractionInItsOwnRow(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		s := bk.open(t)
		wallets(t, s, "g", 1000, "ann", "bob")
		tb, r := openTableWithRound(t, s, "g", "c", "ann", "bob")
		ctx := delivery("a1")
		require.NoError(t, s.ApplyAction(ctx, stake(tb, r, 1, "a1", 10)))
		assert.True(t, Applied(ctx))
		assert.Equal(t, 0, count(t, s, "interactions"), "the action's row is the record")
		// A later write of the same delivery is no duplicate of it.
		require.NoError(t, s.SetGuildSettings(ctx, "g", `{}`, t0))

		err := s.ApplyAction(delivery("a1"), stake(tb, r, 2, "a1", 10))
		assert.ErrorIs(t, err, ErrDuplicateInteraction)
		applied, err := s.InteractionApplied(context.Background(), "a1", tb.ID, r.Number)
		require.NoError(t, err)
		assert.True(t, applied, "found in the round the click names")
		applied, err = s.InteractionApplied(context.Background(), "a1", tb.ID, r.Number+1)
		require.NoError(t, err)
		assert.False(t, applied)
	})
}

func TestARedeliveredKittyAndBankSaleMoveChipsOnce(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		s := bk.open(t)
		wallets(t, s, "g", 1000, "ann", "ben")
		tb, err := s.OpenTable(context.Background(), OpenTableParams{Guild: "g", Channel: "c", Host: "ann", BankOwner: "ann",
			Rules: `{"variant":"classic"}`, Now: t0})
		require.NoError(t, err)
		kitty := BankParams{TableID: tb.ID, Reason: "kitty", Now: t0,
			Transfers: []Transfer{{From: WalletAccount("ann"), To: KittyAccount(tb.ID), Amount: 150}}}
		require.NoError(t, s.UpdateBank(delivery("k1"), kitty))
		assert.ErrorIs(t, s.UpdateBank(delivery("k1"), kitty), ErrDuplicateInteraction)
		assert.EqualValues(t, 150, balanceOf(t, s, "g", KittyAccount(tb.ID)))

		ben := "ben"
		sale := BankParams{TableID: tb.ID, BankOwner: &ben, Reason: "bank sale", Now: t0,
			Transfers: []Transfer{{From: WalletAccount("ben"), To: WalletAccount("ann"), Amount: 300}}}
		require.NoError(t, s.UpdateBank(delivery("s1"), sale))
		assert.ErrorIs(t, s.UpdateBank(delivery("s1"), sale), ErrDuplicateInteraction)
		assert.EqualValues(t, 700, balanceOf(t, s, "g", WalletAccount("ben")), "the bank was paid for once")
	})
}

// Deliveries of one interaction at once, some of whose writes fail after recording it
// (on SQLite, bodies of one group commit, each rolled back to its savepoint): a failed
// write leaves no record behind, so one delivery that succeeds is applied, once.
func TestAFailedDeliveryAmongConcurrentOnesLeavesNoRecord(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		s := bk.open(t)
		wallets(t, s, "g", 1000, "ann", "ben")
		const n = 16
		errs := atOnce(n, func(i int) error {
			amount := int64(10)
			if i%2 == 0 {
				amount = 5000 // more than ann holds: refused after the record
			}
			_, _, err := s.Give(delivery("i1"), "g", "ann", "ben", amount, 0, t0)
			return err
		})
		ok := 0
		for i, err := range errs {
			switch {
			case err == nil:
				ok++
				assert.Equal(t, 1, i%2, "only a gift ann can pay succeeds")
			case errors.Is(err, ErrInsufficientChips), errors.Is(err, ErrDuplicateInteraction):
			default:
				t.Errorf("delivery %d: %v", i, err)
			}
		}
		assert.Equal(t, 1, ok, "one delivery applied")
		assert.EqualValues(t, 990, balanceOf(t, s, "g", WalletAccount("ann")))
	})
}

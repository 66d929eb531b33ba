package store

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bankTable opens a table banked by alice, with wallets of 1,000 for alice, bob and
// carol.
func bankTable(t *testing.T, s *Store) Table {
	t.Helper()
	wallets(t, s, "g", 1000, "alice", "bob", "carol")
	tb, err := s.OpenTable(context.Background(), OpenTableParams{Guild: "g", Channel: "c", Host: "alice", BankOwner: "alice", Now: t0})
	require.NoError(t, err)
	return tb
}

// An offer and its expiry deadline are written together; a newer offer replaces it and
// its deadline; the sale that accepts an offer ends it in its own transaction, so a
// second acceptance (another process's, a double click) is refused and moves nothing;
// a declined or expired offer ends once.
func TestBankOffers(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		ctx := context.Background()
		tb := bankTable(t, s)
		deadlines := func() []Deadline {
			t.Helper()
			ds, err := s.Deadlines(ctx, tb.ID)
			require.NoError(t, err)
			return ds
		}
		exp := t0.Add(2 * time.Minute)
		first := BankOffer{ID: "o1", TableID: tb.ID, Channel: "c", Seller: "alice", Buyer: "carol", Price: 10, Expires: exp}
		replaced, err := s.OpenOffer(ctx, first)
		require.NoError(t, err)
		require.Empty(t, replaced)
		require.Equal(t, []Deadline{{TableID: tb.ID, Kind: DeadlineOffer, Ref: "o1", Due: exp}}, deadlines())

		second := BankOffer{ID: "o2", TableID: tb.ID, Channel: "c", Seller: "alice", Buyer: "bob", Price: 40, Expires: exp.Add(time.Minute)}
		replaced, err = s.OpenOffer(ctx, second)
		require.NoError(t, err)
		require.Len(t, replaced, 1)
		assert.Equal(t, "o1", replaced[0].ID)
		assert.Equal(t, OfferReplaced, replaced[0].Status)
		require.Equal(t, []Deadline{{TableID: tb.ID, Kind: DeadlineOffer, Ref: "o2", Due: exp.Add(time.Minute)}}, deadlines(),
			"the replaced offer's deadline went with it")
		require.NoError(t, s.SetOfferMessage(ctx, "o2", "m2"))
		got, err := s.Offer(ctx, "o2")
		require.NoError(t, err)
		second.Guild, second.MessageID, second.Status = "g", "m2", OfferOpen
		assert.Equal(t, second, got)
		_, err = s.Offer(ctx, "nope")
		assert.ErrorIs(t, err, ErrNotFound)

		_, err = s.EndOffer(ctx, "o1", OfferDeclined)
		assert.ErrorIs(t, err, ErrOfferEnded, "a replaced offer is not answered")

		bob := "bob"
		sale := BankParams{TableID: tb.ID, BankOwner: &bob, Offer: "o2", Now: t0.Add(time.Minute),
			Transfers: []Transfer{{From: WalletAccount("bob"), To: WalletAccount("alice"), Amount: 40}}}
		// Two processes accept at once: one sale.
		errs := atOnce(2, func(int) error { return s.UpdateBank(ctx, sale) })
		ok := 0
		for _, err := range errs {
			if err == nil {
				ok++
			} else {
				assert.ErrorIs(t, err, ErrOfferEnded)
			}
		}
		require.Equal(t, 1, ok, "one acceptance sells: %v", errs)
		assert.EqualValues(t, 1040, balanceOf(t, s, "g", WalletAccount("alice")))
		assert.EqualValues(t, 960, balanceOf(t, s, "g", WalletAccount("bob")))
		got, err = s.Offer(ctx, "o2")
		require.NoError(t, err)
		assert.Equal(t, OfferAccepted, got.Status)
		assert.Empty(t, deadlines(), "an accepted offer's deadline goes with the sale")
		_, err = s.EndOffer(ctx, "o2", OfferExpired)
		assert.ErrorIs(t, err, ErrOfferEnded, "an accepted offer does not expire")

		third := BankOffer{ID: "o3", TableID: tb.ID, Channel: "c", Seller: "bob", Buyer: "alice", Price: 5, Expires: exp}
		_, err = s.OpenOffer(ctx, third)
		require.NoError(t, err)
		ended, err := s.EndOffer(ctx, "o3", OfferExpired)
		require.NoError(t, err)
		assert.Equal(t, OfferExpired, ended.Status)
		_, err = s.EndOffer(ctx, "o3", OfferExpired)
		assert.ErrorIs(t, err, ErrOfferEnded, "an offer expires once")
		assert.Empty(t, deadlines())

		// Ended offers (R6.3) are pruned a while after their expiry; an open one never is.
		fourth := BankOffer{ID: "o4", TableID: tb.ID, Channel: "c", Seller: "bob", Buyer: "carol", Price: 5, Expires: exp}
		_, err = s.OpenOffer(ctx, fourth)
		require.NoError(t, err)
		n, err := s.PruneOffers(ctx, exp.Add(30*time.Minute), time.Hour)
		require.NoError(t, err)
		assert.Zero(t, n, "nothing ended an hour before")
		n, err = s.PruneOffers(ctx, exp.Add(time.Hour+30*time.Second), time.Hour)
		require.NoError(t, err)
		assert.EqualValues(t, 2, n, "o1 (replaced) and o3 (expired); o2 (accepted) expires a minute later")
		n, err = s.PruneOffers(ctx, exp.Add(2*time.Hour), time.Hour)
		require.NoError(t, err)
		assert.EqualValues(t, 1, n, "o2")
		_, err = s.Offer(ctx, "o3")
		assert.ErrorIs(t, err, ErrNotFound)
		got, err = s.Offer(ctx, "o4")
		require.NoError(t, err)
		assert.Equal(t, OfferOpen, got.Status, "an open offer stays, however old")
		requireAudit(t, s)
	})
}

// An auction and its closing deadline are written together; bids are kept with it and
// refused when not above the highest or after the close; the sale that closes it (or
// the unsold close) deletes it, its bids and its deadline, once.
func TestBankAuctions(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		ctx := context.Background()
		tb := bankTable(t, s)
		ends := t0.Add(time.Minute)
		_, err := s.Auction(ctx, tb.ID)
		require.ErrorIs(t, err, ErrNoAuction)
		require.NoError(t, s.StartAuction(ctx, BankAuction{TableID: tb.ID, Channel: "c", Seller: "alice", Ends: ends}))
		require.ErrorIs(t, s.StartAuction(ctx, BankAuction{TableID: tb.ID, Channel: "c", Seller: "alice", Ends: ends}), ErrAuctionRunning)
		ds, err := s.Deadlines(ctx, tb.ID)
		require.NoError(t, err)
		require.Equal(t, []Deadline{{TableID: tb.ID, Kind: DeadlineAuction, Due: ends}}, ds)
		require.NoError(t, s.SetAuctionMessage(ctx, tb.ID, "m"))

		_, err = s.PlaceBid(ctx, tb.ID, "bob", 30, t0)
		require.NoError(t, err)
		_, err = s.PlaceBid(ctx, tb.ID, "carol", 30, t0)
		require.ErrorIs(t, err, ErrBidTooLow)
		a, err := s.PlaceBid(ctx, tb.ID, "carol", 45, ends)
		require.NoError(t, err)
		assert.Equal(t, BankAuction{TableID: tb.ID, Guild: "g", Channel: "c", Seller: "alice", MessageID: "m", Ends: ends,
			Bids: map[string]int64{"bob": 30, "carol": 45}}, a)
		_, err = s.PlaceBid(ctx, tb.ID, "bob", 50, ends.Add(time.Millisecond))
		require.ErrorIs(t, err, ErrNoAuction, "bids close at the end")
		read, err := s.Auction(ctx, tb.ID)
		require.NoError(t, err)
		assert.Equal(t, a, read)

		carol := "carol"
		sale := BankParams{TableID: tb.ID, BankOwner: &carol, Auction: true, Now: ends,
			Transfers: []Transfer{{From: WalletAccount("carol"), To: WalletAccount("alice"), Amount: 45}}}
		require.NoError(t, s.UpdateBank(ctx, sale))
		require.ErrorIs(t, s.UpdateBank(ctx, sale), ErrNoAuction, "an auction sells once")
		assert.EqualValues(t, 1045, balanceOf(t, s, "g", WalletAccount("alice")))
		_, err = s.Auction(ctx, tb.ID)
		require.ErrorIs(t, err, ErrNoAuction)
		ds, err = s.Deadlines(ctx, tb.ID)
		require.NoError(t, err)
		assert.Empty(t, ds)

		require.NoError(t, s.StartAuction(ctx, BankAuction{TableID: tb.ID, Channel: "c", Seller: "carol", Ends: ends}), "a new auction after the close")
		_, err = s.PlaceBid(ctx, tb.ID, "bob", 5, t0)
		require.NoError(t, err)
		un, err := s.EndAuction(ctx, tb.ID)
		require.NoError(t, err)
		assert.Equal(t, map[string]int64{"bob": 5}, un.Bids)
		_, err = s.EndAuction(ctx, tb.ID)
		require.ErrorIs(t, err, ErrNoAuction, "closed once")
		ds, err = s.Deadlines(ctx, tb.ID)
		require.NoError(t, err)
		assert.Empty(t, ds)
		requireAudit(t, s)
	})
}

// One claim takes the due deadlines of every kind (a poll is one transaction), or of one.
func TestClaimDeadlinesOfEveryKind(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		ctx := context.Background()
		tb, r := openTableWithRound(t, s, "g", "c", "alice", "bob")
		require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 1, Member: "bob", Verb: "stay", Now: t0, TurnDue: t0.Add(time.Second)}))
		other, err := s.OpenTable(ctx, OpenTableParams{Guild: "g", Channel: "c2", Host: "carol", BankOwner: "carol", Now: t0})
		require.NoError(t, err)
		_, err = s.OpenOffer(ctx, BankOffer{ID: "o1", TableID: other.ID, Channel: "c2", Seller: "carol", Buyer: "dave", Price: 1, Expires: t0.Add(2 * time.Second)})
		require.NoError(t, err)
		require.NoError(t, s.StartAuction(ctx, BankAuction{TableID: other.ID, Channel: "c2", Seller: "carol", Ends: t0.Add(3 * time.Second)}))

		ds, err := s.ClaimDeadlines(ctx, DeadlineOffer, "A", t0.Add(time.Minute), time.Minute, 10)
		require.NoError(t, err)
		require.Len(t, ds, 1)
		assert.Equal(t, Deadline{TableID: other.ID, Kind: DeadlineOffer, Ref: "o1", Due: t0.Add(2 * time.Second), ClaimedBy: "A",
			ClaimedUntil: t0.Add(2 * time.Minute)}, ds[0])
		ds, err = s.ClaimDeadlines(ctx, "", "B", t0.Add(time.Minute), time.Minute, 10)
		require.NoError(t, err)
		var got []string
		for _, d := range ds {
			got = append(got, d.Kind)
		}
		assert.Equal(t, []string{DeadlineTurn, DeadlineAuction}, got, "every kind due and unclaimed, earliest first")
		assert.Equal(t, tb.ID, ds[0].TableID)

		require.NoError(t, s.CloseTable(ctx, other.ID, t0.Add(time.Hour)))
		left, err := s.Deadlines(ctx, other.ID)
		require.NoError(t, err)
		assert.Len(t, left, 2, "a closed table's offer and auction still end (and edit their messages)")
	})
}

package table

import (
	"context"
	"errors"

	"github.com/pontoon-bot/pontoon/store"
)

// Bank offers and auctions of shared tables. Any process may receive the
// buyer's Accept or a bid, and the process that opened an offer or an auction may be
// gone when it ends; so they live in the store (store/bank.go), not in the Manager's
// maps, and each process answers from the store's copy under the table's lease. Their
// ends are store deadlines (kinds offer and auction) that the deadline poll claims
// like a turn's (deadlines.go). Each end is one store transaction that changes the
// offer or the auction only if it is still open: an acceptance is the sale's own
// transaction, so a second one (another process, a double click) sells nothing.

func offerOf(o store.BankOffer) Offer {
	return Offer{ID: o.ID, Table: o.TableID, Guild: o.Guild, Seller: o.Seller, Buyer: o.Buyer, Price: o.Price,
		Channel: o.Channel, MessageID: o.MessageID, Expires: o.Expires}
}

func auctionOf(a store.BankAuction) Auction {
	return Auction{Table: a.TableID, Guild: a.Guild, Seller: a.Seller, Bids: a.Bids, Channel: a.Channel,
		MessageID: a.MessageID, Ends: a.Ends}
}

// openSharedOffer records of with its expiry; the offer it replaces ends. t.mu is held.
func (m *Manager) openSharedOffer(ctx context.Context, of Offer) (Offer, error) {
	replaced, err := m.opt.Shared.OpenOffer(ctx, store.BankOffer{ID: of.ID, TableID: of.Table, Channel: of.Channel,
		Seller: of.Seller, Buyer: of.Buyer, Price: of.Price, Expires: of.Expires})
	if err != nil {
		return Offer{}, err
	}
	for _, o := range replaced {
		m.n.OfferEnded(offerOf(o), "offer.expired")
	}
	return of, nil
}

// storeOffers are the offers of shared tables, kept in the store: the sale's
// transaction ends the offer it accepts, and any replica's answer ends one once.
type storeOffers struct{ m *Manager }

func (b storeOffers) open(ctx context.Context, id string) (Offer, bool, error) {
	so, err := b.m.opt.Shared.Offer(ctx, id)
	if errors.Is(err, store.ErrNotFound) || err == nil && (so.Status != store.OfferOpen || b.m.now().After(so.Expires)) {
		return Offer{}, false, nil
	}
	if err != nil {
		return Offer{}, false, err
	}
	return offerOf(so), true, nil
}

func (b storeOffers) end(ctx context.Context, id, status string) (bool, error) {
	if _, err := b.m.opt.Shared.EndOffer(ctx, id, status); errors.Is(err, store.ErrOfferEnded) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	return true, nil
}

func (storeOffers) sale(id string) store.BankParams { return store.BankParams{Offer: id} }

func (storeOffers) sold(context.Context, string) {} // the sale's transaction ended it

// startSharedAuction records t's auction with its close. t.mu is held.
func (m *Manager) startSharedAuction(ctx context.Context, t *Table, member, channel string) (Auction, error) {
	a := store.BankAuction{TableID: t.id, Guild: t.guild, Channel: channel, Seller: member, Ends: m.now().Add(m.opt.BidWindow),
		Bids: map[string]int64{}}
	if err := m.opt.Shared.StartAuction(ctx, a); errors.Is(err, store.ErrAuctionRunning) {
		return Auction{}, Refuse("err.auction_running")
	} else if err != nil {
		return Auction{}, err
	}
	return auctionOf(a), nil
}

// bidShared is Bid on an auction kept in the store; balance is member's wallet. The
// auction is read before t.mu is taken (reads never wait under a table's lock); the
// table's lease keeps it as read, and PlaceBid checks it again in its transaction.
func (m *Manager) bidShared(ctx context.Context, t *Table, member string, amount, balance int64) (Auction, error) {
	sh := m.opt.Shared
	sa, err := sh.Auction(ctx, t.id)
	if errors.Is(err, store.ErrNoAuction) || err == nil && m.now().After(sa.Ends) {
		return Auction{}, Refuse("err.no_auction")
	}
	if err != nil {
		return Auction{}, err
	}
	a := auctionOf(sa)
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case member == a.Seller:
		return Auction{}, Refuse("err.bid_own_bank")
	case !t.seated(member):
		return Auction{}, Refuse("err.not_seated")
	}
	if _, best := a.Highest(); amount <= best {
		return Auction{}, Refuse("err.bid_too_low", "Count", best)
	}
	if balance < amount {
		return Auction{}, Refuse("err.store_insufficient", "Need", amount, "Have", balance)
	}
	sa, err = sh.PlaceBid(ctx, t.id, member, amount, m.now())
	switch {
	case errors.Is(err, store.ErrNoAuction):
		return Auction{}, Refuse("err.no_auction")
	case errors.Is(err, store.ErrBidTooLow):
		_, best := a.Highest()
		return Auction{}, Refuse("err.bid_too_low", "Count", best)
	case err != nil:
		return Auction{}, err
	}
	return auctionOf(sa), nil
}

// fireOffer expires offer d.Ref, claimed by this process, under its table's lease.
func (m *Manager) fireOffer(ctx context.Context, d store.Deadline) {
	release, ok := m.holdClaimed(ctx, d)
	if !ok {
		return
	}
	defer release()
	so, err := m.opt.Shared.EndOffer(ctx, d.Ref, store.OfferExpired)
	switch {
	case errors.Is(err, store.ErrOfferEnded):
		m.finish(ctx, d) // answered meanwhile
	case err != nil:
		m.log.Error("offer timer: offer not expired; the claim lapses and is tried again", "offer", d.Ref, "err", err)
	default:
		m.n.OfferEnded(offerOf(so), "offer.expired")
	}
}

// fireAuction closes table d.TableID's auction, claimed by this process, under the
// table's lease: the bank goes to the highest bidder who can still pay (R9.8).
func (m *Manager) fireAuction(ctx context.Context, d store.Deadline) {
	sh := m.opt.Shared
	release, ok := m.holdClaimed(ctx, d)
	if !ok {
		return
	}
	defer release()
	sa, err := sh.Auction(ctx, d.TableID)
	if errors.Is(err, store.ErrNoAuction) {
		m.finish(ctx, d)
		return
	}
	if err != nil {
		m.log.Error("auction timer: auction not read; the claim lapses and is tried again", "table", d.TableID, "err", err)
		return
	}
	a := auctionOf(sa)
	t, err := m.Get(ctx, d.TableID)
	var r *Refusal
	if errors.As(err, &r) {
		m.endAuction(ctx, a) // the table closed: nothing to sell
		return
	}
	if err != nil {
		m.log.Error("auction timer: table not loaded; the claim lapses and is tried again", "table", d.TableID, "err", err)
		return
	}
	bal, err := t.wallets(ctx, a.people()...)
	if err != nil {
		m.log.Error("auction timer: balances not read; the claim lapses and is tried again", "table", d.TableID, "err", err)
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	sold, err := t.sellToBest(ctx, bal, &a, store.BankParams{Auction: true})
	switch {
	case sold:
		m.n.AuctionChanged(a, "auction.closed")
	case err == nil:
		m.endAuction(ctx, a)
	} // else closed meanwhile, by the transaction that closed it
}

// endAuction closes auction a unsold, once, and has its message say so.
func (m *Manager) endAuction(ctx context.Context, a Auction) {
	if _, err := m.opt.Shared.EndAuction(ctx, a.Table); errors.Is(err, store.ErrNoAuction) {
		return
	} else if err != nil {
		m.log.Error("auction timer: auction not closed; the claim lapses and is tried again", "table", a.Table, "err", err)
		return
	}
	m.n.AuctionChanged(a, "auction.unsold")
}

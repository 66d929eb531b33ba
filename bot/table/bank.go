package table

import (
	"context"
	"errors"
	"sort"
	"time"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
)

// Offer is a standing bank sale (R6.3). It lives in the store (store/bank.go) from the
// transaction that makes it to the one that ends it, in every deployment: any process
// may answer it, and it outlives a restart.
type Offer struct {
	ID        string
	Table     int64
	Guild     string
	Seller    string
	Buyer     string
	Price     int64
	Channel   string
	MessageID string
	Expires   time.Time
}

// OfferStore keeps the bank's standing offers (R6.3); *store.Store is one.
type OfferStore interface {
	OpenOffer(ctx context.Context, of store.BankOffer) ([]store.BankOffer, error)
	Offer(ctx context.Context, id string) (store.BankOffer, error)
	SetOfferMessage(ctx context.Context, id, messageID string) error
	EndOffer(ctx context.Context, id, status string) (store.BankOffer, error)
}

// AuctionStore keeps the tables' running auctions of their bank (R9.8); *store.Store
// is one.
type AuctionStore interface {
	StartAuction(ctx context.Context, a store.BankAuction) error
	Auction(ctx context.Context, tableID int64) (store.BankAuction, error)
	SetAuctionMessage(ctx context.Context, tableID int64, messageID string) error
	PlaceBid(ctx context.Context, tableID int64, member string, amount int64, now time.Time) (store.BankAuction, error)
	EndAuction(ctx context.Context, tableID int64) (store.BankAuction, error)
}

// Auction is a bank offered to the highest bidder when the kitty is empty (R9.8). It
// lives in the store, as an Offer does.
type Auction struct {
	Table     int64
	Guild     string
	Seller    string
	Bids      map[string]int64
	Channel   string
	MessageID string
	Ends      time.Time
}

// Highest returns the highest bid; ties go to the lower member id for a stable result.
func (a *Auction) Highest() (string, int64) {
	names := make([]string, 0, len(a.Bids))
	for n := range a.Bids {
		names = append(names, n)
	}
	sort.Strings(names)
	var best string
	var amount int64 = -1
	for _, n := range names {
		if a.Bids[n] > amount {
			best, amount = n, a.Bids[n]
		}
	}
	return best, amount
}

// betweenRounds checks that member holds the bank and no round is in play.
func (t *Table) betweenRounds(member string) error {
	switch {
	case t.closed:
		return Refuse("err.table_closed")
	case t.broken != "":
		return Refuse("err.table_broken")
	case t.banker() != member:
		return Refuse("err.not_banker", "Banker", Member(t.banker()))
	case t.inRound():
		return Refuse("err.between_rounds_only")
	}
	return nil
}

// OfferBank makes a standing offer of the bank to a seated member (R6.3). The offer is
// checked with the engine now, so one that could never settle is not made.
func (t *Table) OfferBank(ctx context.Context, seller, buyer string, price int64, channel string) (Offer, error) {
	bal, err := t.wallets(ctx, seller)
	if err != nil {
		return Offer{}, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.betweenRounds(seller); err != nil {
		return Offer{}, err
	}
	switch {
	case buyer == seller:
		return Offer{}, Refuse("err.sell_self")
	case !t.seated(buyer):
		return Offer{}, Refuse("err.buyer_not_seated", "Player", Member(buyer))
	case price < 0 || price > game.MaxChips:
		return Offer{}, Refuse("err.bad_amount")
	}
	g, err := t.between(seller, bal)
	if err != nil {
		return Offer{}, err
	}
	if _, err := g.Apply(game.Action{Player: seller, Verb: game.VerbSell, Target: buyer, Amount: price}); err != nil {
		return Offer{}, err
	}
	id, err := t.m.randomHex(6)
	if err != nil {
		return Offer{}, err
	}
	of := Offer{ID: id, Table: t.id, Guild: t.guild, Seller: seller, Buyer: buyer, Price: price, Channel: channel, Expires: t.m.now().Add(t.m.opt.OfferTTL)}
	// One standing offer per table: a new one replaces the last, so offers stay bounded
	// and an old offer can never sell the bank on terms the banker has since changed.
	replaced, err := t.m.st.OpenOffer(ctx, store.BankOffer{ID: of.ID, TableID: of.Table, Channel: of.Channel,
		Seller: of.Seller, Buyer: of.Buyer, Price: of.Price, Expires: of.Expires})
	if err != nil {
		return Offer{}, err
	}
	t.m.wake.Armed(of.Expires)
	for _, o := range replaced {
		t.m.n.OfferEnded(offerOf(o), "offer.expired")
	}
	return of, nil
}

// SetOfferMessage records the message that shows an offer.
func (m *Manager) SetOfferMessage(ctx context.Context, id, messageID string) {
	if err := m.st.SetOfferMessage(ctx, id, messageID); err != nil {
		m.logger(ctx).Warn("offer message not recorded; its end will not edit it", "offer", id, "err", err)
	}
}

// DropOffer withdraws an offer whose message could not be posted.
func (m *Manager) DropOffer(ctx context.Context, id string) {
	if _, err := m.st.EndOffer(ctx, id, store.OfferExpired); err != nil {
		m.logger(ctx).Warn("unposted offer not withdrawn; it expires by itself", "offer", id, "err", err)
	}
}

// AnswerOffer is the buyer's Accept or Decline. Acceptance moves the price and the bank
// in one transaction, which also ends the offer, so that a second acceptance (another
// process, a double click) sells nothing; and in Shoot returns the kitty to the seller
// (R6.3, R9.9). It returns the offer and the catalog key of its new state.
func (m *Manager) AnswerOffer(ctx context.Context, id, member string, accept bool) (Offer, string, error) {
	of, ok, err := m.standingOffer(ctx, id)
	if err != nil {
		return Offer{}, "", err
	}
	if !ok {
		return Offer{}, "", Refuse("err.offer_expired")
	}
	if member != of.Buyer {
		return Offer{}, "", Refuse("err.not_your_offer", "Player", Member(of.Buyer))
	}
	if !accept {
		if _, err := m.st.EndOffer(ctx, id, store.OfferDeclined); errors.Is(err, store.ErrOfferEnded) {
			return Offer{}, "", Refuse("err.offer_expired")
		} else if err != nil {
			return Offer{}, "", err
		}
		return of, "offer.declined", nil
	}
	t, err := m.Get(ctx, of.Table)
	if err != nil {
		return Offer{}, "", err
	}
	bal, err := t.wallets(ctx, of.Seller, of.Buyer)
	if err != nil {
		return Offer{}, "", err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.banker() != of.Seller {
		if _, err := m.st.EndOffer(ctx, id, store.OfferExpired); err != nil && !errors.Is(err, store.ErrOfferEnded) {
			m.logger(ctx).Warn("stale offer not ended; it expires by itself", "offer", id, "err", err)
		}
		return Offer{}, "", Refuse("err.offer_stale")
	}
	if t.inRound() {
		return Offer{}, "", Refuse("err.between_rounds_only")
	}
	if err := t.sell(ctx, bal, of.Seller, of.Buyer, of.Price, "bank sale (R6.3)", store.BankParams{Offer: id}); errors.Is(err, store.ErrOfferEnded) {
		return Offer{}, "", Refuse("err.offer_expired") // answered or expired meanwhile: nothing sold
	} else if err != nil {
		return Offer{}, "", err
	}
	t.notice = &Notice{Kind: NoticeSold, Members: []string{of.Seller, of.Buyer}, Amount: of.Price}
	m.n.Changed(t)
	return of, "offer.accepted", nil
}

// standingOffer reads offer id from the store; false when it does not stand (ended,
// past its expiry, or pruned).
func (m *Manager) standingOffer(ctx context.Context, id string) (Offer, bool, error) {
	so, err := m.st.Offer(ctx, id)
	if errors.Is(err, store.ErrNotFound) || err == nil && (so.Status != store.OfferOpen || m.now().After(so.Expires)) {
		return Offer{}, false, nil
	}
	if err != nil {
		return Offer{}, false, err
	}
	return offerOf(so), true, nil
}

func offerOf(o store.BankOffer) Offer {
	return Offer{ID: o.ID, Table: o.TableID, Guild: o.Guild, Seller: o.Seller, Buyer: o.Buyer, Price: o.Price,
		Channel: o.Channel, MessageID: o.MessageID, Expires: o.Expires}
}

func auctionOf(a store.BankAuction) Auction {
	return Auction{Table: a.TableID, Guild: a.Guild, Seller: a.Seller, Bids: a.Bids, Channel: a.Channel,
		MessageID: a.MessageID, Ends: a.Ends}
}

// sell runs a sale through the engine and commits it. t.mu must be held. end names what
// the sale ends in its transaction (BankParams.Offer, .Auction).
func (t *Table) sell(ctx context.Context, bal map[string]int64, seller, buyer string, price int64, reason string, end store.BankParams) error {
	g, err := t.between(seller, bal)
	if err != nil {
		return err
	}
	out, err := g.Apply(game.Action{Player: seller, Verb: game.VerbSell, Target: buyer, Amount: price})
	if err != nil {
		return err
	}
	if err := t.m.st.UpdateBank(ctx, store.BankParams{TableID: t.id, Transfers: store.GameTransfers(t.id, out), BankOwner: &buyer, Reason: reason, Now: t.m.now(),
		Offer: end.Offer, Auction: end.Auction}); err != nil {
		return err
	}
	t.owner = buyer
	t.kitty = g.Kitty
	t.cut = nil
	t.g = nil // the last round is history: the table shows the new bank
	return nil
}

// PutKitty is the banker putting up or topping up the kitty before a deal (R9.1, R9.8).
// It returns the kitty after.
func (t *Table) PutKitty(ctx context.Context, member string, amount int64) (int64, error) {
	bal, err := t.wallets(ctx, member)
	if err != nil {
		return 0, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.betweenRounds(member); err != nil {
		return 0, err
	}
	g, err := t.between(member, bal)
	if err != nil {
		return 0, err
	}
	out, err := g.Apply(game.Action{Player: member, Verb: game.VerbKitty, Amount: amount})
	if err != nil {
		return 0, err
	}
	if err := t.m.st.UpdateBank(ctx, store.BankParams{TableID: t.id, Transfers: store.GameTransfers(t.id, out), Reason: "kitty (R9.8)", Now: t.m.now()}); err != nil {
		return 0, err
	}
	t.kitty = g.Kitty
	t.m.n.Changed(t)
	return g.Kitty, nil
}

// StartAuction offers the bank to the highest bidder when the kitty is empty (R9.8).
// The auction and its close are written in one store transaction.
func (t *Table) StartAuction(ctx context.Context, member, channel string) (Auction, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.betweenRounds(member); err != nil {
		return Auction{}, err
	}
	if t.cfg.Rules.Variant != game.Shoot || t.kitty > 0 {
		return Auction{}, Refuse("err.auction_needs_empty_kitty")
	}
	m := t.m
	a := store.BankAuction{TableID: t.id, Guild: t.guild, Channel: channel, Seller: member, Ends: m.now().Add(m.opt.BidWindow),
		Bids: map[string]int64{}}
	if err := m.st.StartAuction(ctx, a); errors.Is(err, store.ErrAuctionRunning) {
		return Auction{}, Refuse("err.auction_running")
	} else if err != nil {
		return Auction{}, err
	}
	m.wake.Armed(a.Ends)
	return auctionOf(a), nil
}

// SetAuctionMessage records the message that shows a table's auction.
func (m *Manager) SetAuctionMessage(ctx context.Context, table int64, messageID string) {
	if err := m.st.SetAuctionMessage(ctx, table, messageID); err != nil {
		m.logger(ctx).Warn("auction message not recorded; its close will not edit it", "table", table, "err", err)
	}
}

// Bid places a bid in the table's running auction. The auction is read before t.mu is
// taken (reads never wait under a table's lock); PlaceBid checks it again in its
// transaction, so a bid placed meanwhile or a close is never overwritten.
func (t *Table) Bid(ctx context.Context, member string, amount int64) (Auction, error) {
	m := t.m
	w, _, err := m.st.EnsureWallet(ctx, t.guild, member, m.opt.StartingChips, m.now())
	if err != nil {
		return Auction{}, err
	}
	sa, err := m.st.Auction(ctx, t.id)
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
	if w.Balance < amount {
		return Auction{}, Refuse("err.store_insufficient", "Need", amount, "Have", w.Balance)
	}
	sa, err = m.st.PlaceBid(ctx, t.id, member, amount, m.now())
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

// fireOffer expires offer d.Ref, claimed by this process, under its table's hold.
func (m *Manager) fireOffer(ctx context.Context, d store.Deadline) {
	release, ok := m.holdClaimed(ctx, d)
	if !ok {
		return
	}
	defer release()
	so, err := m.st.EndOffer(ctx, d.Ref, store.OfferExpired)
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
// table's hold: the bank goes to the highest bidder who can still pay (R9.8).
func (m *Manager) fireAuction(ctx context.Context, d store.Deadline) {
	release, ok := m.holdClaimed(ctx, d)
	if !ok {
		return
	}
	defer release()
	sa, err := m.st.Auction(ctx, d.TableID)
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
	if _, err := m.st.EndAuction(ctx, a.Table); errors.Is(err, store.ErrNoAuction) {
		return
	} else if err != nil {
		m.log.Error("auction timer: auction not closed; the claim lapses and is tried again", "table", a.Table, "err", err)
		return
	}
	m.n.AuctionChanged(a, "auction.unsold")
}

// people are the auction's seller and bidders: whose balances a sale needs.
func (a *Auction) people() []string {
	who := []string{a.Seller}
	for b := range a.Bids {
		who = append(who, b)
	}
	return who
}

// sellToBest sells the bank to a's highest bidder who can still pay (R9.8), trying the
// bids from the highest down and dropping each that fails, while a.Seller still holds the
// bank between rounds; it notes the sale on the table. end is what the sale's
// transaction ends (store.BankParams.Auction). It returns store.ErrNoAuction, having sold nothing, when that auction was
// closed meanwhile. t.mu must be held.
func (t *Table) sellToBest(ctx context.Context, bal map[string]int64, a *Auction, end store.BankParams) (bool, error) {
	for len(a.Bids) > 0 {
		best, amount := a.Highest()
		if t.banker() != a.Seller || t.inRound() {
			break
		}
		err := t.sell(ctx, bal, a.Seller, best, amount, "bank auction (R9.8)", end)
		if errors.Is(err, store.ErrNoAuction) {
			return false, err
		}
		if err != nil {
			delete(a.Bids, best)
			continue
		}
		t.notice = &Notice{Kind: NoticeAuctionSold, Members: []string{a.Seller, best}, Amount: amount}
		t.m.n.Changed(t)
		return true, nil
	}
	return false, nil
}

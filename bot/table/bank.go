package table

import (
	"context"
	"errors"
	"maps"
	"sort"
	"time"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
)

// Offer is a standing bank sale (R6.3). A process that owns its tables keeps offers in
// memory: one outliving a restart has expired, and its buttons say so. Shared tables
// keep them in the store (bank_shared.go).
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

// Auction is a bank offered to the highest bidder when the kitty is empty (R9.8).
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

func (a *Auction) copy() Auction {
	c := *a
	c.Bids = maps.Clone(a.Bids)
	return c
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
	of := &Offer{ID: id, Table: t.id, Guild: t.guild, Seller: seller, Buyer: buyer, Price: price, Channel: channel, Expires: t.m.now().Add(t.m.opt.OfferTTL)}
	m := t.m
	if m.opt.Shared != nil {
		return m.openSharedOffer(ctx, *of)
	}
	// One standing offer per table: a new one replaces the last, so offers stay bounded
	// and an old offer can never sell the bank on terms the banker has since changed.
	var replaced []*Offer
	m.mu.Lock()
	for oid, o := range m.offers {
		if o.Table == t.id {
			replaced = append(replaced, o)
			delete(m.offers, oid)
		}
	}
	m.offers[id] = of
	m.mu.Unlock()
	for _, o := range replaced {
		m.n.OfferEnded(*o, "offer.expired")
	}
	m.opt.AfterFunc(m.opt.OfferTTL, func() { m.expireOffer(id) })
	return *of, nil
}

// SetOfferMessage records the message that shows an offer.
func (m *Manager) SetOfferMessage(ctx context.Context, id, messageID string) {
	if sh := m.opt.Shared; sh != nil {
		if err := sh.SetOfferMessage(ctx, id, messageID); err != nil {
			m.logger(ctx).Warn("offer message not recorded; its end will not edit it", "offer", id, "err", err)
		}
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if of := m.offers[id]; of != nil {
		of.MessageID = messageID
	}
}

// DropOffer withdraws an offer whose message could not be posted.
func (m *Manager) DropOffer(ctx context.Context, id string) {
	if sh := m.opt.Shared; sh != nil {
		if _, err := sh.EndOffer(ctx, id, store.OfferExpired); err != nil {
			m.logger(ctx).Warn("unposted offer not withdrawn; it expires by itself", "offer", id, "err", err)
		}
		return
	}
	m.takeOffer(id)
}

func (m *Manager) takeOffer(id string) *Offer {
	m.mu.Lock()
	defer m.mu.Unlock()
	of := m.offers[id]
	delete(m.offers, id)
	return of
}

func (m *Manager) expireOffer(id string) {
	if of := m.takeOffer(id); of != nil && m.n != nil {
		m.n.OfferEnded(*of, "offer.expired")
	}
}

// AnswerOffer is the buyer's Accept or Decline. Acceptance moves the price and the bank
// in one transaction, and in Shoot returns the kitty to the seller (R6.3, R9.9). It
// returns the offer and the catalog key of its new state. The offer is looked up and
// ended in the manager's offer book: its memory, or the store for shared tables.
func (m *Manager) AnswerOffer(ctx context.Context, id, member string, accept bool) (Offer, string, error) {
	book := m.offerBook()
	of, ok, err := book.open(ctx, id)
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
		if ended, err := book.end(ctx, id, store.OfferDeclined); err != nil {
			return Offer{}, "", err
		} else if !ended {
			return Offer{}, "", Refuse("err.offer_expired")
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
		if _, err := book.end(ctx, id, store.OfferExpired); err != nil {
			m.logger(ctx).Warn("stale offer not ended; it expires by itself", "offer", id, "err", err)
		}
		return Offer{}, "", Refuse("err.offer_stale")
	}
	if t.inRound() {
		return Offer{}, "", Refuse("err.between_rounds_only")
	}
	if err := t.sell(ctx, bal, of.Seller, of.Buyer, of.Price, "bank sale (R6.3)", book.sale(id)); errors.Is(err, store.ErrOfferEnded) {
		return Offer{}, "", Refuse("err.offer_expired") // answered or expired meanwhile: nothing sold
	} else if err != nil {
		return Offer{}, "", err
	}
	book.sold(ctx, id)
	t.notice = &Notice{Kind: NoticeSold, Members: []string{of.Seller, of.Buyer}, Amount: of.Price}
	m.n.Changed(t)
	return of, "offer.accepted", nil
}

// offerBook is where a manager's bank offers live while they stand: its memory when
// it owns its tables (memoryOffers), the store when replicas share them (storeOffers,
// bank_shared.go). AnswerOffer is written once over it.
type offerBook interface {
	// open returns the offer if it stands: not ended, not past its expiry.
	open(ctx context.Context, id string) (Offer, bool, error)
	// end ends a standing offer with status (declined, expired); false if it had ended.
	end(ctx context.Context, id, status string) (bool, error)
	// sale is what the sale's own transaction ends (store.BankParams.Offer), so that
	// an offer sells once.
	sale(id string) store.BankParams
	// sold forgets an offer the sale has ended.
	sold(ctx context.Context, id string)
}

func (m *Manager) offerBook() offerBook {
	if m.opt.Shared != nil {
		return storeOffers{m}
	}
	return memoryOffers{m}
}

// memoryOffers are the offers in the manager's map: a process that owns its tables
// answers every click on them.
type memoryOffers struct{ m *Manager }

func (b memoryOffers) open(_ context.Context, id string) (Offer, bool, error) {
	b.m.mu.Lock()
	of := b.m.offers[id]
	b.m.mu.Unlock()
	if of == nil || b.m.now().After(of.Expires) {
		return Offer{}, false, nil
	}
	return *of, true, nil
}

func (b memoryOffers) end(_ context.Context, id, _ string) (bool, error) {
	return b.m.takeOffer(id) != nil, nil
}

func (memoryOffers) sale(string) store.BankParams { return store.BankParams{} }

func (b memoryOffers) sold(ctx context.Context, id string) {
	if b.m.takeOffer(id) == nil {
		b.m.logger(ctx).Warn("offer taken twice", "offer", id)
	}
}

// sell runs a sale through the engine and commits it. t.mu must be held. end names what
// the sale ends in its transaction on a shared table (BankParams.Offer, .Auction).
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
	if m.opt.Shared != nil {
		return m.startSharedAuction(ctx, t, member, channel)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, running := m.auctions[t.id]; running {
		return Auction{}, Refuse("err.auction_running")
	}
	a := &Auction{Table: t.id, Guild: t.guild, Seller: member, Bids: map[string]int64{}, Channel: channel, Ends: m.now().Add(m.opt.BidWindow)}
	m.auctions[t.id] = a
	m.opt.AfterFunc(m.opt.BidWindow, func() { m.closeAuction(t) })
	return a.copy(), nil
}

// SetAuctionMessage records the message that shows a table's auction.
func (m *Manager) SetAuctionMessage(ctx context.Context, table int64, messageID string) {
	if sh := m.opt.Shared; sh != nil {
		if err := sh.SetAuctionMessage(ctx, table, messageID); err != nil {
			m.logger(ctx).Warn("auction message not recorded; its close will not edit it", "table", table, "err", err)
		}
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if a := m.auctions[table]; a != nil {
		a.MessageID = messageID
	}
}

// Bid places a bid in the table's running auction.
func (t *Table) Bid(ctx context.Context, member string, amount int64) (Auction, error) {
	m := t.m
	w, _, err := m.st.EnsureWallet(ctx, t.guild, member, m.opt.StartingChips, m.now())
	if err != nil {
		return Auction{}, err
	}
	if m.opt.Shared != nil {
		return m.bidShared(ctx, t, member, amount, w.Balance)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	m.mu.Lock()
	a := m.auctions[t.id]
	m.mu.Unlock()
	if a == nil || m.now().After(a.Ends) {
		return Auction{}, Refuse("err.no_auction")
	}
	switch {
	case member == a.Seller:
		return Auction{}, Refuse("err.bid_own_bank")
	case !t.seated(member):
		return Auction{}, Refuse("err.not_seated")
	}
	m.mu.Lock()
	_, best := a.Highest()
	m.mu.Unlock()
	if amount <= best {
		return Auction{}, Refuse("err.bid_too_low", "Count", best)
	}
	if w.Balance < amount {
		return Auction{}, Refuse("err.store_insufficient", "Need", amount, "Have", w.Balance)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	a.Bids[member] = amount
	return a.copy(), nil
}

// closeAuction sells the bank to the highest bidder who can still pay.
func (m *Manager) closeAuction(t *Table) {
	if !m.Enter() {
		return
	}
	defer m.Done()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m.mu.Lock()
	var who []string
	if a := m.auctions[t.id]; a != nil {
		who = a.people()
	}
	m.mu.Unlock()
	bal, err := t.wallets(ctx, who...)
	if err != nil {
		m.log.Error("auction not closed", "table", t.id, "err", err)
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	m.mu.Lock()
	a := m.auctions[t.id]
	delete(m.auctions, t.id)
	m.mu.Unlock()
	if a == nil {
		return
	}
	if sold, _ := t.sellToBest(ctx, bal, a, store.BankParams{}); sold {
		m.n.AuctionChanged(a.copy(), "auction.closed")
		return
	}
	m.n.AuctionChanged(a.copy(), "auction.unsold")
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
// transaction ends (store.BankParams.Auction for a shared table's auction, kept in the
// store). It returns store.ErrNoAuction, having sold nothing, when that auction was
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

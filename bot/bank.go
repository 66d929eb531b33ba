package bot

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
)

// offer is a standing bank sale (R6.3). Offers live in memory: one outliving a restart
// has expired, and its buttons say so.
type offer struct {
	id        string
	table     int64
	seller    string
	buyer     string
	price     int64
	channel   string
	messageID string
	expires   time.Time
	lang      string
}

// auction is a bank offered to the highest bidder when the kitty is empty (R9.8).
type auction struct {
	table     int64
	seller    string
	bids      map[string]int64
	channel   string
	messageID string
	ends      time.Time
	lang      string
}

// betweenRounds checks that the caller holds the bank and no round is in play.
func (b *Bot) betweenRounds(c *ictx, t *liveTable) error {
	switch {
	case t.closed:
		return refuse("err.table_closed")
	case t.broken != "":
		return refuse("err.table_broken")
	case t.banker() != c.user:
		return refuse("err.not_banker", "Banker", mentionOr(c.lang, b, t.banker()))
	case t.inRound():
		return refuse("err.between_rounds_only")
	}
	return nil
}

func (b *Bot) cmdSell(c *ictx, o options) error {
	buyer, isBot := optionUser(c, o["member"])
	price := o["price"].IntValue()
	t, err := b.lockedTable(c)
	if err != nil {
		return err
	}
	defer t.mu.Unlock()
	if err := b.betweenRounds(c, t); err != nil {
		return err
	}
	switch {
	case isBot:
		return refuse("err.bot_player")
	case buyer == c.user:
		return refuse("err.sell_self")
	case !t.seated(buyer):
		return refuse("err.buyer_not_seated", "Player", mention(buyer))
	case price < 0 || price > game.MaxChips:
		return refuse("err.bad_amount")
	}
	// Check the sale with the engine now, so an offer that could never settle is not made.
	g, err := b.snapshot(c.ctx, t, c.user)
	if err != nil {
		return err
	}
	if _, err := g.Apply(game.Action{Player: c.user, Verb: game.VerbSell, Target: buyer, Amount: price}); err != nil {
		return err
	}
	id, err := b.randomHex(6)
	if err != nil {
		return err
	}
	of := &offer{id: id, table: t.id, seller: c.user, buyer: buyer, price: price, channel: c.channel, expires: c.now.Add(b.opt.OfferTTL), lang: c.pub}
	m := b.renderOffer(of, "offer.open")
	b.mu.Lock()
	b.offers[id] = of
	b.mu.Unlock()
	b.opt.AfterFunc(b.opt.OfferTTL, func() { b.expireOffer(id) })
	c.afterReply(func(ctx context.Context) {
		sent, err := b.s.ChannelMessageSendComplex(of.channel, &discordgo.MessageSend{Content: m.Content, Components: m.Components,
			AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{buyer}}}, discordgo.WithContext(ctx))
		if err != nil {
			b.log.Error("offer not posted", "err", err)
			b.takeOffer(id)
			return
		}
		b.mu.Lock()
		of.messageID = sent.ID
		b.mu.Unlock()
	})
	return b.private(c, message{Content: b.cat.T(c.lang, "offer.sent", "Player", mention(buyer), "Count", price)})
}

func (b *Bot) renderOffer(of *offer, key string) message {
	m := message{Content: b.cat.T(of.lang, key, "Seller", mention(of.seller), "Buyer", mention(of.buyer), "Count", of.price, "When", relTime(of.expires))}
	if key == "offer.open" {
		m.Components = rows([]discordgo.MessageComponent{
			b.button(of.lang, "button.accept", discordgo.SuccessButton, customID("offer", of.table, 0, 0, of.id+".accept")),
			b.button(of.lang, "button.decline", discordgo.DangerButton, customID("offer", of.table, 0, 0, of.id+".decline")),
		})
	}
	return m
}

func (b *Bot) takeOffer(id string) *offer {
	b.mu.Lock()
	defer b.mu.Unlock()
	of := b.offers[id]
	delete(b.offers, id)
	return of
}

func (b *Bot) expireOffer(id string) {
	of := b.takeOffer(id)
	if of == nil || b.s == nil {
		return
	}
	b.mu.Lock()
	msgID := of.messageID // written by the post after the reply
	b.mu.Unlock()
	if msgID == "" {
		return
	}
	m := b.renderOffer(of, "offer.expired")
	empty := []discordgo.MessageComponent{}
	edit := discordgo.NewMessageEdit(of.channel, msgID).SetContent(m.Content)
	edit.Components = &empty
	if _, err := b.s.ChannelMessageEditComplex(edit); err != nil {
		b.log.Warn("offer message not edited", "err", err)
	}
}

// answerOffer: only the buyer sees Accept and Decline work; acceptance moves the price
// and the bank in one transaction, and in Shoot returns the kitty to the seller (R6.3, R9.9).
func (b *Bot) answerOffer(c *ictx, id cid) error {
	offerID, choice, _ := strings.Cut(id.arg, ".")
	b.mu.Lock()
	of := b.offers[offerID]
	b.mu.Unlock()
	if of == nil || c.now.After(of.expires) {
		return refuse("err.offer_expired")
	}
	if c.user != of.buyer {
		return refuse("err.not_your_offer", "Player", mention(of.buyer))
	}
	if choice != "accept" {
		if b.takeOffer(offerID) == nil {
			return refuse("err.offer_expired")
		}
		return b.update(c, b.renderOffer(of, "offer.declined"))
	}
	t, err := b.live(c.ctx, of.table)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.banker() != of.seller {
		b.takeOffer(offerID)
		return refuse("err.offer_stale")
	}
	if t.inRound() {
		return refuse("err.between_rounds_only")
	}
	if err := b.sellBank(c.ctx, t, of.seller, of.buyer, of.price, "bank sale (R6.3)"); err != nil {
		return err
	}
	if b.takeOffer(offerID) == nil {
		b.log.Warn("offer taken twice", "offer", offerID)
	}
	t.notice = b.cat.T(c.pub, "offer.sold_notice", "Seller", mention(of.seller), "Buyer", mention(of.buyer), "Count", of.price)
	b.scheduleEdit(t)
	return b.update(c, b.renderOffer(of, "offer.accepted"))
}

// sellBank runs a sale through the engine and commits it. t.mu must be held.
func (b *Bot) sellBank(ctx context.Context, t *liveTable, seller, buyer string, price int64, reason string) error {
	g, err := b.snapshot(ctx, t, seller)
	if err != nil {
		return err
	}
	out, err := g.Apply(game.Action{Player: seller, Verb: game.VerbSell, Target: buyer, Amount: price})
	if err != nil {
		return err
	}
	if err := b.st.UpdateBank(ctx, store.BankParams{TableID: t.id, Transfers: store.GameTransfers(t.id, out), BankOwner: &buyer, Reason: reason, Now: b.now()}); err != nil {
		return err
	}
	t.owner = buyer
	t.kitty = g.Kitty
	t.cut = nil
	return nil
}

// cmdKitty: the banker puts up or tops up the kitty before a deal (R9.1, R9.8).
func (b *Bot) cmdKitty(c *ictx, o options) error {
	amount, err := amountOption(o, "amount")
	if err != nil {
		return err
	}
	t, err := b.lockedTable(c)
	if err != nil {
		return err
	}
	defer t.mu.Unlock()
	if err := b.betweenRounds(c, t); err != nil {
		return err
	}
	g, err := b.snapshot(c.ctx, t, c.user)
	if err != nil {
		return err
	}
	out, err := g.Apply(game.Action{Player: c.user, Verb: game.VerbKitty, Amount: amount})
	if err != nil {
		return err
	}
	if err := b.st.UpdateBank(c.ctx, store.BankParams{TableID: t.id, Transfers: store.GameTransfers(t.id, out), Reason: "kitty (R9.8)", Now: c.now}); err != nil {
		return err
	}
	t.kitty = g.Kitty
	b.scheduleEdit(t)
	return b.private(c, message{Content: b.cat.T(c.lang, "kitty.done", "Count", amount, "Kitty", g.Kitty)})
}

// cmdAuction: with the kitty empty, the banker offers the bank to the highest bidder (R9.8).
func (b *Bot) cmdAuction(c *ictx) error {
	t, err := b.lockedTable(c)
	if err != nil {
		return err
	}
	defer t.mu.Unlock()
	if err := b.betweenRounds(c, t); err != nil {
		return err
	}
	if t.cfg.Rules.Variant != game.Shoot || t.kitty > 0 {
		return refuse("err.auction_needs_empty_kitty")
	}
	b.mu.Lock()
	_, running := b.auctions[t.id]
	b.mu.Unlock()
	if running {
		return refuse("err.auction_running")
	}
	a := &auction{table: t.id, seller: c.user, bids: map[string]int64{}, channel: c.channel, ends: c.now.Add(b.opt.BidWindow), lang: c.pub}
	text := b.renderAuction(a, "auction.open")
	b.mu.Lock()
	b.auctions[t.id] = a
	b.mu.Unlock()
	b.opt.AfterFunc(b.opt.BidWindow, func() { b.closeAuction(t) })
	c.afterReply(func(ctx context.Context) {
		sent, err := b.s.ChannelMessageSendComplex(a.channel, &discordgo.MessageSend{Content: text,
			AllowedMentions: &discordgo.MessageAllowedMentions{}}, discordgo.WithContext(ctx))
		if err != nil {
			b.log.Error("auction not posted", "err", err)
			return
		}
		b.mu.Lock()
		a.messageID = sent.ID
		b.mu.Unlock()
	})
	return b.private(c, message{Content: b.cat.T(c.lang, "auction.started")})
}

func (b *Bot) renderAuction(a *auction, key string) string {
	best, amount := highest(a.bids)
	bestText := b.cat.T(a.lang, "auction.no_bids")
	if best != "" {
		bestText = b.cat.T(a.lang, "auction.best", "Player", mention(best), "Count", amount)
	}
	return b.cat.T(a.lang, key, "Seller", mention(a.seller), "When", relTime(a.ends), "Best", bestText)
}

// highest returns the highest bid; ties go to the lower member id for a stable result.
func highest(bids map[string]int64) (string, int64) {
	names := make([]string, 0, len(bids))
	for n := range bids {
		names = append(names, n)
	}
	sort.Strings(names)
	var best string
	var amount int64 = -1
	for _, n := range names {
		if bids[n] > amount {
			best, amount = n, bids[n]
		}
	}
	return best, amount
}

func (b *Bot) cmdBid(c *ictx, o options) error {
	amount, err := amountOption(o, "amount")
	if err != nil {
		return err
	}
	t, err := b.lockedTable(c)
	if err != nil {
		return err
	}
	defer t.mu.Unlock()
	b.mu.Lock()
	a := b.auctions[t.id]
	b.mu.Unlock()
	if a == nil || c.now.After(a.ends) {
		return refuse("err.no_auction")
	}
	switch {
	case c.user == a.seller:
		return refuse("err.bid_own_bank")
	case !t.seated(c.user):
		return refuse("err.not_seated")
	}
	_, best := highest(a.bids)
	if amount <= best {
		return refuse("err.bid_too_low", "Count", best)
	}
	w, _, err := b.st.EnsureWallet(c.ctx, c.guild, c.user, b.opt.StartingChips, c.now)
	if err != nil {
		return err
	}
	if w.Balance < amount {
		return refuse("err.store_insufficient", "Need", amount, "Have", w.Balance)
	}
	b.mu.Lock()
	a.bids[c.user] = amount
	b.mu.Unlock()
	b.mu.Lock()
	msgID := a.messageID
	b.mu.Unlock()
	b.editText(a.channel, msgID, b.renderAuction(a, "auction.open"))
	return b.private(c, message{Content: b.cat.T(c.lang, "auction.bid_placed", "Count", amount)})
}

// closeAuction sells the bank to the highest bidder who can still pay.
func (b *Bot) closeAuction(t *liveTable) {
	b.mu.Lock()
	a := b.auctions[t.id]
	delete(b.auctions, t.id)
	closed := b.closed
	var msgID string
	if a != nil {
		msgID = a.messageID
	}
	b.mu.Unlock()
	if a == nil || closed {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	t.mu.Lock()
	defer t.mu.Unlock()
	for len(a.bids) > 0 {
		best, amount := highest(a.bids)
		if t.banker() != a.seller || t.inRound() {
			break
		}
		if err := b.sellBank(ctx, t, a.seller, best, amount, "bank auction (R9.8)"); err != nil {
			delete(a.bids, best)
			continue
		}
		t.notice = b.cat.T(a.lang, "auction.sold_notice", "Seller", mention(a.seller), "Buyer", mention(best), "Count", amount)
		b.scheduleEdit(t)
		b.editText(a.channel, msgID, b.renderAuction(a, "auction.closed"))
		return
	}
	b.editText(a.channel, msgID, b.renderAuction(a, "auction.unsold"))
}

func (b *Bot) editText(channel, id, text string) {
	if b.s == nil || id == "" {
		return
	}
	if _, err := b.s.ChannelMessageEdit(channel, id, text); err != nil {
		b.log.Warn("message not edited", "err", err)
	}
}

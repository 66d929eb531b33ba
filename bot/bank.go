package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/table"
	"github.com/pontoon-bot/pontoon/bot/view"
)

// The bank between rounds: sales (R6.3), the kitty (R9.1, R9.8) and auctions (R9.8).

// optionUser returns a user option's id and whether that user is a bot.
func optionUser(c *ictx, o *discordgo.ApplicationCommandInteractionDataOption) (string, bool) {
	if o == nil {
		return "", false
	}
	id := fmt.Sprint(o.Value)
	if r := c.i.ApplicationCommandData().Resolved; r != nil {
		if u, ok := r.Users[id]; ok && u != nil {
			return id, u.Bot
		}
	}
	return id, false
}

func (b *Bot) cmdSell(c *ictx, o options) error {
	buyer, isBot := optionUser(c, o["member"])
	var price int64
	if v, ok := o["price"]; ok {
		price = v.IntValue()
	}
	t, err := b.channelTable(c)
	if err != nil {
		return err
	}
	if isBot {
		return refuse("err.bot_player")
	}
	of, err := t.OfferBank(c.ctx, c.user, buyer, price, c.channel)
	if err != nil {
		return err
	}
	m := b.view.Offer(c.pub, of, "offer.open")
	pub := c.pub
	c.afterReply(func(ctx context.Context) {
		// R6.3: what the bank is worth per round at this table, for both sides; simulated
		// here, after the reply, the first time the rule set is met.
		if hint := b.fairPrice(ctx, pub, t, true); hint != "" {
			m.Content += "\n" + hint
		}
		sent, err := b.s.ChannelMessageSendComplex(of.Channel, &discordgo.MessageSend{Content: m.Content, Components: m.Components,
			AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{buyer}}}, discordgo.WithContext(ctx))
		if err != nil {
			c.log.Error("offer not posted", "offer", of.ID, "err", err)
			b.tables.DropOffer(ctx, of.ID)
			return
		}
		b.tables.SetOfferMessage(ctx, of.ID, sent.ID)
	})
	sent := b.cat.T(c.lang, "offer.sent", "Player", view.Mention(buyer), "Count", price)
	if hint := b.fairPrice(c.ctx, c.lang, t, false); hint != "" {
		sent += "\n" + hint
	}
	return b.privateText(c, sent)
}

// clickOffer: only the buyer's Accept or Decline works.
func (b *Bot) clickOffer(c *ictx, id view.ID) error {
	offerID, choice, _ := strings.Cut(id.Arg, ".")
	of, key, err := b.tables.AnswerOffer(c.ctx, offerID, c.user, choice == "accept")
	var r *table.Refusal
	if errors.As(err, &r) && r.Key == "err.offer_expired" {
		// An offer that no longer stands (it expired, was answered or replaced, or was
		// pruned a day after it ended): the message says so and loses its buttons,
		// instead of looking live. The answer refuses, so it counts as a refusal: a
		// redelivered Accept whose first delivery sold the bank is then found applied
		// (redelivered) and gets no second answer.
		c.shown = err
		return b.update(c, view.Message{Content: b.cat.T(c.pub, "offer.ended")})
	}
	if err != nil {
		return err
	}
	return b.update(c, b.view.Offer(c.pub, of, key))
}

func (b *Bot) cmdKitty(c *ictx, o options) error {
	amount := o["amount"].IntValue()
	t, err := b.channelTable(c)
	if err != nil {
		return err
	}
	kitty, err := t.PutKitty(c.ctx, c.user, amount)
	if err != nil {
		return err
	}
	return b.privateText(c, b.cat.T(c.lang, "kitty.done", "Count", amount, "Kitty", kitty))
}

func (b *Bot) cmdAuction(c *ictx, _ options) error {
	t, err := b.channelTable(c)
	if err != nil {
		return err
	}
	a, err := t.StartAuction(c.ctx, c.user, c.channel)
	if err != nil {
		return err
	}
	text := b.view.Auction(c.pub, a, "auction.open")
	c.afterReply(func(ctx context.Context) {
		sent, err := b.s.ChannelMessageSendComplex(a.Channel, &discordgo.MessageSend{Content: text,
			AllowedMentions: &discordgo.MessageAllowedMentions{}}, discordgo.WithContext(ctx))
		if err != nil {
			c.log.Error("auction not posted", "err", err)
			return
		}
		b.tables.SetAuctionMessage(ctx, a.Table, sent.ID)
	})
	return b.privateText(c, b.cat.T(c.lang, "auction.started"))
}

func (b *Bot) cmdBid(c *ictx, o options) error {
	amount := o["amount"].IntValue()
	t, err := b.channelTable(c)
	if err != nil {
		return err
	}
	a, err := t.Bid(c.ctx, c.user, amount)
	if err != nil {
		return err
	}
	b.pub.AuctionChanged(a, "auction.open")
	return b.privateText(c, b.cat.T(c.lang, "auction.bid_placed", "Count", amount))
}

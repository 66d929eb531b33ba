package bot

import (
	"strings"

	"github.com/pontoon-bot/pontoon/bot/view"
)

// Where a component is honoured. A custom id names a table (and an offer its offer),
// but anything that can send an interaction can send any custom id, on any message, in
// any server: the id alone would seat a member of another server at this table and mint
// them a wallet here. So before any handler runs (route), a component is checked against
// where the bot posted it, and refused, changing nothing, anywhere else.

// place is where the bot posts a kind of component.
type place uint8

const (
	// unplaced is a route that names no place: nothing is honoured anywhere, so a kind
	// added without thinking where it is posted fails closed.
	unplaced place = iota
	// inServer components read only the server they are clicked in (leaderboard
	// pages): any message of that server will do.
	inServer
	// onTable components are on the table's public message, in its channel.
	onTable
	// onPanel components are on a member's private panel (or its modal), which the
	// bot answers in the table's channel. An ephemeral message has no id the bot
	// keeps, so the channel is what ties it to its table; what such a button does is
	// the clicker's own move, which the round and turn in its id already guard
	// (view.ID.Check), wherever the button is shown.
	onPanel
	// onTableOrPanel components are on either (My cards on the table, Refresh on the
	// panel): on a public message it must be the table's.
	onTableOrPanel
	// onOffer components are on a bank offer's message, in its table's channel.
	onOffer
)

// checkPlace refuses a component clicked anywhere but where the bot posted it: another
// server or channel than its table's, or a message that is not the table's (for the
// table's buttons) or not the offer's.
func (b *Bot) checkPlace(c *ictx, id view.ID, p place) error {
	switch p {
	case unplaced:
		return refuse("err.unknown_button")
	case inServer:
		return nil
	case onOffer:
		return b.checkOfferPlace(c, id)
	}
	t, err := b.tables.Get(c.ctx, id.Table)
	if err != nil {
		return err
	}
	if t.Guild() != c.guild || t.Channel() != c.channel {
		return refuse("err.button_elsewhere")
	}
	m := c.i.Message
	if m == nil || p == onPanel || p == onTableOrPanel && c.onPanel() {
		return nil
	}
	// The table's message id is empty only between its post and its record (or a
	// restart's search for it); the channel is checked all the same.
	if own := t.Snapshot().MessageID; own != "" && own != m.ID {
		return refuse("err.button_wrong_message")
	}
	return nil
}

// checkOfferPlace refuses an offer's Accept or Decline clicked anywhere but on the
// offer's message in its table's channel. The offer is found by its own id, as the
// answer finds it, so an id naming one table and another table's offer gains nothing.
// An offer that no longer stands is left to the handler, which says it has ended.
func (b *Bot) checkOfferPlace(c *ictx, id view.ID) error {
	offerID, _, _ := strings.Cut(id.Arg, ".")
	of, ok, err := b.tables.StandingOffer(c.ctx, offerID)
	if err != nil || !ok {
		return err
	}
	if of.Guild != c.guild || of.Channel != c.channel || id.Table != of.Table {
		return refuse("err.button_elsewhere")
	}
	if m := c.i.Message; m != nil && of.MessageID != "" && of.MessageID != m.ID {
		return refuse("err.button_wrong_message")
	}
	return nil
}

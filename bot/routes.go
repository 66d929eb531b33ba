package bot

import (
	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/view"
)

// The one route table: a slash subcommand's canonical name, or a custom id's kind, to
// its handler. Every handler reads one way: parse the interaction, ask the table (package
// table), render the answer (package view), record the reply.

type options map[string]*discordgo.ApplicationCommandInteractionDataOption

// commandHandler answers a /pontoon subcommand with its options.
type commandHandler func(b *Bot, c *ictx, o options) error

// componentHandler answers a button, select or modal by its parsed custom id.
type componentHandler func(b *Bot, c *ictx, id view.ID) error

var commandRoutes = map[string]commandHandler{
	"start":        (*Bot).cmdStart,
	"stop":         (*Bot).cmdStop,
	"hand":         (*Bot).cmdHand,
	"rules":        (*Bot).cmdRules,
	"balance":      (*Bot).cmdBalance,
	"leaderboard":  (*Bot).cmdLeaderboard,
	"daily":        (*Bot).cmdDaily,
	"give":         (*Bot).cmdGive,
	"grant":        (*Bot).cmdGrant,
	"history":      (*Bot).cmdHistory,
	"settings":     (*Bot).cmdSettings,
	"bank sell":    (*Bot).cmdSell,
	"bank kitty":   (*Bot).cmdKitty,
	"bank auction": (*Bot).cmdAuction,
	"bank bid":     (*Bot).cmdBid,
	"language":     (*Bot).cmdLanguage,
	"stats":        (*Bot).cmdStats,
	"seed":         (*Bot).cmdSeed,
	"odds":         (*Bot).cmdOdds,
}

var componentRoutes = map[string]componentHandler{
	view.KindJoin:   (*Bot).clickJoin,
	view.KindLeave:  (*Bot).clickLeave,
	view.KindDeal:   (*Bot).clickDeal,
	view.KindCards:  (*Bot).clickCards,
	view.KindRules:  (*Bot).clickRules,
	view.KindAct:    (*Bot).clickAct,
	view.KindAmount: (*Bot).clickAmount,
	view.KindAsk:    (*Bot).clickAsk,
	view.KindBoard:  (*Bot).clickBoard,
	view.KindOffer:  (*Bot).clickOffer,
	view.KindHint:   (*Bot).clickHint,
}

var modalRoutes = map[string]componentHandler{
	view.KindModal: (*Bot).submitAmount,
}

// route finds the interaction's handler.
func (b *Bot) route(c *ictx) error {
	switch c.i.Type {
	case discordgo.InteractionApplicationCommand:
		data := c.i.ApplicationCommandData()
		if data.Name != "pontoon" || len(data.Options) == 0 {
			return refuse("err.unknown_command")
		}
		sub := data.Options[0]
		name, opts := sub.Name, sub.Options
		if sub.Type == discordgo.ApplicationCommandOptionSubCommandGroup && len(sub.Options) > 0 {
			name += " " + sub.Options[0].Name
			opts = sub.Options[0].Options
		}
		h, ok := commandRoutes[name]
		if !ok {
			return refuse("err.unknown_command")
		}
		o := options{}
		for _, opt := range opts {
			o[opt.Name] = opt
		}
		return h(b, c, o)
	case discordgo.InteractionMessageComponent:
		id, ok := view.ParseID(c.i.MessageComponentData().CustomID)
		h, known := componentRoutes[id.Kind]
		if !ok || !known {
			return refuse("err.unknown_button")
		}
		return h(b, c, id)
	case discordgo.InteractionModalSubmit:
		id, ok := view.ParseID(c.i.ModalSubmitData().CustomID)
		h, known := modalRoutes[id.Kind]
		if !ok || !known {
			return refuse("err.unknown_button")
		}
		return h(b, c, id)
	}
	return nil
}

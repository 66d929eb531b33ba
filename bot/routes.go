package bot

import (
	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/view"
)

// The one route table: a slash subcommand's canonical name, or a custom id's kind, to
// its handler. Every handler reads one way: parse the interaction, ask the table (package
// table), render the answer (package view), record the reply. Before a handler runs,
// route checks what the member sent, once for all of them: a command's options against
// the declared tree (options.go), a component against where the bot posted it
// (place.go). A refusal there changes nothing.

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

// componentRoute is a component kind's handler and where the bot posts that kind
// (place.go): route refuses it anywhere else before the handler runs.
type componentRoute struct {
	h     componentHandler
	where place
}

var componentRoutes = map[string]componentRoute{
	view.KindJoin:   {(*Bot).clickJoin, onTable},
	view.KindLeave:  {(*Bot).clickLeave, onTable},
	view.KindDeal:   {(*Bot).clickDeal, onTable},
	view.KindCards:  {(*Bot).clickCards, onTableOrPanel},
	view.KindRules:  {(*Bot).clickRules, onTable},
	view.KindAct:    {(*Bot).clickAct, onPanel},
	view.KindAmount: {(*Bot).clickAmount, onPanel},
	view.KindAsk:    {(*Bot).clickAsk, onPanel},
	view.KindBoard:  {(*Bot).clickBoard, inServer},
	view.KindOffer:  {(*Bot).clickOffer, onOffer},
	view.KindHint:   {(*Bot).clickHint, onPanel},
	view.KindOpen:   {(*Bot).clickOpen, onTable},
}

var modalRoutes = map[string]componentRoute{
	view.KindModal: {(*Bot).submitAmount, onPanel},
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
		if sub == nil || sub.Type != discordgo.ApplicationCommandOptionSubCommand && sub.Type != discordgo.ApplicationCommandOptionSubCommandGroup {
			return refuse("err.unknown_command")
		}
		name, opts := sub.Name, sub.Options
		if sub.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
			if len(sub.Options) != 1 || sub.Options[0] == nil || sub.Options[0].Type != discordgo.ApplicationCommandOptionSubCommand {
				return refuse("err.unknown_command")
			}
			name += " " + sub.Options[0].Name
			opts = sub.Options[0].Options
		}
		h, ok := commandRoutes[name]
		if !ok {
			return refuse("err.unknown_command")
		}
		o, err := b.checkOptions(c, name, opts)
		if err != nil {
			return err
		}
		return h(b, c, o)
	case discordgo.InteractionMessageComponent:
		return b.routeComponent(c, c.i.MessageComponentData().CustomID, componentRoutes)
	case discordgo.InteractionModalSubmit:
		return b.routeComponent(c, c.i.ModalSubmitData().CustomID, modalRoutes)
	}
	return nil
}

// routeComponent runs a component's or modal's handler once its custom id is one of
// ours and it was clicked where the bot posted it.
func (b *Bot) routeComponent(c *ictx, customID string, routes map[string]componentRoute) error {
	id, ok := view.ParseID(customID)
	r, known := routes[id.Kind]
	if !ok || !known {
		return refuse("err.unknown_button")
	}
	if err := b.checkPlace(c, id, r.where); err != nil {
		return err
	}
	return r.h(b, c, id)
}

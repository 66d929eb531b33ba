package bot

import (
	"errors"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/i18n"
	"github.com/pontoon-bot/pontoon/bot/table"
	"github.com/pontoon-bot/pontoon/bot/view"
)

// Every subcommand the router answers is declared in the command tree, whose options
// checkOptions holds it to: a route without a declaration would take no option at all.
func TestEveryCommandRouteIsDeclared(t *testing.T) {
	for name := range commandRoutes {
		if _, ok := commandSpecs[name]; !ok {
			t.Errorf("/pontoon %s is routed but not declared in commandTree", name)
		}
	}
	for name := range commandSpecs {
		if _, ok := commandRoutes[name]; !ok {
			t.Errorf("/pontoon %s is declared but not routed", name)
		}
	}
}

// A /pontoon whose first option is not a subcommand (or a group not holding exactly
// one) names no command, whatever its name: it is refused before any handler runs.
func TestOnlySubcommandsAreRouted(t *testing.T) {
	sub := func(name string, typ discordgo.ApplicationCommandOptionType, opts ...*discordgo.ApplicationCommandInteractionDataOption) *discordgo.ApplicationCommandInteractionDataOption {
		return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: typ, Options: opts}
	}
	for _, first := range []*discordgo.ApplicationCommandInteractionDataOption{
		nil,
		{Name: "stop", Type: discordgo.ApplicationCommandOptionString, Value: "now"},
		sub("bank", discordgo.ApplicationCommandOptionSubCommandGroup),
		sub("bank", discordgo.ApplicationCommandOptionSubCommandGroup, sub("auction", discordgo.ApplicationCommandOptionString)),
		sub("bank", discordgo.ApplicationCommandOptionSubCommandGroup, sub("auction", discordgo.ApplicationCommandOptionSubCommand), sub("sell", discordgo.ApplicationCommandOptionSubCommand)),
	} {
		c := &ictx{i: &discordgo.Interaction{Type: discordgo.InteractionApplicationCommand,
			Data: discordgo.ApplicationCommandInteractionData{Name: "pontoon", Options: []*discordgo.ApplicationCommandInteractionDataOption{first}}}}
		var r *table.Refusal
		err := (&Bot{}).route(c)
		if !errors.As(err, &r) || r.Key != "err.unknown_command" {
			t.Errorf("%+v: got %v, want the unknown-command refusal", first, err)
		}
	}
}

// Every kind of component says where the bot posts it; one that did not would be
// refused everywhere (unplaced).
func TestEveryComponentKindHasAPlace(t *testing.T) {
	for _, routes := range []map[string]componentRoute{componentRoutes, modalRoutes} {
		for kind, r := range routes {
			if r.where == unplaced {
				t.Errorf("custom-id kind %q names no place", kind)
			}
		}
	}
	var r *table.Refusal
	err := (&Bot{}).checkPlace(&ictx{i: &discordgo.Interaction{}}, view.ID{Kind: "new"}, unplaced)
	if !errors.As(err, &r) || r.Key != "err.unknown_button" {
		t.Errorf("an unplaced kind: got %v, want the unknown-button refusal", err)
	}
}

// An option given twice is refused, naming it, before any handler reads either value
// (Discord's client never sends one; the fake Discord refuses to).
func TestAnOptionGivenTwiceIsRefused(t *testing.T) {
	b := &Bot{cat: i18n.MustLoad()}
	amount := func(n float64) *discordgo.ApplicationCommandInteractionDataOption {
		return &discordgo.ApplicationCommandInteractionDataOption{Name: "amount", Type: discordgo.ApplicationCommandOptionInteger, Value: n}
	}
	_, err := b.checkOptions(&ictx{lang: "en"}, "bank kitty", []*discordgo.ApplicationCommandInteractionDataOption{amount(5), amount(500)})
	var r *table.Refusal
	if !errors.As(err, &r) || r.Key != "err.option_twice" {
		t.Fatalf("got %v, want the option-twice refusal", err)
	}
	if got := b.words("en", err, nil); got != "The option “amount” was given twice. Give it once." {
		t.Errorf("the refusal reads %q", got)
	}
}

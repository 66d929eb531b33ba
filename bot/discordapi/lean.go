package discordapi

import (
	_ "unsafe" // for go:linkname

	"github.com/bwmarrin/discordgo"
)

// discordgo decodes every gateway event into the struct its package-level table of
// providers names for the event's type, before any handler sees it, and offers no way
// to change the table. For INTERACTION_CREATE that decode (discordgo's
// Interaction.UnmarshalJSON, which builds the whole message a component was on) was
// about a tenth of the bot's CPU under load. The table is reached here by name; a
// discordgo that renamed it would fail to link, loudly, and TestLeanInteractionEvents
// checks the behaviour at the version go.mod pins.
//
//go:linkname discordgoProviders github.com/bwmarrin/discordgo.registeredInterfaceProviders
var discordgoProviders map[string]discordgo.EventInterfaceProvider

// InteractionEvent is INTERACTION_CREATE decoded by DecodeInteraction: what
// discordgo hands to handlers of func(*discordgo.Session, any) once
// LeanInteractionEvents has run.
type InteractionEvent struct {
	Interaction *discordgo.Interaction
}

// UnmarshalJSON implements json.Unmarshaler.
func (e *InteractionEvent) UnmarshalJSON(raw []byte) error {
	i, err := DecodeInteraction(raw)
	e.Interaction = i
	return err
}

type leanProvider struct{}

func (leanProvider) Type() string { return "INTERACTION_CREATE" }
func (leanProvider) New() any     { return &InteractionEvent{} }

// LeanInteractionEvents makes every discordgo session of the process decode
// INTERACTION_CREATE into an *InteractionEvent instead of a *discordgo.InteractionCreate:
// handlers of func(*discordgo.Session, *discordgo.InteractionCreate) then get nothing,
// and handlers of func(*discordgo.Session, any) get the *InteractionEvent. It writes the
// table the gateway readers read, so it must run before any session opens: the
// program calls it first thing in main (and a test binary in its TestMain), where it
// is plain to see rather than a side effect of importing a package.
func LeanInteractionEvents() {
	discordgoProviders[leanProvider{}.Type()] = leanProvider{}
}

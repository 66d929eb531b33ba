package discordapi

import (
	"encoding/json"
	"errors"

	"github.com/bwmarrin/discordgo"
)

// DecodeInteraction decodes an interaction as discordgo's Interaction.UnmarshalJSON
// does, except for the message a component was on, which it keeps only as its id,
// channel, guild and flags.
//
// Discord sends that whole message with every click (its embeds, and its components
// with every select option), and building it was over a third of what decoding an
// interaction cost. The bot reads nothing of it but whether it is the member's ephemeral
// panel (its flags). All but the message is left to encoding/json: reading the
// interaction field by field by hand saved a few µs of a click's 700 or so, too little
// for a second decoder to keep in step with discordgo's types.
func DecodeInteraction(raw []byte) (*discordgo.Interaction, error) {
	var w *struct {
		interaction
		// These shadow the embedded fields of the same JSON names: Data is decoded by
		// the interaction's type below, as discordgo does, and Message is kept lean.
		Data    json.RawMessage `json:"data"`
		Message *leanMessage    `json:"message"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, err
	}
	if w == nil {
		return nil, errors.New("discordapi: null is not an interaction")
	}
	i := discordgo.Interaction(w.interaction)
	if m := w.Message; m != nil {
		i.Message = &discordgo.Message{ID: m.ID, ChannelID: m.ChannelID, GuildID: m.GuildID, Flags: m.Flags}
	}
	var err error
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		var v discordgo.ApplicationCommandInteractionData
		err = unmarshalData(w.Data, &v)
		i.Data = v
	case discordgo.InteractionMessageComponent:
		var v discordgo.MessageComponentInteractionData
		err = unmarshalData(w.Data, &v)
		i.Data = v
	case discordgo.InteractionModalSubmit:
		var v discordgo.ModalSubmitInteractionData
		err = unmarshalData(w.Data, &v)
		i.Data = v
	}
	if err != nil {
		return nil, err
	}
	return &i, nil
}

// interaction is discordgo.Interaction without its UnmarshalJSON method.
type interaction discordgo.Interaction

type leanMessage struct {
	ID        string                 `json:"id"`
	ChannelID string                 `json:"channel_id"`
	GuildID   string                 `json:"guild_id"`
	Flags     discordgo.MessageFlags `json:"flags"`
}

// unmarshalData decodes an interaction's data; a missing one is an error, as
// encoding/json gives discordgo for an empty RawMessage.
func unmarshalData(raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		return errors.New("discordapi: interaction without data")
	}
	return json.Unmarshal(raw, v)
}

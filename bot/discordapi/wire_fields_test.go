package discordapi

import (
	"reflect"
	"slices"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
)

// TestWireKnowsEveryFieldOfDiscordgosStructs: every field of every discordgo struct the
// hand-written encoder writes is one it writes or declines (wireFields), so a discordgo
// upgrade that adds a field to a message, an embed or a component fails here instead of
// the field going missing from the bot's answers and edits.
func TestWireKnowsEveryFieldOfDiscordgosStructs(t *testing.T) {
	types := []reflect.Type{
		reflect.TypeFor[discordgo.InteractionResponse](),
		reflect.TypeFor[discordgo.InteractionResponseData](),
		reflect.TypeFor[discordgo.MessageEdit](),
		reflect.TypeFor[discordgo.MessageAllowedMentions](),
		reflect.TypeFor[discordgo.ActionsRow](),
		reflect.TypeFor[discordgo.Button](),
		reflect.TypeFor[discordgo.SelectMenu](),
		reflect.TypeFor[discordgo.SelectMenuOption](),
		reflect.TypeFor[discordgo.TextInput](),
		reflect.TypeFor[discordgo.Container](),
		reflect.TypeFor[discordgo.TextDisplay](),
		reflect.TypeFor[discordgo.MediaGallery](),
		reflect.TypeFor[discordgo.MediaGalleryItem](),
		reflect.TypeFor[discordgo.UnfurledMediaItem](),
		reflect.TypeFor[discordgo.Separator](),
		reflect.TypeFor[discordgo.MessageEmbed](),
		reflect.TypeFor[discordgo.MessageEmbedFooter](),
		reflect.TypeFor[discordgo.MessageEmbedImage](),
		reflect.TypeFor[discordgo.MessageEmbedThumbnail](),
		reflect.TypeFor[discordgo.MessageEmbedAuthor](),
		reflect.TypeFor[discordgo.MessageEmbedField](),
	}
	var names []string
	for _, rt := range types {
		names = append(names, rt.Name())
		known, ok := wireFields[rt.Name()]
		if !assert.True(t, ok, "wireFields has no entry for discordgo.%s", rt.Name()) {
			continue
		}
		var fields []string
		for f := range rt.Fields() {
			fields = append(fields, f.Name)
		}
		for _, f := range fields {
			assert.Contains(t, known, f, "discordgo.%s.%s is neither written nor declined by wire.go", rt.Name(), f)
		}
		for _, f := range known {
			assert.Contains(t, fields, f, "wireFields names discordgo.%s.%s, which discordgo no longer has", rt.Name(), f)
		}
	}
	for name := range wireFields {
		assert.True(t, slices.Contains(names, name), "wireFields lists %s, which this test does not check", name)
	}
}

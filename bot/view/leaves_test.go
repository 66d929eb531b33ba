package view_test

import (
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"

	"github.com/pontoon-bot/pontoon/bot/view"
)

// Leaves opens containers, sections and action rows, as values (the bot's messages) and
// as pointers (Discord's, decoded), and lists what they hold in reading order, a
// section's accessory after its texts.
func TestLeavesOpenEveryHolderInReadingOrder(t *testing.T) {
	heading := discordgo.TextDisplay{Content: "heading"}
	line := &discordgo.TextDisplay{Content: "line"}
	hint := discordgo.Button{CustomID: "hint"}
	join := &discordgo.Button{CustomID: "join"}
	deal := discordgo.Button{CustomID: "deal"}
	msg := []discordgo.MessageComponent{
		discordgo.Container{Components: []discordgo.MessageComponent{
			heading,
			discordgo.Section{Components: []discordgo.MessageComponent{line}, Accessory: hint},
			&discordgo.ActionsRow{Components: []discordgo.MessageComponent{join}},
		}},
		&discordgo.Container{Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{deal}}}},
	}
	assert.Equal(t, []discordgo.MessageComponent{heading, line, hint, join, deal}, view.Leaves(msg))
	assert.Equal(t, "heading\nline", view.Text(msg))
}

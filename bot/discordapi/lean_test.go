package discordapi

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/discordtest"
)

// TestLeanInteractionEvents: once LeanInteractionEvents has run, discordgo hands a
// click to its sessions as an *InteractionEvent, decoded without the message
// it was on (but for its id and flags), and never as a *discordgo.InteractionCreate.
// It fails if LeanInteractionEvents stops swapping the decoder, or if a discordgo
// upgrade stops consulting the table it swaps.
func TestLeanInteractionEvents(t *testing.T) {
	// Before any session of the test opens; the other tests of the package keep
	// discordgo's own decoder.
	was := discordgoProviders["INTERACTION_CREATE"]
	t.Cleanup(func() { discordgoProviders["INTERACTION_CREATE"] = was })
	LeanInteractionEvents()
	const guild, channel, member = "910000000000000001", "910000000000000002", "910000000000000011"
	srv := discordtest.New(t)
	srv.AddGuild(guild, "en-GB")
	srv.AddChannel(guild, channel)
	srv.AddMember(guild, member, "alice", discordgo.PermissionSendMessages, "en-GB")
	s, err := NewSession(srv.Token, srv.URL(), nil)
	require.NoError(t, err)
	s.ShouldReconnectOnError = false
	s.LogLevel = -1

	var typed atomic.Int32
	lean := make(chan *InteractionEvent, 1)
	s.AddHandler(func(*discordgo.Session, *discordgo.InteractionCreate) { typed.Add(1) })
	s.AddHandler(func(s *discordgo.Session, v any) {
		if e, ok := v.(*InteractionEvent); ok {
			_ = s.InteractionRespond(e.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
			lean <- e
		}
	})
	require.NoError(t, s.Open())
	t.Cleanup(func() { _ = s.Close() })
	require.True(t, srv.WaitReady(5*time.Second))

	msg, err := s.ChannelMessageSendComplex(channel, &discordgo.MessageSend{
		Embeds: []*discordgo.MessageEmbed{{Title: "Table", Description: "a long description the bot never reads"}},
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Join", CustomID: "pt:join"}}}},
	})
	require.NoError(t, err)
	_, err = srv.Click(channel, msg.ID, member, "pt:join")
	require.NoError(t, err)

	select {
	case e := <-lean:
		i := e.Interaction
		require.NotNil(t, i)
		assert.Equal(t, "pt:join", i.MessageComponentData().CustomID)
		assert.Equal(t, member, i.Member.User.ID)
		require.NotNil(t, i.Message)
		assert.Equal(t, msg.ID, i.Message.ID)
		assert.Empty(t, i.Message.Embeds, "the message is not decoded")
		assert.Empty(t, i.Message.Components)
	case <-time.After(5 * time.Second):
		t.Fatal("no *InteractionEvent reached the session")
	}
	assert.Zero(t, typed.Load(), "discordgo decoded the interaction itself")
}

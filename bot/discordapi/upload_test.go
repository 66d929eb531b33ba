package discordapi_test

import (
	"bytes"
	"context"
	"image/png"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/discordapi"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/bot/view/picture"
	"github.com/pontoon-bot/pontoon/game"
)

const (
	guildID   = "900000000000000001"
	channelID = "900000000000000002"
	member    = "900000000000000011"
)

func fakeDiscord(t *testing.T) (*discordtest.Server, *discordgo.Session) {
	t.Helper()
	srv := discordtest.New(t)
	srv.AddGuild(guildID, "en-GB")
	srv.AddChannel(guildID, channelID)
	srv.AddMember(guildID, member, "alice", discordgo.PermissionSendMessages, "en-GB")
	s, err := discordapi.NewSession(srv.Token, srv.URL(), nil)
	require.NoError(t, err)
	s.ShouldReconnectOnError = false
	s.LogLevel = -1
	return srv, s
}

// tablePicture renders a small table, as the bot will at the deal.
func tablePicture(t *testing.T, stake int64) picture.Picture {
	t.Helper()
	pic, err := picture.Render(picture.Table{
		Bank: 500, Labels: picture.Labels{Bank: "Bank", Banker: "Banker", FaceDown: "face down", Stake: func(a string) string { return "stake " + a }},
		Seats: []picture.Seat{
			{Name: "Alice", Banker: true, Hands: []picture.Hand{{Cards: []game.HandCard{{Card: game.Card{Rank: game.King, Suit: game.Hearts}, FaceUp: true}, {Card: game.Card{Rank: 5, Suit: game.Spades}}}}}},
			{Name: "Bob", Turn: true, Hands: []picture.Hand{{Stake: stake, Cards: []game.HandCard{{Card: game.Card{Rank: 7, Suit: game.Clubs}, FaceUp: true}}}}},
		},
	})
	require.NoError(t, err)
	return pic
}

func tableUpload(pic picture.Picture) []discordapi.Upload {
	return []discordapi.Upload{{Name: picture.FileName, ContentType: "image/png", Data: pic.PNG, Description: pic.Alt}}
}

func tableEmbed() []*discordgo.MessageEmbed {
	return []*discordgo.MessageEmbed{{Title: "Pontoon", Description: "Bob to play", Image: &discordgo.MessageEmbedImage{URL: picture.EmbedURL}}}
}

func fetch(t *testing.T, url string) []byte {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return b
}

// TestUploadTablePicture sends the rendered table as Discord will get it:
// the PNG uploaded as table.png with the alt text as its description, the
// embed's image pointing at it; an edit at the next moment that matters
// replaces it, and an edit in between leaves it.
func TestUploadTablePicture(t *testing.T) {
	srv, s := fakeDiscord(t)
	first := tablePicture(t, 20)
	msg, err := discordapi.SendMessage(s, channelID, &discordgo.MessageSend{Embeds: tableEmbed()}, tableUpload(first))
	require.NoError(t, err)
	require.Empty(t, srv.Failures())
	// The embed shows the picture, so, as on Discord, the message's
	// attachments array leaves it out; the fake still holds it.
	assert.Empty(t, msg.Attachments)
	assert.Equal(t, first.Width, msg.Embeds[0].Image.Width)
	assert.Equal(t, first.Height, msg.Embeds[0].Image.Height)
	atts := srv.Attachments(msg.ID)
	require.Len(t, atts, 1)
	assert.Equal(t, picture.FileName, atts[0].Filename)
	assert.Equal(t, first.Alt, atts[0].Description)
	assert.Contains(t, first.Alt, "Alice (Banker): K♥, face down")
	served := fetch(t, msg.Embeds[0].Image.URL)
	assert.Equal(t, first.PNG, served)
	_, err = png.DecodeConfig(bytes.NewReader(served))
	require.NoError(t, err)

	// An edit without files keeps the picture: the embed still names it.
	embeds := tableEmbed()
	embeds[0].Description = "Bob twists"
	edit := discordgo.NewMessageEdit(channelID, msg.ID)
	edit.Embeds = &embeds
	kept, err := s.ChannelMessageEditComplex(edit)
	require.NoError(t, err)
	require.Len(t, srv.Attachments(msg.ID), 1)
	assert.Equal(t, atts[0].ID, srv.Attachments(msg.ID)[0].ID)
	assert.Equal(t, first.PNG, fetch(t, kept.Embeds[0].Image.URL))

	// The next moment that matters replaces it.
	second := tablePicture(t, 40)
	require.NotEqual(t, first.Alt, second.Alt)
	edit = discordgo.NewMessageEdit(channelID, msg.ID)
	edit.Embeds = &embeds
	got, err := discordapi.EditMessage(s, edit, tableUpload(second))
	require.NoError(t, err)
	require.Len(t, srv.Attachments(msg.ID), 1, "the old picture is gone")
	assert.NotEqual(t, atts[0].ID, srv.Attachments(msg.ID)[0].ID)
	assert.Equal(t, second.PNG, fetch(t, got.Embeds[0].Image.URL))
	assert.Equal(t, second.Alt, srv.Attachments(msg.ID)[0].Description)

	// ReplaceMessage does the same without decoding the answer.
	third := tablePicture(t, 60)
	edit = discordgo.NewMessageEdit(channelID, msg.ID)
	edit.Embeds = &embeds
	require.NoError(t, discordapi.ReplaceMessage(context.Background(), s, edit, tableUpload(third)))
	require.Len(t, srv.Attachments(msg.ID), 1, "the second picture is gone")
	assert.Equal(t, third.Alt, srv.Attachments(msg.ID)[0].Description)
	assert.Equal(t, third.PNG, srv.Attachments(msg.ID)[0].Data)
	assert.Empty(t, srv.Failures())
}

// TestRespondWithPicture answers a button with the picture through the
// gateway: a type 7 update replacing the picture, then an edit of the
// original response of a command.
func TestRespondWithPicture(t *testing.T) {
	srv, s := fakeDiscord(t)
	_, err := s.ApplicationCommandBulkOverwrite(srv.AppID, guildID, []*discordgo.ApplicationCommand{{Name: "table", Description: "Show the table"}})
	require.NoError(t, err)
	done := make(chan error, 4)
	s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		switch i.Type {
		case discordgo.InteractionApplicationCommand:
			err := s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
			if err == nil {
				_, err = discordapi.EditResponse(s, i.Interaction, &discordgo.WebhookEdit{
					Embeds: &[]*discordgo.MessageEmbed{tableEmbed()[0]},
					Components: &[]discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
						discordgo.Button{Label: "Deal", CustomID: "deal"}}}},
				}, tableUpload(tablePicture(t, 20)))
			}
			done <- err
		case discordgo.InteractionMessageComponent:
			done <- discordapi.Respond(s, i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseUpdateMessage,
				Data: &discordgo.InteractionResponseData{Embeds: tableEmbed()},
			}, tableUpload(tablePicture(t, 40)))
		}
	})
	require.NoError(t, s.Open())
	t.Cleanup(func() { _ = s.Close() })
	require.True(t, srv.WaitReady(5*time.Second))

	r, err := srv.Command(guildID, channelID, member, "table", nil)
	require.NoError(t, err)
	edited, err := r.WaitEdit(3 * time.Second)
	require.NoError(t, err)
	require.NoError(t, <-done)
	require.Len(t, srv.Attachments(edited.ID), 1)
	assert.Equal(t, tablePicture(t, 20).Alt, srv.Attachments(edited.ID)[0].Description)

	_, err = srv.Click(channelID, edited.ID, member, "deal")
	require.NoError(t, err)
	require.NoError(t, <-done)
	m := srv.Message(channelID, edited.ID)
	require.Len(t, srv.Attachments(edited.ID), 1)
	want := tablePicture(t, 40)
	assert.Equal(t, want.PNG, fetch(t, m.Embeds[0].Image.URL))
	assert.Equal(t, want.Alt, srv.Attachments(edited.ID)[0].Description)
	assert.Empty(t, srv.Failures())
}

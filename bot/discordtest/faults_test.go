package discordtest_test

import (
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/discordtest"
)

// skipUnlessCI skips a check that needs a file beside the repository, except in CI,
// where a missing file must fail the run instead of quietly dropping the check.
func skipUnlessCI(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("CI is set: %s", why)
	}
	t.Skip(why)
}

func buttonMessage() *discordgo.MessageSend {
	return &discordgo.MessageSend{Content: "table", Components: []discordgo.MessageComponent{
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Join", Style: discordgo.PrimaryButton, CustomID: "join"},
		}},
	}}
}

// On Discord an edit with "components": null (what discordgo sends for a nil slice
// behind MessageEdit.Components) or without the field keeps the buttons; only an
// empty list removes them. The same holds for webhook edits.
func TestEditKeepsComponentsUnlessEmptyList(t *testing.T) {
	srv := discordtest.New(t)
	populate(srv)
	s := newSession(t, srv)
	m, err := s.ChannelMessageSendComplex(channelID, buttonMessage())
	require.NoError(t, err)

	var none []discordgo.MessageComponent
	edit := discordgo.NewMessageEdit(channelID, m.ID).SetContent("closed")
	edit.Components = &none // "components": null
	_, err = s.ChannelMessageEditComplex(edit)
	require.NoError(t, err)
	got := srv.Message(channelID, m.ID)
	assert.Equal(t, "closed", got.Content)
	assert.Len(t, discordtest.Components(got), 1, "components: null keeps the buttons")

	_, err = s.ChannelMessageEdit(channelID, m.ID, "still") // no components field
	require.NoError(t, err)
	assert.Len(t, discordtest.Components(srv.Message(channelID, m.ID)), 1, "a missing field keeps the buttons")

	empty := []discordgo.MessageComponent{}
	edit = discordgo.NewMessageEdit(channelID, m.ID).SetContent("gone")
	edit.Components = &empty
	_, err = s.ChannelMessageEditComplex(edit)
	require.NoError(t, err)
	assert.Empty(t, discordtest.Components(srv.Message(channelID, m.ID)), "[] clears them")
	require.Empty(t, srv.Failures())
}

// SetAppPermissions gives one channel its own bot permissions: interactions there carry
// them as app_permissions, and REST calls the bot may not make answer 403 with
// Discord's codes.
func TestChannelAppPermissions(t *testing.T) {
	const other = "900000000000000003"
	h := newHarness(t, nil)
	h.srv.AddChannel(guildID, other)
	h.srv.SetAppPermissions(other, discordtest.PermViewChannel)

	got := make(chan int64, 2)
	h.handle("perms", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
		got <- i.AppPermissions
		return s.InteractionRespond(i.Interaction, ephemeral("ok"))
	})
	for _, ch := range []string{channelID, other} {
		_, err := h.srv.Command(guildID, ch, alice, "probe", []*discordgo.ApplicationCommandInteractionDataOption{{Name: "case", Value: "perms"}})
		require.NoError(t, err)
		require.NoError(t, h.handlerErr(t))
	}
	assert.Equal(t, discordtest.DefaultAppPermissions, <-got)
	assert.Equal(t, discordtest.PermViewChannel, <-got)

	post := func(m *discordgo.MessageSend) (int, int) {
		_, err := h.s.ChannelMessageSendComplex(other, m)
		if err == nil {
			return 200, 0
		}
		return restCode(t, err)
	}
	status, code := post(&discordgo.MessageSend{Content: "hi"})
	assert.Equal(t, http.StatusForbidden, status)
	assert.Equal(t, 50013, code, "no Send Messages: Missing Permissions")

	h.srv.SetAppPermissions(other, discordtest.PermViewChannel|discordtest.PermSendMessages)
	status, _ = post(&discordgo.MessageSend{Content: "hi"})
	assert.Equal(t, 200, status)
	status, code = post(&discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Title: "table"}}})
	assert.Equal(t, http.StatusForbidden, status)
	assert.Equal(t, 50013, code, "embeds without Embed Links: Missing Permissions")

	h.srv.SetAppPermissions(other, discordtest.PermSendMessages)
	status, code = post(&discordgo.MessageSend{Content: "hi"})
	assert.Equal(t, http.StatusForbidden, status)
	assert.Equal(t, 50001, code, "no View Channel: Missing Access")

	h.srv.ClearFailures()
	_, err := h.s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Title: "table"}}})
	require.NoError(t, err, "other channels keep the default permissions")
}

// HoldNext keeps a request waiting until the test decides: Release serves it, Fail
// answers an error and stores nothing. FailNext answers errors without a hold.
// Neither counts as a failure of the bot.
func TestHoldAndFailNext(t *testing.T) {
	srv := discordtest.New(t)
	populate(srv)
	s := newSession(t, srv)

	hold := srv.HoldNext("POST /channels/" + channelID + "/messages")
	done := make(chan error, 1)
	go func() { _, err := s.ChannelMessageSendComplex(channelID, buttonMessage()); done <- err }()
	select {
	case <-hold.Arrived():
	case <-time.After(5 * time.Second):
		t.Fatal("the request never arrived")
	}
	select {
	case <-done:
		t.Fatal("a held request must not be answered")
	case <-time.After(50 * time.Millisecond):
	}
	hold.Fail(http.StatusForbidden, 50013, "Missing Permissions")
	err := <-done
	status, code := restCode(t, err)
	assert.Equal(t, http.StatusForbidden, status)
	assert.Equal(t, 50013, code)
	assert.Empty(t, srv.Messages(channelID), "a failed hold stores nothing")

	hold = srv.HoldNext("POST /channels/" + channelID + "/messages")
	go func() { _, err := s.ChannelMessageSendComplex(channelID, buttonMessage()); done <- err }()
	<-hold.Arrived()
	hold.Release()
	require.NoError(t, <-done)
	assert.Len(t, srv.Messages(channelID), 1, "a released hold is served")

	srv.FailNext("POST /channels/"+channelID+"/messages", 1, http.StatusForbidden, 50001, "Missing Access")
	_, err = s.ChannelMessageSendComplex(channelID, buttonMessage())
	_, code = restCode(t, err)
	assert.Equal(t, 50001, code)
	_, err = s.ChannelMessageSendComplex(channelID, buttonMessage())
	require.NoError(t, err, "only the next n requests fail")
	assert.Empty(t, srv.Failures(), "injected errors are not the bot's failures")
}

// FailEvery fails every matching request, however many come, until stopped, and counts
// them; other routes are served as usual.
func TestFailEvery(t *testing.T) {
	srv := discordtest.New(t)
	populate(srv)
	s := newSession(t, srv)
	failed, stop := srv.FailEvery("POST /channels/"+channelID+"/messages", http.StatusInternalServerError, 0, "500: Internal Server Error")
	for range 3 {
		_, err := s.ChannelMessageSendComplex(channelID, buttonMessage())
		status, _ := restCode(t, err)
		assert.Equal(t, http.StatusInternalServerError, status)
	}
	assert.Equal(t, 3, failed())
	assert.Empty(t, srv.Messages(channelID), "a failed request stores nothing")
	_, err := s.ChannelMessages(channelID, 10, "", "", "")
	require.NoError(t, err, "another route is served")
	stop()
	_, err = s.ChannelMessageSendComplex(channelID, buttonMessage())
	require.NoError(t, err, "stopped: requests are served again")
	assert.Equal(t, 3, failed(), "nor counted")
	assert.Empty(t, srv.Failures(), "injected errors are not the bot's failures")
}

// SetGlobalRateLimit counts every route of the token but interaction callbacks and
// webhooks; a request past it is a global 429 and a failure: the bot did not pace
// itself. discordgo waits it out and retries.
func TestGlobalRateLimit(t *testing.T) {
	srv := discordtest.New(t)
	populate(srv)
	s := newSession(t, srv)
	srv.SetGlobalRateLimit(3, time.Minute)
	for i := 0; i < 3; i++ {
		_, err := s.ChannelMessageSend(channelID, "hi")
		require.NoError(t, err)
	}
	assert.Empty(t, srv.Failures())
	srv.SetGlobalRateLimit(1, 300*time.Millisecond)
	_, err := s.ChannelMessageSend(channelID, "one")
	require.NoError(t, err)
	_, err = s.ChannelMessageSend(channelID, "two") // past the limit: 429, then retried
	require.NoError(t, err)
	require.Len(t, srv.Failures(), 1)
	assert.Contains(t, srv.Failures()[0], "429 global rate limit")
	var global int
	for _, r := range srv.Requests() {
		if r.Status == http.StatusTooManyRequests {
			global++
		}
	}
	assert.Equal(t, 1, global)
}

package discordtest_test

import (
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/discordtest"
)

// TestResume drops the connection under a bot that reconnects: the
// interaction sent meanwhile is replayed on resume and answered in time.
// Then the fake asks for a reconnect (op 7), and at last ends the session,
// so the bot must identify again.
//
// Before each blow the test waits for the connection's first heartbeat:
// discordgo's heartbeat goroutine starts by taking the session lock, and if
// Close holds it (for its one-second sleep) the goroutine later writes to the
// dead connection, calls Close again and closes the new connection with
// 1000, which ends the session (README: discordgo traps). That is
// discordgo's behaviour, not the fake's; this test is about resuming.
func TestResume(t *testing.T) {
	h := newHarness(t, func(s *discordgo.Session) { s.ShouldReconnectOnError = true },
		discordtest.WithHeartbeatInterval(time.Minute))
	srv := h.srv
	h.handle("again", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
		return s.InteractionRespond(i.Interaction, ephemeral("back"))
	})
	beats := 0
	settled := func() {
		t.Helper()
		require.Eventually(t, func() bool { return srv.GatewayState().Heartbeats > beats }, 5*time.Second, 5*time.Millisecond)
		beats = srv.GatewayState().Heartbeats
	}

	settled()
	srv.Disconnect()
	r, err := h.probe(alice, "again") // sent while the bot is away
	require.NoError(t, err)
	require.NoError(t, h.handlerErr(t))
	assert.Equal(t, "back", r.Message.Content)
	st := srv.GatewayState()
	assert.Equal(t, 1, st.Identifies)
	assert.Equal(t, 1, st.Resumes)

	settled()
	srv.RequestReconnect()
	require.Eventually(t, func() bool { return srv.GatewayState().Resumes == 2 }, 5*time.Second, 10*time.Millisecond)
	require.True(t, srv.WaitReady(5*time.Second))
	_, err = h.probe(alice, "again")
	require.NoError(t, err)
	require.NoError(t, h.handlerErr(t))

	settled()
	srv.InvalidateSessions()
	require.Eventually(t, func() bool { return srv.GatewayState().Identifies == 2 }, 5*time.Second, 10*time.Millisecond)
	require.True(t, srv.WaitReady(5*time.Second))
	_, err = h.probe(alice, "again")
	require.NoError(t, err)
	require.NoError(t, h.handlerErr(t))
	st = srv.GatewayState()
	assert.Equal(t, 2, st.Resumes)
	assert.Equal(t, 2, st.Identifies)
	assert.Equal(t, 1, st.Invalidated)
	assert.Empty(t, srv.Failures())
}

func TestIdentifyRejected(t *testing.T) {
	srv := discordtest.New(t)
	populate(srv)

	s := newSession(t, srv)
	s.Identify.Token = "Bot not-the-token"
	err := s.Open()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "4004")
	require.Len(t, srv.Failures(), 1)
	assert.Contains(t, srv.Failures()[0], "wrong token")
	assert.NotContains(t, srv.Failures()[0], "not-the-token")
	srv.ClearFailures()

	s = newSession(t, srv)
	s.Identify.Intents = discordgo.IntentsGuilds | discordgo.IntentsGuildMembers
	err = s.Open()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "4014")
	srv.ClearFailures()

	// No session: an interaction has nowhere to go.
	_, err = s.ApplicationCommandBulkOverwrite(srv.AppID, guildID, probeCommands)
	require.NoError(t, err)
	_, err = srv.Command(guildID, channelID, alice, "probe", []*discordgo.ApplicationCommandInteractionDataOption{{Name: "case", Value: "x"}})
	assert.ErrorIs(t, err, discordtest.ErrNotConnected)
}

package httpin_test

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/discordapi"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/bot/httpin"
)

// TestBehindTheFakeDiscord: the fake Discord checks the endpoint, sends a
// signed command, and takes the handler's deferral and then its late answer
// through the webhook, made by a real discordgo session; a forged request is
// refused and reaches nothing.
func TestBehindTheFakeDiscord(t *testing.T) {
	srv := discordtest.New(t)
	const guild, channel, member = "900000000000000001", "900000000000000002", "900000000000000011"
	srv.AddGuild(guild, "en-US")
	srv.AddChannel(guild, channel)
	srv.AddMember(guild, member, "alice", 0, "en-GB")
	rest, err := discordapi.NewSession(srv.Token, srv.URL(), nil)
	require.NoError(t, err)
	_, err = rest.ApplicationCommandBulkOverwrite(srv.AppID, guild, []*discordgo.ApplicationCommand{{Name: "balance", Description: "Your chips"}})
	require.NoError(t, err)

	key, err := httpin.ParsePublicKey(srv.PublicKey())
	require.NoError(t, err)
	release := make(chan struct{})
	var calls atomic.Int32
	h, err := httpin.New(httpin.Options{
		PublicKey: key, Webhooks: rest, DeferAfter: 50 * time.Millisecond, Logger: slog.New(slog.DiscardHandler),
		Router: func(_ context.Context, i *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
			calls.Add(1)
			<-release // a slow store
			return ephemeral("1000 chips, " + i.Member.User.ID), nil
		},
	})
	require.NoError(t, err)
	ts := httptest.NewServer(h)
	defer ts.Close()
	defer h.Wait()
	require.NoError(t, srv.SetInteractionsEndpoint(ts.URL))

	r, err := srv.Command(guild, channel, member, "balance", nil)
	require.NoError(t, err)
	assert.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, r.Type)
	assert.True(t, r.Ephemeral)
	close(release)
	m, err := r.WaitEdit(5 * time.Second)
	require.NoError(t, err)
	assert.Equal(t, "1000 chips, "+member, m.Content)
	assert.Empty(t, srv.Failures())

	srv.ForgeNext(discordtest.ForgeTamperedBody)
	_, err = srv.Command(guild, channel, member, "balance", nil)
	assert.ErrorIs(t, err, discordtest.ErrRefused)
	assert.EqualValues(t, 1, calls.Load(), "the forgery never reached the router")
	assert.Empty(t, srv.Failures())
}

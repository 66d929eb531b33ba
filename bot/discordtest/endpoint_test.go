package discordtest_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/bot/httpin"
)

// httpBot is a bot that receives interactions over HTTP through
// bot/httpin, with a REST-only discordgo session for what comes later.
type httpBot struct {
	srv   *discordtest.Server
	rest  *discordgo.Session
	url   string
	calls atomic.Int32
	route func(i *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error)
	h     *httpin.Handler
}

func newHTTPBot(t *testing.T, srv *discordtest.Server, route func(i *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error)) *httpBot {
	t.Helper()
	b := &httpBot{srv: srv, rest: newSession(t, srv), route: route}
	key, err := httpin.ParsePublicKey(srv.PublicKey())
	require.NoError(t, err)
	b.h, err = httpin.New(httpin.Options{
		PublicKey: key,
		Router: func(_ context.Context, i *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
			b.calls.Add(1)
			return b.route(i)
		},
		Webhooks:   b.rest,
		DeferAfter: 100 * time.Millisecond,
		Logger:     slog.New(slog.DiscardHandler),
	})
	require.NoError(t, err)
	ts := httptest.NewServer(b.h)
	t.Cleanup(ts.Close)
	t.Cleanup(b.h.Wait)
	b.url = ts.URL
	_, err = b.rest.ApplicationCommandBulkOverwrite(srv.AppID, guildID, probeCommands)
	require.NoError(t, err)
	return b
}

func probeCase(key string) []*discordgo.ApplicationCommandInteractionDataOption {
	return []*discordgo.ApplicationCommandInteractionDataOption{{Name: "case", Value: key}}
}

func caseOf(i *discordgo.InteractionCreate) string {
	if i.Type == discordgo.InteractionApplicationCommand {
		if o := i.ApplicationCommandData().GetOption("case"); o != nil {
			return o.StringValue()
		}
	}
	if i.Type == discordgo.InteractionMessageComponent {
		return i.MessageComponentData().CustomID
	}
	return ""
}

// TestEndpointSetup: like the Developer Portal, the fake takes an endpoint
// only if it answers a signed PING with PONG and a badly signed one with
// 401.
func TestEndpointSetup(t *testing.T) {
	srv := discordtest.New(t)
	populate(srv)
	careless := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"type":1}`) // answers everything, checks nothing
	}))
	defer careless.Close()
	err := srv.SetInteractionsEndpoint(careless.URL)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "bad signature with 200")

	mute := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotFound) }))
	defer mute.Close()
	err = srv.SetInteractionsEndpoint(mute.URL)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "answered a PING with 404")

	assert.ErrorContains(t, srv.SetInteractionsEndpoint("http://192.0.2.1/"), "not on loopback")

	b := newHTTPBot(t, srv, func(*discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) { return ephemeral("x"), nil })
	require.NoError(t, srv.SetInteractionsEndpoint(b.url))
	assert.Zero(t, b.calls.Load(), "PINGs never reach the router")
	assert.Empty(t, srv.Failures())
}

// TestInteractionsOverHTTP: commands and clicks go to the endpoint, signed,
// and the HTTP answer is the callback, checked as strictly as over REST.
func TestInteractionsOverHTTP(t *testing.T) {
	srv := discordtest.New(t)
	populate(srv)
	b := newHTTPBot(t, srv, func(i *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
		switch caseOf(i) {
		case "hello":
			return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "table open in " + string(i.Locale), Components: []discordgo.MessageComponent{
					discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "Join", CustomID: "join", Style: discordgo.PrimaryButton}}},
				}}}, nil
		case "join":
			return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
				Data: &discordgo.InteractionResponseData{Content: "joined: " + i.Member.User.ID}}, nil
		case "file":
			r := ephemeral("history attached")
			r.Data.Files = []*discordgo.File{{Name: "round-1.json", ContentType: "application/json", Reader: strings.NewReader(`{"round":1}`)}}
			return r, nil
		case "too long":
			return ephemeral(strings.Repeat("x", 2001)), nil
		}
		return ephemeral("?"), nil
	})
	require.NoError(t, srv.SetInteractionsEndpoint(b.url))

	r, err := srv.Command(guildID, channelID, alice, "probe", probeCase("hello"))
	require.NoError(t, err)
	assert.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, r.Type)
	assert.Equal(t, "table open in pl", r.Message.Content)
	assert.False(t, r.Ephemeral)

	c, err := srv.Click(channelID, r.Message.ID, bob, "join")
	require.NoError(t, err)
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, c.Type)
	assert.Equal(t, "joined: "+bob, srv.Message(channelID, r.Message.ID).Content)
	assert.Empty(t, srv.Message(channelID, r.Message.ID).Components, "type 7 replaces the whole message")

	f, err := srv.Command(guildID, channelID, alice, "probe", probeCase("file"))
	require.NoError(t, err)
	assert.True(t, f.Ephemeral)
	require.Len(t, f.Message.Attachments, 1)
	assert.Equal(t, "round-1.json", f.Message.Attachments[0].Filename)
	assert.Empty(t, srv.Failures())
	assert.Len(t, srv.Latencies(), 3)

	// A response Discord would refuse is refused here too, and the
	// interaction fails.
	srv.SetResponseDeadline(300 * time.Millisecond)
	_, err = srv.Command(guildID, channelID, alice, "probe", probeCase("too long"))
	require.Error(t, err)
	fails := strings.Join(srv.Failures(), "\n")
	assert.Contains(t, fails, "the endpoint's response")
	assert.Contains(t, fails, "content")
	assert.Contains(t, fails, "failed: no response within 300ms")
	srv.ClearFailures()
	assert.Equal(t, 0, srv.GatewayState().Identifies, "no gateway was involved")
}

// TestSlowRouterOverHTTP: a router slower than DeferAfter gets a deferral
// on time, and its answer arrives later through the webhook: an edit of the
// thinking message for a command, of the table message for a click.
func TestSlowRouterOverHTTP(t *testing.T) {
	srv := discordtest.New(t)
	populate(srv)
	release := make(chan struct{})
	b := newHTTPBot(t, srv, func(i *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
		switch caseOf(i) {
		case "table":
			return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "table", Components: []discordgo.MessageComponent{
					discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "Deal", CustomID: "deal", Style: discordgo.PrimaryButton}}},
				}}}, nil
		case "deal":
			<-release
			return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
				Data: &discordgo.InteractionResponseData{Content: "dealt"}}, nil
		case "slow":
			<-release
			return ephemeral("your balance: 1000"), nil
		}
		return ephemeral("?"), nil
	})
	require.NoError(t, srv.SetInteractionsEndpoint(b.url))

	r, err := srv.Command(guildID, channelID, alice, "probe", probeCase("slow"))
	require.NoError(t, err)
	assert.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, r.Type)
	assert.True(t, r.Ephemeral)
	release <- struct{}{}
	m, err := r.WaitEdit(5 * time.Second)
	require.NoError(t, err)
	assert.Equal(t, "your balance: 1000", m.Content)

	table, err := srv.Command(guildID, channelID, alice, "probe", probeCase("table"))
	require.NoError(t, err)
	c, err := srv.Click(channelID, table.Message.ID, bob, "deal")
	require.NoError(t, err)
	assert.Equal(t, discordgo.InteractionResponseDeferredMessageUpdate, c.Type)
	release <- struct{}{}
	m, err = c.WaitEdit(5 * time.Second)
	require.NoError(t, err)
	assert.Equal(t, "dealt", m.Content)
	assert.Empty(t, m.Components)
	assert.Empty(t, srv.Failures())
}

// TestForgeriesRefused: requests that are not Discord's get 401 from
// bot/httpin, never reach the router, and their tokens work nowhere.
func TestForgeriesRefused(t *testing.T) {
	srv := discordtest.New(t)
	populate(srv)
	b := newHTTPBot(t, srv, func(*discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
		return ephemeral("applied"), nil
	})
	require.NoError(t, srv.SetInteractionsEndpoint(b.url))
	for _, f := range []discordtest.Forgery{discordtest.ForgeWrongKey, discordtest.ForgeTamperedBody,
		discordtest.ForgeNoSignature, discordtest.ForgeStaleTimestamp} {
		srv.ForgeNext(f)
		_, err := srv.Command(guildID, channelID, alice, "probe", probeCase("x"))
		assert.ErrorIs(t, err, discordtest.ErrRefused, f.String())
	}
	assert.Zero(t, b.calls.Load())
	assert.Empty(t, srv.Failures())

	// The next, genuine one goes through.
	r, err := srv.Command(guildID, channelID, alice, "probe", probeCase("x"))
	require.NoError(t, err)
	assert.Equal(t, "applied", r.Message.Content)
}

// TestForgeryAcceptedIsAFailure: an endpoint that checks the signature of
// PINGs only passes the setup check, but the first forged click it takes
// is caught.
func TestForgeryAcceptedIsAFailure(t *testing.T) {
	srv := discordtest.New(t)
	populate(srv)
	b := newHTTPBot(t, srv, func(*discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
		return ephemeral("applied"), nil
	})
	sloppy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var i discordgo.InteractionCreate
		_ = json.Unmarshal(body, &i)
		if i.Type == discordgo.InteractionPing {
			r.Body = io.NopCloser(strings.NewReader(string(body)))
			b.h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(ephemeral("applied"))
	}))
	defer sloppy.Close()
	require.NoError(t, srv.SetInteractionsEndpoint(sloppy.URL))
	srv.ForgeNext(discordtest.ForgeWrongKey)
	_, err := srv.Command(guildID, channelID, alice, "probe", probeCase("x"))
	require.Error(t, err)
	assert.NotErrorIs(t, err, discordtest.ErrRefused)
	assert.Contains(t, err.Error(), "forged (wrong key) and the endpoint did not refuse it")
	require.Len(t, srv.Failures(), 1)
	assert.Contains(t, srv.Failures()[0], "answered a forged request (wrong key) with 200, not 401")
	srv.ClearFailures()
}

// TestEndpointsInTurn: with two replicas the fake alternates, as a load
// balancer would, and either answers for the same table.
func TestEndpointsInTurn(t *testing.T) {
	srv := discordtest.New(t)
	populate(srv)
	route := func(i *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
		return ephemeral("ok"), nil
	}
	a, b := newHTTPBot(t, srv, route), newHTTPBot(t, srv, route)
	require.NoError(t, srv.SetInteractionsEndpoint(a.url, b.url))
	for range 4 {
		_, err := srv.Command(guildID, channelID, alice, "probe", probeCase("x"))
		require.NoError(t, err)
	}
	assert.EqualValues(t, 2, a.calls.Load())
	assert.EqualValues(t, 2, b.calls.Load())
	assert.Equal(t, map[string]int{a.url: 2, b.url: 2}, srv.EndpointHits())
	assert.Empty(t, srv.Failures())

	// Back to the gateway: nobody is connected.
	require.NoError(t, srv.SetInteractionsEndpoint())
	_, err := srv.Command(guildID, channelID, alice, "probe", probeCase("x"))
	assert.ErrorIs(t, err, discordtest.ErrNotConnected)
}

// TestAcceptedAfterRESTCallback: a bot may answer an HTTP interaction
// through the callback route and then reply 202 with no body, as Discord's
// docs allow.
func TestAcceptedAfterRESTCallback(t *testing.T) {
	srv := discordtest.New(t)
	populate(srv)
	b := newHTTPBot(t, srv, nil)
	key, err := httpin.ParsePublicKey(srv.PublicKey())
	require.NoError(t, err)
	verify, err := httpin.New(httpin.Options{PublicKey: key, Logger: slog.New(slog.DiscardHandler),
		Router: func(context.Context, *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
			return nil, nil
		}})
	require.NoError(t, err)
	viaREST := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if ok, _ := verify.Verify(r.Header.Get(httpin.HeaderSignature), r.Header.Get(httpin.HeaderTimestamp), body); !ok {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		var i discordgo.InteractionCreate
		if !assert.NoError(t, json.Unmarshal(body, &i)) { // not require: this is the server's goroutine
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		if i.Type == discordgo.InteractionPing {
			_, _ = io.WriteString(w, `{"type":1}`)
			return
		}
		assert.NoError(t, b.rest.InteractionRespond(i.Interaction, ephemeral("via REST")))
		w.WriteHeader(http.StatusAccepted)
	}))
	defer viaREST.Close()
	require.NoError(t, srv.SetInteractionsEndpoint(viaREST.URL))
	r, err := srv.Command(guildID, channelID, alice, "probe", probeCase("x"))
	require.NoError(t, err)
	assert.Equal(t, "via REST", r.Message.Content)
	assert.Empty(t, srv.Failures())
}

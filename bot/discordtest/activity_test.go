package discordtest_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/discordtest"
)

const launchActivity discordgo.InteractionResponseType = 12

// LAUNCH_ACTIVITY (type 12) answers a command or a component with no data, as Discord
// takes it; with data, or for a modal submit, it is refused.
func TestLaunchActivityAnswersCommandsAndComponentsWithoutData(t *testing.T) {
	h := newHarness(t, nil)
	srv := h.srv

	h.handle("launch", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
		return s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: launchActivity})
	})
	r, err := h.probe(alice, "launch")
	require.NoError(t, err)
	require.NoError(t, h.handlerErr(t))
	assert.Equal(t, launchActivity, r.Type)
	assert.Nil(t, r.Message, "launching posts no message")
	h.noFailures(t)

	h.handle("launch-data", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
		bad := s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: launchActivity,
			Data: &discordgo.InteractionResponseData{Content: "open"}})
		if err := s.InteractionRespond(i.Interaction, ephemeral("ok")); err != nil {
			return err
		}
		return bad
	})
	_, err = h.probe(alice, "launch-data")
	require.NoError(t, err)
	status, code := restCode(t, h.handlerErr(t))
	assert.Equal(t, 400, status)
	assert.Equal(t, 50035, code)
	require.Len(t, srv.Failures(), 1)
	assert.Contains(t, srv.Failures()[0], "takes no data")
	srv.ClearFailures()

	h.handle("launch-modal", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
		return s.InteractionRespond(i.Interaction, amountModal("launch-submit"))
	})
	h.handle("launch-submit", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
		bad := s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: launchActivity})
		if err := s.InteractionRespond(i.Interaction, ephemeral("ok")); err != nil {
			return err
		}
		return bad
	})
	open, err := h.probe(alice, "launch-modal")
	require.NoError(t, err)
	require.NoError(t, h.handlerErr(t))
	_, err = srv.SubmitModal(channelID, alice, "launch-submit", map[string]string{"amount": "3"}, open)
	require.NoError(t, err)
	status, _ = restCode(t, h.handlerErr(t))
	assert.Equal(t, 400, status)
	require.Len(t, srv.Failures(), 1)
	assert.Contains(t, srv.Failures()[0], "not available for modal submit")
	srv.ClearFailures()
}

func postForm(t *testing.T, u string, form url.Values) (int, map[string]any) {
	t.Helper()
	resp, err := http.PostForm(u, form)
	require.NoError(t, err)
	defer resp.Body.Close()
	var body map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
	return resp.StatusCode, body
}

func getJSON(t *testing.T, u, auth string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, u, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", auth)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var body map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
	return resp.StatusCode, body
}

// An authorization code is exchanged once, only with the application's secret, for an
// access token that names its user; an instance is read with the bot token, and only one
// that runs.
func TestOAuthCodeIsExchangedOnceWithTheClientSecret(t *testing.T) {
	srv := discordtest.New(t)
	populate(srv)
	token := srv.URL() + "/api/v9/oauth2/token"
	code := srv.OAuthCode(alice)
	form := url.Values{"client_id": {srv.AppID}, "client_secret": {"wrong"}, "grant_type": {"authorization_code"}, "code": {code}}
	status, body := postForm(t, token, form)
	assert.Equal(t, 401, status)
	assert.Equal(t, "invalid_client", body["error"])

	form.Set("client_secret", srv.ClientSecret())
	status, body = postForm(t, token, form)
	require.Equal(t, 200, status, "%v", body)
	access, _ := body["access_token"].(string)
	require.NotEmpty(t, access)

	status, body = postForm(t, token, form)
	assert.Equal(t, 400, status, "a code works once")
	assert.Equal(t, "invalid_grant", body["error"])

	status, body = getJSON(t, srv.URL()+"/api/v9/users/@me", "Bearer "+access)
	require.Equal(t, 200, status)
	assert.Equal(t, alice, body["id"])
	status, _ = getJSON(t, srv.URL()+"/api/v9/users/@me", "Bearer nope")
	assert.Equal(t, 401, status)

	srv.AddActivityInstance("i-1", guildID, channelID, alice)
	inst := srv.URL() + "/api/v9/applications/" + srv.AppID + "/activity-instances/"
	status, body = getJSON(t, inst+"i-1", "Bot "+srv.Token)
	require.Equal(t, 200, status)
	loc, _ := body["location"].(map[string]any)
	assert.Equal(t, guildID, loc["guild_id"])
	assert.Equal(t, channelID, loc["channel_id"])
	assert.Equal(t, []any{alice}, body["users"])
	status, _ = getJSON(t, inst+"i-1", "Bearer "+access)
	assert.Equal(t, 401, status, "an instance is read with the bot token")
	status, _ = getJSON(t, inst+"i-2", "Bot "+srv.Token)
	assert.Equal(t, 404, status)
	assert.Empty(t, srv.Failures(), "refusals the test provokes are not failures")
	assert.True(t, strings.HasPrefix(srv.Requests()[0].Route, "POST /oauth2/token"))
}

// With Activities enabled the app has an Entry Point command (type 4), which a bulk
// overwrite must carry on (50240 otherwise), only globally, with a handler.
func TestABulkOverwriteMustKeepTheEntryPointCommand(t *testing.T) {
	srv := discordtest.New(t)
	populate(srv)
	s := newSession(t, srv)
	srv.EnableActivities()
	ep := discordgo.EndpointApplicationGlobalCommands(srv.AppID)
	pontoon := map[string]any{"name": "pontoon", "description": "Play", "type": 1}
	launch := map[string]any{"name": "launch", "description": "Launch an activity", "type": 4, "handler": 2}

	_, err := s.RequestWithBucketID("PUT", ep, []any{pontoon}, ep)
	_, code := restCode(t, err)
	assert.Equal(t, 50240, code)

	_, err = s.RequestWithBucketID("PUT", ep, []any{pontoon, launch}, ep)
	require.NoError(t, err)
	assert.Len(t, srv.Commands(""), 2)

	guildEP := discordgo.EndpointApplicationGuildCommands(srv.AppID, guildID)
	_, err = s.RequestWithBucketID("PUT", guildEP, []any{launch}, guildEP)
	status, _ := restCode(t, err)
	assert.Equal(t, 400, status, "an Entry Point command is global")

	noHandler := map[string]any{"name": "launch", "description": "Launch", "type": 4}
	_, err = s.RequestWithBucketID("PUT", ep, []any{pontoon, noHandler}, ep)
	status, _ = restCode(t, err)
	assert.Equal(t, 400, status, "an Entry Point command names its handler")
	srv.ClearFailures()
}

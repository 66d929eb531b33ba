package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With activity.listen set, serve offers Open table on the table message and serves
// the table's page, whose sign-in exchanges a code with the client secret; the secret,
// the code and the session never reach the output.
func TestServeServesTheTablesPage(t *testing.T) {
	bin := sharedBinary(t)
	fake := discordtest.New(t, discordtest.WithToken(token))
	fake.AddGuild(guild, "en-US")
	fake.AddChannel(guild, channel)
	fake.AddMember(guild, players[0], "p", 0, "en-US")
	fake.AddActivityInstance("i-1", guild, channel, players[0])
	addr := freeAddr(t)
	env := append(os.Environ(), "PONTOON_DISCORD_TOKEN="+token, "PONTOON_DISCORD_API_URL="+fake.URL(),
		"PONTOON_DISCORD_APPLICATION_ID="+fake.AppID, "PONTOON_DISCORD_CLIENT_SECRET="+fake.ClientSecret(),
		"PONTOON_ACTIVITY_LISTEN="+addr, "PONTOON_DATABASE_PATH="+filepath.Join(t.TempDir(), "pontoon.db"),
		"PONTOON_LOG_LEVEL=debug", "PONTOON_LOG_FORMAT=json")
	p := startServe(t, bin, env, 1)

	resp, err := http.Get("http://" + addr + "/api/config")
	require.NoError(t, err)
	var cfg map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&cfg))
	resp.Body.Close()
	assert.Equal(t, fake.AppID, cfg["client_id"])

	code := fake.OAuthCode(players[0])
	body, _ := json.Marshal(map[string]string{"code": code, "instance_id": "i-1"})
	resp, err = http.Post("http://"+addr+"/api/session", "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", out)

	r, err := fake.Command(guild, channel, players[0], "pontoon", []*discordgo.ApplicationCommandInteractionDataOption{
		{Name: "start", Type: discordgo.ApplicationCommandOptionSubCommand}})
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	require.Eventually(t, func() bool {
		m := table(fake)
		if m == nil {
			return false
		}
		_, ok := findID(m, "pt:open:", "")
		return ok
	}, 10*time.Second, 20*time.Millisecond, "Open table on the table message")

	stopServe(t, p)
	logs := p.logs.String()
	assert.Contains(t, logs, "serving the table's page")
	for name, secret := range map[string]string{"client secret": fake.ClientSecret(), "code": code,
		"session": out["session"].(string), "access token": out["access_token"].(string), "token": token} {
		assert.NotContains(t, logs, secret, name)
	}
	assert.Empty(t, fake.Failures())
}

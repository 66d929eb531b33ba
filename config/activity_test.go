package config_test

import (
	"fmt"
	"testing"

	"github.com/pontoon-bot/pontoon/config"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const clientSecret = "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW"

// The table's page is off by default; its keys load from the file and the variables
// (the origins as a comma-separated list), and the client secret is never shown.
func TestActivityKeysLoadAndTheClientSecretStaysHidden(t *testing.T) {
	d := config.Default()
	assert.Empty(t, d.Activity.Listen, "no page by default")
	require.NoError(t, d.Activity.Validate(d.Discord))

	path := writeFile(t, `
discord:
  application_id: "1100000000000000001"
activity:
  listen: "127.0.0.1:8080"
  origins: ["https://pontoon.example.com"]
`)
	c, err := config.Load(path, withToken(map[string]string{"PONTOON_DISCORD_CLIENT_SECRET": clientSecret}))
	require.NoError(t, err)
	require.NoError(t, c.Validate())
	assert.Equal(t, "127.0.0.1:8080", c.Activity.Listen)
	assert.Equal(t, []string{"https://pontoon.example.com"}, c.Activity.Origins)
	assert.Equal(t, clientSecret, c.Discord.ClientSecret.Reveal())
	for _, shown := range []string{c.String(), fmt.Sprintf("%+v", c), fmt.Sprintf("%#v", c)} {
		assert.NotContains(t, shown, clientSecret)
	}

	c, err = config.Load(path, withToken(map[string]string{"PONTOON_DISCORD_CLIENT_SECRET": clientSecret,
		"PONTOON_ACTIVITY_ORIGINS": "https://a.example, http://127.0.0.1:9000"}))
	require.NoError(t, err)
	assert.Equal(t, []string{"https://a.example", "http://127.0.0.1:9000"}, c.Activity.Origins)
}

// The page needs the client secret and the application id, a listen address and
// origins that are origins; each refusal names its key and never the secret.
func TestActivityNeedsItsSecretAndTakesOnlyOrigins(t *testing.T) {
	cases := []struct {
		env map[string]string
		key string
	}{
		{map[string]string{"PONTOON_ACTIVITY_LISTEN": ":8080", "PONTOON_DISCORD_APPLICATION_ID": "1"}, "discord.client_secret"},
		{map[string]string{"PONTOON_ACTIVITY_LISTEN": ":8080", "PONTOON_DISCORD_CLIENT_SECRET": clientSecret}, "discord.application_id"},
		{map[string]string{"PONTOON_ACTIVITY_LISTEN": "8080", "PONTOON_DISCORD_CLIENT_SECRET": clientSecret, "PONTOON_DISCORD_APPLICATION_ID": "1"}, "activity.listen"},
		{map[string]string{"PONTOON_ACTIVITY_LISTEN": ":8080", "PONTOON_DISCORD_CLIENT_SECRET": clientSecret, "PONTOON_DISCORD_APPLICATION_ID": "1",
			"PONTOON_ACTIVITY_ORIGINS": "https://a.example/path"}, "activity.origins"},
		{map[string]string{"PONTOON_DISCORD_CLIENT_SECRET": "short"}, "discord.client_secret"},
	}
	for _, tc := range cases {
		c, err := config.Load("", withToken(tc.env))
		require.NoError(t, err)
		err = c.Validate()
		var ce *config.Error
		require.ErrorAs(t, err, &ce, "%v", tc.env)
		assert.Equal(t, tc.key, ce.Key)
		assert.NotContains(t, err.Error(), clientSecret)
	}
}

package config_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/config"
)

// A discord.token that cannot be a bot token (three base64url parts, the first the
// bot's id) is refused at start with one line naming the key and its variable, never
// the value; a token of the right shape passes.
func TestTokenThatCannotBeABotTokenIsRefused(t *testing.T) {
	for _, bad := range []string{
		"x",
		"your-bot-token",
		"MTA5ODc2NTQzMjEw.GhIjKl",             // two parts
		"MTA5ODc2NTQzMjEw.GhIjKl.sekrit.more", // four parts
		"aGVsbG8gd29ybGQ.GhIjKl.sekrit-token-value",  // the first part is not an id
		"MTA5ODc2NTQzMjEw..sekrit-token-value",       // an empty part
		"MTA5ODc2NTQzMjEw.GhIjKl.sekrit+token/value", // not base64url
	} {
		c, err := config.Load("/dev/null", map[string]string{"PONTOON_DISCORD_TOKEN": bad})
		require.NoError(t, err)
		err = c.Validate()
		var ce *config.Error
		require.ErrorAs(t, err, &ce, bad)
		assert.Equal(t, "discord.token", ce.Key)
		msg := err.Error()
		assert.Contains(t, msg, "config: discord.token is not a Discord bot token")
		assert.Contains(t, msg, "set PONTOON_DISCORD_TOKEN or discord.token in the config file")
		assert.NotContains(t, msg, "\n")
		assert.NotContains(t, msg, bad)
	}
	c, err := config.Load("/dev/null", map[string]string{"PONTOON_DISCORD_TOKEN": "MTEwMDAwMDAwMDAwMDAwMDAwMQ.GfAkEt.abcDEF123_-xyz"})
	require.NoError(t, err)
	assert.NoError(t, c.Validate())
}

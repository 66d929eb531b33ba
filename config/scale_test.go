package config_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/config"
)

const publicKey = "9b4f5c1e0d2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4"

func TestScaleDefaults(t *testing.T) {
	s := config.Default().Discord.Scale
	assert.Equal(t, config.Scale{}, s, "no sharding and no HTTP endpoint unless asked")
	assert.False(t, s.Sharded())
	keys := strings.Join(config.Keys(), " ")
	assert.Contains(t, keys, "discord.api_url discord.shard_id discord.shard_count discord.shards discord.interactions_listen discord.public_key",
		"the keys sit in the discord section, in the example file's order")
}

func TestScaleFromFileAndEnv(t *testing.T) {
	path := writeFile(t, `
discord:
  token: "`+token+`"
  shard_id: 2
  shard_count: 3
  interactions_listen: "127.0.0.1:8443"
  public_key: `+publicKey+`
`)
	c, err := config.Load(path, noEnv)
	require.NoError(t, err)
	require.NoError(t, c.Validate())
	assert.Equal(t, config.Scale{ShardID: 2, ShardCount: 3, InteractionsListen: "127.0.0.1:8443", PublicKey: publicKey}, c.Discord.Scale)
	assert.True(t, c.Discord.Scale.Sharded())

	c, err = config.Load(path, map[string]string{"PONTOON_DISCORD_SHARD_ID": "0", "PONTOON_DISCORD_SHARD_COUNT": "0",
		"PONTOON_DISCORD_SHARDS": "auto", "PONTOON_DISCORD_INTERACTIONS_LISTEN": ":9000"})
	require.NoError(t, err)
	assert.Equal(t, config.Scale{Shards: "auto", InteractionsListen: ":9000", PublicKey: publicKey}, c.Discord.Scale,
		"the environment wins over the file")
	require.NoError(t, c.Validate())
	assert.True(t, c.Discord.Scale.Sharded())
	assert.Contains(t, c.String(), " discord.shards=auto ")
}

func TestScaleValidate(t *testing.T) {
	cases := []struct {
		name  string
		scale config.Scale
		key   string
		says  string
	}{
		{"id at the count", config.Scale{ShardID: 3, ShardCount: 3}, "discord.shard_id", "must be below discord.shard_count (3)"},
		{"id without count", config.Scale{ShardID: 1}, "discord.shard_id", "discord.shard_count is not set"},
		{"negative id", config.Scale{ShardID: -1, ShardCount: 2}, "discord.shard_id", "must be 0 or more"},
		{"negative count", config.Scale{ShardCount: -2}, "discord.shard_count", "must be from 1 to"},
		{"huge count", config.Scale{ShardCount: 1 << 20}, "discord.shard_count", "must be from 1 to"},
		{"shards not auto", config.Scale{Shards: "4"}, "discord.shards", `is "4", must be auto or empty`},
		{"auto and a count", config.Scale{Shards: "auto", ShardCount: 2}, "discord.shard_count", "while discord.shards is auto"},
		{"auto and an id", config.Scale{Shards: "auto", ShardID: 1}, "discord.shard_count", "while discord.shards is auto"},
		{"listen without key", config.Scale{InteractionsListen: ":8443"}, "discord.public_key", "is empty, but discord.interactions_listen is set"},
		{"key without listen", config.Scale{PublicKey: publicKey}, "discord.public_key", "discord.interactions_listen is empty"},
		{"key too short", config.Scale{InteractionsListen: ":8443", PublicKey: publicKey[:62]}, "discord.public_key", "64 hexadecimal digits"},
		{"key not hex", config.Scale{InteractionsListen: ":8443", PublicKey: strings.Repeat("x", 64)}, "discord.public_key", "64 hexadecimal digits"},
		{"listen without port", config.Scale{InteractionsListen: "localhost", PublicKey: publicKey}, "discord.interactions_listen", "must be host:port"},
		{"listen port not a number", config.Scale{InteractionsListen: ":https", PublicKey: publicKey}, "discord.interactions_listen", "must be host:port"},
		{"listen port too big", config.Scale{InteractionsListen: ":70000", PublicKey: publicKey}, "discord.interactions_listen", "must be host:port"},
		{"listen host not a name", config.Scale{InteractionsListen: "bad_host!:80", PublicKey: publicKey}, "discord.interactions_listen", "its host must be an IP address or a host name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := config.Default()
			cfg.Discord.Token = token
			cfg.Discord.Scale = c.scale
			err := cfg.Validate()
			var ce *config.Error
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, c.key, ce.Key)
			assert.Contains(t, err.Error(), c.says)
			assert.Contains(t, err.Error(), config.EnvName(c.key), "the message names the variable")
		})
	}
	for _, good := range []config.Scale{
		{ShardID: 0, ShardCount: 1},
		{ShardID: 15, ShardCount: 16},
		{Shards: "auto"},
		{InteractionsListen: ":8443", PublicKey: publicKey},
		{InteractionsListen: "[::1]:8443", PublicKey: strings.ToUpper(publicKey)},
		{InteractionsListen: "bot.internal:80", PublicKey: publicKey, ShardID: 1, ShardCount: 2},
	} {
		cfg := config.Default()
		cfg.Discord.Token = token
		cfg.Discord.Scale = good
		assert.NoError(t, cfg.Validate(), "%+v", good)
	}
}

func TestScaleBadValueNamesKey(t *testing.T) {
	_, err := config.Load(writeFile(t, "discord:\n  shard_count: two\n"), noEnv)
	var ce *config.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "discord.shard_count", ce.Key)
	assert.Contains(t, err.Error(), "must be a whole number")
}

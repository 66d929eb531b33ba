package config_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/config"
)

const adminToken = "adm1n-sekrit-0123456789abcdef"

// The admin listener serves no profiles and asks for no token unless told, and the
// interactions endpoint's limits default to a read timeout of 10s, an idle timeout of
// 30s and 256 connections; the keys follow discord.public_key and admin.listen.
func TestAdminAndEndpointDefaults(t *testing.T) {
	d := config.Default()
	assert.Equal(t, config.Admin{}, d.Admin, "no listener, no token, no pprof")
	assert.Equal(t, config.Endpoint{ReadTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second, MaxConnections: 256}, d.Discord.Endpoint)
	require.NoError(t, d.Admin.Validate())
	keys := strings.Join(config.Keys(), " ")
	assert.Contains(t, keys, "discord.public_key discord.interactions_read_timeout discord.interactions_idle_timeout discord.interactions_max_connections discord.client_secret database.path")
	assert.Contains(t, keys, "admin.listen admin.token admin.pprof runtime.max_procs")
}

// The keys load from the file and from their variables, the variables winning.
func TestAdminAndEndpointFromFileAndEnv(t *testing.T) {
	path := writeFile(t, `
discord:
  interactions_read_timeout: 5s
  interactions_idle_timeout: 2m
  interactions_max_connections: 64
admin:
  listen: "127.0.0.1:9464"
  token: "`+adminToken+`"
  pprof: true
`)
	c, err := config.Load(path, withToken(nil))
	require.NoError(t, err)
	require.NoError(t, c.Validate())
	assert.Equal(t, config.Endpoint{ReadTimeout: 5 * time.Second, IdleTimeout: 2 * time.Minute, MaxConnections: 64}, c.Discord.Endpoint)
	assert.Equal(t, config.Admin{Listen: "127.0.0.1:9464", Token: adminToken, Pprof: true}, c.Admin)

	c, err = config.Load(path, withToken(map[string]string{
		"PONTOON_DISCORD_INTERACTIONS_READ_TIMEOUT": "30s", "PONTOON_DISCORD_INTERACTIONS_IDLE_TIMEOUT": "1s",
		"PONTOON_DISCORD_INTERACTIONS_MAX_CONNECTIONS": "1", "PONTOON_ADMIN_TOKEN": strings.ToUpper(adminToken),
		"PONTOON_ADMIN_PPROF": "false",
	}))
	require.NoError(t, err)
	require.NoError(t, c.Validate(), "the edges are valid")
	assert.Equal(t, config.Endpoint{ReadTimeout: 30 * time.Second, IdleTimeout: time.Second, MaxConnections: 1}, c.Discord.Endpoint)
	assert.Equal(t, config.Admin{Listen: "127.0.0.1:9464", Token: config.Secret(strings.ToUpper(adminToken))}, c.Admin)
}

// Each bad value gets one line naming the key, the value (never the token's), what it
// must be and the variable that sets it, as the other keys' errors do.
func TestAdminAndEndpointValidateErrors(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"PONTOON_DISCORD_INTERACTIONS_READ_TIMEOUT": "31s"},
			"config: discord.interactions_read_timeout is 31s, must be from 1s to 30s; set PONTOON_DISCORD_INTERACTIONS_READ_TIMEOUT or discord.interactions_read_timeout in the config file"},
		{map[string]string{"PONTOON_DISCORD_INTERACTIONS_READ_TIMEOUT": "500ms"}, "config: discord.interactions_read_timeout is 500ms, must be from 1s to 30s"},
		{map[string]string{"PONTOON_DISCORD_INTERACTIONS_IDLE_TIMEOUT": "1h"},
			"config: discord.interactions_idle_timeout is 1h0m0s, must be from 1s to 5m0s; set PONTOON_DISCORD_INTERACTIONS_IDLE_TIMEOUT"},
		{map[string]string{"PONTOON_DISCORD_INTERACTIONS_MAX_CONNECTIONS": "0"},
			"config: discord.interactions_max_connections is 0, must be from 1 to 65536; set PONTOON_DISCORD_INTERACTIONS_MAX_CONNECTIONS"},
		{map[string]string{"PONTOON_ADMIN_TOKEN": "sekrit"},
			"config: admin.token is 6 characters, must be 16 to 256 visible ASCII characters without spaces (openssl rand -hex 32 makes one), or empty for none; set PONTOON_ADMIN_TOKEN or admin.token in the config file"},
		{map[string]string{"PONTOON_ADMIN_TOKEN": "sekrit sekrit sekrit"}, "config: admin.token is 20 characters, must be 16 to 256 visible ASCII"},
		{map[string]string{"PONTOON_ADMIN_TOKEN": "sekrit-sekrit-sekrit\u00e9"}, "config: admin.token is 22 characters"},
		{map[string]string{"PONTOON_ADMIN_TOKEN": strings.Repeat("sekrit", 43)}, "config: admin.token is 258 characters"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			cfg, err := config.Load("/dev/null", withToken(c.env))
			require.NoError(t, err)
			err = cfg.Validate()
			var ce *config.Error
			require.ErrorAs(t, err, &ce)
			assert.Contains(t, err.Error(), c.want)
			assert.NotContains(t, err.Error(), "\n")
			assert.NotContains(t, err.Error(), "sekrit")
		})
	}
	_, err := config.Load(writeFile(t, "admin:\n  pprof: sometimes\n"), noEnv)
	assert.EqualError(t, err, `config: admin.pprof is "sometimes", must be true or false; set PONTOON_ADMIN_PPROF or admin.pprof in the config file`)
	_, err = config.Load(writeFile(t, "admin:\n  token: ["+adminToken+"]\n"), noEnv)
	assert.EqualError(t, err, "config: admin.token must be text; set PONTOON_ADMIN_TOKEN or admin.token in the config file")
	_, err = config.Load(writeFile(t, "discord:\n  interactions_max_connections: many\n"), noEnv)
	assert.ErrorContains(t, err, `config: discord.interactions_max_connections is "many", must be a whole number`)
}

// The admin token is a secret: the configuration never shows it, however printed.
func TestAdminTokenNeverShown(t *testing.T) {
	c, err := config.Load("/dev/null", withToken(map[string]string{"PONTOON_ADMIN_TOKEN": adminToken}))
	require.NoError(t, err)
	require.Equal(t, adminToken, c.Admin.Token.Reveal())
	for _, out := range []string{c.String(), fmt.Sprintf("%v %+v %#v", c, c.Admin, c.Admin)} {
		assert.NotContains(t, out, "sekrit")
	}
	assert.Contains(t, c.String(), " admin.token=[redacted] ")
}

package config_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/pontoon-bot/pontoon/config"
	"github.com/pontoon-bot/pontoon/game"
)

const token = "MTA5ODc2NTQzMjEw.GhIjKl.sekrit-token-value_123"

// writeFile writes a config file in a temporary directory and returns its path.
func writeFile(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pontoon.yaml")
	require.NoError(t, os.WriteFile(path, []byte(body), 0o600))
	return path
}

// noEnv is an empty environment, so the tests do not read the machine's.
var noEnv = map[string]string{}

func TestDefaults(t *testing.T) {
	t.Chdir(t.TempDir()) // no config.yaml here
	c, err := config.Load("", noEnv)
	require.NoError(t, err)
	assert.Equal(t, config.Default(), c)
	assert.Equal(t, config.Config{
		Discord: config.Discord{APIURL: "https://discord.com",
			Endpoint: config.Endpoint{ReadTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second, MaxConnections: 256}},
		Database: config.Database{Path: "pontoon.db", Synchronous: "normal"},
		Log:      config.Log{Level: "info", Format: "text"},
		Game: config.Game{TurnTimer: 60 * time.Second, StartingChips: 1000, DailyAmount: 200,
			DailyCooldown: 24 * time.Hour, GiveMinRounds: 5, GiveMinAccountAge: 7 * 24 * time.Hour, GiveDailyCap: 1000,
			Rules: config.DefaultRules(), BankOfferTTL: 2 * time.Minute, BidWindow: 60 * time.Second, TablePicture: true},
		Runtime: config.Runtime{MaxProcs: 1, GCPercent: 200},
		Limits:  config.Limits{MaxOpenTables: 25, OddsPerHour: 10, OddsKept: 1000, IdleTable: 30 * time.Minute, CacheEntries: 10000},
	}, c)

	// The defaults are valid but for the missing token.
	var ce *config.Error
	require.ErrorAs(t, c.Validate(), &ce)
	assert.Equal(t, "discord.token", ce.Key)
	assert.EqualError(t, c.Validate(), "config: discord.token is empty; set PONTOON_DISCORD_TOKEN or discord.token in the config file")
	c.Discord.Token = token
	assert.NoError(t, c.Validate())
}

// TestDefaultRulesAreTheGames: the default house rules are the game's, and
// pass its parser.
func TestDefaultRulesAreTheGames(t *testing.T) {
	raw, err := config.Default().Game.RulesJSON()
	require.NoError(t, err)
	r, err := game.ParseRules(raw)
	require.NoError(t, err)
	assert.Equal(t, game.DefaultRules(), r)
}

// TestExampleFile: config.example.yaml loads to exactly the defaults and
// names every key's variable.
func TestExampleFile(t *testing.T) {
	c, err := config.Load("../config.example.yaml", noEnv)
	require.NoError(t, err)
	assert.Equal(t, config.Default(), c)
	b, err := os.ReadFile("../config.example.yaml")
	require.NoError(t, err)
	for _, k := range config.Keys() {
		assert.Contains(t, string(b), config.EnvName(k), k)
	}
	for k := range config.DefaultRules() {
		assert.Contains(t, string(b), "    "+k+":", "rule %s", k)
	}
}

func TestFile(t *testing.T) {
	path := writeFile(t, `
discord:
  token: "`+token+`"
  application_id: 1234567890
  guild_id: "42"
  api_url: http://127.0.0.1:8080
database:
  path: /var/lib/pontoon/p.db
log:
  level: debug
  format: json
game:
  turn_timer: 90s
  starting_chips: 500
  daily_amount: 50
  daily_cooldown: 12h
  language: pl
  bank_offer_ttl: 5m
  bid_window: 30s
  table_picture: false
  rules:
    variant: shoot
    max_stake: 100
    decks: 2
`)
	c, err := config.Load(path, noEnv)
	require.NoError(t, err)
	require.NoError(t, c.Validate())
	want := config.Default()
	want.Discord = config.Discord{Token: token, ApplicationID: "1234567890", GuildID: "42", APIURL: "http://127.0.0.1:8080",
		Endpoint: want.Discord.Endpoint}
	want.Database.Path = "/var/lib/pontoon/p.db"
	want.Log = config.Log{Level: "debug", Format: "json"}
	want.Game.TurnTimer = 90 * time.Second
	want.Game.StartingChips = 500
	want.Game.DailyAmount = 50
	want.Game.DailyCooldown = 12 * time.Hour
	want.Game.Language = "pl"
	want.Game.BankOfferTTL = 5 * time.Minute
	want.Game.BidWindow = 30 * time.Second
	want.Game.TablePicture = false
	want.Game.Rules["variant"] = "shoot"
	want.Game.Rules["max_stake"] = 100
	want.Game.Rules["decks"] = 2
	assert.Equal(t, want, c)
	assert.Equal(t, token, c.Discord.Token.Reveal())
	assert.Equal(t, slog.LevelDebug, c.Log.SlogLevel())

	raw, err := c.Game.RulesJSON()
	require.NoError(t, err)
	r, err := game.ParseRules(raw)
	require.NoError(t, err)
	assert.Equal(t, game.Shoot, r.Variant)
	assert.EqualValues(t, 100, r.MaxStake)
	assert.EqualValues(t, 2, r.Decks)
	assert.EqualValues(t, 1, r.MinStake, "rules the file leaves out keep their defaults")
}

func TestEnvOverridesFile(t *testing.T) {
	path := writeFile(t, `
discord:
  token: from-the-file
database:
  path: file.db
game:
  turn_timer: 90s
  rules:
    max_stake: 100
    min_stake: 5
`)
	c, err := config.Load(path, map[string]string{
		"PONTOON_DISCORD_TOKEN":            token,
		"PONTOON_DATABASE_PATH":            "env.db",
		"PONTOON_GAME_TURN_TIMER":          "2m",
		"PONTOON_GAME_STARTING_CHIPS":      "2500",
		"PONTOON_GAME_TABLE_PICTURE":       "false",
		"PONTOON_GAME_RULES_MAX_STAKE":     "200",
		"PONTOON_GAME_RULES_ROYAL_PONTOON": "true",
		"PONTOON_GAME_RULES_SPLIT":         "aces",
		"PONTOON_LOG_LEVEL":                "", // empty counts as unset
		"PONTOON_SOMETHING_ELSE":           "ignored",
		"HOME":                             "/root",
	})
	require.NoError(t, err)
	assert.Equal(t, token, c.Discord.Token.Reveal())
	assert.Equal(t, "env.db", c.Database.Path)
	assert.Equal(t, 2*time.Minute, c.Game.TurnTimer)
	assert.EqualValues(t, 2500, c.Game.StartingChips)
	assert.False(t, c.Game.TablePicture)
	assert.Equal(t, "info", c.Log.Level)
	assert.EqualValues(t, 200, c.Game.Rules["max_stake"])
	assert.EqualValues(t, 5, c.Game.Rules["min_stake"], "the file's rule stays")
	assert.Equal(t, true, c.Game.Rules["royal_pontoon"])
	assert.Equal(t, "aces", c.Game.Rules["split"])

	raw, err := c.Game.RulesJSON()
	require.NoError(t, err)
	r, err := game.ParseRules(raw)
	require.NoError(t, err)
	assert.EqualValues(t, 200, r.MaxStake)
	assert.True(t, r.RoyalPontoon)
	assert.Equal(t, game.SplitAces, r.Split)
}

func TestProcessEnvironment(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("PONTOON_DATABASE_PATH", "from-os.db")
	c, err := config.Load("", nil)
	require.NoError(t, err)
	assert.Equal(t, "from-os.db", c.Database.Path)
}

func TestDefaultFileInWorkingDirectory(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, config.DefaultFile), []byte("log:\n  level: warn\n"), 0o600))
	t.Chdir(dir)
	c, err := config.Load("", noEnv)
	require.NoError(t, err)
	assert.Equal(t, "warn", c.Log.Level)
}

func TestEmptyValuesKeepDefaults(t *testing.T) {
	c, err := config.Load(writeFile(t, "discord:\n  guild_id:\ngame:\n  turn_timer:\n"), noEnv)
	require.NoError(t, err)
	assert.Equal(t, config.Default(), c)
}

// TestLoadErrors: each malformed input gives its own one-line error naming
// the key (or the file).
func TestLoadErrors(t *testing.T) {
	cases := []struct {
		name string
		file string
		env  map[string]string
		want string
	}{
		{"missing file", "", nil, "config: file /nonexistent/pontoon.yaml does not exist"},
		{"bad yaml", "discord: [unclosed\n", nil, "is not valid YAML"},
		{"unknown key", "discord:\n  tokn: x\n", nil, "config: unknown key discord.tokn in "},
		{"unknown section", "databse:\n  path: x\n", nil, "config: unknown key databse.path in "},
		{"rules not a map", "game:\n  rules: 5\n", nil,
			"config: game.rules must be a mapping of rule names to values; set PONTOON_GAME_RULES or game.rules in the config file"},
		{"nested rule", "game:\n  rules:\n    split:\n      deep: 1\n", nil, "config: game.rules.split.deep is a mapping; house rules take plain values"},
		{"turn timer no unit", "game:\n  turn_timer: 60\n", nil,
			`config: game.turn_timer is "60", must be a duration with a unit, such as 90s, 5m or 24h; set PONTOON_GAME_TURN_TIMER or game.turn_timer in the config file`},
		{"turn timer env", "", map[string]string{"PONTOON_GAME_TURN_TIMER": "soon"},
			`config: game.turn_timer is "soon", must be a duration such as 90s, 5m or 24h; set PONTOON_GAME_TURN_TIMER`},
		{"daily cooldown", "game:\n  daily_cooldown: one day\n", nil, `config: game.daily_cooldown is "one day", must be a duration`},
		{"bank offer ttl", "", map[string]string{"PONTOON_GAME_BANK_OFFER_TTL": "2"}, "config: game.bank_offer_ttl is \"2\""},
		{"bid window", "game:\n  bid_window: [1]\n", nil, "config: game.bid_window is \"[1]\""},
		{"table picture env", "", map[string]string{"PONTOON_GAME_TABLE_PICTURE": "off"}, `config: game.table_picture is "off", must be true or false`},
		{"starting chips", "game:\n  starting_chips: lots\n", nil,
			`config: game.starting_chips is "lots", must be a whole number; set PONTOON_GAME_STARTING_CHIPS`},
		{"starting chips float", "game:\n  starting_chips: 10.5\n", nil, `config: game.starting_chips is "10.5", must be a whole number`},
		{"daily amount env", "", map[string]string{"PONTOON_GAME_DAILY_AMOUNT": "1e3"}, `config: game.daily_amount is "1e3", must be a whole number`},
		{"log level list", "log:\n  level: [a, b]\n", nil, `config: log.level must be text, not "[a b]"`},
		{"token map", "discord:\n  token:\n    a: b\n", nil, "config: unknown key discord.token.a"},
		{"token list", "discord:\n  token: [" + token + "]\n", nil, "config: discord.token must be text; set PONTOON_DISCORD_TOKEN"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := "/dev/null" // an empty file
			switch {
			case c.name == "missing file":
				path = "/nonexistent/pontoon.yaml"
			case c.file != "":
				path = writeFile(t, c.file)
			}
			env := c.env
			if c.name != "token list" { // the variable would hide the file's token

				env = withToken(env)
			}
			_, err := config.Load(path, env)
			require.Error(t, err)
			msg := err.Error()
			assert.Contains(t, msg, c.want)
			assert.NotContains(t, msg, "\n", "one line")
			assert.NotContains(t, msg, token)
			assert.NotContains(t, msg, "sekrit")
		})
	}
}

// withToken adds the token to an environment, so every test proves it is
// not echoed.
func withToken(env map[string]string) map[string]string {
	out := map[string]string{"PONTOON_DISCORD_TOKEN": token}
	for k, v := range env {
		out[k] = v
	}
	return out
}

// TestValidateErrors: each invalid value gives its own one-line error.
func TestValidateErrors(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"PONTOON_DISCORD_TOKEN": "Bot " + token}, "config: discord.token contains spaces or line breaks"},
		{map[string]string{"PONTOON_DISCORD_APPLICATION_ID": "my-app"}, `config: discord.application_id is "my-app", must be a Discord id (digits) or empty; set PONTOON_DISCORD_APPLICATION_ID or discord.application_id in the config file`},
		{map[string]string{"PONTOON_DISCORD_GUILD_ID": "12a"}, `config: discord.guild_id is "12a"`},
		{map[string]string{"PONTOON_DISCORD_API_URL": "discord.com"}, `config: discord.api_url is "discord.com", must start with https://`},
		{map[string]string{"PONTOON_DISCORD_API_URL": "ftp://discord.com"}, `config: discord.api_url is "ftp://discord.com", must start with https://`},
		{map[string]string{"PONTOON_DISCORD_API_URL": "https://"}, `config: discord.api_url is "https://", has no host`},
		{map[string]string{"PONTOON_DISCORD_API_URL": "https://x.test/?a=b"}, "must be a plain base URL"},
		{map[string]string{"PONTOON_DISCORD_API_URL": "http://[::1"}, "must be a URL such as https://discord.com"},
		{map[string]string{"PONTOON_LOG_LEVEL": "verbose"}, `config: log.level is "verbose", must be one of debug, info, warn, error; set PONTOON_LOG_LEVEL`},
		{map[string]string{"PONTOON_LOG_FORMAT": "xml"}, `config: log.format is "xml", must be text or json`},
		{map[string]string{"PONTOON_GAME_TURN_TIMER": "5s"}, "config: game.turn_timer is 5s, must be from 10s to 10m0s; set PONTOON_GAME_TURN_TIMER"},
		{map[string]string{"PONTOON_GAME_TURN_TIMER": "11m"}, "config: game.turn_timer is 11m0s, must be from 10s to 10m0s"},
		{map[string]string{"PONTOON_GAME_STARTING_CHIPS": "-1"}, "config: game.starting_chips is -1, must be from 0 to 1125899906842624"},
		{map[string]string{"PONTOON_GAME_DAILY_AMOUNT": "0"}, "config: game.daily_amount is 0, must be from 1"},
		{map[string]string{"PONTOON_GAME_DAILY_COOLDOWN": "1s"}, "config: game.daily_cooldown is 1s, must be from 1m0s"},
		{map[string]string{"PONTOON_GAME_LANGUAGE": "polish please"}, `config: game.language is "polish please", must be a language tag`},
		{map[string]string{"PONTOON_GAME_BANK_OFFER_TTL": "1h"}, "config: game.bank_offer_ttl is 1h0m0s, must be from 10s to 15m0s"},
		{map[string]string{"PONTOON_GAME_BID_WINDOW": "1s"}, "config: game.bid_window is 1s, must be from 10s to 10m0s"},
		{map[string]string{"PONTOON_DATABASE_URL": "mysql://u:sekrit@db/x"}, "config: database.url must start with postgres:// (leave it empty for SQLite"},
		{map[string]string{"PONTOON_DATABASE_URL": "postgres:///x?password=sekrit"}, "config: database.url has no host"},
		{map[string]string{"PONTOON_DATABASE_URL": "postgres://u:sekrit@[::1/x"}, "config: database.url is not a URL"},
		{map[string]string{"PONTOON_DATABASE_SYNCHRONOUS": "off"}, `config: database.synchronous is "off", must be normal or full; set PONTOON_DATABASE_SYNCHRONOUS`},
		{map[string]string{"PONTOON_RUNTIME_MAX_PROCS": "-1"}, `config: runtime.max_procs is -1, must be from 0 (one per CPU) to 1024`},
		{map[string]string{"PONTOON_RUNTIME_GC_PERCENT": "10"}, `config: runtime.gc_percent is 10, must be from 25 to 1000 (100 is Go's default)`},
		{map[string]string{"PONTOON_ADMIN_LISTEN": "9464"}, `config: admin.listen is "9464", must be host:port such as 127.0.0.1:9464`},
		{map[string]string{"PONTOON_ADMIN_LISTEN": "127.0.0.1:"}, `config: admin.listen is "127.0.0.1:", must be host:port`},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			cfg, err := config.Load("/dev/null", withTokenUnless(c.env))
			require.NoError(t, err)
			err = cfg.Validate()
			require.Error(t, err)
			var ce *config.Error
			require.True(t, errors.As(err, &ce))
			assert.Contains(t, err.Error(), c.want)
			assert.NotContains(t, err.Error(), "\n")
			assert.NotContains(t, err.Error(), "sekrit")
		})
	}
	// And the valid edges.
	for _, env := range []map[string]string{
		{"PONTOON_GAME_TURN_TIMER": "10s"}, {"PONTOON_GAME_TURN_TIMER": "10m"},
		{"PONTOON_GAME_STARTING_CHIPS": "0"}, {"PONTOON_GAME_LANGUAGE": "pt-BR"}, {"PONTOON_GAME_LANGUAGE": "es-419"},
		{"PONTOON_DISCORD_API_URL": "http://127.0.0.1:5555/api"}, {"PONTOON_DISCORD_GUILD_ID": "123456789012345678"},
		{"PONTOON_DATABASE_URL": "postgresql://bot:pw@db.internal:5432/pontoon?sslmode=require"},
		{"PONTOON_DATABASE_SYNCHRONOUS": "full"}, {"PONTOON_DATABASE_PATH": "", "PONTOON_DATABASE_URL": "postgres://db/x"},
		{"PONTOON_ADMIN_LISTEN": "127.0.0.1:9464"}, {"PONTOON_ADMIN_LISTEN": ":9464"}, {"PONTOON_ADMIN_LISTEN": "[::1]:0"},
	} {
		cfg, err := config.Load("/dev/null", withToken(env))
		require.NoError(t, err)
		assert.NoError(t, cfg.Validate(), "%v", env)
	}
}

// withTokenUnless adds the token unless the case sets its own.
func withTokenUnless(env map[string]string) map[string]string {
	if _, ok := env["PONTOON_DISCORD_TOKEN"]; ok {
		return env
	}
	return withToken(env)
}

// TestTokenNeverShown formats and encodes a Config every way a program
// might, and looks for the token.
func TestTokenNeverShown(t *testing.T) {
	c, err := config.Load("/dev/null", withToken(nil))
	require.NoError(t, err)
	require.Equal(t, token, c.Discord.Token.Reveal())

	var outs []string
	for _, v := range []any{c, &c, c.Discord, &c.Discord, c.Discord.Token, &c.Discord.Token,
		[]any{c}, map[string]any{"cfg": c}, struct{ C config.Config }{c}, struct{ D config.Discord }{c.Discord}} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%T", "%10.3v", "%-v"} {
			outs = append(outs, fmt.Sprintf(verb, v))
		}
		outs = append(outs, fmt.Sprint(v), fmt.Sprintln(v))
		j, err := json.Marshal(v)
		require.NoError(t, err)
		outs = append(outs, string(j))
		y, err := yaml.Marshal(v)
		require.NoError(t, err)
		outs = append(outs, string(y))
	}
	outs = append(outs, c.String(), c.GoString(), c.Discord.Token.String(), c.Discord.Token.GoString())
	var logs bytes.Buffer
	slog.New(slog.NewTextHandler(&logs, nil)).Info("config", "cfg", c, "token", c.Discord.Token, "discord", c.Discord)
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("config", "cfg", c, "token", c.Discord.Token, "discord", c.Discord)
	outs = append(outs, logs.String())

	for _, out := range outs {
		require.NotContains(t, out, "sekrit", "token leaked in %q", out)
		require.NotContains(t, out, "MTA5ODc2", "token leaked in %q", out)
	}
	assert.Contains(t, c.String(), "discord.token=[redacted]")
	assert.Contains(t, fmt.Sprintf("%+v", c), "discord.token=[redacted] discord.application_id= ")
	assert.Equal(t, `config.Secret("[redacted]")`, fmt.Sprintf("%#v", c.Discord.Token))
	assert.Equal(t, "", config.Secret("").String(), "an empty token shows as empty: unset, not hidden")
	assert.NotContains(t, config.Default().String(), "[redacted]")
}

// TestDatabaseLocation: database.url, when set, selects PostgreSQL over the
// file, and its password is never shown.
func TestDatabaseLocation(t *testing.T) {
	c, err := config.Load("/dev/null", map[string]string{"PONTOON_DATABASE_PATH": "x.db"})
	require.NoError(t, err)
	assert.Equal(t, "x.db", c.Database.Location())
	const u = "postgres://bot:sekrit@db:5432/pontoon"
	c, err = config.Load(writeFile(t, "database:\n  path: x.db\n  url: \""+u+"\"\n  synchronous: full\n"), noEnv)
	require.NoError(t, err)
	assert.Equal(t, u, c.Database.Location())
	assert.Equal(t, "full", c.Database.Synchronous)
	assert.NotContains(t, c.String(), "sekrit")
	assert.Contains(t, c.String(), "database.url=[redacted]")
	assert.NotContains(t, fmt.Sprintf("%#v %+v", c, c), "sekrit")
}

// TestStringListsEveryKey: the one-line form names each key once.
func TestStringListsEveryKey(t *testing.T) {
	s := config.Default().String()
	for _, k := range config.Keys() {
		assert.Equal(t, 1, strings.Count(s, " "+k+"=")+strings.Count(s[:len(k)+1], k+"="), k)
	}
	assert.Contains(t, s, `game.rules={"banker_may_double":false,`)
	assert.NotContains(t, s, "\n")
}

func TestSlogLevel(t *testing.T) {
	for level, want := range map[string]slog.Level{"debug": slog.LevelDebug, "info": slog.LevelInfo,
		"warn": slog.LevelWarn, "error": slog.LevelError} {
		assert.Equal(t, want, config.Log{Level: level}.SlogLevel())
	}
}

package main

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/discordtest"
)

// At the default log level a connect and a stop write none of discordgo's tracing: no
// "called", no READY payload dumped as Go syntax, no VoiceConnections map.
func TestDefaultLogLevelLeavesOutDiscordgosTrace(t *testing.T) {
	bin := sharedBinary(t)
	fake := discordtest.New(t, discordtest.WithToken(token))
	env := append(os.Environ(), "PONTOON_DISCORD_TOKEN="+token, "PONTOON_DISCORD_API_URL="+fake.URL(),
		"PONTOON_DATABASE_PATH="+filepath.Join(t.TempDir(), "pontoon.db"))
	p := startServe(t, bin, env, 1)
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	_ = p.cmd.Wait()
	logs := p.logs.String()
	assert.Contains(t, logs, "shutting down")
	for _, line := range strings.Split(logs, "\n") {
		assert.False(t, strings.Contains(line, "source=discordgo") && strings.Contains(line, "level=INFO"), "discordgo at info: %s", line)
	}
	assert.NotContains(t, logs, "First Packet")
	assert.NotContains(t, logs, "VoiceConnections")
	assert.NotContains(t, logs, "msg=called")
}

// With discord.api_url pointing elsewhere, an error connecting names that URL, not
// https://discord.com.
func TestConnectionErrorsNameTheConfiguredAPIURL(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	api := "http://" + l.Addr().String()
	require.NoError(t, l.Close()) // nothing listens there now: the connection is refused

	cmd := exec.Command(sharedBinary(t))
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "PONTOON_DISCORD_TOKEN="+token, "PONTOON_DISCORD_API_URL="+api,
		"PONTOON_DATABASE_PATH="+filepath.Join(t.TempDir(), "pontoon.db"))
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "serve cannot start without Discord")
	assert.Contains(t, string(out), api+"/api/v9/gateway")
	assert.NotContains(t, string(out), "discord.com")
}

// A misspelt PONTOON_ variable is warned of when serve starts, naming the variable
// meant and never the value; migrate warns the same way.
func TestMisspeltVariableIsWarnedOfAtStart(t *testing.T) {
	bin := sharedBinary(t)
	fake := discordtest.New(t, discordtest.WithToken(token))
	db := filepath.Join(t.TempDir(), "pontoon.db")
	env := append(os.Environ(), "PONTOON_DISCORD_TOKEN="+token, "PONTOON_DISCORD_API_URL="+fake.URL(),
		"PONTOON_DATABASE_PATH="+db, "PONTOON_GAME_TURN_TIMR=sekrit-value")
	p := startServe(t, bin, env, 1)
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	_ = p.cmd.Wait()
	logs := p.logs.String()
	assert.Contains(t, logs, `level=WARN msg="config: PONTOON_GAME_TURN_TIMR is not a setting and is ignored; did you mean PONTOON_GAME_TURN_TIMER?"`)
	assert.NotContains(t, logs, "sekrit-value")

	cmd := exec.Command(bin, "migrate")
	cmd.Dir = t.TempDir()
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Contains(t, string(out), "config: warning: PONTOON_GAME_TURN_TIMR is not a setting and is ignored; did you mean PONTOON_GAME_TURN_TIMER?")
	assert.NotContains(t, string(out), "sekrit-value")
}

// A house rule of the wrong kind is refused at start naming its key and variable, in
// the configuration's words rather than the JSON decoder's.
func TestAHouseRuleOfTheWrongKindNamesItsKey(t *testing.T) {
	cmd := exec.Command(sharedBinary(t), "serve")
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "PONTOON_DISCORD_TOKEN="+token, "PONTOON_GAME_RULES_MIN_STAKE=lots")
	out, err := cmd.CombinedOutput()
	require.Error(t, err)
	assert.Equal(t, "config: game.rules.min_stake is text, must be a number; set PONTOON_GAME_RULES_MIN_STAKE or game.rules.min_stake in the config file\n", string(out))
}

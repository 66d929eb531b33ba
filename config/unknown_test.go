package config_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/config"
)

// A single value where the file must hold a section ("discord: oops") is refused as
// such, naming the section and keys it holds, not as an unknown key.
func TestAValueWhereASectionBelongsIsRefusedAsSuch(t *testing.T) {
	path := writeFile(t, "discord: \"oops\"\n")
	_, err := config.Load(path, noEnv)
	require.Error(t, err)
	assert.Equal(t, "config: discord in "+path+" must be a section holding keys such as discord.token, discord.application_id, discord.guild_id, not a single value", err.Error())

	c, err := config.Load(writeFile(t, "discord:\n#  token: commented out\nlog:\n  level: warn\n"), noEnv)
	require.NoError(t, err, "an empty section sets nothing")
	assert.Equal(t, "warn", c.Log.Level)
	assert.Equal(t, config.Default().Discord, c.Discord, "the section's keys keep their defaults")

	_, err = config.Load(writeFile(t, "game: 5\n"), noEnv)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "config: game in ")
	assert.Contains(t, err.Error(), "must be a section holding keys such as game.turn_timer")
}

// A misspelt house rule, in the file or in a variable, is refused at load in the terms
// it was written in: the key or the variable, the closest rule, and the rules there are.
func TestAMisspeltHouseRuleNamesTheClosestRule(t *testing.T) {
	path := writeFile(t, "game:\n  rules:\n    max_stak: 100\n")
	_, err := config.Load(path, noEnv)
	require.Error(t, err)
	assert.Equal(t, "config: game.rules.max_stak in "+path+" is not a house rule; did you mean game.rules.max_stake? "+
		"(house rules: banker_may_double, banker_pontoon_collects, burn, decks, four_low_twist_only, kitty_max, kitty_min, "+
		"max_stake, min_stake, pontoon_pays, pontoon_tiers, royal_pontoon, split, stick_min, variant)", err.Error())
	assert.NotContains(t, err.Error(), "json")

	_, err = config.Load("/dev/null", map[string]string{"PONTOON_GAME_RULES_ROYAL_PONTON": "true"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "config: PONTOON_GAME_RULES_ROYAL_PONTON is not a house rule; did you mean PONTOON_GAME_RULES_ROYAL_PONTOON?")

	_, err = config.Load(writeFile(t, "game:\n  rules:\n    colour: red\n"), noEnv)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "game.rules.colour in ")
	assert.Contains(t, err.Error(), "is not a house rule (house rules: ")
}

// Each set PONTOON_ variable that no setting reads is warned of, with the closest
// variable that is one when there is a likely one, and never its value; the
// settings, the house rules and the variables the tests read are not.
func TestUnknownVariablesAreWarnedOfByName(t *testing.T) {
	got := config.UnknownEnv(map[string]string{
		"PONTOON_DISCORD_TOKN":          "sekrit-value",
		"PONTOON_LOGLEVEL":              "debug",
		"PONTOON_SOMETHING_ELSE":        "x",
		"PONTOON_DATABASE_PATH":         "a.db",
		"PONTOON_GAME_RULES_MAX_STAKE":  "5",
		"PONTOON_TEST_POSTGRES_URL":     "postgres://x",
		"PONTOON_EMPTY":                 "",
		"PONTOON_RUNTIME_STEADY_SYSMON": "true",
		"HOME":                          "/root",
	})
	assert.Equal(t, []string{
		"PONTOON_DISCORD_TOKN is not a setting and is ignored; did you mean PONTOON_DISCORD_TOKEN?",
		"PONTOON_LOGLEVEL is not a setting and is ignored; did you mean PONTOON_LOG_LEVEL?",
		"PONTOON_RUNTIME_STEADY_SYSMON is ignored: runtime.steady_sysmon was removed (the bot no longer starts itself again with a GODEBUG scheduler trace); delete it",
		"PONTOON_SOMETHING_ELSE is not a setting and is ignored",
	}, got)
}

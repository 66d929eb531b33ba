package config_test

import (
	"testing"

	"github.com/pontoon-bot/pontoon/config"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each limit out of its range is one line naming the key, the value, the range and the
// variable; the environment sets them.
func TestLimitsOutOfRangeNameTheirKeyAndVariable(t *testing.T) {
	for env, want := range map[string]string{
		"PONTOON_LIMITS_MAX_OPEN_TABLES": "config: limits.max_open_tables is 0, must be from 1 to 10000; set PONTOON_LIMITS_MAX_OPEN_TABLES or limits.max_open_tables in the config file",
		"PONTOON_LIMITS_ODDS_PER_HOUR":   "config: limits.odds_per_hour is 0, must be from 1 to 1000; set PONTOON_LIMITS_ODDS_PER_HOUR or limits.odds_per_hour in the config file",
		"PONTOON_LIMITS_ODDS_KEPT":       "config: limits.odds_kept is 0, must be from 10 to 1000000; set PONTOON_LIMITS_ODDS_KEPT or limits.odds_kept in the config file",
		"PONTOON_LIMITS_CACHE_ENTRIES":   "config: limits.cache_entries is 0, must be from 100 to 10000000; set PONTOON_LIMITS_CACHE_ENTRIES or limits.cache_entries in the config file",
		"PONTOON_LIMITS_IDLE_TABLE":      "config: limits.idle_table is 0s, must be from 1m0s to 24h0m0s; set PONTOON_LIMITS_IDLE_TABLE or limits.idle_table in the config file",
	} {
		t.Run(env, func(t *testing.T) {
			t.Chdir(t.TempDir())
			val := "0"
			if env == "PONTOON_LIMITS_IDLE_TABLE" {
				val = "0s"
			}
			c, err := config.Load("", map[string]string{env: val, "PONTOON_DISCORD_TOKEN": token})
			require.NoError(t, err)
			assert.EqualError(t, c.Validate(), want)
		})
	}
	t.Chdir(t.TempDir())
	c, err := config.Load("", map[string]string{"PONTOON_LIMITS_MAX_OPEN_TABLES": "3", "PONTOON_LIMITS_IDLE_TABLE": "5m", "PONTOON_DISCORD_TOKEN": token})
	require.NoError(t, err)
	require.NoError(t, c.Validate())
	assert.Equal(t, 3, c.Limits.MaxOpenTables)
	assert.Equal(t, "5m0s", c.Limits.IdleTable.String())
}

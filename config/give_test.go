package config_test

import (
	"testing"
	"time"

	"github.com/pontoon-bot/pontoon/config"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGiveRulesOutOfRangeAreRefusedByKey(t *testing.T) {
	for key, set := range map[string]func(*config.Game){
		"game.give_min_rounds":      func(g *config.Game) { g.GiveMinRounds = -1 },
		"game.give_min_account_age": func(g *config.Game) { g.GiveMinAccountAge = 11 * 365 * 24 * time.Hour },
		"game.give_daily_cap":       func(g *config.Game) { g.GiveDailyCap = -5 },
	} {
		c := config.Default()
		c.Discord.Token = token
		set(&c.Game)
		var ce *config.Error
		require.ErrorAs(t, c.Validate(), &ce, key)
		assert.Equal(t, key, ce.Key)
	}
	c := config.Default()
	c.Discord.Token = token
	c.Game.GiveMinRounds, c.Game.GiveMinAccountAge, c.Game.GiveDailyCap = 0, 0, 0
	assert.NoError(t, c.Validate(), "0 turns each rule off")
}

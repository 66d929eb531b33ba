package bot_test

import (
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A table between rounds with no click for Options.IdleTable leaves the bot's memory, and
// the next click loads it from the store: the member joins, the round is dealt and
// played as if it had never left.
func TestAnIdleTableLeavesMemoryAndComesBackOnTheNextClick(t *testing.T) {
	clk := newClock()
	h := newHarness(t, func(o *bot.Options) {
		clk.use(o)
		o.IdleTable = 30 * time.Minute
	})
	h.seat(alice, nil, bob)
	require.Equal(t, 1, h.bot.LiveTables())
	clk.Advance(20 * time.Minute)
	assert.Equal(t, 1, h.bot.LiveTables(), "not idle long enough")
	clk.Advance(11 * time.Minute)
	assert.Equal(t, 0, h.bot.LiveTables(), "idle for 31 minutes: out of memory")

	r := h.clickTable(carol, "join")
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type, "Join updates the table: %s", text(r.Message))
	assert.Contains(t, text(r.Message), "**Seat 1** · <@"+alice+">\n**Seat 2** · <@"+bob+">\n**Seat 3** · <@"+carol+">", "the seats are the store's, and carol's")
	assert.Equal(t, 1, h.bot.LiveTables())
	h.seats = append(h.seats, carol)
	h.deal(alice, 0, "TH 2C 6D 3C 9S 8H")
	h.playOut(1, bob, carol, alice)
	h.audit()
	h.noFailures()
}

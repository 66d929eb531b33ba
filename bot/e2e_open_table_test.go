package bot_test

import (
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With the Activity configured, the table message offers Open table, which Discord is
// asked to answer by launching the Activity (LAUNCH_ACTIVITY, no message); without it,
// no table message shows the button.
func TestOpenTableLaunchesTheActivity(t *testing.T) {
	h := newHarness(t, func(o *bot.Options) { o.Activity = true })
	h.seat(alice, nil, bob)
	r := h.clickTable(carol, "open")
	assert.Equal(t, discordgo.InteractionResponseType(12), r.Type)
	assert.Nil(t, r.Message, "launching the Activity posts nothing")
	h.noFailures()

	plain := newHarness(t, nil)
	plain.seat(alice, nil)
	_, ok := customID(plain.tableMessage(), "pt:open:", "")
	require.False(t, ok, "no Open table without the Activity")
}

package bot_test

import (
	"testing"

	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A start refused for several missing permissions names them all as one list, joined
// with the reader's conjunction, in a sentence written for several.
func TestStartNamesEveryMissingPermissionAsAList(t *testing.T) {
	h := newHarness(t, nil)
	h.fake.AddChannel(guildID, channel2)
	h.fake.SetAppPermissions(channel2, discordtest.PermEmbedLinks|discordtest.PermReadHistory)
	r, err := h.fake.Command(guildID, channel2, alice, "pontoon", sub("start"))
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	assert.Contains(t, text(r.Message), "I'm missing the View Channel and Send Messages permissions.")
	assert.Empty(t, h.fake.Failures(), "the bot sent Discord a request it refuses")
}

// The seed confirmation names the Deal button by the label the button carries in the
// member's language.
func TestSeedConfirmationNamesTheDealButtonByItsLabel(t *testing.T) {
	h, _ := seededHarness(t)
	h.seat(alice, nil, bob)
	const indonesian = "300000000000000007"
	h.fake.AddMember(guildID, indonesian, "pemain", 0, "id")
	r, err := h.fake.Command(guildID, channelID, indonesian, "pontoon", sub("seed", strOpt("text", "tujuh")))
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	assert.Contains(t, text(r.Message), "id klik Bagi kartu.")
	assert.NotContains(t, text(r.Message), "Bagikan")
}

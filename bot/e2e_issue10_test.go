package bot_test

import (
	"bytes"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tablePicture waits until the table message holds a picture other than the one with id
// not, and returns it.
func (h *harness) tablePicture(msg, not string) discordtest.Attachment {
	h.t.Helper()
	var got discordtest.Attachment
	require.Eventually(h.t, func() bool {
		atts := h.fake.Attachments(msg)
		if len(atts) != 1 || atts[0].ID == not {
			return false
		}
		got = atts[0]
		return true
	}, 5*time.Second, 5*time.Millisecond, "no new picture on the table message (last %s)", not)
	return got
}

func (h *harness) pictureID(msg string) string {
	h.t.Helper()
	atts := h.fake.Attachments(msg)
	require.Len(h.t, atts, 1, "the table message holds one picture")
	return atts[0].ID
}

// The table's picture goes up with the public table message at the deal, the banker's
// reveal (R5.1) and the settlement, with its alt text as the attachment's description,
// and stays through every other edit; the text embed stays beside it.
func TestTablePictureAtTheMomentsThatMatter(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	msg := h.tableMessage().ID
	assert.Empty(t, h.fake.Attachments(msg), "no round yet: no picture")

	// Bob 9C 8D = 17 and sticks; alice banks 7S 9S = 16, draws 4S = 20 and stays.
	h.deal(bob, 0, "9C 7S 8D 9S 4S")
	deal := h.tablePicture(msg, "")
	assert.Equal(t, "table.png", deal.Filename)
	assert.Equal(t, "image/png", deal.ContentType)
	_, err := png.Decode(bytes.NewReader(deal.Data))
	require.NoError(t, err, "the upload is a PNG")
	assert.Contains(t, deal.Description, "player2", "the alt text names the seats")
	assert.Contains(t, deal.Description, "face down", "the alt text says the hidden cards are face down (R3.2)")
	m := h.findTable()
	require.NotNil(t, m.Embeds[0].Image, "the embed shows the picture")
	assert.Contains(t, m.Embeds[0].Image.URL, "table.png")
	assert.Contains(t, text(m), "Stakes: waiting for", "the text embed stays")

	h.amount(bob, game.VerbStake, 10)
	h.waitTable("is playing hand 1")
	assert.Equal(t, deal.ID, h.pictureID(msg), "a stake is not a moment: the edit keeps the deal's picture")
	assert.NotNil(t, h.findTable().Embeds[0].Image, "and keeps showing it")

	h.do(bob, game.VerbStick)
	reveal := h.tablePicture(msg, deal.ID)
	h.waitTable("The bank, <@" + alice + ">, plays")
	assert.Contains(t, reveal.Description, "7♠", "the banker's reveal shows the banker's cards")

	h.do(alice, game.VerbDraw)
	h.waitTable("4♠")
	assert.Equal(t, reveal.ID, h.pictureID(msg), "a draw is not a moment")

	h.do(alice, game.VerbStay)
	settled := h.tablePicture(msg, reveal.ID)
	h.waitTable("The round is settled")
	assert.NotEqual(t, reveal.Description, settled.Description)

	// A click on the public message (Join) updates it in the interaction's own answer:
	// the picture stays and the embed still shows it.
	r := h.clickTable(carol, "join")
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type)
	require.NotNil(t, r.Message.Embeds[0].Image, "Join's update keeps the picture in the embed")
	h.waitTable("<@" + carol + ">")
	assert.Equal(t, settled.ID, h.pictureID(msg), "Join is not a moment")
	h.noFailures()
	h.audit()
}

// A slow upload holds up no member: while the deal's picture is still on its way (held
// by the fake), the players' answers come back; when the upload then fails, the table's
// text carries on and the next moment brings a picture.
func TestSlowOrFailedPictureDelaysNobody(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	msg := h.tableMessage().ID
	hold := h.fake.HoldNext("PATCH /channels/" + channelID + "/messages/" + msg)
	h.deal(bob, 0, "9C 7S 8D 9S 4S")
	select {
	case <-hold.Arrived():
	case <-time.After(5 * time.Second):
		t.Fatal("the deal's picture was never sent")
	}
	// The upload is held: the members' own answers are not.
	p := h.panel(bob)
	assert.Contains(t, text(p), "9♣")
	h.amount(bob, game.VerbStake, 10)
	hold.Fail(500, 0, "500: Internal Server Error")

	h.waitTable("is playing hand 1")
	assert.Empty(t, h.fake.Attachments(msg), "the failed upload left no picture")
	assert.Nil(t, h.findTable().Embeds[0].Image, "and the embed points at none")

	h.do(bob, game.VerbStick)
	reveal := h.tablePicture(msg, "")
	assert.Equal(t, "table.png", reveal.Filename)
	h.noFailures()
}

// A member's own language wins over their client's everywhere they read: Discord has
// no Sundanese, so a Sundanese speaker's client says Indonesian. The server stays
// English; the public table too. With no argument the choice is cleared and the
// client's locale counts again. The choice outlives a restart (it is in the store).
func TestMemberChoosesTheirLanguage(t *testing.T) {
	h := newHarness(t, nil)
	h.fake.AddMember(guildID, carol, "player3", 0, "id")

	r := h.cmd(carol, sub("language", strOpt("language", "su")))
	require.True(t, r.Ephemeral)
	assert.Equal(t, "Basa anjeun ayeuna Basa Sunda.", text(r.Message), "the answer is already in Sundanese")

	r = h.cmd(carol, sub("hand"))
	assert.Contains(t, text(r.Message), "Teu aya méja nu kabuka di kanal ieu", "a refusal in Sundanese, not Indonesian")

	h.seat(alice, nil, bob, carol)
	h.deal(alice, 0, "9H TC 7S 8D 6C 9S")
	p := h.panel(carol)
	assert.Contains(t, text(p), "Leungeun anjeun", "carol's panel is Sundanese")
	assert.Contains(t, text(p), "Pasang totohan: 1 nepi ka 50 chip")
	assert.NotContains(t, text(p), "Tanganmu", "not the Indonesian her client asks for")
	assert.Contains(t, text(h.findTable()), "Stakes: waiting for", "the public table stays in the server's English")
	assert.Contains(t, text(h.panel(bob)), "Your hand", "bob's panel follows his English client")

	h.stop()
	h.start()
	p = h.panel(carol)
	assert.Contains(t, text(p), "Leungeun anjeun", "the choice outlives a restart")

	r = h.cmd(carol, sub("language"))
	assert.Equal(t, "Bahasamu kembali mengikuti Discord.", text(r.Message), "cleared, in the client's Indonesian")
	p = h.panel(carol)
	assert.Contains(t, text(p), "Tanganmu", "cleared: carol's Indonesian client counts again")
	assert.Contains(t, text(p), "Bertaruh: 1 sampai 50 chip")
	assert.NotContains(t, text(p), "Leungeun anjeun")
	h.noFailures()
}

var _ = strings.Contains

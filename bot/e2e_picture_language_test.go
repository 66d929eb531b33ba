package bot_test

import (
	"bytes"
	"fmt"
	"image/png"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot"
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
	}, 20*time.Second, 5*time.Millisecond, "no new picture on the table message (last %s)", not)
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
// and stays through every other edit, shown in the table's container with the alt text as
// its description; the text stays beside it.
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
	img := galleryItem(m)
	require.NotNil(t, img, "the container shows the picture")
	assert.Contains(t, img.Media.URL, "table.png")
	if assert.NotNil(t, img.Description, "the media item has the alt text") {
		assert.Equal(t, deal.Description, *img.Description)
	}
	assert.Contains(t, text(m), "Stakes: waiting for", "the text stays")

	h.amount(bob, game.VerbStake, 10)
	h.waitTable("is playing hand 1")
	assert.Equal(t, deal.ID, h.pictureID(msg), "a stake is not a moment: the edit keeps the deal's picture")
	assert.NotNil(t, galleryItem(h.findTable()), "and keeps showing it")

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
	// the picture stays and the container still shows it.
	r := h.clickTable(carol, "join")
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type)
	require.NotNil(t, galleryItem(r.Message), "Join's update keeps the picture in the container")
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
	// Let the publisher's first edit of the new message (it follows the post) and bob's
	// Join land first, so that the next PATCH of the message is the deal's picture.
	require.Eventually(t, func() bool { return h.fake.EditCount(msg) >= 2 }, 5*time.Second, 5*time.Millisecond)
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
	assert.Nil(t, galleryItem(h.findTable()), "and the container points at none")

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

// threeRounds plays TestClassicGame's two rounds and a third with a five card trick, so
// that every figure of /pontoon stats has something to count:
//
//	round 1, alice banks: bob splits 8s and loses both hands (−30), carol busts (−20),
//	  dave's pontoon is paid double (+20); the bank takes +30; dave takes the bank (R6.2).
//	round 2, dave banks 5: alice, bob and carol win 5 each; the bank −15.
//	round 3, dave banks 18: alice twists to a five card trick, paid double (+20, R5.4);
//	  bob's 19 wins 10; carol's 17 loses 10; the bank −20.
func threeRounds(t *testing.T, h *harness) {
	h.seat(alice, nil, bob, carol, dave)
	h.deal(bob, 0, "8H 9C AD 7S 8D 5C KD 9S 2C 3C TC 9D KH 4S")
	for _, m := range []string{bob, carol, dave} {
		h.amount(m, game.VerbStake, 10)
	}
	h.do(bob, game.VerbSplit)
	h.amount(bob, game.VerbBuy, 10)
	h.do(bob, game.VerbStick)
	h.do(bob, game.VerbTwist)
	h.do(bob, game.VerbStick)
	h.amount(carol, game.VerbBuy, 10)
	h.do(alice, game.VerbDraw)
	h.do(alice, game.VerbStay)
	h.waitTable("Next banker: <@" + dave + ">")

	h.nextRound(stack(t, "TH 9H 8C 2D 9S 8S 7H 3S"))
	h.clickTable(carol, "deal")
	for _, m := range []string{alice, bob, carol} {
		h.amount(m, game.VerbStake, 5)
	}
	h.do(alice, game.VerbStick)
	h.do(bob, game.VerbStick)
	h.do(carol, game.VerbStick)
	h.do(dave, game.VerbStay)
	h.waitTable("No pontoon: the used cards go under the pack")

	h.nextRound(stack(t, "2C TH 9H TS 3C 9S 8H 8S 4C 5H 6D"))
	h.clickTable(carol, "deal")
	for _, m := range []string{alice, bob, carol} {
		h.amount(m, game.VerbStake, 10)
	}
	h.do(alice, game.VerbTwist)      // 2C 3C 4C
	h.do(alice, game.VerbTwist)      // 5H
	p := h.do(alice, game.VerbTwist) // 6D: five cards, 20
	require.Contains(t, text(p), "Five Card Trick (20)")
	h.do(bob, game.VerbStick)
	h.do(carol, game.VerbStick)
	h.do(dave, game.VerbStay)
	h.waitTable("Salt (revealed)")
	require.Eventually(t, func() bool { return h.balance(alice) == 1055 }, 5*time.Second, 10*time.Millisecond)
	// The ledger agrees with every net below.
	assert.Equal(t, int64(1055), h.balance(alice))
	assert.Equal(t, int64(985), h.balance(bob))
	assert.Equal(t, int64(975), h.balance(carol))
	assert.Equal(t, int64(985), h.balance(dave))
	h.audit()
}

// /pontoon stats counts each figure from the per-round results written with each
// settlement, rounds as the banker among the rounds played, and /pontoon leaderboard
// by:net ranks by net winnings.
func TestStatsAndNetLeaderboard(t *testing.T) {
	h := newHarness(t, nil)
	r := h.cmd(alice, sub("stats"))
	assert.Equal(t, "\nStats\n<@"+alice+"> has not finished a round at this server yet.", text(r.Message))

	threeRounds(t, h)
	want := map[string]string{
		alice: "Rounds played: 3 (won 3, lost 0)\nPontoons: 0 · Five Card Tricks: 1 · Busts: 0\nNet chips: +55\n" +
			"Biggest win: 30 chips\nRounds as banker: 1 · The bank's net: +30",
		bob: "Rounds played: 3 (won 2, lost 1)\nPontoons: 0 · Five Card Tricks: 0 · Busts: 0\nNet chips: −15\n" +
			"Biggest win: 10 chips\nRounds as banker: 0 · The bank's net: 0",
		carol: "Rounds played: 3 (won 1, lost 2)\nPontoons: 0 · Five Card Tricks: 0 · Busts: 1\nNet chips: −25\n" +
			"Biggest win: 5 chips\nRounds as banker: 0 · The bank's net: 0",
		dave: "Rounds played: 3 (won 1, lost 2)\nPontoons: 1 · Five Card Tricks: 0 · Busts: 0\nNet chips: −15\n" +
			"Biggest win: 20 chips\nRounds as banker: 2 · The bank's net: −35",
	}
	for m, w := range want {
		r := h.cmd(m, sub("stats"))
		require.True(t, r.Ephemeral)
		assert.Equal(t, "\nStats\n<@"+m+">\n"+w, text(r.Message), "stats of %s", m)
	}
	r = h.cmd(carol, sub("stats", userOpt("member", dave)))
	assert.Equal(t, "\nStats\n<@"+dave+">\n"+want[dave], text(r.Message), "another member's stats")

	// By net: alice +55; bob and dave −15 each, the tie going to the lower id; carol −25.
	r = h.cmd(carol, sub("leaderboard", strOpt("by", "net")))
	lb := text(r.Message)
	assert.Contains(t, lb, "Leaderboard by net winnings")
	assert.Contains(t, lb, "**1.** <@"+alice+"> — +55\n**2.** <@"+bob+"> — −15\n**3.** <@"+dave+"> — −15\n**4.** <@"+carol+"> — −25")
	assert.Contains(t, lb, "You: rank 4, −25")
	// By balance (the default) the order is the wallets'.
	r = h.cmd(carol, sub("leaderboard", strOpt("by", "balance")))
	assert.Contains(t, text(r.Message), "**1.** <@"+alice+"> — 1,055 chips")
	assert.NotContains(t, text(r.Message), "net winnings")
	h.noFailures()
}

// pontoonID is the id Discord gave the registered /pontoon command.
func (h *harness) pontoonID() string {
	h.t.Helper()
	for _, c := range h.fake.Commands("") {
		if c.Name == "pontoon" {
			return c.ID
		}
	}
	h.t.Fatal("/pontoon is not registered")
	return ""
}

// Commands named inside texts are clickable mentions of the registered command, in
// every language (Discord resolves only the registered names).
func TestCommandMentionsAreClickable(t *testing.T) {
	h := newHarness(t, nil)
	mention := "</pontoon start:" + h.pontoonID() + ">"
	r := h.cmd(alice, sub("hand"))
	assert.Equal(t, "⛔ There is no open table in this channel. Open one with "+mention+".", text(r.Message))

	h.fake.AddMember(guildID, bob, "player2", 0, "pl")
	r = h.cmd(bob, sub("hand"))
	assert.Equal(t, "⛔ Na tym kanale nie ma otwartego stołu. Otwórz go przez "+mention+".", text(r.Message))

	h.seat(alice, nil, bob)
	h.cmd(alice, sub("stop"))
	tbl := h.waitTable("This table is closed")
	assert.Contains(t, text(tbl), mention, "the public closed table names /pontoon start as a mention")
	h.noFailures()
}

// No sentence is built from a button's label: a stale Double (the banker's client still
// shows it while the players stake) is refused in the action's own words, in the
// member's language, and a done action has its own notice.
func TestActionsHaveTheirOwnWords(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, []*discordgo.ApplicationCommandInteractionDataOption{boolOpt("banker_may_double", true)}, bob)
	h.deal(alice, 0, "9H 7S 8D 9S")
	tableID, round := tableAndRound(t, h.tableMessage())
	m := h.postButton(fmt.Sprintf("pt:act:%s:%s:0:double", tableID, round), "Double")
	id, _ := customID(m, "pt:act:", "")

	r, err := h.fake.Click(channelID, m.ID, alice, id)
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	assert.Contains(t, text(r.Message), "⛔ You cannot double now: players are still placing their stakes.")
	assert.NotContains(t, text(r.Message), "That cannot be done")

	h.cmd(alice, sub("language", strOpt("language", "su")))
	r, err = h.fake.Click(channelID, m.ID, alice, id)
	require.NoError(t, err)
	assert.Contains(t, text(r.Message), "⛔ Anjeun teu bisa ngagandakeun ayeuna: para pamaén masih keur masang totohan.",
		"the same refusal in the member's own Sundanese")

	p := h.amount(bob, game.VerbStake, 10)
	assert.Contains(t, text(p), "✅ You staked 10 chips.")
	assert.NotContains(t, text(p), "Done:", "not a label after 'Done:'")
	h.noFailures()
}

// After a restart the next moment replaces the picture the last process attached: the
// message holds one picture, never a stale one beside it.
func TestPictureAfterARestart(t *testing.T) {
	h := newHarness(t, nil)
	msg := h.bankersTurn()
	h.do(alice, game.VerbStay)
	// The settlement's text and its picture go up in one edit.
	h.waitTable("Salt (revealed)")
	settled := h.pictureID(msg)

	h.stop()
	h.start()
	// The restart redraws the table whose round settled just before: the
	// settlement again, picture and all.
	redrawn := h.tablePicture(msg, settled)
	assert.Contains(t, redrawn.Description, "9♣")
	h.nextRound(stack(t, "TC 8S 6D 9H"))
	h.clickTable(alice, "deal")
	deal := h.tablePicture(msg, redrawn.ID)
	assert.Len(t, h.fake.Attachments(msg), 1, "the new picture replaced the old one")
	assert.Contains(t, deal.Description, "face down")
	h.noFailures()
}

// A text-only table (game.table_picture: false) attaches no picture at any of the
// moments that would have one, and its container shows none: the text alone tells the
// table.
func TestTextOnlyTableAttachesNoPicture(t *testing.T) {
	h := newHarness(t, func(o *bot.Options) { o.TextOnly = true })
	h.seat(alice, nil, bob)
	msg := h.tableMessage().ID
	noPicture := func(m *discordgo.Message, moment string) {
		t.Helper()
		assert.Empty(t, h.fake.Attachments(msg), "no picture at %s", moment)
		assert.Nil(t, galleryItem(m), "the container shows no picture at %s", moment)
	}

	h.deal(bob, 0, "9C 7S 8D 9S 4S")
	h.amount(bob, game.VerbStake, 10)
	// A picture attached at the deal would stay through the stake's edit.
	noPicture(h.waitTable("is playing hand 1"), "the deal")
	h.do(bob, game.VerbStick)
	noPicture(h.waitTable("The bank, <@"+alice+">, plays"), "the banker's reveal")
	h.do(alice, game.VerbDraw)
	h.do(alice, game.VerbStay)
	m := h.waitTable("The round is settled")
	noPicture(m, "the settlement")
	assert.Contains(t, text(m), "4♠", "the text shows the banker's cards")
	h.noFailures()
	h.audit()
}

// A bot restarted text-only takes the last process's picture off a table message at its
// first edit, so no stale picture stays beside the text.
func TestRestartTextOnlyTakesThePictureOff(t *testing.T) {
	h := newHarness(t, nil)
	msg := h.bankersTurn()
	h.do(alice, game.VerbStay)
	h.waitTable("The round is settled")
	h.tablePicture(msg, "")

	h.stop()
	h.opt.TextOnly = true
	h.start()
	h.nextRound(stack(t, "TC 8S 6D 9H"))
	h.clickTable(alice, "deal")
	h.waitTable("Stakes: waiting for")
	require.Eventually(t, func() bool { return len(h.fake.Attachments(msg)) == 0 }, 10*time.Second, 5*time.Millisecond,
		"the settlement's picture is taken off")
	assert.Nil(t, galleryItem(h.findTable()), "and the container points at none")
	h.noFailures()
}

package bot_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The slash command is registered (the fake validates names, descriptions and limits
// as Discord does) with every subcommand of the design.
func TestCommandsRegistered(t *testing.T) {
	h := newHarness(t, nil)
	cmds := h.fake.Commands("")
	require.Len(t, cmds, 1)
	// Servers only, said with contexts rather than the deprecated dm_permission.
	require.NotNil(t, cmds[0].Contexts)
	assert.Equal(t, []discordgo.InteractionContextType{discordgo.InteractionContextGuild}, *cmds[0].Contexts)
	var names []string
	for _, o := range cmds[0].Options {
		names = append(names, o.Name)
	}
	assert.ElementsMatch(t, []string{"start", "stop", "hand", "balance", "leaderboard", "daily", "give", "grant", "rules", "history", "settings", "bank",
		"language", "stats", "seed", "odds"}, names)
	h.noFailures()
}

// Public table edits are coalesced: a burst of actions becomes few edits, the last
// showing the latest state, and a 429 from Discord is waited out, not lost.
func TestTableEditsCoalescedThrough429(t *testing.T) {
	edits := newClock() // the publisher's EditDelay runs on it: nothing is edited until it moves
	h := newHarness(t, func(o *bot.Options) { o.EditDelay = 2 * time.Second; o.EditAfterFunc = edits.AfterFunc })
	h.seat(alice, nil, bob, carol)
	h.deal(alice, 0, "9H TC 7S 5D 8C 9S 2C 3C")
	msg := h.tableMessage()
	before := h.fake.EditCount(msg.ID)
	h.fake.Inject429("PATCH /channels/"+channelID+"/messages", 1, 200*time.Millisecond)
	h.amount(bob, game.VerbStake, 10)
	h.amount(carol, game.VerbStake, 10)
	h.do(bob, game.VerbTwist)
	h.do(bob, game.VerbStick)
	assert.Equal(t, before, h.fake.EditCount(msg.ID), "within the window, no edit yet")
	edits.Advance(2 * time.Second) // the window ends: one edit of the latest state
	require.Eventually(t, func() bool { return h.fake.EditCount(msg.ID) > before }, 10*time.Second, 5*time.Millisecond,
		"the coalesced edit never landed (through its 429)")
	edits.Advance(2 * time.Second) // a later window has nothing left to draw
	assert.Equal(t, before+1, h.fake.EditCount(msg.ID), "the deal and four actions (eight interactions) make one edit")
	require.Contains(t, text(h.tableMessage()), "🂠 🂠 2♣ · stake 10", "the edit carries the latest state, face-down cards hidden (R3.2, R4.4)")
	require.Contains(t, text(h.tableMessage()), "<@"+carol+">")
	h.noFailures()
}

// /pontoon history attaches a finished round as HISTORY.md JSON; replaying it gives
// the balances the table paid, and its pack matches the commitment shown before the deal.
func TestHistoryFileReplays(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	h.deal(alice, 0, "9H 7S 8D 9S")
	// The public edit after the deal is coalesced: wait for it, not the table as it was.
	commitment := smallPrint(h.waitTable("Round 1 shuffle commitment"))
	r := h.cmd(bob, sub("history", intOpt("round", 1)))
	require.Contains(t, text(r.Message), "still being played", "a round in play is never revealed")
	h.amount(bob, game.VerbStake, 10)
	h.do(bob, game.VerbStick)  // 17
	h.do(alice, game.VerbStay) // 16
	h.waitTable("Salt (revealed)")

	r = h.cmd(bob, sub("history", intOpt("round", 1)))
	require.True(t, r.Ephemeral)
	att := h.fake.Attachments(r.Message.ID)
	require.Len(t, att, 1)
	hist, err := game.ParseHistory(att[0].Data)
	require.NoError(t, err)
	require.NotEmpty(t, hist.Rounds[0].Salt)
	require.Contains(t, commitment, hist.Rounds[0].Commitment, "the file's commitment is the one shown before the deal")
	_, rep, err := game.Replay(hist) // Replay checks the pack against the commitment
	require.NoError(t, err)
	assert.Equal(t, h.balance(bob), rep.Balances[bob])
	assert.Equal(t, h.balance(alice), rep.Balances[alice])
	assert.Equal(t, int64(1010), rep.Balances[bob])

	r = h.cmd(bob, sub("history"))
	require.Contains(t, text(r.Message), "Round 1")
	h.noFailures()
}

// Server settings need Manage Server; new tables take them up.
func TestSettingsAndStop(t *testing.T) {
	h := newHarness(t, nil)
	r := h.cmd(bob, sub("settings", intOpt("max_stake", 20)))
	require.Contains(t, text(r.Message), "Manage Server")
	r = h.cmd(admin, sub("settings", intOpt("max_stake", 20), intOpt("turn_timer", 45)))
	require.Contains(t, text(r.Message), "Initial stake from 1 to 20")
	require.Contains(t, text(r.Message), "45 s")
	r = h.cmd(admin, sub("settings", intOpt("min_stake", 30)))
	require.Contains(t, text(r.Message), "above the largest")

	h.seat(alice, nil, bob, carol)
	r = h.cmd(bob, sub("rules"))
	require.Contains(t, text(r.Message), "Initial stake from 1 to 20")
	r = h.cmd(alice, sub("start"))
	require.Contains(t, text(r.Message), "already has an open table")

	h.deck.push(cutFor(t, 1, 3)) // bob banks; carol 9H 8D, alice TC 8C, bob 7S 9S
	h.nextRound(stack(t, "9H TC 7S 8D 8C 9S"))
	h.clickTable(alice, "deal")
	r = h.cmd(carol, sub("stop"))
	require.Contains(t, text(r.Message), "Only the table's host")
	r = h.cmd(bob, sub("stop")) // the banker may stop it: after this round
	require.Contains(t, text(r.Message), "close when this round is settled")
	h.amount(carol, game.VerbStake, 5)
	h.amount(alice, game.VerbStake, 5)
	h.do(carol, game.VerbStick)
	h.do(alice, game.VerbStick)
	h.do(bob, game.VerbStay)
	h.waitTable("This table is closed")
	assert.Empty(t, components(h.tableMessage()), "a closed table keeps no buttons")
	r = h.cmd(alice, sub("hand"))
	require.Contains(t, text(r.Message), "no open table")
	h.audit()
	h.noFailures()
}

// Two members clicking at once, and one member clicking twice at once: each action is
// applied exactly once and the table stays consistent.
func TestConcurrentClicks(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob, carol, dave)
	h.deck.push(cutFor(t, 0, 4))
	h.clickTable(alice, "deal")
	type click struct {
		user string
		msg  *discordgo.Message
		id   string
	}
	var clicks []click
	for _, m := range []string{bob, carol, dave} {
		for k := 0; k < 2; k++ { // two panels each: a double click from two open panels
			p := h.panel(m)
			id, ok := customID(p, "pt:amt:", ":stake")
			require.True(t, ok)
			clicks = append(clicks, click{m, p, id})
		}
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := map[string]int{}
	for _, c := range clicks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := h.fake.Select(channelID, c.msg.ID, c.user, c.id, []string{"5"})
			if err == nil && strings.Contains(text(r.Message), "✅") {
				mu.Lock()
				ok[c.user]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for _, m := range []string{bob, carol, dave} {
		assert.Equal(t, 1, ok[m], "one stake each")
		assert.Equal(t, int64(1000-10), h.balance(m))
	}
	h.waitTable("is playing hand 1")
	ctx := context.Background()
	tb, err := h.st.TableByChannel(ctx, guildID, channelID)
	require.NoError(t, err)
	st, err := h.st.TableState(ctx, tb.ID)
	require.NoError(t, err)
	for _, m := range []string{bob, carol, dave} {
		assert.Equal(t, int64(10), st.Escrows[m])
	}
	h.audit()
	h.noFailures()
}

// With Discord's per-channel edit bucket enforced (2 edits a second here), the bot follows
// the rate-limit headers and never sends an edit past the bucket (the fake records any
// such request as a failure), and the table still ends up showing the latest state.
func TestTableEditsRespectRateLimit(t *testing.T) {
	h := newHarness(t, nil)
	h.fake.SetRateLimit(discordtest.RouteChannelMessageEdit, 2, time.Second)
	h.seat(alice, nil, bob, carol)
	h.deal(alice, 0, "9H TC 7S 8D 8C 9S 2C 3C")
	h.amount(bob, game.VerbStake, 10)
	h.amount(carol, game.VerbStake, 10)
	h.do(bob, game.VerbStick)
	h.do(carol, game.VerbStick)
	h.do(alice, game.VerbStay)
	h.waitTable("The round is settled")
	h.noFailures()
}

// The table shows the next round's commitment before anyone presses Deal; that round is
// dealt from exactly that pack, and its history file opens the commitment with its salt.
func TestCommitmentShownBeforeTheDeal(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	before := h.waitTable("Round 1 will be dealt from the pack with commitment: ")
	shown := smallPrint(before)
	shown = shown[strings.LastIndex(shown, " ")+1:]
	require.Len(t, shown, 64)
	h.deck.push(cutFor(t, 0, 2))
	h.clickTable(alice, "deal")
	require.Contains(t, smallPrint(h.tableMessage()), "Round 1 shuffle commitment: "+shown)
	// The pack is the bot's own (an unshuffled pack from the test's deck): bob AS 3S,
	// alice 2S 4S. Bob twists 5S to 19 and sticks; alice draws 6S and stays on 12.
	h.amount(bob, game.VerbStake, 5)
	h.do(bob, game.VerbTwist)
	h.do(bob, game.VerbStick)
	h.do(alice, game.VerbDraw)
	h.do(alice, game.VerbStay)
	h.waitTable("The round is settled")
	r := h.cmd(bob, sub("history", intOpt("round", 1)))
	att := h.fake.Attachments(r.Message.ID)
	require.Len(t, att, 1)
	hist, err := game.ParseHistory(att[0].Data)
	require.NoError(t, err)
	assert.Equal(t, shown, hist.Rounds[0].Commitment)
	_, rep, err := game.Replay(hist) // checks SHA-256(salt:pack) against the commitment
	require.NoError(t, err)
	assert.Equal(t, int64(1005), rep.Balances[bob])
	// And the next round's commitment is on the table already.
	h.waitTable("Round 2 will be dealt from the pack with commitment: ")
	h.noFailures()
}

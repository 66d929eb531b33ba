package bot_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/bot/discordapi"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seededChannel is the channel of the i-th table seeded straight into the store.
func seededChannel(i int) string { return fmt.Sprintf("4%017d", i+1) }

// After a restart with thousands of open tables, the bot edits only the tables
// where something changed: here one whose turn timer ran out while it was down (R7.4)
// and one whose message was never posted. The others, untouched since their last edit
// a quarter of an hour before, get no request at all, and what is sent keeps within Discord's global rate limit.
func TestRestartEditsOnlyTablesThatChanged(t *testing.T) {
	n := 5000
	if raceOn {
		n = 500
	}
	var nowNs atomic.Int64
	nowNs.Store(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC).UnixNano())
	h := newHarness(t, func(o *bot.Options) { o.Now = func() time.Time { return time.Unix(0, nowNs.Load()) } })
	h.seat(alice, nil, bob, carol)
	h.deal(alice, 0, "9H TC 7S 5D 8C 9S")
	h.amount(bob, game.VerbStake, 10) // carol's stake is still awaited

	ctx := context.Background()
	tb, err := h.st.TableByChannel(ctx, guildID, channelID)
	require.NoError(t, err)
	s, err := discordapi.NewSession(h.fake.Token, h.fake.URL(), nil)
	require.NoError(t, err)
	now := time.Unix(0, nowNs.Load()).UTC()
	for i := 0; i < n; i++ {
		ch := seededChannel(i)
		h.fake.AddChannel(guildID, ch)
		st, err := h.st.OpenTable(ctx, store.OpenTableParams{Guild: guildID, Channel: ch, Host: alice, Rules: tb.Rules, Now: now})
		require.NoError(t, err)
		require.NoError(t, h.st.SetSeats(ctx, st.ID, []string{alice, bob}, now))
		m, err := s.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Title: "Pontoon · round 0"}},
			Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{Label: "Join", Style: discordgo.SuccessButton, CustomID: fmt.Sprintf("pt:join:%d:0:0:", st.ID)}}}}})
		require.NoError(t, err)
		require.NoError(t, h.st.SetTableMessage(ctx, st.ID, m.ID))
	}
	const unposted = "500000000000000001"
	h.fake.AddChannel(guildID, unposted)
	up, err := h.st.OpenTable(ctx, store.OpenTableParams{Guild: guildID, Channel: unposted, Host: alice, Rules: tb.Rules, Now: now})
	require.NoError(t, err)
	require.NoError(t, h.st.SetSeats(ctx, up.ID, []string{alice}, now))

	h.stop()
	h.fake.SetGlobalRateLimit(50, time.Second) // Discord's: the restart must pace itself
	// Carol's stake timed out while the bot was down, and the seeded tables were seated
	// longer ago than a restart redraws changed tables for (their edits long done).
	nowNs.Add(int64(15 * time.Minute))
	before := len(h.fake.Requests())
	seededAt := time.Now()
	h.start()
	t.Logf("%d tables seeded; restarted in %v", n, time.Since(seededAt))
	// Generous waits: this test counts requests, it does not time them.
	assert.Eventually(t, func() bool { return strings.Contains(text(h.findTable()), "ran out of time") }, 60*time.Second, 10*time.Millisecond,
		"the table whose timer ran out while the bot was down was never edited")
	// Let whatever else the restart started reach the fake, then count.
	quiet(h, time.Second, 60*time.Second)
	seeded := 0
	for _, r := range h.fake.Requests()[before:] {
		if strings.HasPrefix(r.Path, "/api/v9/channels/4") && r.Method != "GET" {
			seeded++
		}
	}
	assert.Zero(t, seeded, "the restart sent %d requests about the %d tables where nothing changed", seeded, n)
	posted := false
	for _, m := range h.fake.Messages(unposted) {
		posted = posted || isV2(m) && len(components(m)) > 0
	}
	assert.True(t, posted, "the table whose message was never posted has none after the restart")
	fails := h.fake.Failures()
	assert.Empty(t, len(fails), "the fake rejected %d requests (the global rate limit, 50/s); the first: %v", len(fails), fails[:min(3, len(fails))])
	h.fake.ClearFailures() // summarized above: thousands of lines help nobody
}

// quiet waits until the fake has had no request for idle, or until limit.
func quiet(h *harness, idle, limit time.Duration) {
	end := time.Now().Add(limit)
	last, since := len(h.fake.Requests()), time.Now()
	for time.Now().Before(end) {
		time.Sleep(idle / 10)
		if n := len(h.fake.Requests()); n != last {
			last, since = n, time.Now()
		} else if time.Since(since) >= idle {
			return
		}
	}
}

// While the bot starts (gateway open, commands being registered, tables being
// re-armed), a bank handler that waits on Discord (bob's bid edits the auction message,
// R9.8) must not freeze the bot: a click on another table in another channel, and bob's
// own bid, are answered in time. Today Start takes the bot's lock and then each table's,
// so it waits behind the bid holding the bot's lock, and every interaction waits on it.
func TestClickDuringStartNeverFreezesOtherTables(t *testing.T) {
	clk := newClock()
	h := newHarness(t, clk.use)
	h.seat(alice, shootOpts(), bob)
	h.deck.push(cutFor(t, 0, 2))
	h.clickTable(alice, "deal") // alice banks, the kitty is empty: she may auction (R9.8)
	h.fake.AddChannel(guildID, channel2)
	_, err := h.fake.Command(guildID, channel2, carol, "pontoon", sub("start"))
	require.NoError(t, err)
	var other *discordgo.Message
	require.Eventually(t, func() bool {
		for _, m := range h.fake.Messages(channel2) {
			if isV2(m) {
				other = m
			}
		}
		return other != nil
	}, 5*time.Second, 10*time.Millisecond)
	h.stop()

	ctx := context.Background()
	register := h.fake.HoldNext("PUT /applications/")
	st, err := store.Open(ctx, h.dbPath)
	require.NoError(t, err)
	b, err := bot.New(st, h.opt)
	require.NoError(t, err)
	h.st, h.bot = st, b
	started := make(chan error, 1)
	go func() { started <- b.Start(ctx) }()
	select {
	case <-register.Arrived():
	case <-time.After(10 * time.Second):
		t.Fatal("the bot never registered its commands")
	}
	// Today the gateway is open while the commands are registered and the tables re-armed.
	// A bot that connects only after that has no such window: then the rest of the test
	// runs after Start, and still checks that a held edit delays no one's answer.
	window := h.fake.WaitReady(2 * time.Second)
	if !window {
		register.Release()
		select {
		case err := <-started:
			require.NoError(t, err)
		case <-time.After(15 * time.Second):
			t.Fatal("Start never returned")
		}
	}

	// The gateway is open: members are already clicking.
	r := h.cmd(alice, group("bank", "auction"))
	require.Contains(t, text(r.Message), "auction has started")
	auction := h.waitPost("auctions the bank", false)
	edit := h.fake.HoldNext("PATCH /channels/" + channelID + "/messages/" + auction.ID)
	bid := make(chan error, 1)
	go func() {
		r, err := h.fake.Command(guildID, channelID, bob, "pontoon", group("bank", "bid", intOpt("amount", 10)))
		if err == nil && !strings.Contains(text(r.Message), "10 chips is the highest") {
			err = fmt.Errorf("bid answered %q", text(r.Message))
		}
		bid <- err
	}()
	select {
	case <-edit.Arrived(): // the bid's edit of the auction message is now in flight
	case <-time.After(2 * time.Second): // a bot that edits later is fine too
	}
	if window {
		register.Release()
		require.Eventually(t, func() bool {
			for _, r := range h.fake.Requests() {
				if r.Method == "PUT" && r.Status == 200 {
					return true
				}
			}
			return false
		}, 5*time.Second, 5*time.Millisecond)
		time.Sleep(100 * time.Millisecond) // let Start go on to its tables: ordering, not a timing assertion
	}

	join, ok := customID(other, "pt:join:", "")
	require.True(t, ok)
	jr, err := h.fake.Click(channel2, other.ID, dave, join)
	assert.NoError(t, err, "a Join on another table while the bot starts is never answered")
	if err == nil {
		assert.Contains(t, text(jr.Message), at(dave))
	}
	select {
	case err := <-bid:
		assert.NoError(t, err, "bob's bid is answered although its edit of the auction message waits")
	case <-time.After(6 * time.Second):
		t.Error("bob's bid was never answered")
	}
	edit.Release()
	if window {
		select {
		case err := <-started:
			require.NoError(t, err)
		case <-time.After(15 * time.Second):
			t.Fatal("Start never returned")
		}
	}
}

// offers are the bank offers in the channel, oldest first.
func (h *harness) offers() []*discordgo.Message {
	var out []*discordgo.Message
	for _, m := range h.fake.Messages(channelID) {
		if strings.Contains(m.Content, "the bank") && len(m.Embeds) == 0 && !strings.Contains(m.Content, "auction") {
			out = append(out, m)
		}
	}
	return out
}

// Open offers are bounded: a table has at most one standing bank offer
// (R6.3). A new offer replaces the last: the old one's buttons go, and accepting it
// moves nothing.
func TestANewOfferReplacesTheLast(t *testing.T) {
	clk := newClock()
	h := newHarness(t, clk.use)
	h.seat(alice, nil, bob, carol)
	h.deck.push(cutFor(t, 0, 3))
	h.nextRound(stack(t, "9H TC 7S 8D 8C 9S"))
	h.clickTable(alice, "deal")
	h.amount(bob, game.VerbStake, 5)
	h.amount(carol, game.VerbStake, 5)
	h.do(bob, game.VerbStick)
	h.do(carol, game.VerbStick)
	h.do(alice, game.VerbStay)
	h.waitTable("The round is settled")

	r := h.cmd(alice, group("bank", "sell", userOpt("member", bob), intOpt("price", 10)))
	require.Contains(t, text(r.Message), "Offer sent")
	first := h.waitOffer()
	r = h.cmd(alice, group("bank", "sell", userOpt("member", carol), intOpt("price", 20)))
	require.Contains(t, text(r.Message), "Offer sent")
	require.Eventually(t, func() bool { return len(h.offers()) == 2 }, 5*time.Second, 10*time.Millisecond)

	id, ok := customID(first, "pt:offer:", ".accept")
	require.True(t, ok)
	before := h.balance(bob)
	// The bot may already have taken the replaced offer's buttons away, so that Discord
	// refuses the click; if it has not yet, the click must not sell.
	if res, err := h.fake.Click(channelID, first.ID, bob, id); err == nil {
		assert.NotContains(t, text(res.Message), "bought the bank", "the replaced offer still sold the bank")
	}
	assert.Equal(t, before, h.balance(bob))
	assert.Eventually(t, func() bool { return len(components(h.fake.Message(channelID, first.ID))) == 0 }, 5*time.Second, 10*time.Millisecond,
		"the replaced offer still shows Accept and Decline")
	h.audit()
}

// "Stop after this round" survives a restart: the table still says it closes
// after the round, and closes when the round is settled.
func TestStopAfterThisRoundSurvivesARestart(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	h.deal(alice, 0, "9H 7S 8D 9S")
	r := h.cmd(alice, sub("stop"))
	require.Contains(t, text(r.Message), "close when this round is settled")
	h.waitTable("The table closes after this round.")
	h.stop()
	h.start()
	h.amount(bob, game.VerbStake, 10)
	h.do(bob, game.VerbStick)
	h.do(alice, game.VerbStay)
	h.waitTable("This table is closed")
	_, err := h.st.TableByChannel(context.Background(), guildID, channelID)
	assert.ErrorIs(t, err, store.ErrNotFound, "the table closes after the round, as asked before the restart")
	h.audit()
}

// An offer lives in the store from the command that makes it to the answer that ends
// it, so a restart keeps it: its message keeps its buttons, and the buyer's Accept after
// the restart buys the bank at the price offered (R6.3).
func TestAnOfferSurvivesARestart(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	h.deck.push(cutFor(t, 0, 2))
	h.nextRound(stack(t, "9H 7S 8D 9S"))
	h.clickTable(alice, "deal")
	h.amount(bob, game.VerbStake, 5)
	h.do(bob, game.VerbStick)
	h.do(alice, game.VerbStay)
	h.waitTable("The round is settled")
	h.cmd(alice, group("bank", "sell", userOpt("member", bob), intOpt("price", 10)))
	offer := h.waitOffer()
	sellerBefore, buyerBefore := h.balance(alice), h.balance(bob)
	h.stop()
	h.start()
	m := h.fake.Message(channelID, offer.ID)
	require.NotNil(t, m)
	require.NotContains(t, m.Content, "has expired", "the restart ended the offer")
	id, ok := customID(m, "pt:offer:", ".accept")
	require.True(t, ok, "the offer lost its buttons at the restart")
	r, err := h.fake.Click(channelID, m.ID, bob, id)
	require.NoError(t, err)
	require.Contains(t, text(r.Message), "bought the bank")
	h.waitBanker(bob)
	assert.Equal(t, sellerBefore+10, h.balance(alice), "the seller is paid the price offered before the restart")
	assert.Equal(t, buyerBefore-10, h.balance(bob))
	h.audit()
}

// R9.8: the kitty's top-up between rounds commits, and the bot stops
// before the table's edit reaches Discord (here the edit fails and the bot stops; a kill
// loses it the same way). After the restart the table shows the new kitty: a table
// changed between rounds in the last minutes is redrawn, as a settled one is.
func TestKittyChangeLostAtAStopIsRedrawnOnRestart(t *testing.T) {
	var ahead atomic.Int64 // how far the bot's clock is ahead of the machine's
	h := shootRoundPlayedWith(t, func(o *bot.Options) {
		o.Now = func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }
	})
	// The round settled long before: a restart redraws the table for the top-up alone.
	ahead.Store(int64(time.Hour))
	h.stopLosingTableEdits("Kitty: 180 chips", func() {
		r := h.cmd(alice, group("bank", "kitty", intOpt("amount", 50)))
		require.Contains(t, text(r.Message), "now holds 180")
	})
	h.start()
	h.waitTable("Kitty: 180 chips")
	h.audit()
}

package bot_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bankReplicas starts two HTTP replicas on one PostgreSQL, each on its own clock, with
// the interactions going to A, and a Shoot table whose cut makes alice the banker
// between rounds, the kitty not yet put up.
func bankReplicas(t *testing.T, bidWindow time.Duration) (h *harness, a, b *replica) {
	h, a, b = replicaPair(t, func(o *bot.Options) { o.OfferTTL, o.BidWindow = 2*time.Minute, bidWindow })
	h.seat(alice, shootOpts(), bob, carol)
	h.deck.push(cutFor(t, 0, 3))
	h.clickTable(alice, "deal") // the cut makes alice the banker; the deal waits for a kitty
	return h, a, b
}

// A bank sale offered through replica A is answered through replica B: B
// reads the offer from the store, refuses a stranger's Accept as A would, and sells the
// bank on the buyer's; the chips move once and the books balance. (Two Accepts at once
// on two replicas sell once: the sale's transaction ends the offer, store.TestBankOffers.)
func TestHTTPReplicaAcceptsAnOfferOfAnother(t *testing.T) {
	h, a, b := bankReplicas(t, time.Minute)
	h.cmd(alice, group("bank", "kitty", intOpt("amount", 60)))
	r := h.cmd(alice, group("bank", "sell", userOpt("member", bob), intOpt("price", 40)))
	require.Contains(t, text(r.Message), "Offer sent")
	m := h.waitOffer()
	click := func(m *discordgo.Message, user, suffix string) *discordgo.Message {
		t.Helper()
		id, ok := customID(m, "pt:offer:", suffix)
		require.True(t, ok)
		r, err := h.fake.Click(channelID, m.ID, user, id)
		require.NoError(t, err)
		return r.Message
	}

	require.NoError(t, h.fake.SetInteractionsEndpoint(b.srv.URL))
	got := click(m, carol, ".accept")
	require.Contains(t, text(got), "This offer is for <@"+bob+">", "B knows the offer's buyer")

	// bob's Accept clicked twice at once, one click reaching each replica.
	require.NoError(t, h.fake.SetInteractionsEndpoint(a.srv.URL, b.srv.URL))
	var wg sync.WaitGroup
	answers := make([]string, 2)
	id, ok := customID(m, "pt:offer:", ".accept")
	require.True(t, ok)
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r, err := h.fake.Click(channelID, m.ID, bob, id); err == nil {
				answers[i] = text(r.Message)
			} // else Discord refused it: the first answer had taken the buttons away
		}()
	}
	wg.Wait()
	sold := 0
	for _, a := range answers {
		if strings.Contains(a, "bought the bank") {
			sold++
		}
	}
	require.Equal(t, 1, sold, "one of the two Accepts sells: %q", answers)
	h.waitBanker(bob)
	assert.Equal(t, int64(1000+40), h.balance(alice), "price paid and kitty returned (R9.9), once")
	assert.Equal(t, int64(960), h.balance(bob))

	// bob's own offer, made through A, accepted through B.
	require.NoError(t, h.fake.SetInteractionsEndpoint(a.srv.URL))
	r = h.cmd(bob, group("bank", "sell", userOpt("member", carol), intOpt("price", 25)))
	require.Contains(t, text(r.Message), "Offer sent")
	m = h.waitOffer()
	require.NoError(t, h.fake.SetInteractionsEndpoint(b.srv.URL))
	got = click(m, carol, ".accept")
	require.Contains(t, text(got), "bought the bank", "B sells the bank A offered")
	h.waitBanker(carol)
	assert.Equal(t, int64(960+25), h.balance(bob))
	assert.Equal(t, int64(975), h.balance(carol))
	assert.Equal(t, int64(1040), h.balance(alice))
	h.audit()
	h.noFailures()
}

// An offer's expiry lives in the store: the offer A made outlives A, and expires on B's
// clock, B's poll editing its message, which loses its buttons.
func TestHTTPReplicaExpiresAnOfferOfAReplicaGone(t *testing.T) {
	h, a, b := bankReplicas(t, time.Minute)
	h.cmd(alice, group("bank", "sell", userOpt("member", bob), intOpt("price", 40)))
	m := h.waitOffer() // A has made the offer and recorded its message
	a.stop()
	require.NotEmpty(t, components(h.fake.Message(channelID, m.ID)), "the offer outlives the replica that made it")
	require.NoError(t, h.fake.SetInteractionsEndpoint(b.srv.URL))
	b.clock.Advance(2*time.Minute - time.Second)
	require.NotEmpty(t, components(h.fake.Message(channelID, m.ID)), "not expired before its time")
	b.clock.Advance(time.Second)
	require.Eventually(t, func() bool {
		for _, msg := range h.fake.Messages(channelID) {
			if msg.ID == m.ID {
				return len(msg.Components) == 0 && strings.Contains(msg.Content, "expired")
			}
		}
		return false
	}, 5*time.Second, 10*time.Millisecond, "B's poll expires the offer and edits its message")
	tb, err := h.st.TableByChannel(context.Background(), guildID, channelID)
	require.NoError(t, err)
	ds, err := h.st.Deadlines(context.Background(), tb.ID)
	require.NoError(t, err)
	assert.Empty(t, ds, "the offer expired once and left no timer")
	assert.Equal(t, int64(1000), h.balance(bob), "an expired offer sells nothing")
	h.audit()
	h.noFailures()
}

// An auction started through A takes a bid through B, and when A is gone B closes it
// on its own clock (R9.8): the bank goes to the bid once; the books balance.
func TestHTTPReplicaClosesAnAuctionOfAReplicaGone(t *testing.T) {
	const window = 30 * time.Second
	h, a, b := bankReplicas(t, window)
	r := h.cmd(alice, group("bank", "auction"))
	require.Contains(t, text(r.Message), "auction has started")
	h.waitPost("auctions the bank", false)

	require.NoError(t, h.fake.SetInteractionsEndpoint(b.srv.URL))
	r = h.cmd(alice, group("bank", "auction"))
	require.Contains(t, text(r.Message), "already", "B knows A's auction runs")
	r = h.cmd(bob, group("bank", "bid", intOpt("amount", 30)))
	require.Contains(t, text(r.Message), "30 chips is the highest", "B takes a bid in A's auction")
	r = h.cmd(carol, group("bank", "bid", intOpt("amount", 30)))
	require.Contains(t, text(r.Message), "Bid more than the highest bid of 30")

	a.stop()
	b.clock.Advance(window - time.Second)
	assert.Equal(t, int64(1000), h.balance(alice), "not closed before the window ends")
	b.clock.Advance(time.Second)
	h.waitTable("won the bank from <@" + alice + "> for 30 chips")
	h.waitBanker(bob)
	assert.Equal(t, int64(1030), h.balance(alice))
	assert.Equal(t, int64(970), h.balance(bob))
	assert.Equal(t, int64(1000), h.balance(carol))
	b.clock.Advance(time.Minute)
	assert.Equal(t, int64(1030), h.balance(alice), "the auction sells once")
	r = h.cmd(carol, group("bank", "bid", intOpt("amount", 50)))
	require.Contains(t, text(r.Message), "No auction is running")
	tb, err := h.st.TableByChannel(context.Background(), guildID, channelID)
	require.NoError(t, err)
	ds, err := h.st.Deadlines(context.Background(), tb.ID)
	require.NoError(t, err)
	assert.Empty(t, ds, "a closed auction leaves no timer behind")
	h.audit()
	h.noFailures()
}

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

// Defect 7: after a restart with thousands of open tables, the bot edits only the tables
// where something changed: here one whose turn timer ran out while it was down (R7.4)
// and one whose message was never posted. The others, untouched since their last edit,
// get no request at all; nothing is rate limited.
func TestDefect07RestartEditsOnlyTablesThatChanged(t *testing.T) {
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
	nowNs.Add(int64(10 * time.Minute)) // carol's stake timed out while the bot was down
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
		posted = posted || len(m.Embeds) > 0 && len(m.Components) > 0
	}
	assert.True(t, posted, "the table whose message was never posted has none after the restart")
	h.noFailures()
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

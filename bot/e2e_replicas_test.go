package bot_test

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/bot/httpin"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
	"github.com/pontoon-bot/pontoon/store/storetest"
	"github.com/stretchr/testify/require"
)

// replica is one HTTP-interaction process of the bot: its store pool, its bot, its
// endpoint, and its own clock.
type replica struct {
	st    *store.Store
	bot   *bot.Bot
	srv   *httptest.Server
	clock *manualClock
}

func startReplica(t *testing.T, fake *discordtest.Server, url string, opt bot.Options) *replica {
	t.Helper()
	ctx := context.Background()
	r := &replica{clock: newClock()}
	r.clock.use(&opt)
	st, err := store.Open(ctx, url)
	require.NoError(t, err)
	r.st = st
	b, err := bot.New(st, opt)
	require.NoError(t, err)
	require.NoError(t, b.Start(ctx))
	r.bot = b
	key, err := httpin.ParsePublicKey(fake.PublicKey())
	require.NoError(t, err)
	h, err := httpin.New(httpin.Options{PublicKey: key, Router: b.Route, Webhooks: b.REST(), Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	r.srv = httptest.NewServer(h)
	t.Cleanup(r.stop)
	return r
}

// stop ends the replica as a process would end: nothing of it runs afterwards.
func (r *replica) stop() {
	if r.bot == nil {
		return
	}
	r.srv.Close()
	_ = r.bot.Close()
	_ = r.st.Close()
	r.bot = nil
}

// replicaPair starts two HTTP replicas on one PostgreSQL, each on its own clock, with a
// one-minute turn timer (mod changes the options) and the interactions going to A; the
// harness reads the store through a pool of its own.
func replicaPair(t *testing.T, mod func(*bot.Options)) (h *harness, a, b *replica) {
	t.Helper()
	url := storetest.PostgresURL(t)
	fake := discordtest.New(t, discordtest.WithToken("test-token"))
	fake.AddGuild(guildID, "en-US")
	fake.AddChannel(guildID, channelID)
	for _, m := range []string{alice, bob, carol} {
		fake.AddMember(guildID, m, "player"+m[len(m)-1:], 0, "en-US")
	}
	dk := &deck{}
	opt := bot.Options{Token: "test-token", APIURL: fake.URL(), AppID: fake.AppID, TurnTimer: time.Minute, EditDelay: 10 * time.Millisecond,
		EditWait: 5 * time.Second, Deck: dk.next, StartingChips: 1000, DailyAmount: 200, Scale: bot.Scale{HTTP: true},
		Logger: slog.New(slog.DiscardHandler)}
	if mod != nil {
		mod(&opt)
	}
	a = startReplica(t, fake, url, opt)
	b = startReplica(t, fake, url, opt)
	obs, err := store.Open(context.Background(), url)
	require.NoError(t, err)
	t.Cleanup(func() { _ = obs.Close() })
	require.NoError(t, fake.SetInteractionsEndpoint(a.srv.URL))
	return &harness{t: t, fake: fake, st: obs, deck: dk}, a, b
}

// Two HTTP-interaction replicas on one PostgreSQL, each on its own clock: the
// turn timer of a table lives in the store, so when both poll it at the same moment a
// turn times out once, and when the replica that dealt and last touched the table is
// gone, the other times the round out to its end (it held the table in no timer of its
// own). Every decision times out once; the audit balances.
func TestHTTPReplicaTimesOutATableOfAReplicaGone(t *testing.T) {
	h, a, b := replicaPair(t, nil) // A alone deals and plays
	obs, fake := h.st, h.fake
	const turn = time.Minute

	h.seat(alice, nil, bob, carol)
	h.deal(alice, 0, "2C 3C 4C 5C 6C 7C 8C 9C")
	h.amount(bob, game.VerbStake, 10)

	ctx := context.Background()
	tb, err := obs.TableByChannel(ctx, guildID, channelID)
	require.NoError(t, err)
	round, err := obs.Round(ctx, tb.ID, tb.RoundNumber)
	require.NoError(t, err)
	seen := 0
	// timeouts returns the members timed out since it was last called.
	timeouts := func() []string {
		t.Helper()
		as, err := obs.Actions(ctx, round.ID)
		require.NoError(t, err)
		var out []string
		for _, x := range as[seen:] {
			if x.Verb == string(game.VerbTimeout) {
				out = append(out, x.Member)
			}
		}
		seen = len(as)
		return out
	}
	require.Empty(t, timeouts())

	// Both replicas poll as the turn runs out, at once.
	var wg sync.WaitGroup
	for _, r := range []*replica{a, b} {
		wg.Add(1)
		go func() { defer wg.Done(); r.clock.Advance(turn) }()
	}
	wg.Wait()
	require.Equal(t, []string{carol}, timeouts(), "carol, who staked nothing, sits out once (R7.4), not once per replica")

	h.panel(bob) // A touches the table last, then is gone
	a.stop()
	require.NoError(t, fake.SetInteractionsEndpoint(b.srv.URL))

	for step := 0; ; step++ {
		require.Less(t, step, 4, "the round never ended")
		r, err := obs.Round(ctx, tb.ID, round.Number)
		require.NoError(t, err)
		if r.Finished() {
			break
		}
		b.clock.Advance(turn - time.Second)
		require.Empty(t, timeouts(), "no decision times out before its turn has run")
		b.clock.Advance(time.Second)
		out := timeouts()
		require.Len(t, out, 1, "replica B times out the one decision the round waits on, once: %v", out)
	}
	m := h.waitTable("The round is settled") // B's publisher draws the table B timed out
	require.Contains(t, text(m), "<@"+bob+"> ran out of time.")
	h.audit()
	h.noFailures()
	ds, err := obs.Deadlines(ctx, tb.ID)
	require.NoError(t, err)
	require.Empty(t, ds, "a settled round leaves no timer behind")
}

// Two replicas on one PostgreSQL: replica A times carol out (R7.4) and its
// table says so; then replica B, whose copy of the table is stale, redraws it for a stop
// asked during the round. The notice comes from the round's actions in the store, not
// from A's memory, so B's table still says who ran out of time.
func TestHTTPReplicaKeepsTheTimeoutNoticeOfAnother(t *testing.T) {
	h, a, b := replicaPair(t, nil)
	const turn = time.Minute

	h.seat(alice, nil, bob, carol)
	h.deal(alice, 0, "2C 3C 4C 5C 6C 7C 8C 9C")
	h.amount(bob, game.VerbStake, 10)
	a.clock.Advance(turn) // A's clock first: A times carol out
	// A applies the timeout on its own goroutine, and its edit of the table follows
	// EditDelay after on A's clock: move A's clock on until the table shows it.
	notice := "<@" + carol + "> ran out of time."
	var moved time.Duration
	require.Eventually(t, func() bool {
		a.clock.Advance(10 * time.Millisecond)
		moved += 10 * time.Millisecond
		m := h.findTable()
		return m != nil && strings.Contains(text(m), notice)
	}, 10*time.Second, 20*time.Millisecond, "A's table never showed the timeout")
	b.clock.Advance(turn + moved) // then B's, to the same time: the next turn is not due yet

	require.NoError(t, h.fake.SetInteractionsEndpoint(b.srv.URL))
	// B may wait for A's lease on the table, so its answer may come as an edit of a
	// deferred one.
	r := h.cmd(alice, sub("stop"))
	answer := r.Message
	if r.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource {
		var err error
		answer, err = r.WaitEdit(30 * time.Second)
		require.NoError(t, err)
	}
	require.Contains(t, text(answer), "close when this round is settled")
	m := h.waitTable("The table closes after this round.")
	require.Contains(t, text(m), notice, "replica B's table lost the notice:\n%s", text(m))
	h.noFailures()
}

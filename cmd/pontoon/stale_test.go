package main

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
	"github.com/pontoon-bot/pontoon/store/storetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A replica whose copy of a table went stale without its lease saying so (another
// replica wrote while its own lease had lapsed; here the test writes to the store
// directly, as that replica would) fails its commit on the store's (round, seq) key,
// rebuilds the table by replay and tries the click again: the member's stake goes in
// after the other one, answered as usual, once. Without the retry the member would be
// told the action was already applied.
func TestHTTPReplicaRetriesAStaleCopy(t *testing.T) {
	url := storetest.PostgresURL(t)
	bin := sharedBinary(t)
	fake := playersFake(t)
	tb := tableAt{t: t, fake: fake, guild: guild, channel: channel}
	addr := freeAddr(t)
	env := append(os.Environ(), "PONTOON_DISCORD_TOKEN="+token, "PONTOON_DISCORD_API_URL="+fake.URL(),
		"PONTOON_DATABASE_URL="+url, "PONTOON_LOG_FORMAT=json", "PONTOON_GAME_TURN_TIMER=10m",
		"PONTOON_DISCORD_APPLICATION_ID="+fake.AppID, "PONTOON_DISCORD_PUBLIC_KEY="+fake.PublicKey(),
		"PONTOON_DISCORD_INTERACTIONS_LISTEN="+addr)
	p := startServe(t, bin, env, 1)
	require.NoError(t, fake.SetInteractionsEndpoint("http://"+addr+"/"))
	require.Eventually(t, func() bool { return len(fake.Commands("")) == 1 }, 10*time.Second, 20*time.Millisecond)

	tb.deal(p.logs.String)

	// The two players who stake: everyone but the banker the cut chose.
	ctx := context.Background()
	st, err := store.Open(ctx, url)
	require.NoError(t, err)
	defer st.Close()
	round, actions := currentRound(t, url, guild, channel)
	h, err := store.RoundHistory(round, actions)
	require.NoError(t, err)
	g, _, err := game.Replay(h)
	require.NoError(t, err)
	var stakers []string
	for _, m := range players {
		if m != g.Banker {
			stakers = append(stakers, m)
		}
	}
	require.Len(t, stakers, 2)
	first, second := stakers[0], stakers[1]

	// The second staker opens their panel on the replica, which loads the round.
	cards, _ := findID(tb.msg(), "pt:cards:", "")
	panel, err := fake.Click(channel, tb.msg().ID, second, cards)
	require.NoError(t, err)
	stake, ok := findID(panel.Message, "pt:amt:", ":stake")
	require.True(t, ok, "the panel offers a stake: %s", msgText(panel.Message))

	// "Another replica" stakes for the first player, straight into the store.
	out, err := g.Apply(game.Action{Player: first, Verb: game.VerbStake, Amount: 2})
	require.NoError(t, err)
	a := game.Action{Player: first, Verb: game.VerbStake, Amount: 2}
	require.NoError(t, st.ApplyAction(ctx, store.ApplyParams{RoundID: round.ID, Seq: len(actions) + 1, Member: first,
		Verb: string(game.VerbStake), Args: a.Args(), Now: time.Now().UTC().Truncate(time.Millisecond),
		Transfers: store.GameTransfers(round.TableID, out)}))

	// The replica's copy still has the round one action short: its commit of the second
	// stake fails, and the retry applies it after the first.
	sr, err := fake.Select(channel, panel.Message.ID, second, stake, []string{"1"})
	require.NoError(t, err)
	assert.NotContains(t, msgText(sr.Message), "⛔", "the stake goes in on the retry; logs:\n%s", p.logs.String())
	assert.Contains(t, p.logs.String(), "table copy was stale; rebuilt from the store and tried again")

	after, err := st.Actions(ctx, round.ID)
	require.NoError(t, err)
	require.Len(t, after, len(actions)+2, "both stakes, each once")
	assert.Equal(t, first, after[len(actions)].Member)
	assert.Equal(t, second, after[len(actions)+1].Member)
	assert.Equal(t, string(game.VerbStake), after[len(actions)+1].Verb)

	tb.playOut(p.logs.String)
	stopServe(t, p)
	assert.Empty(t, fake.Failures())
	auditOK(t, bin, env)
}

package discordtest_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/bot/shard"
)

// snowflake makes an id whose shard among n is (ms % n).
func snowflake(ms uint64) string { return strconv.FormatUint(ms<<22|77, 10) }

// shardBot is one discordgo session as one shard: it records the guilds it
// was told about and answers /probe with its shard id.
type shardBot struct {
	s      *discordgo.Session
	mu     sync.Mutex
	guilds []string
}

func newShardBot(t *testing.T, srv *discordtest.Server, id, count int) *shardBot {
	t.Helper()
	b := &shardBot{s: newSession(t, srv)}
	b.s.ShardID, b.s.ShardCount = id, count
	b.s.AddHandler(func(_ *discordgo.Session, g *discordgo.GuildCreate) {
		b.mu.Lock()
		b.guilds = append(b.guilds, g.ID)
		b.mu.Unlock()
	})
	b.s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		_ = s.InteractionRespond(i.Interaction, ephemeral(fmt.Sprintf("shard %d of %d", s.ShardID, s.ShardCount)))
	})
	t.Cleanup(func() { _ = b.s.Close() })
	return b
}

func (b *shardBot) seen() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.guilds...)
}

func addGuild(srv *discordtest.Server, id string) (channel, member string) {
	channel, member = id[:len(id)-1]+"8", id[:len(id)-1]+"9"
	srv.AddGuild(id, "en-US")
	srv.AddChannel(id, channel)
	srv.AddMember(id, member, "m"+id[len(id)-4:], discordgo.PermissionSendMessages, "en-US")
	return channel, member
}

// TestShardsRouteGuilds: two discordgo sessions as shards 0 and 1 of one
// application. GET /gateway/bot tells the configured count and
// max_concurrency; each shard hears only of its own guilds, (guild_id >> 22)
// % 2, and gets only their interactions, also for a guild joined later.
func TestShardsRouteGuilds(t *testing.T) {
	srv := discordtest.New(t, discordtest.WithShards(2, 2))
	g0, g1, g2 := snowflake(1000), snowflake(1001), snowflake(1003)
	ch0, m0 := addGuild(srv, g0)
	ch1, m1 := addGuild(srv, g1)
	for _, g := range []string{g0, g1, g2} {
		want := int((mustUint(g) >> 22) % 2)
		got, err := shard.Of(g, 2)
		require.NoError(t, err)
		require.Equal(t, want, got)
	}

	b0, b1 := newShardBot(t, srv, 0, 2), newShardBot(t, srv, 1, 2)
	gb, err := b0.s.GatewayBot()
	require.NoError(t, err)
	assert.Equal(t, 2, gb.Shards)
	assert.Equal(t, 2, gb.SessionStartLimit.MaxConcurrency)
	_, err = b0.s.ApplicationCommandBulkOverwrite(srv.AppID, "", probeCommands)
	require.NoError(t, err)

	// max_concurrency 2: both shards may identify at once.
	var wg sync.WaitGroup
	for _, b := range []*shardBot{b0, b1} {
		wg.Add(1)
		go func() { defer wg.Done(); assert.NoError(t, b.s.Open()) }()
	}
	wg.Wait()
	require.Eventually(t, func() bool { return len(b0.seen()) == 1 && len(b1.seen()) == 1 }, 5*time.Second, 5*time.Millisecond)
	assert.Equal(t, []string{g0}, b0.seen())
	assert.Equal(t, []string{g1}, b1.seen())

	sessions := srv.Sessions()
	require.Len(t, sessions, 2)
	assert.Equal(t, 0, sessions[0].ShardID)
	assert.Equal(t, 2, sessions[0].ShardCount)
	assert.Equal(t, []string{g0}, sessions[0].Guilds)
	assert.Equal(t, []string{g1}, sessions[1].Guilds)

	probe := []*discordgo.ApplicationCommandInteractionDataOption{{Name: "case", Value: "which"}}
	r, err := srv.Command(g0, ch0, m0, "probe", probe)
	require.NoError(t, err)
	assert.Equal(t, "shard 0 of 2", r.Message.Content)
	r, err = srv.Command(g1, ch1, m1, "probe", probe)
	require.NoError(t, err)
	assert.Equal(t, "shard 1 of 2", r.Message.Content)

	// A server that adds the bot later is announced on its shard only.
	told, err := srv.JoinGuild(g2, "pl")
	require.NoError(t, err)
	assert.Equal(t, 1, told)
	require.Eventually(t, func() bool { return len(b1.seen()) == 2 }, 5*time.Second, 5*time.Millisecond)
	assert.Equal(t, []string{g1, g2}, b1.seen())
	assert.Equal(t, []string{g0}, b0.seen())
	assert.Empty(t, srv.Failures())
}

func mustUint(s string) uint64 {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		panic(err)
	}
	return n
}

// TestPacedShardsStart: three shards at max_concurrency 1, started one
// after the other through shard.Pacer, all identify without an op 9.
func TestPacedShardsStart(t *testing.T) {
	const window = 150 * time.Millisecond
	srv := discordtest.New(t, discordtest.WithShards(3, 1), discordtest.WithIdentifyWindow(window))
	for ms := uint64(2000); ms < 2006; ms++ {
		addGuild(srv, snowflake(ms))
	}
	// The pacer's window has a margin over Discord's, as shard.DefaultWindow
	// has over shard.IdentifyWindow.
	p := shard.NewPacer(1, window+100*time.Millisecond, nil)
	var bots []*shardBot
	for id := range 3 {
		b := newShardBot(t, srv, id, 3)
		require.NoError(t, p.Wait(context.Background(), id))
		require.NoError(t, b.s.Open())
		bots = append(bots, b)
	}
	require.Eventually(t, func() bool {
		n := 0
		for _, b := range bots {
			n += len(b.seen())
		}
		return n == 6
	}, 5*time.Second, 5*time.Millisecond)
	for id, b := range bots {
		assert.Len(t, b.seen(), 2, "shard %d holds two of the six guilds", id)
	}
	assert.Zero(t, srv.TooFastIdentifies())
	assert.Equal(t, 3, srv.GatewayState().Identifies)
	assert.Empty(t, srv.Failures())
}

// TestIdentifyTooFast: with max_concurrency 1, a second shard identifying
// within the window gets op 9 Invalid Session, as Discord documents.
// discordgo v0.29.0 identifies again at once, so it spins until the session
// start limit runs out, and then every session ends with 4004: why the bot
// must pace its identifies itself.
func TestIdentifyTooFast(t *testing.T) {
	srv := discordtest.New(t, discordtest.WithShards(2, 1), discordtest.WithIdentifyWindow(time.Hour),
		discordtest.WithSessionStartLimit(6))
	addGuild(srv, snowflake(3000))
	b0, b1 := newShardBot(t, srv, 0, 2), newShardBot(t, srv, 1, 2)
	require.NoError(t, b0.s.Open())
	_ = b1.s.Open() // answered op 9 at once; discordgo loops on it

	require.Eventually(t, func() bool {
		return strings.Contains(strings.Join(srv.Failures(), "\n"), "session start limit of 6 identifies used up")
	}, 5*time.Second, 5*time.Millisecond)
	fails := srv.Failures()
	assert.Contains(t, fails[0], "shard [1, 2] identified")
	assert.Contains(t, fails[0], "rate-limit key 0 (max_concurrency 1 per 1h0m0s); answered op 9")
	assert.Equal(t, 5, srv.TooFastIdentifies(), "shard 1 tried five times after shard 0's one good identify")
	require.Eventually(t, func() bool { return len(srv.Sessions()) == 0 }, 5*time.Second, 5*time.Millisecond,
		"the start limit ended every session")
	assert.False(t, srv.WaitReady(50*time.Millisecond))

	// The token counts as reset: a new identify is refused with 4004.
	late := newSession(t, srv)
	err := late.Open()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "4004")
	srv.ClearFailures()
}

// TestInvalidShard: a shard id outside [0, count) is closed with 4010.
// discordgo refuses such a ShardID itself, so the test sets the identify's
// shard field directly.
func TestInvalidShard(t *testing.T) {
	srv := discordtest.New(t)
	s := newSession(t, srv)
	s.Identify.Shard = &[2]int{2, 2}
	err := s.Open()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "4010")
	require.Len(t, srv.Failures(), 1)
	assert.Contains(t, srv.Failures()[0], "invalid shard [2, 2]")
	srv.ClearFailures()
}

// TestShardingRequired: a shard that would hold more guilds than allowed
// is closed with 4011; with two shards each holds few enough.
func TestShardingRequired(t *testing.T) {
	srv := discordtest.New(t, discordtest.WithGuildsPerShard(1))
	addGuild(srv, snowflake(4000))
	addGuild(srv, snowflake(4001))
	s := newSession(t, srv)
	err := s.Open()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "4011")
	require.Len(t, srv.Failures(), 1)
	assert.Contains(t, srv.Failures()[0], "would hold 2 guilds, more than 1")
	srv.ClearFailures()

	b := newShardBot(t, srv, 1, 2)
	require.NoError(t, b.s.Open())
	require.Eventually(t, func() bool { return len(b.seen()) == 1 }, 5*time.Second, 5*time.Millisecond)
	assert.Equal(t, []string{snowflake(4001)}, b.seen())
	assert.Empty(t, srv.Failures())
}

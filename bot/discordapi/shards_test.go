package discordapi_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/discordapi"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
)

func quiet(s *discordgo.Session) {
	s.ShouldReconnectOnError = false
	s.LogLevel = -1
}

// guildOn returns a guild id on shard want of count.
func guildOn(want, count int) string { return strconv.FormatUint(uint64(5000*count+want)<<22|1, 10) }

// TestOpenShardsAuto: with discord.shards auto the process asks
// GET /gateway/bot and runs every shard, paced by max_concurrency so the
// fake never answers op 9, and each guild maps to the session of its shard.
func TestOpenShardsAuto(t *testing.T) {
	const window = 100 * time.Millisecond
	srv := discordtest.New(t, discordtest.WithShards(3, 2), discordtest.WithIdentifyWindow(window))
	for s := range 3 {
		srv.AddGuild(guildOn(s, 3), "")
	}
	sh, err := discordapi.OpenShards(context.Background(), discordapi.ShardConfig{
		Token: srv.Token, BaseURL: srv.URL(), Auto: true, Window: window + 100*time.Millisecond, Setup: quiet,
	})
	require.NoError(t, err)
	defer sh.Close()
	assert.Equal(t, 3, sh.Count)
	assert.Equal(t, []int{0, 1, 2}, sh.IDs)
	require.Len(t, sh.Sessions, 3)
	for i, s := range sh.Sessions {
		assert.Equal(t, i, s.ShardID)
		assert.Equal(t, 3, s.ShardCount)
		assert.Same(t, s, sh.ForGuild(guildOn(i, 3)))
		assert.True(t, sh.Serves(guildOn(i, 3)))
	}
	sessions := srv.Sessions()
	require.Len(t, sessions, 3)
	for i, info := range sessions {
		assert.Equal(t, []string{guildOn(i, 3)}, info.Guilds)
		assert.True(t, info.Connected)
	}
	assert.Zero(t, srv.TooFastIdentifies(), "shard 2 shares shard 0's rate-limit key and waited its turn")
	assert.Empty(t, srv.Failures())
}

// TestOpenShardsFixed: discord.shard_id 1 of 2 runs that one shard, and the
// process serves only its guilds.
func TestOpenShardsFixed(t *testing.T) {
	srv := discordtest.New(t, discordtest.WithShards(2, 1))
	mine, theirs := guildOn(1, 2), guildOn(0, 2)
	srv.AddGuild(mine, "")
	srv.AddGuild(theirs, "")
	sh, err := discordapi.OpenShards(context.Background(), discordapi.ShardConfig{
		Token: srv.Token, BaseURL: srv.URL(), ShardID: 1, ShardCount: 2, Setup: quiet,
	})
	require.NoError(t, err)
	defer sh.Close()
	require.Len(t, sh.Sessions, 1)
	assert.Equal(t, 1, sh.Sessions[0].ShardID)
	assert.True(t, sh.Serves(mine))
	assert.False(t, sh.Serves(theirs))
	assert.Nil(t, sh.ForGuild(theirs))
	require.Len(t, srv.Sessions(), 1)
	assert.Equal(t, []string{mine}, srv.Sessions()[0].Guilds)
	assert.Empty(t, srv.Failures())

	_, err = discordapi.OpenShards(context.Background(), discordapi.ShardConfig{Token: srv.Token, BaseURL: srv.URL(), ShardID: 2, ShardCount: 2})
	assert.ErrorContains(t, err, "shard 2 of 2 does not exist")
}

// TestOpenShardsUnsharded: no shard settings, one session without a shard
// field, serving every guild.
func TestOpenShardsUnsharded(t *testing.T) {
	srv := discordtest.New(t)
	srv.AddGuild(guildOn(1, 2), "")
	sh, err := discordapi.OpenShards(context.Background(), discordapi.ShardConfig{Token: srv.Token, BaseURL: srv.URL(), Setup: quiet})
	require.NoError(t, err)
	defer sh.Close()
	require.Len(t, sh.Sessions, 1)
	assert.LessOrEqual(t, sh.Sessions[0].ShardCount, 1, "discordgo sends no shard field")
	assert.True(t, sh.Serves(guildOn(1, 2)))
	require.Len(t, srv.Sessions(), 1)
	assert.Equal(t, 1, srv.Sessions()[0].ShardCount)
}

// TestOpenShardsGuardsStartLimit: auto refuses to start more shards than
// the day's remaining session starts.
func TestOpenShardsGuardsStartLimit(t *testing.T) {
	srv := discordtest.New(t, discordtest.WithShards(4, 4), discordtest.WithSessionStartLimit(3))
	_, err := discordapi.OpenShards(context.Background(), discordapi.ShardConfig{Token: srv.Token, BaseURL: srv.URL(), Auto: true, Setup: quiet})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "4 shards to start but only 3 of 3 session starts left")
	assert.NotContains(t, err.Error(), srv.Token)
	assert.Zero(t, srv.GatewayState().Identifies)
}

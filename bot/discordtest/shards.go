package discordtest

import (
	"fmt"
	"sort"
	"time"
)

// Gateway limits of Discord's that the fake models for sharded bots.
const (
	// DefaultIdentifyWindow is Discord's window for max_concurrency: that
	// many identifies per 5 seconds, one per rate-limit key.
	DefaultIdentifyWindow = 5 * time.Second
	// DefaultSessionStartLimit is Discord's 1,000 identifies per day.
	DefaultSessionStartLimit = 1000
	// DefaultGuildsPerShard is the most guilds one shard may hold; an
	// identify that would give a shard more is closed with 4011.
	DefaultGuildsPerShard = 2500

	closeShardingRequired = 4011
)

// scaleConfig holds the options of sharded gateways.
type scaleConfig struct {
	shards         int           // GET /gateway/bot "shards"
	maxConcurrency int           // GET /gateway/bot "session_start_limit.max_concurrency"
	pace           bool          // enforce max_concurrency per window
	window         time.Duration // the identify window
	startLimit     int           // identifies allowed in all
	guildsPerShard int
}

func defaultScaleConfig() scaleConfig {
	return scaleConfig{shards: 1, maxConcurrency: 1, window: DefaultIdentifyWindow,
		startLimit: DefaultSessionStartLimit, guildsPerShard: DefaultGuildsPerShard}
}

// shardState is the fake's memory of identifies, guarded by Server.mu.
type shardState struct {
	lastIdentify map[int]time.Time // per rate-limit key
	starts       int               // identifies counted against the start limit
	tooFast      int               // identifies answered op 9 for max_concurrency
	tokenReset   bool              // the start limit ran out: every identify fails
}

// WithShards makes GET /gateway/bot recommend shards shards with
// max_concurrency maxConcurrency, and enforces that limit as Discord does:
// each rate-limit key (shard_id % max_concurrency) may identify once per
// window (WithIdentifyWindow, default 5 s); an identify sooner is answered
// op 9 Invalid Session and recorded as a failure. Without WithShards the
// answer is 1 and 1, and identifies are not paced, so that tests which
// reconnect quickly need not wait.
func WithShards(shards, maxConcurrency int) Option {
	return func(c *config) {
		c.scale.shards, c.scale.maxConcurrency, c.scale.pace = shards, maxConcurrency, true
	}
}

// WithIdentifyWindow shortens (or lengthens) the max_concurrency window for
// tests; Discord's is 5 s.
func WithIdentifyWindow(d time.Duration) Option { return func(c *config) { c.scale.window = d } }

// WithSessionStartLimit sets how many identifies the application may make
// (Discord: 1,000 a day). When they run out the fake does what Discord does:
// it ends every session and refuses every identify with 4004, as if the
// token had been reset.
func WithSessionStartLimit(n int) Option { return func(c *config) { c.scale.startLimit = n } }

// WithGuildsPerShard sets how many guilds one shard may hold before an
// identify is closed with 4011 Sharding Required (Discord: 2,500).
func WithGuildsPerShard(n int) Option { return func(c *config) { c.scale.guildsPerShard = n } }

// gatewayBotLocked is the body of GET /gateway/bot.
func (s *Server) gatewayBotLocked() map[string]any {
	sc := s.cfg.scale
	remaining := max(sc.startLimit-s.shardSt.starts, 0)
	return map[string]any{"url": s.gatewayURL(), "shards": sc.shards, "session_start_limit": map[string]any{
		"total": sc.startLimit, "remaining": remaining, "reset_after": 86_400_000, "max_concurrency": sc.maxConcurrency}}
}

// admitIdentifyLocked applies the limits that Discord puts on identifies
// of a valid payload: the start limit, max_concurrency and the guilds per
// shard. It returns false when it refused the identify (and answered it).
func (s *Server) admitIdentifyLocked(c *gwConn, shardID, shardCount, guilds int) bool {
	sc := s.cfg.scale
	st := &s.shardSt
	if st.tokenReset {
		c.send(gwFrame{closeCode: closeAuthFailed, closeText: "Authentication failed."})
		return false
	}
	st.starts++
	if st.starts > sc.startLimit {
		st.tokenReset = true
		s.failLocked("gateway: session start limit of %d identifies used up; Discord ends every session and resets the token", sc.startLimit)
		c.send(gwFrame{closeCode: closeAuthFailed, closeText: "Authentication failed."})
		for other := range s.conns {
			if other != c {
				other.send(gwFrame{closeCode: closeAuthFailed, closeText: "Authentication failed."})
			}
		}
		for id, sess := range s.sessions {
			sess.resumable = false
			delete(s.sessions, id)
		}
		return false
	}
	if sc.pace {
		if st.lastIdentify == nil {
			st.lastIdentify = map[int]time.Time{}
		}
		mc := max(sc.maxConcurrency, 1)
		key := shardID % mc
		now := time.Now()
		if last, ok := st.lastIdentify[key]; ok && now.Sub(last) < sc.window {
			st.tooFast++
			s.failLocked("gateway: shard [%d, %d] identified %v after the last identify of rate-limit key %d (max_concurrency %d per %v); answered op 9",
				shardID, shardCount, now.Sub(last).Round(time.Millisecond), key, mc, sc.window)
			c.send(gwFrame{data: []byte(`{"op":9,"s":null,"t":null,"d":false}`)})
			return false
		}
		st.lastIdentify[key] = now
	}
	if guilds > sc.guildsPerShard {
		s.failLocked("gateway: shard [%d, %d] would hold %d guilds, more than %d; closed 4011", shardID, shardCount, guilds, sc.guildsPerShard)
		c.send(gwFrame{closeCode: closeShardingRequired, closeText: "Sharding required."})
		return false
	}
	return true
}

// SessionInfo describes one gateway session of the fake.
type SessionInfo struct {
	ID         string
	ShardID    int
	ShardCount int // 1 for a session that sent no shard
	Connected  bool
	Resumable  bool
	// Guilds are the guilds the session's shard holds, sorted: those whose
	// GUILD_CREATE and interactions it receives.
	Guilds []string
}

// Sessions lists the gateway sessions, sorted by shard and then id.
func (s *Server) Sessions() []SessionInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []SessionInfo
	for _, id := range sortedKeys(s.sessions) {
		sess := s.sessions[id]
		info := SessionInfo{ID: sess.id, ShardID: sess.shardID, ShardCount: sess.shardCount,
			Connected: sess.conn != nil, Resumable: sess.resumable}
		for _, g := range sortedKeys(s.guilds) {
			if shardOf(g, sess.shardCount) == sess.shardID {
				info.Guilds = append(info.Guilds, g)
			}
		}
		out = append(out, info)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ShardID < out[j].ShardID })
	return out
}

// TooFastIdentifies counts identifies answered op 9 for breaking
// max_concurrency (see WithShards).
func (s *Server) TooFastIdentifies() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shardSt.tooFast
}

// JoinGuild adds a guild, as AddGuild does, and tells the session of its
// shard with GUILD_CREATE, as Discord does when the bot is added to a
// server while connected. It returns the shard that was told, or an error
// when no session serves the guild's shard.
func (s *Server) JoinGuild(guildID, locale string) (int, error) {
	s.AddGuild(guildID, locale)
	s.mu.Lock()
	defer s.mu.Unlock()
	sess := s.sessionForLocked(guildID)
	if sess == nil {
		return 0, fmt.Errorf("discordtest: no session serves guild %s: %w", guildID, ErrNotConnected)
	}
	s.dispatchToLocked(sess, "GUILD_CREATE", s.guildJSONLocked(s.guilds[guildID]))
	s.notifyLocked()
	return sess.shardID, nil
}

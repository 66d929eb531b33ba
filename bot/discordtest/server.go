package discordtest

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Defaults of a new Server.
const (
	DefaultToken             = "test-token"
	DefaultAppID             = "1100000000000000001"
	DefaultResponseDeadline  = 3 * time.Second
	DefaultTokenLifetime     = 15 * time.Minute
	DefaultHeartbeatInterval = time.Second
	DefaultWaitTimeout       = 5 * time.Second

	// DefaultAppPermissions is what the bot may do in every channel:
	// view, send, embed links, attach files, read history, use external
	// emojis, add reactions.
	DefaultAppPermissions int64 = 1<<10 | 1<<11 | 1<<14 | 1<<15 | 1<<16 | 1<<18 | 1<<6
)

// discordEpoch is the first millisecond of 2015, where snowflakes start.
const discordEpoch = 1420070400000

// ErrNoSuchComponent is a click or a select on a component the message does not have
// (any more: an edit may have replaced it since the caller read the message). No
// interaction is sent.
var ErrNoSuchComponent = errors.New("discordtest: the message has no component with that custom_id")

// ErrNotConnected is returned by Command, Click, Select and SubmitModal when
// no gateway session could receive the interaction.
var ErrNotConnected = errors.New("discordtest: no gateway session to deliver the interaction to")

// Option configures a Server.
type Option func(*config)

type config struct {
	token             string
	responseDeadline  time.Duration
	tokenLifetime     time.Duration
	heartbeat         time.Duration
	waitTimeout       time.Duration
	specPath          string
	noSpec            bool
	appPermissions    int64
	privilegedIntents int64
	botName           string
	scale             scaleConfig // shards.go
}

// WithToken sets the bot token the fake accepts (without "Bot ").
func WithToken(token string) Option { return func(c *config) { c.token = token } }

// WithResponseDeadline sets how long after dispatch an interaction's first
// response may arrive (Discord: 3 s).
func WithResponseDeadline(d time.Duration) Option {
	return func(c *config) { c.responseDeadline = d }
}

// WithTokenLifetime sets how long an interaction token works for follow-ups
// and edits (Discord: 15 min).
func WithTokenLifetime(d time.Duration) Option { return func(c *config) { c.tokenLifetime = d } }

// WithHeartbeatInterval sets the interval announced in the gateway's Hello.
// It must be positive: discordgo panics on 0.
func WithHeartbeatInterval(d time.Duration) Option { return func(c *config) { c.heartbeat = d } }

// WithWaitTimeout sets how long Command, Click, Select and SubmitModal wait
// for the bot's first response.
func WithWaitTimeout(d time.Duration) Option { return func(c *config) { c.waitTimeout = d } }

// WithOpenAPI validates request bodies against the spec at path as well. By
// default the spec is found through PONTOON_DISCORD_OPENAPI or by looking for
// shared/discord/openapi.json upwards from the working directory.
func WithOpenAPI(path string) Option { return func(c *config) { c.specPath = path } }

// WithoutOpenAPI turns the OpenAPI check off; the hand-written checks of what no
// schema states remain (the lengths the schema states go unchecked).
func WithoutOpenAPI() Option { return func(c *config) { c.noSpec = true } }

// WithAppPermissions sets the app_permissions of every interaction.
func WithAppPermissions(p int64) Option { return func(c *config) { c.appPermissions = p } }

// WithPrivilegedIntents lets the bot identify with these privileged intents
// (GUILD_MEMBERS 1<<1, GUILD_PRESENCES 1<<8, MESSAGE_CONTENT 1<<15). Without
// it, asking for one closes the gateway with 4014 as Discord does for an app
// that has not enabled them.
func WithPrivilegedIntents(mask int64) Option { return func(c *config) { c.privilegedIntents = mask } }

// Server is a fake Discord: REST under /api/v9 and a gateway, on loopback.
// All methods are safe for concurrent use.
type Server struct {
	// AppID is the application's id; BotUserID the bot user's. They are equal,
	// as for every application Discord creates today. Read only.
	AppID, BotUserID string
	// Token is the bot token the fake accepts, without "Bot ". Read only.
	Token string

	t    testing.TB
	ts   *httptest.Server
	cfg  config
	spec *openAPI

	mu       sync.Mutex
	closed   bool
	changed  chan struct{}
	idSeq    uint64
	deadline time.Duration
	lifetime time.Duration

	guilds       map[string]*guild
	channels     map[string]*channel
	messages     map[string]*message
	order        []*message
	interactions map[string]*interaction
	byToken      map[string]*interaction
	commands     map[string][]*storedCommand
	failures     []string
	requests     []Request
	latencies    []time.Duration
	injections   []*injection
	holds        []*Hold
	global       *bucket // SetGlobalRateLimit; nil: off
	failNext     []*errInjection
	limits       map[string]rateRule
	buckets      map[string]*bucket

	sessions map[string]*gwSession
	conns    map[*gwConn]bool
	gwStats  GatewayState
	shardSt  shardState    // shards.go
	ep       endpointState // endpoint.go: interactions over HTTP
	oauth    oauthState    // oauth.go: codes, access tokens and Activity instances
}

type guild struct {
	id, name, locale string
	channels         []string
	members          map[string]*member
}

type member struct {
	userID, username string
	permissions      int64
	locale           string
	joined           time.Time
}

type channel struct {
	id, guildID string
	appPerms    *int64 // what the bot may do here; nil: the server-wide app permissions
}

// New starts a fake Discord on 127.0.0.1 and closes it when t ends.
func New(t testing.TB, opts ...Option) *Server {
	t.Helper()
	cfg := config{
		token:            DefaultToken,
		responseDeadline: DefaultResponseDeadline,
		tokenLifetime:    DefaultTokenLifetime,
		heartbeat:        DefaultHeartbeatInterval,
		waitTimeout:      DefaultWaitTimeout,
		appPermissions:   DefaultAppPermissions,
		botName:          "Pontoon",
		scale:            defaultScaleConfig(),
	}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.heartbeat <= 0 {
		t.Fatalf("discordtest: heartbeat interval must be positive, got %v", cfg.heartbeat)
	}
	if cfg.token == "" {
		t.Fatalf("discordtest: empty token")
	}
	s := &Server{
		AppID:        DefaultAppID,
		BotUserID:    DefaultAppID,
		Token:        cfg.token,
		t:            t,
		cfg:          cfg,
		deadline:     cfg.responseDeadline,
		lifetime:     cfg.tokenLifetime,
		changed:      make(chan struct{}),
		guilds:       map[string]*guild{},
		channels:     map[string]*channel{},
		messages:     map[string]*message{},
		interactions: map[string]*interaction{},
		byToken:      map[string]*interaction{},
		commands:     map[string][]*storedCommand{},
		limits:       map[string]rateRule{},
		buckets:      map[string]*bucket{},
		sessions:     map[string]*gwSession{},
		conns:        map[*gwConn]bool{},
	}
	if !cfg.noSpec {
		path := cfg.specPath
		if path == "" {
			path = findSpec()
		}
		if path == "" && os.Getenv("CI") != "" {
			// In CI the spec check must not vanish quietly with a missing file.
			t.Fatalf("discordtest: CI is set but Discord's OpenAPI spec was not found (set %s, or check out shared/discord/openapi.json beside the repository); pass WithoutOpenAPI to go without it", SpecEnv)
			return nil
		}
		if path != "" {
			spec, err := loadSpec(path)
			if err != nil {
				t.Fatalf("discordtest: OpenAPI spec: %v", err)
			}
			s.spec = spec
		}
	}
	// Assigned before the server starts, so that its handlers see it: a request may
	// arrive from another process as soon as the port listens.
	s.ts = httptest.NewUnstartedServer(http.HandlerFunc(s.serveHTTP))
	s.ts.Start()
	t.Cleanup(s.close)
	return s
}

// URL is the base URL of the fake, http://127.0.0.1:PORT, for
// discordapi.NewTransport.
func (s *Server) URL() string { return s.ts.URL }

// OpenAPI reports whether request bodies are also checked against Discord's
// OpenAPI spec, and which file it is.
func (s *Server) OpenAPI() (bool, string) {
	if s.spec == nil {
		return false, ""
	}
	return true, s.spec.path
}

func (s *Server) close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	for _, in := range s.interactions {
		if in.timer != nil {
			in.timer.Stop()
		}
	}
	conns := make([]*gwConn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.notifyLocked()
	s.mu.Unlock()
	for _, c := range conns {
		c.kill()
	}
	s.ts.Close()
	if s.t.Failed() {
		for _, f := range s.Failures() {
			s.t.Logf("discordtest failure: %s", f)
		}
	}
}

// SetResponseDeadline changes how long after dispatch an interaction's first
// response may arrive, for interactions dispatched from now on.
func (s *Server) SetResponseDeadline(d time.Duration) {
	s.mu.Lock()
	s.deadline = d
	s.mu.Unlock()
}

// SetTokenLifetime changes how long interaction tokens work for follow-ups
// and edits, counted from dispatch.
func (s *Server) SetTokenLifetime(d time.Duration) {
	s.mu.Lock()
	s.lifetime = d
	s.mu.Unlock()
}

// AddGuild adds a guild with its preferred locale ("en-US" if empty). Adding
// it again changes the locale.
func (s *Server) AddGuild(guildID, locale string) {
	if locale == "" {
		locale = "en-US"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if g, ok := s.guilds[guildID]; ok {
		g.locale = locale
		return
	}
	s.guilds[guildID] = &guild{id: guildID, name: "guild-" + guildID, locale: locale, members: map[string]*member{}}
}

// AddChannel adds a text channel to a guild, adding the guild if needed.
func (s *Server) AddChannel(guildID, channelID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.guilds[guildID]
	if !ok {
		g = &guild{id: guildID, name: "guild-" + guildID, locale: "en-US", members: map[string]*member{}}
		s.guilds[guildID] = g
	}
	if _, ok := s.channels[channelID]; !ok {
		s.channels[channelID] = &channel{id: channelID, guildID: guildID}
		g.channels = append(g.channels, channelID)
	}
}

// AddMember adds a member to a guild (adding the guild if needed) with the
// permission bits interactions will carry and the member's client locale
// (e.g. "en-US", "pl", "id", "pt-BR"; "en-US" if empty). Adding a member
// again updates it.
func (s *Server) AddMember(guildID, userID, username string, permissions int64, locale string) {
	if locale == "" {
		locale = "en-US"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.guilds[guildID]
	if !ok {
		g = &guild{id: guildID, name: "guild-" + guildID, locale: "en-US", members: map[string]*member{}}
		s.guilds[guildID] = g
	}
	g.members[userID] = &member{userID: userID, username: username, permissions: permissions, locale: locale,
		joined: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}
}

// RemoveMember takes a member out of a guild, as when they leave the server: GET
// /guilds/{guild}/members/{user} answers 404 Unknown Member (a rejected request, so
// recorded in Failures), and they can no longer interact there.
func (s *Server) RemoveMember(guildID, userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if g := s.guilds[guildID]; g != nil {
		delete(g.members, userID)
	}
}

// Failures lists every rejected request and every failed interaction, in
// order, as readable sentences. Tests assert it is empty.
func (s *Server) Failures() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.failures...)
}

// ClearFailures forgets the failures recorded so far, for a test that
// provoked some on purpose and goes on.
func (s *Server) ClearFailures() {
	s.mu.Lock()
	s.failures = nil
	s.mu.Unlock()
}

func (s *Server) failLocked(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.failures = append(s.failures, msg)
	s.notifyLocked()
}

// Latencies lists, for every interaction answered in time, how long after
// its dispatch the first response arrived.
func (s *Server) Latencies() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.latencies...)
}

// Request is one REST request the fake served.
type Request struct {
	Method string
	Path   string // without the query, e.g. /api/v9/channels/1/messages
	Route  string // the route template, e.g. "PATCH /channels/{channel_id}/messages/{message_id}"
	Status int
	At     time.Time
}

// Requests lists every REST request served so far, in order of arrival.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// notifyLocked wakes everything waiting for a change of state.
func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// waitFor waits until cond (called with s.mu held) is true or timeout passes.
func (s *Server) waitFor(timeout time.Duration, cond func() bool) bool {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		s.mu.Lock()
		if cond() {
			s.mu.Unlock()
			return true
		}
		if s.closed {
			s.mu.Unlock()
			return false
		}
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-timer.C:
			s.mu.Lock()
			ok := cond()
			s.mu.Unlock()
			return ok
		}
	}
}

// newIDLocked returns a new snowflake: milliseconds since 2015 and a counter.
func (s *Server) newIDLocked() string {
	s.idSeq++
	ms := uint64(time.Now().UnixMilli() - discordEpoch)
	return strconv.FormatUint(ms<<22|(s.idSeq&0x3FFFFF), 10)
}

func randomToken(prefix string) string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (s *Server) botUserJSON() map[string]any {
	return map[string]any{
		"id": s.BotUserID, "username": s.cfg.botName, "discriminator": "0", "global_name": nil,
		"avatar": nil, "bot": true, "verified": true, "flags": 0,
	}
}

func userJSON(m *member) map[string]any {
	return map[string]any{
		"id": m.userID, "username": m.username, "discriminator": "0", "global_name": m.username,
		"avatar": nil, "public_flags": 0,
	}
}

func memberJSON(m *member) map[string]any {
	return map[string]any{
		"user": userJSON(m), "nick": nil, "avatar": nil, "roles": []string{},
		"joined_at": m.joined.Format(time.RFC3339), "premium_since": nil, "deaf": false, "mute": false,
		"flags": 0, "pending": false, "permissions": strconv.FormatInt(m.permissions, 10),
		"communication_disabled_until": nil,
	}
}

func (s *Server) guildJSONLocked(g *guild) map[string]any {
	chans := make([]any, 0, len(g.channels))
	for _, id := range g.channels {
		chans = append(chans, channelJSON(s.channels[id]))
	}
	return map[string]any{
		"id": g.id, "name": g.name, "preferred_locale": g.locale, "unavailable": false,
		"owner_id": "1", "channels": chans, "roles": []any{}, "emojis": []any{}, "members": []any{},
		"member_count": len(g.members), "joined_at": "2024-01-01T00:00:00Z", "features": []string{},
		"threads": []any{}, "voice_states": []any{}, "presences": []any{},
	}
}

func channelJSON(c *channel) map[string]any {
	return map[string]any{"id": c.id, "guild_id": c.guildID, "type": 0, "name": "channel-" + c.id, "position": 0}
}

// describe names an interaction in failure messages.
func (in *interaction) describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "interaction %s (%s", in.id, in.label)
	if in.userID != "" {
		fmt.Fprintf(&b, " by user %s", in.userID)
	}
	b.WriteString(")")
	return b.String()
}

func toDiscordgo[T any](v any) *T {
	b, err := jsonMarshal(v)
	if err != nil {
		return nil
	}
	out := new(T)
	if err := jsonUnmarshal(b, out); err != nil {
		return nil
	}
	return out
}

package bot

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/discordapi"
	"github.com/pontoon-bot/pontoon/bot/httpin"
	"github.com/pontoon-bot/pontoon/bot/shard"
	"github.com/pontoon-bot/pontoon/bot/table"
	"github.com/pontoon-bot/pontoon/bot/view"
	"github.com/pontoon-bot/pontoon/store"
)

// Running as several processes: which gateway shards this process runs, or
// whether it takes interactions as HTTP POSTs (Route) with no gateway at all.

// Scale says how this process shares an application's work with others. The zero value
// is one process, one unsharded gateway session.
type Scale struct {
	// ShardID and ShardCount run this process as shard ShardID of ShardCount; it
	// serves, and recovers the tables of, only the servers Discord routes to that
	// shard. ShardCount 0 is no sharding.
	ShardID, ShardCount int
	// Auto runs every shard GET /gateway/bot recommends in this process, their
	// identifies paced by its max_concurrency; it serves every server.
	Auto bool
	// IdentifyWindow is the identify pacing window; 0 is Discord's (package shard).
	IdentifyWindow time.Duration
	// HTTP takes interactions through Route (an HTTP endpoint, package httpin) and
	// opens no gateway: Discord's REST API alone registers commands and edits tables.
	// Options.AppID is then required, since no READY carries it.
	HTTP bool
}

// serves reports whether this process serves a server's tables.
func (s Scale) serves(guild string) bool {
	if s.HTTP || s.Auto || s.ShardCount < 2 {
		return true
	}
	return shard.Serves(guild, s.ShardCount, []int{s.ShardID})
}

// connect opens what the bot talks to Discord through: the gateway shards of Scale, or
// for HTTP interactions a REST-only session. It returns once every shard is READY.
func (b *Bot) connect(ctx context.Context) error {
	sc := b.opt.Scale
	if sc.HTTP {
		if b.appID == "" {
			return errors.New("interactions over HTTP need discord.application_id: no gateway READY carries it")
		}
		s, err := discordapi.NewSession(b.opt.Token.Reveal(), b.opt.APIURL, b.opt.HTTPClient)
		if err != nil {
			return err
		}
		if b.opt.OnSession != nil {
			b.opt.OnSession(s)
		}
		b.s = s // never opened: REST only
		return nil
	}
	var (
		mu       sync.Mutex
		ready    = map[*discordgo.Session]bool{}
		allReady = make(chan struct{})
		want     = -1 // sessions to wait for, known once OpenShards returns
		closed   bool
	)
	check := func() {
		if !closed && want >= 0 && len(ready) >= want {
			closed = true
			close(allReady)
		}
	}
	var slots discordapi.IdentifySlots
	if sc.ShardCount > 1 && !sc.Auto {
		// Shards run as separate processes: they pace their identifies through the
		// database they share.
		slots = b.identify
	}
	sh, err := discordapi.OpenShards(ctx, discordapi.ShardConfig{Token: b.opt.Token.Reveal(), BaseURL: b.opt.APIURL, Client: b.opt.HTTPClient,
		ShardID: sc.ShardID, ShardCount: sc.ShardCount, Auto: sc.Auto, Window: sc.IdentifyWindow, Slots: slots,
		Setup: func(s *discordgo.Session) {
			s.Identify.Intents = discordgo.IntentsGuilds
			// The bot reads nothing from discordgo's State but its own user (kept even when
			// disabled, from READY), so the guild/channel/member caches are pure cost.
			s.StateEnabled = false
			s.ShouldReconnectOnError = true
			s.AddHandler(func(s *discordgo.Session, r *discordgo.Ready) {
				mu.Lock()
				defer mu.Unlock()
				if b.appID == "" && r.Application != nil {
					b.appID = r.Application.ID
				}
				ready[s] = true
				check()
			})
			// Handlers run on the gateway reader (none of them blocks), and each
			// interaction on a worker (workers.go). Interactions arrive decoded by
			// discordapi.DecodeInteraction once the program has called
			// discordapi.LeanInteractionEvents (cmd/pontoon does); the typed handler takes
			// them when discordgo decodes them itself.
			s.SyncEvents = true
			s.AddHandler(func(_ *discordgo.Session, v any) {
				if e, ok := v.(*discordapi.InteractionEvent); ok && e.Interaction != nil {
					b.work.run(func() { b.handle(e.Interaction) })
				}
			})
			s.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) {
				b.work.run(func() { b.handle(ic.Interaction) })
			})
			if b.opt.OnSession != nil {
				b.opt.OnSession(s) // metrics watch each shard's gateway events
			}
		}})
	if err != nil {
		return fmt.Errorf("connecting to the Discord gateway: %w", err)
	}
	b.shards, b.s = sh, sh.Sessions[0] // any session makes REST calls for any server
	mu.Lock()
	want = len(sh.Sessions)
	check()
	mu.Unlock()
	select {
	case <-allReady:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(30 * time.Second):
		return errors.New("the Discord gateway sent no READY within 30s on every shard")
	}
}

// disconnect closes the gateway sessions, if any.
func (b *Bot) disconnect() error {
	if b.shards != nil {
		return b.shards.Close()
	}
	return nil
}

// Route answers one interaction POSTed to the HTTP endpoint (package httpin): the same
// answer as over the gateway, returned as the HTTP body instead of posted to the
// callback route; the work that waits on Discord runs once the answer is out.
func (b *Bot) Route(ctx context.Context, ic *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
	if !b.tables.Enter() {
		return nil, errors.New("shutting down")
	}
	defer b.tables.Done()
	actx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	c := b.answer(actx, ic.Interaction, time.Now())
	if c == nil {
		// Answered before (a redelivery): no second answer, and nothing changes.
		return nil, httpin.ErrAnswered
	}
	if c.resp == nil {
		c.done()
		return nil, fmt.Errorf("interaction %s: no answer", ic.ID)
	}
	// The answer is the HTTP body: httpin writes it, so it counts as answered here (a
	// write that fails is the endpoint's to log).
	b.record(c, nil)
	// The hold on a shared table ends once the answer is out; then the later work.
	later := c.later
	base := table.WithLogger(context.Background(), c.log)
	if !httpin.Then(ctx, func(context.Context) { c.done(); runLater(base, later) }) {
		c.done()
		go runLater(base, later)
	}
	return c.resp, nil
}

// REST is the session the bot makes its REST calls with, for an HTTP endpoint's late
// answers (httpin.Options.Webhooks). Valid after Start.
func (b *Bot) REST() *discordgo.Session { return b.s }

// Replicas: with HTTP interactions, several processes may share one
// PostgreSQL, and Discord's load balancer may send any click to any of them. Each
// interaction that names a table is answered under the table's lease (table.Manager's
// Hold), which rebuilds a copy another replica has changed; the interaction's id is
// recorded in the transaction of its effect (store.WithInteraction), so a redelivery
// that reaches another replica changes nothing there and gets no answer.

// newHolder names this process in the tables' leases: random, so that a restarted
// replica never takes its predecessor's copy for current. It reads crypto/rand, not
// Options.Random, which scripted tests fix to deal known cards.
func newHolder() string {
	var buf [8]byte
	_, _ = rand.Read(buf[:])
	return "replica-" + hex.EncodeToString(buf[:])
}

// shared reports whether this process shares its tables with other replicas.
func (b *Bot) shared() bool { return b.sharing }

// share prepares an interaction for a shared table: it claims the table it names, or
// records why it cannot as c's answer. The hold ends with c.done, once the reply is
// out, so that no other replica's answer about the table can overtake this one.
func (b *Bot) share(c *ictx) {
	if !b.shared() {
		return
	}
	id := b.heldTable(c)
	release, err := b.tables.Hold(c.ctx, id)
	if err != nil {
		b.fail(c, err)
		return
	}
	c.release = release
}

// heldTable is the table an interaction is about: the one its custom id names, or for a
// command the channel's open table; 0 if none.
func (b *Bot) heldTable(c *ictx) int64 {
	var custom string
	switch c.i.Type {
	case discordgo.InteractionMessageComponent:
		custom = c.i.MessageComponentData().CustomID
	case discordgo.InteractionModalSubmit:
		custom = c.i.ModalSubmitData().CustomID
	case discordgo.InteractionApplicationCommand:
		if tb, err := b.history.TableByChannel(c.ctx, c.guild, c.channel); err == nil {
			return tb.ID
		}
		return 0
	}
	if id, ok := view.ParseID(custom); ok {
		return id.Table
	}
	return 0
}

// done ends the interaction's hold on a shared table and its claim on the table message.
func (c *ictx) done() {
	if c.unclaim != nil {
		c.unclaim()
		c.unclaim = nil
	}
	if c.release != nil {
		c.release()
		c.release = nil
	}
}

// identifyStore paces the identifies of shards run as separate processes through the
// database they share.
type identifyStore = discordapi.IdentifySlots

// sharedStore is the store's leases when this process shares its tables with other
// processes (HTTP replicas on one PostgreSQL); nil when it is the only one that writes
// them.
func sharedStore(st *store.Store, sc Scale) table.Leases {
	if !sc.HTTP {
		return nil
	}
	// SQLite is a file on this machine: over it, HTTP interactions are one process,
	// which owns its tables as over the gateway (no leases, nothing recorded per
	// interaction). Replicas need a database they can all reach.
	if st.Dialect() == "sqlite" {
		return nil
	}
	return st
}

// staleRetries bounds how often an interaction on a shared table is routed again after
// its commit found the replica's copy stale.
const staleRetries = 3

// routeShared routes the interaction; on a shared table whose commit failed because
// another replica wrote first (the store's (round, seq) key, or a deal's round number),
// it rebuilds the table from the store and routes again, up to staleRetries times. The
// retry sees the table as it now is, so a double click is then refused by the same
// checks as in one process.
func (b *Bot) routeShared(c *ictx) error {
	for attempt := 1; ; attempt++ {
		err := b.route(c)
		if !b.shared() || attempt >= staleRetries || !stale(err) {
			return err
		}
		id := b.heldTable(c)
		b.log.Info("table copy was stale; rebuilt from the store and tried again", "table", id, "attempt", attempt, "err", err)
		b.tables.Refresh(id)
		c.resp, c.later = nil, nil
	}
}

// stale reports whether err is a store refusal that means the caller's copy of the
// table is out of date, not that the request was wrong.
func stale(err error) bool {
	return errors.Is(err, store.ErrStaleSeq) || errors.Is(err, store.ErrDuplicateAction) ||
		errors.Is(err, store.ErrStaleRound) || errors.Is(err, store.ErrDuplicateRound)
}

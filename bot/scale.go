package bot

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/discordapi"
	"github.com/pontoon-bot/pontoon/bot/httpin"
	"github.com/pontoon-bot/pontoon/bot/shard"
)

// Running as several processes (issue 9): which gateway shards this process runs, or
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
		s, err := discordapi.NewSession(b.opt.Token, b.opt.APIURL, b.opt.HTTPClient)
		if err != nil {
			return err
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
	sh, err := discordapi.OpenShards(ctx, discordapi.ShardConfig{Token: b.opt.Token, BaseURL: b.opt.APIURL, Client: b.opt.HTTPClient,
		ShardID: sc.ShardID, ShardCount: sc.ShardCount, Auto: sc.Auto, Window: sc.IdentifyWindow,
		Setup: func(s *discordgo.Session) {
			s.Identify.Intents = discordgo.IntentsGuilds
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
			s.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) { b.handle(ic.Interaction) })
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

// errAnswered is Route's error for an interaction answered before: a redelivery gets no
// second answer (Discord would refuse it), so the endpoint answers 500 and nothing changes.
var errAnswered = errors.New("interaction already answered")

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
	c := b.answer(actx, ic.Interaction)
	if c == nil {
		return nil, errAnswered
	}
	if c.resp == nil {
		return nil, fmt.Errorf("interaction %s: no answer", ic.ID)
	}
	if later := c.later; len(later) > 0 {
		if !httpin.Then(ctx, func(context.Context) { runLater(later) }) {
			go runLater(later)
		}
	}
	return c.resp, nil
}

// REST is the session the bot makes its REST calls with, for an HTTP endpoint's late
// answers (httpin.Options.Webhooks). Valid after Start.
func (b *Bot) REST() *discordgo.Session { return b.s }

package bot

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/pontoon-bot/pontoon/bot/discordapi"
	"github.com/pontoon-bot/pontoon/bot/i18n"
	"github.com/pontoon-bot/pontoon/bot/logging"
	"github.com/pontoon-bot/pontoon/bot/table"
	"github.com/pontoon-bot/pontoon/bot/view"
	"github.com/pontoon-bot/pontoon/config"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/game/sim"
	"github.com/pontoon-bot/pontoon/store"
)

// pruneStore forgets what is kept only for a while: interaction ids past Discord's
// redelivery and ended bank offers (pruneLoop).
type pruneStore interface {
	PruneInteractions(ctx context.Context, now time.Time, maxAge time.Duration) (int64, error)
	PruneOffers(ctx context.Context, now time.Time, maxAge time.Duration) (int64, error)
}

// Options configure a Bot. The zero value of each optional field takes the default noted.
type Options struct {
	Token         config.Secret // the bot token; revealed only to open the session, never logged
	AppID         string        // read from READY when empty
	GuildID       string        // register commands in this guild only (development); empty: global
	APIURL        string        // Discord's base URL; https://discord.com when empty
	HTTPClient    *http.Client
	TurnTimer     time.Duration // R7.4; 60s
	StartingChips int64         // minted the first time a member plays in a server; 0 means none (config's default is 1000)
	DailyAmount   int64         // 200
	DailyCooldown time.Duration // 24h
	// Give are who may give chips and how many, until a server's admin sets its own
	// (/pontoon settings); the zero value lets anyone give anything (config's defaults
	// are a casual server's).
	Give         GiveRules
	DefaultRules game.Rules    // a server's house rules until /pontoon settings changes them
	Language     string        // public language when the server has set none; "" follows guild_locale
	OfferTTL     time.Duration // how long a bank sale offer stands; 2m
	BidWindow    time.Duration // how long a bank auction takes bids; 60s
	// TextOnly leaves the drawn picture off the table message: the message is its
	// text alone (the config's game.table_picture set to false).
	TextOnly  bool
	EditDelay time.Duration // public table edits are coalesced over this window; 750ms
	// EditWait bounds how long a click that updates the table message waits for the
	// publisher's edit of it already on its way before it is acknowledged without an
	// update instead (see publisher.claim); 250ms.
	EditWait time.Duration
	MaxSeats int // 10
	// MaxOpenTables is how many tables one server may have open at once; 25.
	MaxOpenTables int
	// OddsPerHour is how many rule sets whose odds are not kept yet one server may have
	// simulated per hour (/pontoon odds); 10.
	OddsPerHour int
	// OddsKept is how many simulated odds the store keeps; 1000.
	OddsKept int
	// IdleTable is how long an open table between rounds stays in memory with no click
	// before it is dropped, to be loaded from the store on the next one; 30m.
	IdleTable time.Duration
	// CacheEntries bounds each in-memory cache (members' names and languages, the
	// members Discord said it does not know, tables' pictures, fair-price hints), least
	// recently used out first; 10000.
	CacheEntries int
	Logger       *slog.Logger
	Now          func() time.Time // the clock; time.Now
	// AfterFunc runs f once d has passed on the bot's clock, for the wake-ups that look
	// for the rules' timers due in the store: turns (R7.4), bank offers and auctions
	// (R9.8). time.AfterFunc when nil; tests pass a manual clock with Now so that they
	// move time instead of sleeping.
	AfterFunc func(d time.Duration, f func()) Timer
	// EditAfterFunc starts the publisher's EditDelay timers, which coalesce the table
	// edits: time.AfterFunc when nil. Apart from AfterFunc, so that a test can hold the
	// edits on a manual clock while the rules' timers keep their own.
	EditAfterFunc func(d time.Duration, f func()) Timer
	Random        io.Reader // entropy for shuffles and salts; crypto/rand
	// Deck, when set, supplies every freshly shuffled pack (cuts included) instead of a
	// shuffle seeded from Random: scripted games in tests, like a fixed seed.
	Deck func(decks int) []game.Card
	// Scale runs the bot as one of several processes: gateway shards, or HTTP
	// interactions. The zero value is one process with one session.
	Scale Scale

	// Activity offers Open table on the table message, which launches the table's web
	// page (a Discord Activity, package bot/activity) in the channel. The application
	// must have Activities enabled; off, no table message shows the button.
	Activity bool

	// Recorder hears of each interaction, for metrics (package bot/metrics); none when nil.
	Recorder Recorder
	// OnSession, when set, is called with the discordgo session before it connects: to
	// watch gateway events (metrics) or set discordgo's log level.
	OnSession func(*discordgo.Session)
}

// Timer is a timer started by Options.AfterFunc; *time.Timer is one.
type Timer = table.Timer

func (o *Options) defaults() {
	if o.APIURL == "" {
		o.APIURL = "https://discord.com"
	}
	if o.TurnTimer <= 0 {
		o.TurnTimer = 60 * time.Second
	}
	if o.StartingChips < 0 {
		o.StartingChips = 0
	}
	if o.DailyAmount <= 0 {
		o.DailyAmount = 200
	}
	if o.DailyCooldown <= 0 {
		o.DailyCooldown = 24 * time.Hour
	}
	if o.DefaultRules == (game.Rules{}) {
		o.DefaultRules = game.DefaultRules()
	}
	if o.OfferTTL <= 0 {
		o.OfferTTL = 2 * time.Minute
	}
	if o.BidWindow <= 0 {
		o.BidWindow = 60 * time.Second
	}
	if o.EditDelay <= 0 {
		o.EditDelay = 750 * time.Millisecond
	}
	if o.EditWait <= 0 {
		o.EditWait = 250 * time.Millisecond
	}
	if o.MaxSeats <= 0 {
		o.MaxSeats = 10
	}
	if o.MaxOpenTables <= 0 {
		o.MaxOpenTables = 25
	}
	if o.OddsPerHour <= 0 {
		o.OddsPerHour = 10
	}
	if o.OddsKept <= 0 {
		o.OddsKept = 1000
	}
	if o.IdleTable <= 0 {
		o.IdleTable = 30 * time.Minute
	}
	if o.CacheEntries <= 0 {
		o.CacheEntries = 10000
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	// Whoever built the logger, no token reaches it.
	o.Logger = slog.New(logging.Redact(o.Logger.Handler(), o.Token.Reveal()))
	if o.Recorder == nil {
		o.Recorder = noRecorder{}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.AfterFunc == nil {
		o.AfterFunc = func(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
	}
	if o.EditAfterFunc == nil {
		o.EditAfterFunc = func(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
	}
	if o.Random == nil {
		o.Random = rand.Reader
	}
}

// Bot hosts Pontoon tables in Discord channels. Its methods are safe for concurrent use:
// discordgo runs each handler in its own goroutine; each table applies its commands one
// at a time under its own lock (package table), so tables never wait on each other.
type Bot struct {
	opt Options
	// The store's parts, each a small interface declared in the file that uses it;
	// New sets every one from the same *store.Store.
	economy  economyStore  // economy.go
	history  historyStore  // admin.go
	stats    statsStore    // stats.go
	fair     fairStore     // fair.go
	applied  appliedStore  // reply.go
	drawn    drawnStore    // publish.go
	prune    pruneStore    // pruneLoop
	identify identifyStore // scale.go: shards pacing their identifies
	cat      *i18n.Catalog
	view     *view.Renderer
	log      *slog.Logger
	s        *discordgo.Session // makes every REST call; a shard's session, or REST only
	shards   *discordapi.Shards // the gateway sessions; nil with HTTP interactions
	// sharing: HTTP replicas share the tables of one PostgreSQL (scale.go sharedStore)
	sharing bool
	appID   string
	tables  *table.Manager
	pub     *publisher
	lang    *languages
	mlang   *memberLanguages
	pics    pictures
	names   *lru.Cache[string, [2]string] // guild + "/" + member -> {name, username}, for the picture and the page
	lookups *nameLookups                  // names asked of Discord (names.go)
	seen    seenIDs
	hints   *lru.Cache[string, sim.Result] // rule set and table size -> fair-price hint simulated (fair.go)
	sims    *oddsGate                      // one odds simulation at a time, a rate per server (odds.go)
	work    *workers                       // the goroutines gateway interactions run on (workers.go)
	watch   watchers                       // the web pages watching channels' tables (web.go)
	webw    sync.Map                       // language -> the page's words in it (web.go webWords)

	stop chan struct{}
}

// New builds a bot over a store. It does not connect; Start does.
func New(st *store.Store, opt Options) (*Bot, error) {
	opt.defaults()
	if err := opt.DefaultRules.Validate(); err != nil {
		return nil, err
	}
	cat, err := i18n.Load()
	if err != nil {
		return nil, err
	}
	sh := sharedStore(st, opt.Scale)
	b := &Bot{opt: opt, economy: st, history: st, stats: st, fair: st, applied: st, drawn: st, prune: st, identify: st,
		cat: cat, view: view.New(cat), log: opt.Logger, appID: opt.AppID,
		stop: make(chan struct{}), sharing: sh != nil, work: newWorkers(),
		names: newCache[string, [2]string](opt.CacheEntries), lookups: newNameLookups(opt.CacheEntries), hints: newCache[string, sim.Result](opt.CacheEntries),
		pics: pictures{m: newCache[int64, picState](opt.CacheEntries)}, sims: newOddsGate(opt.OddsPerHour, opt.CacheEntries)}
	b.tables = table.NewManager(table.StoresOf(st), table.Options{StartingChips: opt.StartingChips, MaxSeats: opt.MaxSeats,
		OfferTTL: opt.OfferTTL, BidWindow: opt.BidWindow, Now: opt.Now, AfterFunc: opt.AfterFunc, Random: opt.Random, Deck: opt.Deck, Logger: opt.Logger,
		Serves: opt.Scale.serves, Leases: sh, Holder: newHolder(), MaxTables: opt.MaxOpenTables})
	b.lang = newLanguages(st, opt.Language, opt.CacheEntries)
	b.mlang = &memberLanguages{st: st, cache: newCache[string, string](opt.CacheEntries)}
	b.view.Open = opt.Activity
	b.pub = newPublisher(b)
	b.tables.SetNotifier(b.pub)
	return b, nil
}

// Start recovers the open tables of the servers this process serves from the store,
// connects to Discord (the gateway shards of Options.Scale, or REST only for HTTP
// interactions) and registers the slash commands. It returns once the commands are registered.
func (b *Bot) Start(ctx context.Context) error {
	if err := b.tables.Recover(ctx); err != nil {
		return err
	}
	if err := b.connect(ctx); err != nil {
		return err
	}
	if b.appID == "" {
		return errors.New("no application id: set discord.application_id or let READY carry it")
	}
	cmds, err := b.registerCommands()
	if err != nil {
		return fmt.Errorf("registering slash commands: %w", err)
	}
	b.setCommandID(cmds)
	b.lookups.start()
	go b.pruneLoop()
	if b.sharing {
		go b.pollWatched()
	}
	b.opt.AfterFunc(idleSweepEvery(b.opt.IdleTable), b.sweepIdle)
	b.pub.start()
	b.log.Info("pontoon bot ready", "app", b.appID, "guild_scope", b.opt.GuildID, "tables", len(b.tables.Tables()))
	redraw, unposted := b.tables.Resume()
	b.pub.checkLater(redraw, b.tables.Recent())
	b.pub.postLater(unposted)
	return nil
}

// Close stops taking interactions, lets those in flight finish, stops the timers and
// closes the gateway. The store stays open; its owner closes it.
func (b *Bot) Close() error {
	b.tables.Close()
	select {
	case <-b.stop:
	default:
		close(b.stop)
	}
	b.pub.close()
	b.lookups.close()
	return b.disconnect()
}

// now is the bot's clock, truncated to the millisecond the store keeps.
func (b *Bot) now() time.Time { return b.opt.Now().UTC().Truncate(time.Millisecond) }

// pruneLoop forgets interaction ids once Discord can no longer redeliver them (an
// interaction token lives 15 minutes), so the dedup table stays small, and the bank
// offers of shared tables a day after they ended (a late click on one is told it
// expired either way).
func (b *Bot) pruneLoop() {
	tick := time.NewTicker(10 * time.Minute)
	defer tick.Stop()
	for {
		select {
		case <-b.stop:
			return
		case <-tick.C:
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			if _, err := b.prune.PruneInteractions(ctx, b.now(), time.Hour); err != nil {
				b.log.Warn("pruning interaction ids", "err", err)
			}
			if _, err := b.prune.PruneOffers(ctx, b.now(), 24*time.Hour); err != nil {
				b.log.Warn("pruning ended bank offers", "err", err)
			}
			cancel()
		}
	}
}

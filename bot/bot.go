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
	"github.com/pontoon-bot/pontoon/bot/discordapi"
	"github.com/pontoon-bot/pontoon/bot/i18n"
	"github.com/pontoon-bot/pontoon/bot/table"
	"github.com/pontoon-bot/pontoon/bot/view"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
)

// Store is what the bot needs of persistence: what a live table needs (table.Store) and
// what the adapter itself answers from. *store.Store implements it; every method is one
// transaction.
type Store interface {
	table.Store
	economyStore
	historyStore
	settingsStore
	PruneInteractions(ctx context.Context, now time.Time, maxAge time.Duration) (int64, error)
}

// economyStore is what /pontoon balance, leaderboard, daily, give and grant use.
type economyStore interface {
	EnsureWallet(ctx context.Context, guild, member string, starting int64, now time.Time) (store.Wallet, bool, error)
	Wallet(ctx context.Context, guild, member string) (store.Wallet, error)
	ClaimDaily(ctx context.Context, guild, member string, amount int64, cooldown time.Duration, now time.Time) (store.Wallet, error)
	Give(ctx context.Context, guild, from, to string, amount int64, now time.Time) (store.Wallet, store.Wallet, error)
	Grant(ctx context.Context, guild, by, to string, amount int64, now time.Time) (store.Wallet, error)
	Leaderboard(ctx context.Context, guild string, offset, limit int) ([]store.Standing, int, error)
	Ahead(ctx context.Context, guild string, balance int64) (int, error)
}

// historyStore is what /pontoon history reads.
type historyStore interface {
	TableByChannel(ctx context.Context, guild, channel string) (store.Table, error)
	Rounds(ctx context.Context, tableID int64, limit int) ([]store.Round, error)
	Round(ctx context.Context, tableID int64, number int) (store.Round, error)
	Actions(ctx context.Context, roundID int64) ([]store.Action, error)
}

// settingsStore keeps /pontoon settings.
type settingsStore interface {
	GuildSettings(ctx context.Context, guild string) (string, error)
	SetGuildSettings(ctx context.Context, guild, settings string, now time.Time) error
}

// Options configure a Bot. The zero value of each optional field takes the default noted.
type Options struct {
	Token         string // the bot token; used only to open the session, never logged
	AppID         string // read from READY when empty
	GuildID       string // register commands in this guild only (development); empty: global
	APIURL        string // Discord's base URL; https://discord.com when empty
	HTTPClient    *http.Client
	TurnTimer     time.Duration // R7.4; 60s
	StartingChips int64         // minted the first time a member plays in a server; 0 means none (config's default is 1000)
	DailyAmount   int64         // 200
	DailyCooldown time.Duration // 24h
	DefaultRules  game.Rules    // a server's house rules until /pontoon settings changes them
	Language      string        // public language when the server has set none; "" follows guild_locale
	OfferTTL      time.Duration // how long a bank sale offer stands; 2m
	BidWindow     time.Duration // how long a bank auction takes bids; 60s
	EditDelay     time.Duration // public table edits are coalesced over this window; 750ms
	MaxSeats      int           // 10
	Logger        *slog.Logger
	Now           func() time.Time // the clock; time.Now
	// AfterFunc runs f once d has passed on the bot's clock, for the rules' timers: turn
	// timers (R7.4), bank offers and auctions (R9.8). time.AfterFunc when nil; tests pass
	// a manual clock with Now so that they move time instead of sleeping.
	AfterFunc func(d time.Duration, f func()) Timer
	Random    io.Reader // entropy for shuffles and salts; crypto/rand
	// Deck, when set, supplies every freshly shuffled pack (cuts included) instead of a
	// shuffle seeded from Random: scripted games in tests, like a fixed seed.
	Deck func(decks int) []game.Card
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
	if o.MaxSeats <= 0 {
		o.MaxSeats = 10
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.AfterFunc == nil {
		o.AfterFunc = func(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
	}
	if o.Random == nil {
		o.Random = rand.Reader
	}
}

// Bot hosts Pontoon tables in Discord channels. Its methods are safe for concurrent use:
// discordgo runs each handler in its own goroutine; each table applies its commands one
// at a time under its own lock (package table), so tables never wait on each other.
type Bot struct {
	opt    Options
	st     Store
	cat    *i18n.Catalog
	view   *view.Renderer
	log    *slog.Logger
	s      *discordgo.Session
	appID  string
	tables *table.Manager
	pub    *publisher
	lang   *languages
	seen   seenIDs

	ready chan struct{}
	stop  chan struct{}
}

// New builds a bot over a store. It does not connect; Start does.
func New(st Store, opt Options) (*Bot, error) {
	opt.defaults()
	if err := opt.DefaultRules.Validate(); err != nil {
		return nil, err
	}
	cat, err := i18n.Load()
	if err != nil {
		return nil, err
	}
	b := &Bot{opt: opt, st: st, cat: cat, view: view.New(cat), log: opt.Logger, appID: opt.AppID,
		ready: make(chan struct{}), stop: make(chan struct{})}
	b.tables = table.NewManager(st, table.Options{StartingChips: opt.StartingChips, MaxSeats: opt.MaxSeats,
		OfferTTL: opt.OfferTTL, BidWindow: opt.BidWindow, Now: opt.Now, AfterFunc: opt.AfterFunc, Random: opt.Random, Deck: opt.Deck, Logger: opt.Logger})
	b.lang = newLanguages(st, opt.Language)
	b.pub = newPublisher(b)
	b.tables.SetNotifier(b.pub)
	return b, nil
}

// Start recovers every open table from the store, connects to the gateway and registers
// the slash commands. It returns once the commands are registered.
func (b *Bot) Start(ctx context.Context) error {
	if err := b.tables.Recover(ctx); err != nil {
		return err
	}
	s, err := discordapi.NewSession(b.opt.Token, b.opt.APIURL, b.opt.HTTPClient)
	if err != nil {
		return err
	}
	s.Identify.Intents = discordgo.IntentsGuilds
	// The bot reads nothing from discordgo's State but its own user (kept even when
	// disabled, from READY), so the guild/channel/member caches are pure cost.
	s.StateEnabled = false
	s.ShouldReconnectOnError = true
	var once sync.Once
	s.AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) {
		if b.appID == "" && r.Application != nil {
			b.appID = r.Application.ID
		}
		once.Do(func() { close(b.ready) })
	})
	s.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) { b.handle(ic.Interaction) })
	b.s = s
	if err := s.Open(); err != nil {
		return fmt.Errorf("connecting to the Discord gateway: %w", err)
	}
	select {
	case <-b.ready:
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(30 * time.Second):
		return errors.New("the Discord gateway sent no READY within 30s")
	}
	if b.appID == "" {
		return errors.New("no application id: set discord.application_id or let READY carry it")
	}
	if _, err := s.ApplicationCommandBulkOverwrite(b.appID, b.opt.GuildID, b.commands()); err != nil {
		return fmt.Errorf("registering slash commands: %w", err)
	}
	go b.pruneLoop()
	b.pub.start()
	b.log.Info("pontoon bot ready", "app", b.appID, "guild_scope", b.opt.GuildID, "tables", len(b.tables.Tables()))
	b.pub.postLater(b.tables.Resume())
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
	if b.s != nil {
		return b.s.Close()
	}
	return nil
}

// now is the bot's clock, truncated to the millisecond the store keeps.
func (b *Bot) now() time.Time { return b.opt.Now().UTC().Truncate(time.Millisecond) }

// pruneLoop forgets interaction ids once Discord can no longer redeliver them (an
// interaction token lives 15 minutes), so the dedup table stays small.
func (b *Bot) pruneLoop() {
	tick := time.NewTicker(10 * time.Minute)
	defer tick.Stop()
	for {
		select {
		case <-b.stop:
			return
		case <-tick.C:
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			if _, err := b.st.PruneInteractions(ctx, b.now(), time.Hour); err != nil {
				b.log.Warn("pruning interaction ids", "err", err)
			}
			cancel()
		}
	}
}

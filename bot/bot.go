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
	"github.com/pontoon-bot/pontoon/bot/logging"
	"github.com/pontoon-bot/pontoon/config"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
)

// Store is what the bot needs of persistence. *store.Store implements it; every method
// is one transaction.
type Store interface {
	EnsureWallet(ctx context.Context, guild, member string, starting int64, now time.Time) (store.Wallet, bool, error)
	Wallet(ctx context.Context, guild, member string) (store.Wallet, error)
	ClaimDaily(ctx context.Context, guild, member string, amount int64, cooldown time.Duration, now time.Time) (store.Wallet, error)
	Give(ctx context.Context, guild, from, to string, amount int64, now time.Time) (store.Wallet, store.Wallet, error)
	Grant(ctx context.Context, guild, by, to string, amount int64, now time.Time) (store.Wallet, error)
	Leaderboard(ctx context.Context, guild string, offset, limit int) ([]store.Standing, int, error)
	Rank(ctx context.Context, guild, member string) (store.Standing, error)

	OpenTable(ctx context.Context, p store.OpenTableParams) (store.Table, error)
	TableByChannel(ctx context.Context, guild, channel string) (store.Table, error)
	TableByID(ctx context.Context, id int64) (store.Table, error)
	OpenTables(ctx context.Context) ([]store.Table, error)
	CloseTable(ctx context.Context, tableID int64, now time.Time) error
	SetSeats(ctx context.Context, tableID int64, members []string, now time.Time) error
	SetTableMessage(ctx context.Context, tableID int64, messageID string) error
	TableMessage(ctx context.Context, tableID int64) (string, error)
	SetPendingPack(ctx context.Context, tableID int64, p store.PendingPack) error
	Pending(ctx context.Context, tableID int64) (store.PendingPack, bool, error)
	TableState(ctx context.Context, tableID int64) (store.TableState, error)
	UpdateBank(ctx context.Context, p store.BankParams) error

	StartRound(ctx context.Context, p store.StartRoundParams) (store.Round, error)
	ApplyAction(ctx context.Context, p store.ApplyParams) error
	Rounds(ctx context.Context, tableID int64, limit int) ([]store.Round, error)
	Round(ctx context.Context, tableID int64, number int) (store.Round, error)
	Actions(ctx context.Context, roundID int64) ([]store.Action, error)
	RecoverRounds(ctx context.Context) ([]store.Rebuilt, error)
	RememberInteraction(ctx context.Context, id string, now time.Time) (bool, error)
	PruneInteractions(ctx context.Context, now time.Time, maxAge time.Duration) (int64, error)
	GuildSettings(ctx context.Context, guild string) (string, error)
	SetGuildSettings(ctx context.Context, guild, settings string, now time.Time) error
}

// Options configure a Bot. The zero value of each optional field takes the default noted.
type Options struct {
	Token         config.Secret // the bot token; revealed only to open the session, never logged
	AppID         string        // read from READY when empty
	GuildID       string        // register commands in this guild only (development); empty: global
	APIURL        string        // Discord's base URL; https://discord.com when empty
	HTTPClient    *http.Client
	TurnTimer     time.Duration // R7.4; 60s
	StartingChips int64         // minted the first time a member plays in a server; 1000
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
	Random        io.Reader        // entropy for shuffles and salts; crypto/rand
	// Deck, when set, supplies every freshly shuffled pack (cuts included) instead of a
	// shuffle seeded from Random: scripted games in tests, like a fixed seed.
	Deck func(decks int) []game.Card

	// Recorder hears of each interaction, for metrics (package bot/metrics); none when nil.
	Recorder Recorder
	// OnSession, when set, is called with the discordgo session before it connects: to
	// watch gateway events (metrics) or set discordgo's log level.
	OnSession func(*discordgo.Session)
}

func (o *Options) defaults() {
	if o.APIURL == "" {
		o.APIURL = "https://discord.com"
	}
	if o.TurnTimer <= 0 {
		o.TurnTimer = 60 * time.Second
	}
	if o.StartingChips <= 0 {
		o.StartingChips = 1000
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
	// Whoever built the logger, no token reaches it.
	o.Logger = slog.New(logging.Redact(o.Logger.Handler(), o.Token.Reveal()))
	if o.Recorder == nil {
		o.Recorder = noRecorder{}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Random == nil {
		o.Random = rand.Reader
	}
}

// Bot hosts Pontoon tables in Discord channels. Its methods are safe for concurrent use:
// discordgo runs each handler in its own goroutine, and every command of one table is
// applied under that table's lock, so tables never wait on each other.
type Bot struct {
	opt   Options
	st    Store
	cat   *i18n.Catalog
	log   *slog.Logger
	s     *discordgo.Session
	appID string

	mu       sync.Mutex
	tables   map[int64]*liveTable
	offers   map[string]*offer
	auctions map[int64]*auction
	inflight sync.WaitGroup
	closed   bool
	ready    chan struct{}
	once     sync.Once
	stop     chan struct{}
	locales  sync.Map // guild id -> the guild_locale its last interaction carried
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
	return &Bot{opt: opt, st: st, cat: cat, log: opt.Logger, appID: opt.AppID,
		tables: map[int64]*liveTable{}, offers: map[string]*offer{}, auctions: map[int64]*auction{},
		ready: make(chan struct{}), stop: make(chan struct{})}, nil
}

// Start recovers every open table from the store, connects to the gateway and registers
// the slash commands. It returns once the commands are registered.
func (b *Bot) Start(ctx context.Context) error {
	if err := b.recoverTables(ctx); err != nil {
		return err
	}
	s, err := discordapi.NewSession(b.opt.Token.Reveal(), b.opt.APIURL, b.opt.HTTPClient)
	if err != nil {
		return err
	}
	s.Identify.Intents = discordgo.IntentsGuilds
	s.ShouldReconnectOnError = true
	s.AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) {
		if b.appID == "" && r.Application != nil {
			b.appID = r.Application.ID
		}
		b.once.Do(func() { close(b.ready) })
	})
	s.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) { b.handle(ic.Interaction) })
	if b.opt.OnSession != nil {
		b.opt.OnSession(s)
	}
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
	b.log.Info("pontoon bot ready", "app", b.appID, "guild_scope", b.opt.GuildID, "tables", len(b.tables))
	b.mu.Lock()
	for _, t := range b.tables {
		t.mu.Lock()
		b.armTimer(t)
		b.scheduleEdit(t)
		t.mu.Unlock()
	}
	b.mu.Unlock()
	return nil
}

// Close stops taking interactions, lets those in flight finish, stops the timers and
// closes the gateway. The store stays open; its owner closes it.
func (b *Bot) Close() error {
	b.mu.Lock()
	b.closed = true
	tables := make([]*liveTable, 0, len(b.tables))
	for _, t := range b.tables {
		tables = append(tables, t)
	}
	b.mu.Unlock()
	b.inflight.Wait()
	select {
	case <-b.stop:
	default:
		close(b.stop)
	}
	for _, t := range tables {
		t.mu.Lock()
		t.stopTimers()
		t.mu.Unlock()
	}
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

package demo

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/bot/i18n"
	"github.com/pontoon-bot/pontoon/game/sim"
	"github.com/pontoon-bot/pontoon/store"
)

// The demo's server and channel on the fake Discord.
const (
	DefaultGuild   = "900000000000000001"
	DefaultChannel = "900000000000000002"
)

// DealerName is the scripted member who opens the demo's table and holds its bank.
const DealerName = "Dealer"

// Adviser tells what the Hint button would tell a member at the channel's table now
// (*bot.Bot does): the scripted players play by it.
type Adviser interface {
	Advice(ctx context.Context, guild, channel, member string) (sim.Advice, bool)
}

// BankStore is what the demo needs of the bot's store (*store.Store) to give the
// channel's bank to the Dealer before the first table opens: the bank belongs to the
// channel (RULES.md R6.4), and a table opened where an earlier one had an owner keeps it.
type BankStore interface {
	TableByChannel(ctx context.Context, guild, channel string) (store.Table, error)
	OpenTable(ctx context.Context, p store.OpenTableParams) (store.Table, error)
	CloseTable(ctx context.Context, tableID int64, now time.Time) error
}

// Config configures a Demo. Fake and Bot are required.
type Config struct {
	Fake           *discordtest.Server
	Guild, Channel string // DefaultGuild and DefaultChannel when empty
	Bot            Adviser
	// Think is how long a scripted player waits before each move, so that a person
	// watching sees the moves one by one; 800ms.
	Think time.Duration
	// Bankroll is what the Dealer is granted at the start (with /pontoon grant, as a
	// server's admin would), above the starting chips, so that the bank covers a full
	// table for a long while; none when 0.
	Bankroll int64
	Log      *slog.Logger // nothing logged when nil
}

// Demo is the demo's side of the fake Discord: its members by name, the scripted
// players, and the /demo/ endpoints. Its methods are safe for concurrent use.
type Demo struct {
	cfg  Config
	fake *discordtest.Server
	cat  *i18n.Catalog
	log  *slog.Logger

	mu      sync.Mutex
	names   map[string]string                // member id -> name, for the channel view's mentions
	ids     map[string]string                // folded name -> member id
	seats   []*seat                          // the Dealer first, then the scripted players in the order they sat
	modals  map[string]*discordtest.Response // member id -> the click that opened their form
	stop    context.CancelFunc
	stopped chan struct{}
}

// New adds the demo's server, channel and Dealer to the fake. The bot may connect
// before or after; Start needs it connected.
func New(cfg Config) (*Demo, error) {
	if cfg.Fake == nil || cfg.Bot == nil {
		return nil, errors.New("demo: Config needs Fake and Bot")
	}
	if cfg.Guild == "" {
		cfg.Guild = DefaultGuild
	}
	if cfg.Channel == "" {
		cfg.Channel = DefaultChannel
	}
	if cfg.Think <= 0 {
		cfg.Think = 800 * time.Millisecond
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	cat, err := i18n.Load()
	if err != nil {
		return nil, err
	}
	d := &Demo{cfg: cfg, fake: cfg.Fake, cat: cat, log: cfg.Log,
		names: map[string]string{}, ids: map[string]string{}, modals: map[string]*discordtest.Response{}}
	d.fake.AddGuild(cfg.Guild, "en-US")
	d.fake.AddChannel(cfg.Guild, cfg.Channel)
	dealer := d.add(DealerName, discordgo.PermissionManageGuild)
	d.seats = []*seat{{name: DealerName, id: dealer}}
	return d, nil
}

// Guild and Channel are where the demo's table is.
func (d *Demo) Guild() string   { return d.cfg.Guild }
func (d *Demo) Channel() string { return d.cfg.Channel }

// ErrBadName refuses a member name the demo does not take.
var ErrBadName = errors.New("demo: a name is 1 to 32 letters, digits, spaces, dots, dashes or underscores")

// ErrScriptedName refuses a person the name of a scripted player: they would play the
// same seat as the script.
var ErrScriptedName = errors.New("demo: that name is a scripted player's")

// Member adds a member of the demo's server by name, or finds the one added before:
// the same name (in any case) is always the same member, with the same id, also in
// another run of the demo. It is how people join; the scripted players' names are
// theirs alone.
func (d *Demo) Member(_ context.Context, name string) (string, error) {
	name = strings.TrimSpace(name)
	if !validName(name) {
		return "", ErrBadName
	}
	for _, n := range append([]string{DealerName}, ScriptedNames...) {
		if strings.EqualFold(n, name) {
			return "", ErrScriptedName
		}
	}
	return d.add(name, 0), nil
}

func validName(name string) bool {
	n := 0
	for _, r := range name {
		n++
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(" ._-", r) {
			return false
		}
	}
	return n >= 1 && n <= 32
}

// add registers a member with the fake unless the name is known.
func (d *Demo) add(name string, perms int64) string {
	key := strings.ToLower(name)
	d.mu.Lock()
	defer d.mu.Unlock()
	if id, ok := d.ids[key]; ok {
		return id
	}
	id := MemberID(name)
	d.ids[key] = id
	d.names[id] = name
	d.fake.AddMember(d.cfg.Guild, id, name, perms, "en-US")
	return id
}

// MemberID is the id the demo gives the member called name: a snowflake-shaped number
// derived from the name, so that it is the same in every run.
func MemberID(name string) string {
	h := fnv.New64a()
	_, _ = h.Write([]byte(strings.ToLower(name)))
	return strconv.FormatUint(500000000000000000+h.Sum64()%100000000000000000, 10)
}

// name is the name of a member the demo added, or "" for another id.
func (d *Demo) name(id string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.names[id]
}

// Start opens the demo's table: the channel's bank is given to the Dealer (when the
// channel has never had a table), the Dealer runs /pontoon start and is granted the
// bankroll, and the scripted players start watching for their turns. The bot must be
// connected to the fake, over bank. A channel whose table is open already is left as
// it is.
func (d *Demo) Start(ctx context.Context, bank BankStore) error {
	dealer := d.seats[0].id
	if _, err := bank.TableByChannel(ctx, d.cfg.Guild, d.cfg.Channel); errors.Is(err, store.ErrNotFound) {
		if err := d.giveBank(ctx, bank, dealer); err != nil {
			return err
		}
		r, err := d.fake.Command(d.cfg.Guild, d.cfg.Channel, dealer, "pontoon", sub("start"))
		if err != nil {
			return fmt.Errorf("demo: /pontoon start: %w", err)
		}
		if refused(r.Message) {
			return fmt.Errorf("demo: /pontoon start refused: %s", discordtest.Text(r.Message))
		}
		if d.cfg.Bankroll > 0 {
			r, err := d.fake.Command(d.cfg.Guild, d.cfg.Channel, dealer, "pontoon", sub("grant",
				&discordgo.ApplicationCommandInteractionDataOption{Name: "member", Type: discordgo.ApplicationCommandOptionUser, Value: dealer},
				&discordgo.ApplicationCommandInteractionDataOption{Name: "amount", Type: discordgo.ApplicationCommandOptionInteger, Value: float64(d.cfg.Bankroll)}))
			if err != nil {
				return fmt.Errorf("demo: /pontoon grant: %w", err)
			}
			if refused(r.Message) {
				return fmt.Errorf("demo: /pontoon grant refused: %s", discordtest.Text(r.Message))
			}
		}
	} else if err != nil {
		return err
	}
	// The table message is posted after the answer to /pontoon start.
	if !d.waitTable(10 * time.Second) {
		return errors.New("demo: the table message was not posted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	d.mu.Lock()
	d.stop, d.stopped = cancel, make(chan struct{})
	d.mu.Unlock()
	go d.play(ctx)
	return nil
}

// giveBank makes the Dealer the channel's bank owner before its first table opens: an
// empty table is opened and closed with the Dealer as owner, and the table /pontoon
// start opens next keeps that owner (store.OpenTable, RULES.md R6.4).
func (d *Demo) giveBank(ctx context.Context, bank BankStore, dealer string) error {
	now := time.Now().UTC().Truncate(time.Millisecond)
	t, err := bank.OpenTable(ctx, store.OpenTableParams{Guild: d.cfg.Guild, Channel: d.cfg.Channel, Host: dealer,
		BankOwner: dealer, Now: now})
	if err != nil {
		return fmt.Errorf("demo: giving the bank to the Dealer: %w", err)
	}
	if err := bank.CloseTable(ctx, t.ID, now); err != nil {
		return fmt.Errorf("demo: giving the bank to the Dealer: %w", err)
	}
	return nil
}

// waitTable waits until the channel shows a table message.
func (d *Demo) waitTable(timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for {
		if d.tableMessage() != nil {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Close stops the scripted players and waits for a move in flight. The fake and the
// bot are the caller's to close.
func (d *Demo) Close() {
	d.mu.Lock()
	stop, stopped := d.stop, d.stopped
	d.stop = nil
	d.mu.Unlock()
	if stop != nil {
		stop()
		<-stopped
	}
}

func sub(name string, opts ...*discordgo.ApplicationCommandInteractionDataOption) []*discordgo.ApplicationCommandInteractionDataOption {
	return []*discordgo.ApplicationCommandInteractionDataOption{{Name: name, Type: discordgo.ApplicationCommandOptionSubCommand, Options: opts}}
}

// refusalMarker starts every refusal the bot words for a member.
const refusalMarker = "⛔"

func refused(m *discordgo.Message) bool {
	return m != nil && strings.Contains(discordtest.Text(m), refusalMarker)
}

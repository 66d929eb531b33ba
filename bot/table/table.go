package table

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
)

// Config is what the store keeps as a table's house rules: the game's rules and the
// table's turn timer (R7.4).
type Config struct {
	Rules     game.Rules `json:"rules"`
	TurnTimer string     `json:"turn_timer"`
}

// Turn is the turn timer as a duration.
func (c Config) Turn() time.Duration {
	d, _ := time.ParseDuration(c.TurnTimer)
	return d
}

// ParseConfig reads a table's stored rules and checks them.
func ParseConfig(raw string) (Config, error) {
	var cfg Config
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		return cfg, fmt.Errorf("rules: %w", err)
	}
	if err := cfg.Rules.Validate(); err != nil {
		return cfg, err
	}
	if d, err := time.ParseDuration(cfg.TurnTimer); err != nil || d <= 0 {
		return cfg, fmt.Errorf("turn timer %q", cfg.TurnTimer)
	}
	return cfg, nil
}

// Cut records the cut that chose a banker (R1.4), for the table message.
type Cut struct {
	Winner string
	Passes [][]string    // who drew in each pass: everyone, then those tied at the top
	Draws  [][]game.Card // what each drew, pass by pass
}

// newCut records a cut (R1.4: highest wins, Ace high; the tied cut again), with who
// drew in each pass, which game.Cut leaves to be worked out from the cards.
func newCut(winner string, seats []string, draws [][]game.Card) *Cut {
	c := &Cut{Winner: winner, Draws: draws}
	in := slices.Clone(seats)
	for _, pass := range draws {
		c.Passes = append(c.Passes, in)
		best, next := 0, []string(nil)
		for i, card := range pass {
			if i < len(in) {
				best = max(best, cutRank(card))
			}
		}
		for i, card := range pass {
			if i < len(in) && cutRank(card) == best {
				next = append(next, in[i])
			}
		}
		in = next
	}
	return c
}

// cutRank is a card's rank in a cut: Ace high (R1.4).
func cutRank(c game.Card) int {
	if c.Rank == game.Ace {
		return 14
	}
	return int(c.Rank)
}

// Notice is a public line about the last event at a table. It carries ids and numbers
// only; package view puts it into words.
type Notice struct {
	Kind    NoticeKind
	Members []string
	Amount  int64
}

// NoticeKind names what a Notice tells.
type NoticeKind string

// The notices a table shows.
const (
	NoticeTimedOut    NoticeKind = "timed_out"    // Members ran out of time (R7.4)
	NoticeSold        NoticeKind = "sold"         // Members[0] sold the bank to Members[1] for Amount (R6.3)
	NoticeAuctionSold NoticeKind = "auction_sold" // the same through an auction (R9.8)
)

// Next is the pack the next round will be dealt from, as the table shows it before the deal.
type Next struct {
	Round      int
	Commitment string
}

// Snapshot is a table as it stood at one moment, taken under its lock and safe to read
// without it: package view renders it. Game is never changed after it was kept (apply
// works on a copy), so sharing the pointer is safe.
type Snapshot struct {
	ID        int64
	Guild     string
	Channel   string
	Host      string
	Config    Config
	Seats     []string
	Owner     string // the bank's owner between rounds (R6.4)
	Kitty     int64  // between rounds; during a round Game.Kitty
	MessageID string
	Opened    time.Time  // when the table was opened (its message is posted just after)
	Game      *game.Game // the round in play or the last one settled; nil before the first
	Round     RoundInfo
	MSeq      map[string]int   // actions per member in the round: the stale-button check
	LastStake map[string]int64 // each member's last stake at this table, offered again
	Broken    bool
	Cut       *Cut
	Notice    *Notice
	Next      *Next
	Seeds     *Seeds // the next freshly shuffled pack's commitment and member seeds
	Closing   bool
	Closed    bool
	Deadline  time.Time
}

// RoundInfo is what the table shows of its current or last round.
type RoundInfo struct {
	Number     int
	Commitment string
	Salt       string
}

// InRound reports whether a round is being played.
func (s *Snapshot) InRound() bool { return s.Game != nil && s.Game.InRound() }

// Seated reports whether m has a seat.
func (s *Snapshot) Seated(m string) bool { return slices.Contains(s.Seats, m) }

// Banker is who holds the bank: the round's banker during a round, else the owner.
func (s *Snapshot) Banker() string {
	if s.InRound() {
		return s.Game.Banker
	}
	return s.Owner
}

// Table is one open table in memory. Every field below mu is guarded by it; a command is
// applied whole under mu, so a table applies its commands one at a time, and tables never
// wait on each other.
type Table struct {
	m  *Manager
	mu sync.Mutex

	id        int64
	guild     string
	channel   string
	host      string
	cfg       Config
	turn      time.Duration
	seats     []string
	owner     string
	kitty     int64
	messageID string
	opened    time.Time

	g      *game.Game
	round  store.Round
	seq    int
	mseq   map[string]int
	stakes map[string]int64 // each member's last stake, for the stake select
	broken string
	cut    *Cut
	notice *Notice

	pending  *store.PendingPack
	seed     *store.ShuffleSeed // the pending pontoon-shuffle/1 seed for the next fresh pack
	nextPack []string           // carried from the last round (R6.1); nil to shuffle

	restart restartState

	closing  bool
	closed   bool
	deadline time.Time // the turn's, as the store keeps it (R7.4); zero when no round waits
}

// ID is the table's store id; it never changes.
func (t *Table) ID() int64 { return t.id }

// Channel is the table's channel; it never changes.
func (t *Table) Channel() string { return t.channel }

// Guild is the table's server; it never changes.
func (t *Table) Guild() string { return t.guild }

func (t *Table) inRound() bool { return t.g != nil && t.g.InRound() }

func (t *Table) seated(m string) bool { return slices.Contains(t.seats, m) }

func (t *Table) banker() string {
	if t.inRound() {
		return t.g.Banker
	}
	return t.owner
}

// snapshot copies what view needs. t.mu must be held.
func (t *Table) snapshot() Snapshot {
	s := Snapshot{ID: t.id, Guild: t.guild, Channel: t.channel, Host: t.host, Config: t.cfg, Seats: slices.Clone(t.seats),
		Owner: t.owner, Kitty: t.kitty, MessageID: t.messageID, Opened: t.opened, Game: t.g, MSeq: maps.Clone(t.mseq), LastStake: maps.Clone(t.stakes),
		Round:  RoundInfo{Number: t.round.Number, Commitment: t.round.Commitment, Salt: t.round.Salt},
		Broken: t.broken != "", Cut: t.cut, Notice: t.notice, Closing: t.closing, Closed: t.closed, Deadline: t.deadline}
	s.Seeds = t.seeds()
	if t.pending != nil {
		s.Next = &Next{Round: t.pending.ForRound, Commitment: t.pending.Commitment}
	}
	return s
}

// Snapshot returns the table as it stands now.
func (t *Table) Snapshot() Snapshot {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.snapshot()
}

func newTable(m *Manager, tb store.Table) (*Table, error) {
	cfg, err := ParseConfig(tb.Rules)
	if err != nil {
		return nil, fmt.Errorf("table %d: %w", tb.ID, err)
	}
	t := &Table{m: m, id: tb.ID, guild: tb.Guild, channel: tb.Channel, host: tb.Host, cfg: cfg, turn: cfg.Turn(),
		opened: tb.CreatedAt, owner: tb.BankOwner, mseq: map[string]int{}, stakes: map[string]int64{}, nextPack: tb.NextPack}
	for _, s := range tb.Seats {
		t.seats = append(t.seats, s.Member)
	}
	return t, nil
}

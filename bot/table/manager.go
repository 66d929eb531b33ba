package table

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
)

// Refusal is a "no" to a member: a catalog key and its values. Values of type Member are
// shown as the member's mention.
type Refusal struct {
	Key  string
	Args []any
}

func (r *Refusal) Error() string { return r.Key }

// Refuse builds a Refusal.
func Refuse(key string, args ...any) error { return &Refusal{Key: key, Args: args} }

// Member is a member id inside a Refusal's values: shown as a mention.
type Member string

// Notifier is told when something should reach Discord. Its methods may be called with a
// table's lock held, so they must only take note and return: the network work happens
// elsewhere, with no table lock held.
type Notifier interface {
	// Changed says the table's public message no longer shows its state.
	Changed(t *Table)
	// OfferEnded says a bank offer expired or was answered; its message should say so.
	OfferEnded(o Offer, how string)
	// AuctionChanged says an auction's message should be redrawn: key is
	// auction.open, auction.closed or auction.unsold.
	AuctionChanged(a Auction, key string)
}

// Options configure a Manager.
type Options struct {
	StartingChips int64
	MaxSeats      int
	OfferTTL      time.Duration
	BidWindow     time.Duration
	Now           func() time.Time
	// AfterFunc runs f once d has passed on the clock of Now, for the rules' timers:
	// turns (R7.4), offers (R6.3) and auctions (R9.8).
	AfterFunc func(d time.Duration, f func()) Timer
	Random    io.Reader
	Deck      func(decks int) []game.Card
	Logger    *slog.Logger
	// Serves reports whether this process serves a server's tables (with
	// gateway shards each process recovers only the servers Discord routes to its
	// shards). Nil serves every server.
	Serves func(guild string) bool
	// Leases, when set, makes this process one of several sharing the store's tables
	// (HTTP replicas, shared.go): work on a table happens inside Hold, under the table's
	// lease taken in Holder's name (unique per process), and the process polls for due
	// deadlines (due.go). Nil: this process is the only one that writes its tables, as
	// if it held every one of their leases for as long as it runs.
	Leases Leases
	// Holder names this process in leases and in the claims of deadlines.
	Holder string
	// MaxTables, when above 0, is how many open tables a server may have: Open is
	// refused past it with store.ErrTooManyTables.
	MaxTables int
}

// Timer is a timer started by Options.AfterFunc; *time.Timer is one.
type Timer interface{ Stop() bool }

// Manager holds the open tables of a bot in memory and the count of work in flight.
// Its own lock (mu) guards only its maps and flags and is never held while a table's
// lock is taken: see doc.go for the lock order.
type Manager struct {
	st   Stores
	opt  Options
	log  *slog.Logger
	n    Notifier
	wake Waker // how this process learns that deadlines are due (due.go)

	mu       sync.Mutex
	tables   map[int64]*Table
	byChan   map[string]*Table // guild + "/" + channel -> its open table
	closed   bool
	inflight sync.WaitGroup
	holds    holds               // the tables held, per table, and their leases when shared (shared.go)
	recent   []int64             // tables changed lately that Recover left on disk, for Recent
	lastUse  map[int64]time.Time // when each table in memory was last asked for (idle.go)
}

// NewManager builds a manager over a store. SetNotifier must be called before Start.
func NewManager(st Stores, opt Options) *Manager {
	if opt.AfterFunc == nil {
		opt.AfterFunc = func(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
	}
	if opt.Holder == "" {
		opt.Holder = "pontoon"
	}
	m := &Manager{st: st, opt: opt, log: opt.Logger, tables: map[int64]*Table{}, byChan: map[string]*Table{}}
	m.wake = newWaker(m)
	return m
}

// SetNotifier tells the manager whom to tell about changes.
func (m *Manager) SetNotifier(n Notifier) { m.n = n }

func (m *Manager) now() time.Time { return m.opt.Now().UTC().Truncate(time.Millisecond) }

// Enter counts a piece of work in flight, so Close waits for it; it reports false once
// the manager is closing. The caller defers Done.
func (m *Manager) Enter() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return false
	}
	m.inflight.Add(1)
	return true
}

// Done ends a piece of work counted by Enter.
func (m *Manager) Done() { m.inflight.Done() }

// Close stops taking work, waits for the work in flight and stops the waking for
// deadlines. Offers, auctions and turn deadlines stay in the store: the next process to
// run fires them.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	m.inflight.Wait()
	m.wake.Stop()
}

// Tables lists the open tables in memory.
func (m *Manager) Tables() []*Table {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]*Table, 0, len(m.tables))
	for _, t := range m.tables {
		out = append(out, t)
	}
	return out
}

// forget drops a closed table from memory. t.mu may be held (the manager's lock comes
// after a table's).
func (m *Manager) forget(t *Table) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tables[t.id] == t {
		delete(m.tables, t.id)
		delete(m.byChan, chanKey(t.guild, t.channel))
		delete(m.lastUse, t.id)
	}
}

// Get returns the open table with that id, loading it from the store if needed.
func (m *Manager) Get(ctx context.Context, id int64) (*Table, error) {
	m.mu.Lock()
	t, ok := m.tables[id]
	if ok {
		m.noteUse(id)
	}
	m.mu.Unlock()
	if ok {
		return t, nil
	}
	tb, err := m.st.TableByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, Refuse("err.table_closed")
	}
	if err != nil {
		return nil, err
	}
	if tb.Status != store.StatusOpen {
		return nil, Refuse("err.table_closed")
	}
	t, err = m.load(ctx, tb)
	if err != nil {
		return nil, err
	}
	if err := m.rebuild(ctx, t); err != nil {
		return nil, err
	}
	m.mu.Lock()
	old, ok := m.tables[id]
	if !ok {
		m.keep(t)
	}
	m.mu.Unlock()
	if ok {
		return old, nil
	}
	return t, nil
}

// keep adds a table to memory. m.mu must be held.
func (m *Manager) keep(t *Table) {
	m.tables[t.id] = t
	m.byChan[chanKey(t.guild, t.channel)] = t
	m.noteUse(t.id)
}

func chanKey(guild, channel string) string { return guild + "/" + channel }

// ByChannel returns the channel's open table or a refusal saying there is none.
func (m *Manager) ByChannel(ctx context.Context, guild, channel string) (*Table, error) {
	m.mu.Lock()
	t, ok := m.byChan[chanKey(guild, channel)]
	if ok {
		m.noteUse(t.id)
	}
	m.mu.Unlock()
	if ok {
		return t, nil
	}
	tb, err := m.st.TableByChannel(ctx, guild, channel)
	if errors.Is(err, store.ErrNotFound) {
		return nil, Refuse("err.no_table")
	}
	if err != nil {
		return nil, err
	}
	return m.Get(ctx, tb.ID)
}

// load builds a live table from the store: its row, its message, kitty and next pack.
func (m *Manager) load(ctx context.Context, tb store.Table) (*Table, error) {
	t, err := newTable(m, tb)
	if err != nil {
		return nil, err
	}
	if t.messageID, err = m.st.TableMessage(ctx, tb.ID); err != nil {
		return nil, err
	}
	st, err := m.st.TableState(ctx, tb.ID)
	if err != nil {
		return nil, err
	}
	t.kitty = st.Kitty
	if p, ok, err := m.st.Pending(ctx, tb.ID); err != nil {
		return nil, err
	} else if ok {
		t.pending = &p
	}
	if p, ok, err := m.st.PendingSeed(ctx, tb.ID); err != nil {
		return nil, err
	} else if ok {
		t.seed = &p
	} else {
		t.ensureSeed(ctx) // a table opened before seeded shuffles: commit now
	}
	if tb.RoundNumber > 0 {
		if t.round, err = m.st.Round(ctx, tb.ID, tb.RoundNumber); err != nil {
			return nil, err
		}
		if t.round.Finished() && tb.NextPack == nil {
			// The last round called for a shuffle (R6.1): a seed a crash kept from being
			// revealed is revealed now.
			t.revealSeeds(ctx)
		}
	}
	if t.closing, err = m.st.Stopping(ctx, tb.ID); err != nil {
		return nil, err
	}
	return t, nil
}

// OpenParams are the arguments of Open.
type OpenParams struct {
	Guild, Channel, Host string
	Config               Config
}

// Open opens a table in a channel with its host seated, and draws the first round's
// pack so its commitment shows before the deal.
func (m *Manager) Open(ctx context.Context, p OpenParams) (*Table, Snapshot, error) {
	now := m.now()
	raw, err := jsonConfig(p.Config)
	if err != nil {
		return nil, Snapshot{}, err
	}
	if _, _, err := m.st.EnsureWallet(ctx, p.Guild, p.Host, m.opt.StartingChips, now); err != nil {
		return nil, Snapshot{}, err
	}
	tb, err := m.st.OpenTable(ctx, store.OpenTableParams{Guild: p.Guild, Channel: p.Channel, Host: p.Host, Rules: raw, MaxOpen: m.opt.MaxTables, Now: now})
	if err != nil {
		return nil, Snapshot{}, err
	}
	if err := m.st.SetSeats(ctx, tb.ID, []string{p.Host}, now); err != nil {
		return nil, Snapshot{}, err
	}
	tb.Seats = []store.Seat{{Member: p.Host}}
	t, err := newTable(m, tb)
	if err != nil {
		return nil, Snapshot{}, err
	}
	st, err := m.st.TableState(ctx, tb.ID)
	if err != nil {
		return nil, Snapshot{}, err
	}
	t.kitty = st.Kitty
	t.mu.Lock()
	defer t.mu.Unlock()
	m.mu.Lock()
	m.keep(t)
	m.mu.Unlock()
	t.ensureSeed(ctx)
	t.preparePack(ctx, tb.RoundNumber+1, nil)
	return t, t.snapshot(), nil
}

// Recover loads, before the gateway opens, the open tables a restart must look at: each
// with an unfinished round, rebuilt by the store (pack and actions replayed through the
// engine, checked against the ledger's escrow), and each with no message (a start killed
// before its message was posted or recorded). A round that cannot be trusted is reported
// and its table refuses play until a member who may manage the server resolves it (see
// Resolve); nothing is lost. A table whose stop was asked for and whose round settled
// before the restart closes now. The tables changed in the minutes before are only
// listed (Recent), for the caller to load and check once it is ready. Every other open
// table stays on disk until a member uses it, so memory grows with the tables in use,
// not with the tables open.
func (m *Manager) Recover(ctx context.Context) error {
	rebuilt, err := m.st.RecoverRounds(ctx)
	if err != nil {
		return err
	}
	unposted, err := m.st.UnpostedTables(ctx)
	if err != nil {
		return err
	}
	stopping, err := m.st.StoppingTables(ctx)
	if err != nil {
		return err
	}
	loaded := map[int64]*Table{}
	serves := m.opt.Serves
	if serves == nil {
		serves = func(string) bool { return true }
	}
	for _, r := range rebuilt {
		if !serves(r.Table.Guild) {
			continue // another shard's process recovers it
		}
		t, err := m.load(ctx, r.Table)
		if err != nil {
			m.log.Error("table not recovered", "table", r.Table.ID, "err", err)
			continue
		}
		t.round = r.Round
		if r.Err != nil {
			t.broken = r.Err.Error()
			m.log.Error("round not recovered; the table refuses play until an admin resolves it", "table", r.Table.ID, "round", r.Round.Number, "err", r.Err)
		} else {
			t.g, t.seq = r.Game, len(r.Actions)
			last := r.Round.StartedAt
			for _, a := range r.Actions {
				t.mseq[a.Member]++
				last = a.CreatedAt
			}
			t.notice = timedOutNotice(r.Actions)
			// R7.4: the deadline runs from the round's last action; one that ran out while
			// no process ran fires at start. A round dealt before the store kept every
			// table's turn deadline gets one now.
			t.deadline = last.Add(t.turn)
			if err := m.st.EnsureDeadline(ctx, t.id, store.DeadlineTurn, "", t.deadline); err != nil {
				m.log.Error("turn deadline not kept", "table", t.id, "err", err)
			}
		}
		t.restart = restartRound
		loaded[t.id] = t
	}
	for _, tb := range unposted {
		if !serves(tb.Guild) {
			continue
		}
		if t := loaded[tb.ID]; t != nil {
			t.restart = restartPost
			continue
		}
		t, err := m.load(ctx, tb)
		if err != nil {
			m.log.Error("table not recovered", "table", tb.ID, "err", err)
			continue
		}
		t.restart = restartPost
		loaded[t.id] = t
	}
	// A round settled just before the kill, or the seats or the bank changed between
	// rounds: the edit that would have shown it may never have reached the table's
	// message, which would show the round in play for ever, or the old kitty.
	// Most of them are only looked at, after the start, by whoever redraws what is
	// behind (Recent, LoadRecent): loading thousands of tables here would hold up the
	// start. Those that close now are loaded at once, so that their message says so.
	changed, err := m.st.RecentlyChangedTables(ctx, m.now().Add(-redrawChangedWithin))
	if err != nil {
		return err
	}
	closing := map[int64]bool{}
	for _, tb := range stopping {
		closing[tb.ID] = true
	}
	var recent []int64
	for _, tb := range changed {
		if !serves(tb.Guild) || loaded[tb.ID] != nil {
			continue
		}
		if !closing[tb.ID] {
			recent = append(recent, tb.ID)
			continue
		}
		t, err := m.loadSettled(ctx, tb)
		if err != nil {
			m.log.Error("table not recovered", "table", tb.ID, "err", err)
			continue
		}
		t.restart = restartRound
		loaded[t.id] = t
	}
	for _, tb := range stopping {
		if !serves(tb.Guild) {
			continue
		}
		if loaded[tb.ID] != nil && loaded[tb.ID].round.ID != 0 && !loaded[tb.ID].round.Finished() {
			continue // closes when its round settles
		}
		if err := m.st.CloseTable(ctx, tb.ID, m.now()); err != nil {
			m.log.Error("stopped table not closed", "table", tb.ID, "err", err)
			continue
		}
		if t := loaded[tb.ID]; t != nil {
			t.closed = true
			t.restart = restartRound // its message shows it closed
		}
	}
	m.mu.Lock()
	for _, t := range loaded {
		m.keep(t)
	}
	m.recent = recent
	m.mu.Unlock()
	return nil
}

// loadSettled loads a table whose round is not in play, showing its last round's
// settlement as it did before (the game that round settled in).
func (m *Manager) loadSettled(ctx context.Context, tb store.Table) (*Table, error) {
	t, err := m.load(ctx, tb)
	if err != nil {
		return nil, err
	}
	if t.round.ID != 0 && t.round.Finished() {
		if g, actions, err := m.settledGame(ctx, t.round); err != nil {
			m.log.Warn("settled round not replayed; the table is drawn without it", "table", tb.ID, "err", err)
		} else {
			t.g = g
			t.notice = timedOutNotice(actions)
		}
	}
	return t, nil
}

// Recent hands over, once, the tables changed in the minutes before the start that
// Recover left on disk: their messages may be behind (an edit that died with the last
// process). The caller loads each with LoadRecent and redraws those whose message does
// not show their state.
func (m *Manager) Recent() []int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	ids := m.recent
	m.recent = nil
	return ids
}

// LoadRecent returns a table Recent named, as Get does, except that a table loaded
// afresh shows its last round's settlement as it did before the restart. A table
// closed since is refused as Get refuses it.
func (m *Manager) LoadRecent(ctx context.Context, id int64) (*Table, error) {
	m.mu.Lock()
	t, ok := m.tables[id]
	m.mu.Unlock()
	if ok || m.opt.Leases != nil {
		if ok {
			return t, nil
		}
		return m.Get(ctx, id) // a shared table is rebuilt from the store's actions
	}
	tb, err := m.st.TableByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, Refuse("err.table_closed")
	}
	if err != nil {
		return nil, err
	}
	if tb.Status != store.StatusOpen {
		return nil, Refuse("err.table_closed")
	}
	if t, err = m.loadSettled(ctx, tb); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if old, ok := m.tables[id]; ok {
		return old, nil // a click loaded it meanwhile
	}
	m.keep(t)
	return t, nil
}

// settledGame replays a finished round to the state it settled in.
func (m *Manager) settledGame(ctx context.Context, r store.Round) (*game.Game, []store.Action, error) {
	g, actions, err := m.replayRound(ctx, r)
	if err != nil {
		return nil, nil, err
	}
	if g.InRound() {
		return nil, nil, fmt.Errorf("round %d is marked finished but its actions do not settle it", r.Number)
	}
	return g, actions, nil
}

// replayRound is round r as the store holds it: its actions, and the game their replay
// leaves.
func (m *Manager) replayRound(ctx context.Context, r store.Round) (*game.Game, []store.Action, error) {
	actions, err := m.st.Actions(ctx, r.ID)
	if err != nil {
		return nil, nil, err
	}
	h, err := store.RoundHistory(r, actions)
	if err != nil {
		return nil, nil, err
	}
	g, _, err := game.Replay(h)
	if err != nil {
		return nil, nil, err
	}
	return g, actions, nil
}

// redrawChangedWithin is how recently a table's last round must have settled, or its
// seats or bank changed, for a restart to redraw it: far longer than an edit takes to
// follow its commit (EditDelay, rate limits), and short enough that a restart after a
// quiet night redraws nothing.
const redrawChangedWithin = 10 * time.Minute

// restartState says what a restart must do for a table.
type restartState int

const (
	restartNone  restartState = iota
	restartRound              // its round was recovered, it changed lately, or it closed: its message may be behind
	restartPost               // it has no message: post one
)

// Resume, once the gateway is open, starts waking for the deadlines in the store
// (due.go), those that fell due while no process ran first, and returns the tables
// whose message may be behind (a recovered round, a recent change, a close), for the
// caller to redraw where the message does not show the table's state, and the tables
// that have no message, for the caller to post. It takes one table's lock at a time and
// never the manager's with it.
func (m *Manager) Resume() (redraw, unposted []*Table) {
	defer m.wake.Start(m.fireDue)
	for _, t := range m.Tables() {
		t.mu.Lock()
		switch t.restart {
		case restartRound:
			redraw = append(redraw, t)
		case restartPost:
			unposted = append(unposted, t)
		}
		t.restart = restartNone
		closed := t.closed
		t.mu.Unlock()
		if closed {
			m.forget(t)
		}
	}
	return redraw, unposted
}

func jsonConfig(c Config) (string, error) {
	b, err := jsonMarshal(c)
	if err != nil {
		return "", fmt.Errorf("table config: %w", err)
	}
	return string(b), nil
}

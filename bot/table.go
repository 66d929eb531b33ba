package bot

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
)

// tableConfig is what the store keeps as a table's house rules: the game's rules and the
// table's turn timer.
type tableConfig struct {
	Rules     game.Rules `json:"rules"`
	TurnTimer string     `json:"turn_timer"`
}

// cutResult records the cut that chose a banker (R1.4), for the table message.
type cutResult struct {
	Winner string
	Seats  []string
	Draws  [][]game.Card
}

// liveTable is one open table in memory. Every field is guarded by mu; the bot holds mu
// for the whole of a command, so a table applies its commands one at a time.
type liveTable struct {
	mu        sync.Mutex
	id        int64
	guild     string
	channel   string
	host      string
	cfg       tableConfig
	turn      time.Duration
	seats     []string
	owner     string // the bank's owner as the store has it (R6.4)
	kitty     int64  // the kitty as the store has it, between rounds
	messageID string

	g      *game.Game     // the round in play or the last one settled this session; nil before
	round  store.Round    // the store's row of that round
	seq    int            // actions applied in that round
	mseq   map[string]int // actions applied per member in that round: stale-button check
	broken string         // recovery found the store and the engine disagreeing: refuse play
	cut    *cutResult
	notice string // a public line about the last event (timeouts, sales)

	pending *store.PendingPack // the next deal's pack, committed to and shown before the deal

	recovered bool // deadline came from a restart: keep it, so a timer that ran out while down fires at once

	closing  bool // stop after this round
	closed   bool
	deadline time.Time
	timer    Timer
	timerGen int

	editTimer *time.Timer
	editing   bool
	dirty     bool
}

func (t *liveTable) stopTimers() {
	if t.timer != nil {
		t.timer.Stop()
	}
	if t.editTimer != nil {
		t.editTimer.Stop()
	}
	t.timerGen++
}

// inRound reports whether a round is being played.
func (t *liveTable) inRound() bool { return t.g != nil && t.g.InRound() }

func (t *liveTable) seated(m string) bool { return slices.Contains(t.seats, m) }

// banker is who holds the bank now: the round's banker while one is played, else the
// owner the store has (a sale, an auction or a cut may have changed it since).
func (t *liveTable) banker() string {
	if t.inRound() {
		return t.g.Banker
	}
	return t.owner
}

func newLive(tb store.Table) (*liveTable, error) {
	var cfg tableConfig
	if err := json.Unmarshal([]byte(tb.Rules), &cfg); err != nil {
		return nil, fmt.Errorf("table %d: rules: %w", tb.ID, err)
	}
	if err := cfg.Rules.Validate(); err != nil {
		return nil, fmt.Errorf("table %d: %w", tb.ID, err)
	}
	turn, err := time.ParseDuration(cfg.TurnTimer)
	if err != nil || turn <= 0 {
		return nil, fmt.Errorf("table %d: turn timer %q", tb.ID, cfg.TurnTimer)
	}
	t := &liveTable{id: tb.ID, guild: tb.Guild, channel: tb.Channel, host: tb.Host, cfg: cfg, turn: turn,
		owner: tb.BankOwner, mseq: map[string]int{}}
	for _, s := range tb.Seats {
		t.seats = append(t.seats, s.Member)
	}
	return t, nil
}

// loadLive builds a live table from the store: its row, its message and its kitty.
func (b *Bot) loadLive(ctx context.Context, tb store.Table) (*liveTable, error) {
	t, err := newLive(tb)
	if err != nil {
		return nil, err
	}
	if t.messageID, err = b.st.TableMessage(ctx, tb.ID); err != nil {
		return nil, err
	}
	st, err := b.st.TableState(ctx, tb.ID)
	if err != nil {
		return nil, err
	}
	t.kitty = st.Kitty
	if p, ok, err := b.st.Pending(ctx, tb.ID); err != nil {
		return nil, err
	} else if ok {
		t.pending = &p
	}
	if tb.RoundNumber > 0 {
		if t.round, err = b.st.Round(ctx, tb.ID, tb.RoundNumber); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// live returns the open table with that id, loading it from the store if needed.
func (b *Bot) live(ctx context.Context, id int64) (*liveTable, error) {
	b.mu.Lock()
	t, ok := b.tables[id]
	b.mu.Unlock()
	if ok {
		return t, nil
	}
	tb, err := b.st.TableByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if tb.Status != store.StatusOpen {
		return nil, refuse("err.table_closed")
	}
	t, err = b.loadLive(ctx, tb)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if old, ok := b.tables[id]; ok {
		return old, nil
	}
	b.tables[id] = t
	return t, nil
}

// liveByChannel returns the channel's open table or a refusal saying there is none.
func (b *Bot) liveByChannel(ctx context.Context, guild, channel string) (*liveTable, error) {
	tb, err := b.st.TableByChannel(ctx, guild, channel)
	if errors.Is(err, store.ErrNotFound) {
		return nil, refuse("err.no_table")
	}
	if err != nil {
		return nil, err
	}
	return b.live(ctx, tb.ID)
}

// recoverTables loads every open table and the rounds the store rebuilt (pack and
// actions replayed through the engine, checked against the ledger's escrow). A round
// that could not be trusted is reported and its table refuses play: nothing is lost,
// the chips stay in escrow for an admin to look at.
func (b *Bot) recoverTables(ctx context.Context) error {
	tables, err := b.st.OpenTables(ctx)
	if err != nil {
		return err
	}
	rebuilt, err := b.st.RecoverRounds(ctx)
	if err != nil {
		return err
	}
	byTable := map[int64]store.Rebuilt{}
	for _, r := range rebuilt {
		byTable[r.Round.TableID] = r
	}
	for _, tb := range tables {
		t, err := b.loadLive(ctx, tb)
		if err != nil {
			b.log.Error("table not recovered", "table", tb.ID, "err", err)
			continue
		}
		if r, ok := byTable[tb.ID]; ok {
			t.round = r.Round
			if r.Err != nil {
				t.broken = r.Err.Error()
				b.log.Error("round not recovered; the table refuses play until an admin looks", "table", tb.ID, "round", r.Round.Number, "err", r.Err)
			} else {
				t.g, t.seq = r.Game, len(r.Actions)
				last := r.Round.StartedAt
				for _, a := range r.Actions {
					t.mseq[a.Member]++
					last = a.CreatedAt
				}
				t.recovered = true
				t.deadline = last.Add(t.turn) // R7.4: a timer that ran out while the bot was down fires at start
			}
		}
		b.tables[tb.ID] = t
	}
	return nil
}

// apply runs one action through the engine and commits it with its chip movements, or
// changes nothing. t.mu must be held.
func (b *Bot) apply(ctx context.Context, t *liveTable, a game.Action, interactionID string) ([]game.Transfer, error) {
	if t.broken != "" {
		return nil, refuse("err.table_broken")
	}
	if !t.inRound() {
		return nil, refuse("err.no_round")
	}
	g := t.g.Clone()
	out, err := g.Apply(a)
	if err != nil {
		return nil, err
	}
	p := store.ApplyParams{RoundID: t.round.ID, Seq: t.seq + 1, Member: a.Player, Verb: string(a.Verb),
		Args: a.Args(), InteractionID: interactionID, Now: b.now(), Transfers: store.GameTransfers(t.id, out)}
	if !g.InRound() {
		rep := g.RoundReport()
		result, _ := json.Marshal(rep)
		fin := &store.RoundFinish{Result: string(result), BankOwner: g.Banker}
		if !rep.Shuffle {
			fin.NextPack = game.CardStrings(g.NextPack())
		}
		p.Finish = fin
	}
	if err := b.st.ApplyAction(ctx, p); err != nil {
		return nil, err
	}
	t.g = g
	t.seq++
	t.mseq[a.Player]++
	t.notice = ""
	t.recovered = false
	if !g.InRound() {
		t.owner = g.Banker
		t.kitty = g.Kitty
		b.afterRound(ctx, t)
		if !t.closed {
			b.preparePack(ctx, t, t.round.Number+1, p.Finish.NextPack)
		}
	}
	b.armTimer(t)
	b.scheduleEdit(t)
	return out, nil
}

// afterRound closes a table whose stop was asked for (escrow is empty between rounds).
func (b *Bot) afterRound(ctx context.Context, t *liveTable) {
	if !t.closing {
		return
	}
	if err := b.st.CloseTable(ctx, t.id, b.now()); err != nil {
		b.log.Error("closing table", "table", t.id, "err", err)
		return
	}
	t.closed = true
}

// randomHex reads n random bytes as hex.
func (b *Bot) randomHex(n int) (string, error) {
	buf := make([]byte, n)
	if _, err := io.ReadFull(b.opt.Random, buf); err != nil {
		return "", err
	}
	return hex.EncodeToString(buf), nil
}

// shuffled returns a freshly shuffled pack, the shuffle seeded from the bot's entropy
// source (crypto/rand in production) through ChaCha8.
func (b *Bot) shuffled(decks int) ([]game.Card, error) {
	if b.opt.Deck != nil {
		return b.opt.Deck(decks), nil
	}
	var seed [32]byte
	if _, err := io.ReadFull(b.opt.Random, seed[:]); err != nil {
		return nil, err
	}
	pack := game.NewPack(decks)
	game.Shuffle(pack, rand.New(rand.NewChaCha8(seed)))
	return pack, nil
}

// snapshot builds a Game for the table as it stands between rounds: the seats (and the
// bank's owner, who may have left the table), the store's balances and kitty.
func (b *Bot) snapshot(ctx context.Context, t *liveTable, banker string) (*game.Game, error) {
	seats := slices.Clone(t.seats)
	if banker != "" && !slices.Contains(seats, banker) {
		seats = append(seats, banker)
	}
	bal := map[string]int64{}
	for _, m := range seats {
		w, _, err := b.st.EnsureWallet(ctx, t.guild, m, b.opt.StartingChips, b.now())
		if err != nil {
			return nil, err
		}
		bal[m] = w.Balance
	}
	st, err := b.st.TableState(ctx, t.id)
	if err != nil {
		return nil, err
	}
	if len(seats) < 2 {
		return nil, refuse("err.need_two")
	}
	return game.NewGame(t.cfg.Rules, seats, banker, bal, st.Kitty)
}

// chooseBanker gives the bank to its persisted owner if seated, else to a cut (R1.4,
// R6.4); the kitty of an owner who is not seated goes back to them.
func (b *Bot) chooseBanker(ctx context.Context, t *liveTable) error {
	if t.owner != "" && t.seated(t.owner) {
		return nil
	}
	pack, err := b.shuffled(1)
	if err != nil {
		return err
	}
	winner, draws, _, err := game.Cut(pack, t.seats)
	if err != nil {
		return err
	}
	st, err := b.st.TableState(ctx, t.id)
	if err != nil {
		return err
	}
	var ts []store.Transfer
	if st.Kitty > 0 && t.owner != "" {
		ts = append(ts, store.Transfer{From: store.KittyAccount(t.id), To: store.WalletAccount(t.owner), Amount: st.Kitty, Reason: "kitty return (R6.4)"})
	}
	if err := b.st.UpdateBank(ctx, store.BankParams{TableID: t.id, Transfers: ts, BankOwner: &winner, Reason: "cut (R1.4)", Now: b.now()}); err != nil {
		return err
	}
	t.owner = winner
	t.kitty = 0
	if len(ts) == 0 {
		t.kitty = st.Kitty
	}
	t.cut = &cutResult{Winner: winner, Seats: slices.Clone(t.seats), Draws: draws}
	return nil
}

// deal starts the next round: banker, pack (carried or shuffled, R6.1), commitment,
// first cards. t.mu must be held.
func (b *Bot) deal(ctx context.Context, t *liveTable) error {
	switch {
	case t.broken != "":
		return refuse("err.table_broken")
	case t.closed || t.closing:
		return refuse("err.table_closing")
	case t.inRound():
		return refuse("err.round_in_play")
	case len(t.seats) < 2:
		return refuse("err.need_two")
	}
	if err := b.chooseBanker(ctx, t); err != nil {
		return err
	}
	g, err := b.snapshot(ctx, t, t.owner)
	if err != nil {
		return err
	}
	tb, err := b.st.TableByID(ctx, t.id)
	if err != nil {
		return err
	}
	decks := t.cfg.Rules.DecksFor(len(g.Seats))
	// The pack committed to before the deal (shown on the table), if it still fits the
	// number of packs the seats need; else the pack carried from the last round (R6.1),
	// else a fresh shuffle, committed to now.
	var pack []game.Card
	var salt, commitment string
	if p, ok, err := b.st.Pending(ctx, t.id); err != nil {
		return err
	} else if ok && p.ForRound == tb.RoundNumber+1 && len(p.Pack) == 52*decks {
		if pack, err = game.ParseCards(p.Pack); err == nil {
			salt, commitment = p.Salt, p.Commitment
		} else {
			pack = nil
		}
	}
	if pack == nil && len(tb.NextPack) == 52*decks {
		if pack, err = game.ParseCards(tb.NextPack); err != nil {
			pack = nil
		}
	}
	if pack == nil {
		if pack, err = b.shuffled(decks); err != nil {
			return err
		}
	}
	if salt == "" {
		if salt, err = b.randomHex(16); err != nil {
			return err
		}
		commitment = game.Commitment(pack, salt)
	}
	snap := game.HistoryTable{Seats: slices.Clone(g.Seats), Banker: g.Banker, Balances: map[string]int64{}, Kitty: g.Kitty}
	for k, v := range g.Balances {
		snap.Balances[k] = v
	}
	if err := g.Deal(pack); err != nil {
		return err
	}
	h := game.History{Format: game.HistoryFormat, Rules: t.cfg.Rules, Table: snap,
		Rounds: []game.HistoryRound{{Pack: game.CardStrings(pack), Actions: []string{}, Commitment: commitment}}}
	hj, err := json.Marshal(h)
	if err != nil {
		return err
	}
	r, err := b.st.StartRound(ctx, store.StartRoundParams{TableID: t.id, Number: tb.RoundNumber + 1, History: string(hj),
		Commitment: commitment, Salt: salt, Now: b.now()})
	if err != nil {
		return err
	}
	t.g, t.round, t.seq, t.mseq = g, r, 0, map[string]int{}
	t.notice = ""
	b.armTimer(t)
	return nil
}

// preparePack draws the next round's pack now, so its commitment can be shown on the table
// before anyone presses Deal: the pack carried from the last round when it had no
// pontoon (R6.1), else a fresh shuffle. A failure is only logged: the deal then commits to
// a fresh pack itself. t.mu must be held.
func (b *Bot) preparePack(ctx context.Context, t *liveTable, forRound int, carried []string) {
	decks := t.cfg.Rules.DecksFor(max(len(t.seats), 2))
	var pack []game.Card
	if len(carried) == 52*decks {
		pack, _ = game.ParseCards(carried)
	}
	var err error
	if pack == nil {
		if pack, err = b.shuffled(decks); err != nil {
			b.log.Error("next pack not prepared", "table", t.id, "err", err)
			return
		}
	}
	salt, err := b.randomHex(16)
	if err != nil {
		b.log.Error("next pack not prepared", "table", t.id, "err", err)
		return
	}
	p := store.PendingPack{ForRound: forRound, Pack: game.CardStrings(pack), Salt: salt, Commitment: game.Commitment(pack, salt)}
	if err := b.st.SetPendingPack(ctx, t.id, p); err != nil {
		b.log.Error("next pack not prepared", "table", t.id, "err", err)
		return
	}
	t.pending = &p
}

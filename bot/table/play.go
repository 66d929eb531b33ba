package table

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"maps"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
)

var jsonMarshal = json.Marshal

// Guard checks a click against the table as it stands, under its lock: the round and the
// member's action count the button was drawn for. Package bot's custom ids supply it.
type Guard func(round, memberSeq int) error

// Act applies a member's action (a button, select or typed amount) once guard accepts
// it, and returns the table as it then stands.
func (t *Table) Act(ctx context.Context, a game.Action, interactionID string, guard Guard) (Snapshot, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return t.snapshot(), Refuse("err.table_closed")
	}
	if guard != nil {
		if err := guard(t.round.Number, t.mseq[a.Player]); err != nil {
			return t.snapshot(), err
		}
	}
	_, err := t.apply(ctx, a, interactionID)
	return t.snapshot(), err
}

// apply runs one action through the engine on a copy of the state and commits it with
// its chip movements in one store transaction; only then is the copy kept. On any error
// nothing changes. t.mu must be held.
func (t *Table) apply(ctx context.Context, a game.Action, interactionID string) ([]game.Transfer, error) {
	outs, err := t.applyAll(ctx, []game.Action{a}, []string{interactionID})
	if err != nil {
		return nil, err
	}
	return outs[0], nil
}

// applyAll is apply for the actions of one click, in order: all of them go through the
// engine on one copy, then one store transaction commits them with whatever the round's
// end brings (the result, the next pack and its commitment, the seeds revealed once the
// pack is shuffled away, the table closed when a stop was asked for), so a click is one
// transaction however much it does. ids[i] is the interaction id action i is recorded
// under. t.mu must be held.
func (t *Table) applyAll(ctx context.Context, as []game.Action, ids []string) ([][]game.Transfer, error) {
	if t.broken != "" {
		return nil, Refuse("err.table_broken")
	}
	if !t.inRound() {
		return nil, Refuse("err.no_round")
	}
	g := t.g.Clone()
	now := t.m.now()
	ps := make([]store.ApplyParams, 0, len(as))
	outs := make([][]game.Transfer, 0, len(as))
	for i, a := range as {
		if !g.InRound() {
			return nil, Refuse("err.no_round")
		}
		out, err := g.Apply(a)
		if err != nil {
			return nil, err
		}
		ps = append(ps, store.ApplyParams{RoundID: t.round.ID, Seq: t.seq + 1 + i, Member: a.Player, Verb: string(a.Verb),
			Args: a.Args(), InteractionID: ids[i], Now: now, Transfers: store.GameTransfers(t.id, out)})
		outs = append(outs, out)
	}
	var fin *store.RoundFinish
	if !g.InRound() {
		rep := g.RoundReport()
		result, _ := json.Marshal(rep)
		fin = &store.RoundFinish{Result: string(result), BankOwner: g.Banker, Results: roundResults(g)}
		if !rep.Shuffle {
			fin.NextPack = game.CardStrings(g.NextPack())
		}
		if t.closing {
			fin.Close = true // escrow is empty once the round settles
		} else {
			fin.RevealSeeds = fin.NextPack == nil // R6.1: the pack is shuffled away, so its seed can be told
			pending, err := t.nextPending(t.round.Number+1, fin.NextPack, len(t.seats))
			if err != nil {
				t.logger(ctx).Error("next pack not prepared", "err", err)
			}
			fin.Pending = pending
		}
		ps[len(ps)-1].Finish = fin
	}
	// R7.4: the next decision's timer runs from now. The store's turn deadline, written at
	// the deal, stays as it is: it is the earliest the turn can time out, and the firing
	// moves it on to t.deadline when that is later (fireTurn), so an action writes none.
	var err error
	if len(ps) == 1 {
		err = t.m.st.ApplyAction(ctx, ps[0])
	} else {
		err = t.m.st.ApplyActions(ctx, ps)
	}
	if err != nil {
		return nil, err
	}
	t.g = g
	for _, a := range as {
		t.seq++
		t.mseq[a.Player]++
		if a.Verb == game.VerbStake {
			t.stakes[a.Player] = a.Amount
		}
	}
	t.notice = nil
	if fin != nil {
		t.owner = g.Banker
		t.kitty = g.Kitty
		t.nextPack = fin.NextPack
		if fin.Close {
			t.close()
		} else {
			t.pending = fin.Pending
		}
	}
	t.armTimer(now.Add(t.turn))
	t.m.n.Changed(t)
	return outs, nil
}

// close marks the table closed and forgets it. t.mu must be held.
func (t *Table) close() {
	t.closed = true
	t.deadline = time.Time{}
	t.m.forget(t)
}

// randomHex reads n random bytes as hex.
func (m *Manager) randomHex(n int) (string, error) {
	buf := make([]byte, n)
	if _, err := io.ReadFull(m.opt.Random, buf); err != nil {
		return "", err
	}
	return hex.EncodeToString(buf), nil
}

// shuffled returns a freshly shuffled pack, the shuffle seeded from the entropy source
// (crypto/rand in production) through ChaCha8.
func (m *Manager) shuffled(decks int) ([]game.Card, error) {
	if m.opt.Deck != nil {
		return m.opt.Deck(decks), nil
	}
	var seed [32]byte
	if _, err := io.ReadFull(m.opt.Random, seed[:]); err != nil {
		return nil, err
	}
	pack := game.NewPack(decks)
	game.Shuffle(pack, rand.New(rand.NewChaCha8(seed)))
	return pack, nil
}

// wallets reads, before the table's lock is taken, the balances a game between rounds
// needs: every seat, the bank's owner and extra. It creates the wallet of a member who
// has none, with the starting chips.
func (t *Table) wallets(ctx context.Context, extra ...string) (map[string]int64, error) {
	s := t.Snapshot()
	bal := map[string]int64{}
	for _, m := range append(append(s.Seats, s.Owner), extra...) {
		if _, ok := bal[m]; ok || m == "" {
			continue
		}
		w, _, err := t.m.st.EnsureWallet(ctx, t.guild, m, t.m.opt.StartingChips, t.m.now())
		if err != nil {
			return nil, err
		}
		bal[m] = w.Balance
	}
	return bal, nil
}

// between builds a Game for the table as it stands between rounds: the seats (and the
// bank's owner, who may have left the table), the balances read by wallets and the
// kitty. It reads nothing: t.mu is held. The store's transaction checks the balances
// again, so one that changed in between can refuse but never overdraw.
func (t *Table) between(banker string, bal map[string]int64) (*game.Game, error) {
	seats := slices.Clone(t.seats)
	if banker != "" && !slices.Contains(seats, banker) {
		seats = append(seats, banker)
	}
	if len(seats) < 2 {
		return nil, Refuse("err.need_two")
	}
	for _, s := range seats {
		if _, ok := bal[s]; !ok {
			return nil, Refuse("err.not_saved") // a member sat down meanwhile: try again
		}
	}
	return game.NewGame(t.cfg.Rules, seats, banker, bal, t.kitty)
}

// Deal starts the next round for a seated member: banker, pack (the one committed to,
// R6.1), first cards. interactionID is the id Discord gave the interaction that pressed
// Deal: a freshly shuffled pack is derived from it (pontoon-shuffle/1).
func (t *Table) Deal(ctx context.Context, member, interactionID string) (Snapshot, error) {
	// The store is the authority on the committed pack and seed; they are read before the lock.
	pending, ok, err := t.m.st.Pending(ctx, t.id)
	if err != nil {
		return t.Snapshot(), err
	}
	seed, seedOK, err := t.m.st.PendingSeed(ctx, t.id)
	if err != nil {
		return t.Snapshot(), err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if ok && (t.pending == nil || t.pending.ForRound <= pending.ForRound) {
		t.pending = &pending
	}
	if seedOK && (t.seed == nil || t.seed.Commitment != seed.Commitment || len(seed.MemberSeeds) > len(t.seed.MemberSeeds)) {
		t.seed = &seed
	}
	if t.closed {
		return t.snapshot(), Refuse("err.table_closed")
	}
	if !t.seated(member) {
		return t.snapshot(), Refuse("err.not_seated")
	}
	err = t.deal(ctx, interactionID)
	if err != nil {
		t.m.n.Changed(t) // a cut may have chosen a banker even when the deal waits for a kitty
	}
	return t.snapshot(), err
}

// deal starts the next round in one store transaction: the bank's owner if seated, else
// a cut (R1.4, R6.4: the kitty of an owner who is not seated goes back to them), the
// pack committed to before the deal (R6.1), the balances as the store has them, and the
// first cards. If the store refuses, nothing changed. If the engine refuses the deal
// after a cut (a Shoot bank with no kitty yet, R9.8), the cut alone is kept: it chose
// the banker, who is now asked for a kitty. t.mu must be held.
func (t *Table) deal(ctx context.Context, interactionID string) error {
	switch {
	case t.broken != "":
		return Refuse("err.table_broken")
	case t.closed || t.closing:
		return Refuse("err.table_closing")
	case t.inRound():
		return Refuse("err.round_in_play")
	case len(t.seats) < 2:
		return Refuse("err.need_two")
	}
	now := t.m.now()
	owner, kitty := t.owner, t.kitty
	var cut *Cut
	var bankOwner *string
	var bankTs []store.Transfer
	if owner == "" || !t.seated(owner) {
		pack, err := t.m.shuffled(1)
		if err != nil {
			return err
		}
		winner, draws, _, err := game.Cut(pack, t.seats)
		if err != nil {
			return err
		}
		if kitty > 0 && owner != "" {
			bankTs = append(bankTs, store.Transfer{From: store.KittyAccount(t.id), To: store.WalletAccount(owner), Amount: kitty, Reason: "kitty return (R6.4)"})
			kitty = 0
		}
		cut = newCut(winner, t.seats, draws)
		owner, bankOwner = winner, &winner
	}
	seats := slices.Clone(t.seats)
	number := t.round.Number + 1
	decks := t.cfg.Rules.DecksFor(len(seats))
	// The pack committed to before the deal (shown on the table), if it fits the number
	// of packs the seats need (a change of seats draws a new one); else the pack carried
	// from the last round (R6.1), else a fresh shuffle, committed to now.
	var pack []game.Card
	var salt, commitment string
	var seeded *game.SeededShuffle
	var seedUse *store.SeedUse
	var err error
	if p := t.pending; p != nil && p.ForRound == number && len(p.Pack) == 52*decks {
		if pack, err = game.ParseCards(p.Pack); err == nil {
			salt, commitment = p.Salt, p.Commitment
		} else {
			pack = nil
		}
	}
	if pack == nil && len(t.nextPack) == 52*decks {
		if pack, err = game.ParseCards(t.nextPack); err != nil {
			pack = nil
		}
	}
	if pack == nil && t.m.opt.Deck != nil {
		pack = t.m.opt.Deck(decks) // a scripted pack; nil lets the table shuffle
	}
	if pack == nil {
		if pack, seeded, seedUse, err = t.seededPack(ctx, interactionID, decks); err != nil {
			return err
		}
		commitment = seeded.Commitment
	}
	if salt == "" && seeded == nil {
		if salt, err = t.m.randomHex(16); err != nil {
			return err
		}
		commitment = game.Commitment(pack, salt)
	}
	var g *game.Game
	var refused error // the engine's refusal, as opposed to the store's
	start := func(bal map[string]int64, kitty int64) (store.StartRoundParams, error) {
		ng, err := game.NewGame(t.cfg.Rules, seats, owner, bal, kitty)
		if err != nil {
			refused = err
			return store.StartRoundParams{}, err
		}
		snap := game.HistoryTable{Seats: slices.Clone(ng.Seats), Banker: ng.Banker, Balances: maps.Clone(ng.Balances), Kitty: ng.Kitty}
		if err := ng.Deal(pack); err != nil {
			refused = err
			return store.StartRoundParams{}, err
		}
		h := game.History{Format: game.HistoryFormat, Rules: t.cfg.Rules, Table: snap,
			Rounds: []game.HistoryRound{{Pack: game.CardStrings(pack), Actions: []string{}, Commitment: commitment}}}
		if seeded != nil {
			// The seed's commitment and the entropy; the seed itself once the pack is retired.
			h.Rounds[0].Commitment, h.Rounds[0].SeededShuffle = "", seeded
		}
		hj, err := json.Marshal(h)
		if err != nil {
			return store.StartRoundParams{}, err
		}
		g = ng
		return store.StartRoundParams{TableID: t.id, Number: number, History: string(hj), Commitment: commitment, Salt: salt, Now: now,
			TurnDue: now.Add(t.turn)}, nil
	}
	r, err := t.m.st.DealRound(ctx, store.DealParams{TableID: t.id, Number: number, Members: seats, Starting: t.m.opt.StartingChips,
		BankOwner: bankOwner, BankTransfers: bankTs, BankReason: "cut (R1.4)", Start: start, Seed: seedUse, Now: now})
	if err != nil {
		if refused != nil && cut != nil {
			// The cut stands on its own: it chose the banker, who must now act (R9.8).
			if uerr := t.m.st.UpdateBank(ctx, store.BankParams{TableID: t.id, Transfers: bankTs, BankOwner: bankOwner, Reason: "cut (R1.4)", Now: now}); uerr != nil {
				return uerr
			}
			t.owner, t.kitty, t.cut, t.g = owner, kitty, cut, nil
		}
		return err
	}
	t.owner, t.kitty, t.cut = owner, g.Kitty, cut
	t.g, t.round, t.seq, t.mseq = g, r, 0, map[string]int{}
	t.notice = nil
	t.pending = nil
	t.nextPack = nil
	if seedUse != nil {
		t.seed = &store.ShuffleSeed{Commitment: seedUse.Next.Commitment, ServerSeed: seedUse.Next.ServerSeed}
	}
	t.armTimer(now.Add(t.turn))
	return nil
}

// preparePack draws the next round's pack now, so its commitment can be shown on the table
// before anyone presses Deal: the pack carried from the last round when it had no
// pontoon (R6.1), else a fresh shuffle. A failure is only logged: the deal then commits to
// a fresh pack itself. t.mu must be held.
func (t *Table) preparePack(ctx context.Context, forRound int, carried []string) {
	p, err := t.nextPending(forRound, carried, len(t.seats))
	if err == nil && p != nil {
		err = t.m.st.SetPendingPack(ctx, t.id, *p)
	}
	if err != nil {
		t.logger(ctx).Error("next pack not prepared", "err", err)
		return
	}
	t.pending = p
}

// nextPending is the pack round forRound will be dealt from, with its salt and
// commitment, for the table to show before Deal: the pack carried over (R6.1) when
// it fits that many seats, else a scripted one (Options.Deck). nil when neither: a fresh
// pack is derived at the deal (pontoon-shuffle/1) and the table shows the pending
// seed's commitment instead. t.mu must be held.
func (t *Table) nextPending(forRound int, carried []string, seats int) (*store.PendingPack, error) {
	decks := t.cfg.Rules.DecksFor(max(seats, 2))
	var pack []game.Card
	if len(carried) == 52*decks {
		pack, _ = game.ParseCards(carried)
	}
	if pack == nil && t.m.opt.Deck != nil {
		pack = t.m.opt.Deck(decks)
	}
	if pack == nil {
		return nil, nil
	}
	salt, err := t.m.randomHex(16)
	if err != nil {
		return nil, err
	}
	return &store.PendingPack{ForRound: forRound, Pack: game.CardStrings(pack), Salt: salt, Commitment: game.Commitment(pack, salt)}, nil
}

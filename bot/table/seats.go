package table

import (
	"context"
	"slices"
	"time"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
)

// Join seats a member.
func (t *Table) Join(ctx context.Context, member string) (Snapshot, error) {
	now := t.m.now()
	// The member's wallet first, before the lock: a new member's is one write, an
	// existing member's a read that writes nothing.
	if _, _, err := t.m.st.EnsureWallet(ctx, t.guild, member, t.m.opt.StartingChips, now); err != nil {
		return t.Snapshot(), err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case t.closed:
		return t.snapshot(), Refuse("err.table_closed")
	case t.seated(member):
		return t.snapshot(), Refuse("err.already_seated")
	case len(t.seats) >= t.m.opt.MaxSeats:
		return t.snapshot(), Refuse("err.table_full", "Count", t.m.opt.MaxSeats)
	}
	seats := append(slices.Clone(t.seats), member)
	if err := t.setSeats(ctx, seats, now); err != nil {
		return t.snapshot(), err
	}
	return t.snapshot(), nil
}

// Leave gives up a member's seat; not while they play in the round.
func (t *Table) Leave(ctx context.Context, member string) (Snapshot, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case t.closed:
		return t.snapshot(), Refuse("err.table_closed")
	case !t.seated(member):
		return t.snapshot(), Refuse("err.not_seated")
	case t.inRound() && (member == t.g.Banker || Playing(t.g, member)):
		return t.snapshot(), Refuse("err.leave_in_round")
	}
	seats := slices.DeleteFunc(slices.Clone(t.seats), func(s string) bool { return s == member })
	if err := t.setSeats(ctx, seats, t.m.now()); err != nil {
		return t.snapshot(), err
	}
	return t.snapshot(), nil
}

// StopResult says what Stop did.
type StopResult int

// The outcomes of Stop.
const (
	StopClosed     StopResult = iota // the table closed now
	StopAfterRound                   // it closes when the round settles
	StopResolved                     // a round recovery could not trust was voided, its escrow returned, the table closed
)

// Stop closes the table, or after the round when one is in play. Only the host, the
// banker or a member who may manage the server may (mayManage).
func (t *Table) Stop(ctx context.Context, member string, mayManage bool) (StopResult, Snapshot, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return 0, t.snapshot(), Refuse("err.table_closed")
	}
	if t.broken != "" {
		// Recovery could not trust the round: only a member who may manage the server
		// resolves it, and every escrow goes back as the ledger holds it.
		if !mayManage {
			return 0, t.snapshot(), Refuse("err.broken_needs_admin")
		}
		// One transaction: the escrows back, the round void, the table closed and the
		// void round's seed revealed with the pack put away.
		if err := t.m.st.ResolveBroken(ctx, t.id, t.m.now()); err != nil {
			return 0, t.snapshot(), err
		}
		t.close()
		t.m.n.Changed(t)
		return StopResolved, t.snapshot(), nil
	}
	if member != t.host && member != t.banker() && !mayManage {
		return 0, t.snapshot(), Refuse("err.stop_forbidden")
	}
	if t.inRound() {
		if err := t.m.st.SetStopping(ctx, t.id, true); err != nil {
			return 0, t.snapshot(), err
		}
		t.closing = true
		t.m.n.Changed(t)
		return StopAfterRound, t.snapshot(), nil
	}
	// The seeds are revealed in the same transaction: the pack is put away with the table.
	if err := t.m.st.CloseTable(ctx, t.id, t.m.now()); err != nil {
		return 0, t.snapshot(), err
	}
	t.close()
	t.m.n.Changed(t)
	return StopClosed, t.snapshot(), nil
}

// SetMessage records the public message that shows the table, so that after a restart
// the same message is edited. The store write happens before the lock.
func (t *Table) SetMessage(ctx context.Context, messageID string) error {
	if err := t.m.st.SetTableMessage(ctx, t.id, messageID); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.messageID = messageID
	t.m.n.Changed(t) // anything that happened while it was being posted
	return nil
}

// Playing reports whether member has a hand in the game's round.
func Playing(g *game.Game, member string) bool {
	if g == nil || g.Round == nil {
		return false
	}
	for _, h := range g.Round.Hands {
		if h.Player == member {
			return true
		}
	}
	return false
}

// setSeats records the seats and, between rounds, the next pack in one transaction:
// when the number of packs the seats need changes (DecksFor), a new pack is drawn and
// its commitment shown, so what the table shows before Deal is always what Deal deals.
// t.mu must be held.
func (t *Table) setSeats(ctx context.Context, seats []string, now time.Time) error {
	var pending *store.PendingPack
	repack := false
	if !t.inRound() {
		decks := t.cfg.Rules.DecksFor(max(len(seats), 2))
		if p := t.pending; p == nil || len(p.Pack) != 52*decks {
			var err error
			if pending, err = t.nextPending(t.round.Number+1, t.nextPack, len(seats)); err != nil {
				t.logger(ctx).Error("next pack not prepared", "err", err)
			} else {
				repack = true
			}
		}
	}
	if err := t.m.st.SetSeatsAndPack(ctx, t.id, seats, now, pending); err != nil {
		return err
	}
	t.seats = seats
	if repack {
		t.pending = pending
	}
	return nil
}

// Abandon closes a table whose message could not be posted, before anything was
// played at it, so the channel is free for the next start.
func (t *Table) Abandon(ctx context.Context) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed || t.messageID != "" || t.round.Number > 0 {
		return nil
	}
	if err := t.m.st.CloseTable(ctx, t.id, t.m.now()); err != nil {
		return err
	}
	t.close()
	return nil
}

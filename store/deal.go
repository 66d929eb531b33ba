package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// DealParams are the arguments of DealRound.
type DealParams struct {
	TableID int64
	Number  int // must be the table's RoundNumber + 1
	// Members are everyone dealt in (the seats and the banker); a member without a
	// wallet gets one with Starting chips.
	Members  []string
	Starting int64
	// The bank's change made by the deal's cut, applied before the round: the new owner
	// (nil: unchanged) and the transfers it makes (the kitty back to an owner who is not
	// seated, R6.4), with their ledger reason.
	BankOwner     *string
	BankTransfers []Transfer
	BankReason    string
	// Start builds the round from the balances and the kitty as this transaction sees
	// them, after the bank's change. An error from it is returned and nothing is written.
	Start func(balances map[string]int64, kitty int64) (StartRoundParams, error)
	// Seed, when the round's pack is freshly shuffled with pontoon-shuffle/1, ties the
	// table's pending seed to the round and commits to the next (see useSeed).
	Seed *SeedUse
	Now  time.Time
}

// DealRound is a whole deal in one transaction: the cut's change of bank, the members'
// wallets, and the new round with its opening transfers. Either all of it is recorded or
// none. It refuses as StartRound does.
func (s *Store) DealRound(ctx context.Context, p DealParams) (Round, error) {
	if err := checkNow(p.Now); err != nil {
		return Round{}, err
	}
	if p.Start == nil {
		return Round{}, invalid("deal: no round to start")
	}
	if err := checkTableTransfers(p.BankTransfers, p.TableID, false); err != nil {
		return Round{}, err
	}
	var out Round
	err := s.write(ctx, "DealRound", func(tx *txn) error {
		var err error
		out, err = s.deal(ctx, tx, p)
		return err
	})
	if err != nil {
		return Round{}, err
	}
	return out, nil
}

// deal is DealRound's body, in tx: the bank's change, the wallets, then the round through
// startRound (the same checks and writes as StartRound) and the seed it was shuffled from.
func (s *Store) deal(ctx context.Context, tx *txn, p DealParams) (Round, error) {
	t, err := openTable(ctx, tx, p.TableID)
	if err != nil {
		return Round{}, err
	}
	if err := noUnfinishedRound(ctx, tx, p.TableID); err != nil {
		return Round{}, err
	}
	if p.Number != t.RoundNumber+1 {
		return Round{}, &SequenceError{Err: ErrStaleRound, Got: p.Number, Want: t.RoundNumber + 1}
	}
	reason := p.BankReason
	if reason == "" {
		reason = "bank"
	}
	if err := moveAll(ctx, tx, t.Guild, p.BankTransfers, reason, ledgerRef{table: p.TableID, now: p.Now}); err != nil {
		return Round{}, err
	}
	if p.BankOwner != nil {
		if _, err := tx.ExecContext(ctx, `UPDATE tables SET bank_owner = ? WHERE id = ?`, nullString(*p.BankOwner), p.TableID); err != nil {
			return Round{}, fmt.Errorf("store: deal: %w", err)
		}
	}
	bal := map[string]int64{}
	for _, m := range p.Members {
		w, err := wallet(ctx, tx, t.Guild, m)
		if errors.Is(err, ErrNotFound) {
			if err := createWallet(ctx, tx, t.Guild, m, p.Now); err != nil {
				return Round{}, err
			}
			if p.Starting > 0 {
				tr := Transfer{From: MintAccount, To: WalletAccount(m), Amount: p.Starting, Reason: "starting chips"}
				if err := move(ctx, tx, t.Guild, tr, ledgerRef{now: p.Now}); err != nil {
					return Round{}, err
				}
			}
			w, err = wallet(ctx, tx, t.Guild, m)
		}
		if err != nil {
			return Round{}, err
		}
		bal[m] = w.Balance
	}
	kitty, _, err := balance(ctx, tx, t.Guild, KittyAccount(p.TableID))
	if err != nil {
		return Round{}, err
	}
	sp, err := p.Start(bal, kitty)
	if err != nil {
		return Round{}, err
	}
	history, err := jsonText("history", sp.History, "")
	if err != nil {
		return Round{}, err
	}
	if history == "" {
		return Round{}, invalid("history is empty")
	}
	if err := checkTableTransfers(sp.Transfers, p.TableID, true); err != nil {
		return Round{}, err
	}
	sp.TableID, sp.Number, sp.Now = p.TableID, p.Number, p.Now
	r, err := startRound(ctx, tx, t, sp, history)
	if err != nil {
		return Round{}, err
	}
	if p.Seed != nil {
		if err := useSeed(ctx, tx, p.TableID, r.ID, *p.Seed, p.Now); err != nil {
			return Round{}, err
		}
	}
	return r, nil
}

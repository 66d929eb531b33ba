package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Wallet is a member's standing in a guild: the chips they hold outside play
// and when the bot first saw them.
type Wallet struct {
	Guild          string
	Member         string
	Balance        int64     // the balance of WalletAccount(Member)
	FirstSeen      time.Time // when EnsureWallet created it
	DailyClaimedAt time.Time // the last daily claim; zero if never
}

// Standing is a wallet's place on its guild's leaderboard.
type Standing struct {
	Rank      int // 1 for the richest; ties are broken, so every rank is unique
	Member    string
	Balance   int64
	FirstSeen time.Time
}

// EnsureWallet returns the member's wallet, creating it on first sight with
// starting chips from the mint (ledger reason "starting chips"). created
// reports whether this call created it.
func (s *Store) EnsureWallet(ctx context.Context, guild, member string, starting int64, now time.Time) (w Wallet, created bool, err error) {
	if err := checkIDs("guild", guild, "member", member); err != nil {
		return Wallet{}, false, err
	}
	if err := checkNow(now); err != nil {
		return Wallet{}, false, err
	}
	if starting < 0 {
		return Wallet{}, false, fmt.Errorf("%w: starting chips %d", ErrBadAmount, starting)
	}
	// A member seen before (nearly every call) is a read on the read pool: no write
	// transaction, so it never queues behind the writer.
	if w, err := s.Wallet(ctx, guild, member); err == nil || !errors.Is(err, ErrNotFound) {
		return w, false, err
	}
	// Aside: a wallet is what an interaction's effect needs, never the effect itself.
	err = s.writeAside(ctx, "EnsureWallet", func(tx *txn) error {
		created = false
		var err error
		w, err = wallet(ctx, tx, guild, member)
		if err == nil || !errors.Is(err, ErrNotFound) {
			return err // found (nothing written), or a failure
		}
		if err := createWallet(ctx, tx, guild, member, now); err != nil {
			return err
		}
		if starting > 0 {
			t := Transfer{From: MintAccount, To: WalletAccount(member), Amount: starting, Reason: "starting chips"}
			if err := move(ctx, tx, guild, t, ledgerRef{now: now}); err != nil {
				return err
			}
		}
		created = true
		w, err = wallet(ctx, tx, guild, member)
		return err
	})
	if err != nil {
		return Wallet{}, false, err
	}
	return w, created, nil
}

// Wallet returns the member's wallet, or a NotFoundError.
func (s *Store) Wallet(ctx context.Context, guild, member string) (Wallet, error) {
	if err := checkIDs("guild", guild, "member", member); err != nil {
		return Wallet{}, err
	}
	tx, err := s.beginRead(ctx)
	if err != nil {
		return Wallet{}, err
	}
	defer tx.Rollback()
	return wallet(ctx, tx, guild, member)
}

// ClaimDaily gives the member their daily chips from the mint (ledger reason
// "daily"), unless they claimed less than cooldown ago: then it returns a
// *CooldownError saying when the next claim is possible.
func (s *Store) ClaimDaily(ctx context.Context, guild, member string, amount int64, cooldown time.Duration, now time.Time) (Wallet, error) {
	if err := checkIDs("guild", guild, "member", member); err != nil {
		return Wallet{}, err
	}
	if err := checkNow(now); err != nil {
		return Wallet{}, err
	}
	if amount <= 0 {
		return Wallet{}, fmt.Errorf("%w: daily amount %d", ErrBadAmount, amount)
	}
	var w Wallet
	err := s.write(ctx, "ClaimDaily", func(tx *txn) error {
		var err error
		if w, err = wallet(ctx, tx, guild, member); err != nil {
			return err
		}
		if !w.DailyClaimedAt.IsZero() {
			if next := w.DailyClaimedAt.Add(cooldown); now.Before(next) {
				return &CooldownError{Next: next}
			}
		}
		t := Transfer{From: MintAccount, To: WalletAccount(member), Amount: amount, Reason: "daily"}
		if err := move(ctx, tx, guild, t, ledgerRef{now: now}); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE wallets SET daily_claimed_at = ? WHERE guild_id = ? AND member_id = ?`,
			formatTime(now), guild, member); err != nil {
			return fmt.Errorf("store: claim daily: %w", err)
		}
		w, err = wallet(ctx, tx, guild, member)
		return err
	})
	if err != nil {
		return Wallet{}, err
	}
	return w, nil
}

// GiftWindow is the span over which a giver's gifts count against Give's perDay cap.
const GiftWindow = 24 * time.Hour

// Give moves chips from one member's wallet to another's (ledger reason "gift"). Both
// wallets must exist. perDay, when positive, caps what the giver gives in any
// GiftWindow: a gift that would take the giver's gifts of the last 24 hours past it
// returns a *GiftCapError and moves nothing. The sum and the gift are one
// transaction, so gifts made at once cannot pass the cap together. It returns both
// wallets as they stand after the gift.
func (s *Store) Give(ctx context.Context, guild, from, to string, amount, perDay int64, now time.Time) (fromW, toW Wallet, err error) {
	if err := checkIDs("guild", guild, "giver", from, "receiver", to); err != nil {
		return Wallet{}, Wallet{}, err
	}
	if err := checkNow(now); err != nil {
		return Wallet{}, Wallet{}, err
	}
	if from == to {
		return Wallet{}, Wallet{}, fmt.Errorf("%w: %s", ErrSelfTransfer, WalletAccount(from))
	}
	if amount <= 0 {
		return Wallet{}, Wallet{}, fmt.Errorf("%w: %d", ErrBadAmount, amount)
	}
	err = s.write(ctx, "Give", func(tx *txn) error {
		// The giver's wallet is checked first so that a giver the bot never saw
		// gets "not found" rather than "insufficient chips".
		if _, err := wallet(ctx, tx, guild, from); err != nil {
			return err
		}
		if perDay > 0 {
			if err := giftCap(ctx, tx, guild, from, amount, perDay, now); err != nil {
				return err
			}
		}
		t := Transfer{From: WalletAccount(from), To: WalletAccount(to), Amount: amount, Reason: "gift"}
		if err := move(ctx, tx, guild, t, ledgerRef{now: now}); err != nil {
			return err
		}
		var err error
		if fromW, err = wallet(ctx, tx, guild, from); err != nil {
			return err
		}
		toW, err = wallet(ctx, tx, guild, to)
		return err
	})
	if err != nil {
		return Wallet{}, Wallet{}, err
	}
	return fromW, toW, nil
}

// Grant creates chips in the member's wallet from the mint. Whether by may
// grant is the caller's business; by is recorded in the ledger's reason.
func (s *Store) Grant(ctx context.Context, guild, by, to string, amount int64, now time.Time) (Wallet, error) {
	if err := checkIDs("guild", guild, "granter", by, "receiver", to); err != nil {
		return Wallet{}, err
	}
	if err := checkNow(now); err != nil {
		return Wallet{}, err
	}
	if amount <= 0 {
		return Wallet{}, fmt.Errorf("%w: %d", ErrBadAmount, amount)
	}
	var w Wallet
	err := s.write(ctx, "Grant", func(tx *txn) error {
		t := Transfer{From: MintAccount, To: WalletAccount(to), Amount: amount, Reason: "grant by " + by}
		if err := move(ctx, tx, guild, t, ledgerRef{now: now}); err != nil {
			return err
		}
		var err error
		w, err = wallet(ctx, tx, guild, to)
		return err
	})
	if err != nil {
		return Wallet{}, err
	}
	return w, nil
}

// leaderboardOrder is the one ordering of wallets used by Leaderboard and
// Rank: richest first; on equal balances the member seen first, then the
// smaller member id, so the order never changes between two calls.
const leaderboardOrder = `a.balance DESC, w.first_seen ASC, w.member_id ASC`

// Leaderboard returns a page of the guild's wallets, richest first, and the
// number of wallets in the guild. offset counts from 0; limit must be positive.
func (s *Store) Leaderboard(ctx context.Context, guild string, offset, limit int) (page []Standing, total int, err error) {
	if err := checkIDs("guild", guild); err != nil {
		return nil, 0, err
	}
	if offset < 0 || limit <= 0 {
		return nil, 0, invalid("leaderboard offset %d, limit %d", offset, limit)
	}
	tx, err := s.beginRead(ctx)
	if err != nil {
		return nil, 0, err
	}
	defer tx.Rollback()

	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM wallets WHERE guild_id = ?`, guild).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("store: leaderboard: %w", err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT w.member_id, a.balance, w.first_seen
		FROM wallets w JOIN accounts a ON a.guild_id = w.guild_id AND a.account = w.account
		WHERE w.guild_id = ?
		ORDER BY `+leaderboardOrder+` LIMIT ? OFFSET ?`, guild, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("store: leaderboard: %w", err)
	}
	defer rows.Close()
	rank := offset
	for rows.Next() {
		var st Standing
		var first string
		if err := rows.Scan(&st.Member, &st.Balance, &first); err != nil {
			return nil, 0, fmt.Errorf("store: leaderboard: %w", err)
		}
		if st.FirstSeen, err = parseTime(first); err != nil {
			return nil, 0, err
		}
		rank++
		st.Rank = rank
		page = append(page, st)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("store: leaderboard: %w", err)
	}
	return page, total, nil
}

// Rank returns the member's place on the leaderboard, in the same order as
// Leaderboard, or a NotFoundError if they have no wallet.
func (s *Store) Rank(ctx context.Context, guild, member string) (Standing, error) {
	if err := checkIDs("guild", guild, "member", member); err != nil {
		return Standing{}, err
	}
	tx, err := s.beginRead(ctx)
	if err != nil {
		return Standing{}, err
	}
	defer tx.Rollback()

	w, err := wallet(ctx, tx, guild, member)
	if err != nil {
		return Standing{}, err
	}
	first := formatTime(w.FirstSeen)
	var ahead int
	err = tx.QueryRowContext(ctx, `SELECT count(*)
		FROM wallets w JOIN accounts a ON a.guild_id = w.guild_id AND a.account = w.account
		WHERE w.guild_id = ? AND (a.balance > ?
			OR (a.balance = ? AND w.first_seen < ?)
			OR (a.balance = ? AND w.first_seen = ? AND w.member_id < ?))`,
		guild, w.Balance, w.Balance, first, w.Balance, first, member).Scan(&ahead)
	if err != nil {
		return Standing{}, fmt.Errorf("store: rank: %w", err)
	}
	return Standing{Rank: ahead + 1, Member: member, Balance: w.Balance, FirstSeen: w.FirstSeen}, nil
}

// wallet reads a wallet with its balance.
func wallet(ctx context.Context, tx *txn, guild, member string) (Wallet, error) {
	w := Wallet{Guild: guild, Member: member}
	var first string
	var daily sql.NullString
	err := tx.QueryRowContext(ctx, `SELECT a.balance, w.first_seen, w.daily_claimed_at
		FROM wallets w JOIN accounts a ON a.guild_id = w.guild_id AND a.account = w.account
		WHERE w.guild_id = ? AND w.member_id = ?`, guild, member).Scan(&w.Balance, &first, &daily)
	if err == sql.ErrNoRows {
		return Wallet{}, &NotFoundError{What: "wallet", Key: member}
	}
	if err != nil {
		return Wallet{}, fmt.Errorf("store: wallet: %w", err)
	}
	if w.FirstSeen, err = parseTime(first); err != nil {
		return Wallet{}, err
	}
	if w.DailyClaimedAt, err = parseNullTime(daily); err != nil {
		return Wallet{}, err
	}
	return w, nil
}

// createWallet inserts the wallet row and its empty account, and makes sure
// the guild's mint exists.
func createWallet(ctx context.Context, tx *txn, guild, member string, now time.Time) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO wallets (guild_id, member_id, first_seen) VALUES (?, ?, ?)`,
		guild, member, formatTime(now)); err != nil {
		return fmt.Errorf("store: create wallet: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO accounts (guild_id, account, balance) VALUES (?, ?, 0), (?, ?, 0)
		ON CONFLICT DO NOTHING`, guild, WalletAccount(member), guild, MintAccount); err != nil {
		return fmt.Errorf("store: create wallet: %w", err)
	}
	return nil
}

// giftCap returns a *GiftCapError when amount would take what from gave in the
// GiftWindow before now past perDay. The sum reads the ledger's gift rows through
// their index (migration 00120).
func giftCap(ctx context.Context, tx *txn, guild, from string, amount, perDay int64, now time.Time) error {
	var given int64
	if err := tx.QueryRowContext(ctx, `SELECT CAST(coalesce(sum(amount), 0) AS BIGINT) FROM ledger
		WHERE guild_id = ? AND from_account = ? AND reason = 'gift' AND created_at > ?`,
		guild, WalletAccount(from), formatTime(now.Add(-GiftWindow))).Scan(&given); err != nil {
		return fmt.Errorf("store: give: %w", err)
	}
	if given+amount > perDay {
		return &GiftCapError{Cap: perDay, Given: given}
	}
	return nil
}

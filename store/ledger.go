package store

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// MaxChips is the most chips one account may hold. It keeps every sum the
// bot computes (a banker's worst case, a leaderboard total) far from int64
// overflow. The mint, whose balance is minus everything ever granted, is not
// capped.
const MaxChips int64 = 1 << 50

// MintAccount is the account grants come from: starting chips, daily chips,
// admin grants. Its balance is negative: minus the total ever granted.
const MintAccount = "mint"

// WalletAccount names a member's wallet: the chips they hold outside play.
func WalletAccount(member string) string { return "wallet:" + member }

// EscrowAccount names the chips a member has in play at a table (stakes,
// reserves, shoot bets), held until their hands settle (RULES.md R7.1).
func EscrowAccount(tableID int64, member string) string {
	return "escrow:" + strconv.FormatInt(tableID, 10) + ":" + member
}

// KittyAccount names a table's kitty (RULES.md R9.1).
func KittyAccount(tableID int64) string {
	return "kitty:" + strconv.FormatInt(tableID, 10)
}

// Transfer is one chip movement between two accounts of a guild. Chip
// movements reach the store as data: the game decides them, the store
// applies them all or none.
type Transfer struct {
	From   string // account the chips leave, e.g. WalletAccount("123")
	To     string // account the chips enter, e.g. EscrowAccount(7, "123")
	Amount int64  // positive
	Reason string // recorded in the ledger; empty takes the method's default
}

// String formats t for messages and logs.
func (t Transfer) String() string {
	return fmt.Sprintf("%d %s -> %s", t.Amount, t.From, t.To)
}

// accountKind is the kind of an account name.
type accountKind int

const (
	kindMint accountKind = iota
	kindWallet
	kindEscrow
	kindKitty
)

// account is a parsed account name.
type account struct {
	kind   accountKind
	table  int64  // escrow and kitty
	member string // wallet and escrow
}

// parseAccount parses and checks an account name.
func parseAccount(name string) (account, error) {
	bad := func(reason string) (account, error) {
		return account{}, &AccountError{Account: name, Reason: reason}
	}
	kind, rest, _ := strings.Cut(name, ":")
	switch kind {
	case "mint":
		if name != MintAccount {
			return bad("the mint takes no qualifier")
		}
		return account{kind: kindMint}, nil
	case "wallet":
		if rest == "" {
			return bad("no member")
		}
		return account{kind: kindWallet, member: rest}, nil
	case "escrow":
		id, member, _ := strings.Cut(rest, ":")
		t, err := parseTableID(id)
		if err != nil {
			return bad(err.Error())
		}
		if member == "" {
			return bad("no member")
		}
		return account{kind: kindEscrow, table: t, member: member}, nil
	case "kitty":
		t, err := parseTableID(rest)
		if err != nil {
			return bad(err.Error())
		}
		return account{kind: kindKitty, table: t}, nil
	}
	return bad("unknown kind; want wallet:, escrow:, kitty: or mint")
}

// parseTableID parses a table id as written in account names: canonical
// decimal, positive, so one table has one spelling.
func parseTableID(s string) (int64, error) {
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 || strconv.FormatInt(id, 10) != s {
		return 0, fmt.Errorf("bad table id %q", s)
	}
	return id, nil
}

// ledgerRef ties a ledger row to what caused it. Zero ids are stored as NULL.
type ledgerRef struct {
	table int64
	round int64
	seq   int // with round: the action's sequence number, 0 for the round's start
	leg   int // index of the transfer in its list
	now   time.Time
}

// checkTableTransfers checks, before anything moves, that a game's transfers
// touch only wallets and the accounts of its own table: never the mint
// (chips are created only by grants, RULES.md R7.3), never another table's
// escrow or kitty. withEscrow is false between rounds, when nothing is in play.
func checkTableTransfers(ts []Transfer, tableID int64, withEscrow bool) error {
	for i, t := range ts {
		for _, name := range []string{t.From, t.To} {
			a, err := parseAccount(name)
			if err != nil {
				return fmt.Errorf("transfer %d (%v): %w", i, t, err)
			}
			var reason string
			switch {
			case a.kind == kindMint:
				reason = "a table cannot move chips to or from the mint"
			case a.kind == kindEscrow && !withEscrow:
				reason = "no escrow between rounds"
			case (a.kind == kindEscrow || a.kind == kindKitty) && a.table != tableID:
				reason = fmt.Sprintf("belongs to another table than %d", tableID)
			}
			if reason != "" {
				return fmt.Errorf("transfer %d (%v): %w", i, t, &AccountError{Account: name, Reason: reason})
			}
		}
	}
	return nil
}

// moveAll applies ts in order, leg by leg, with ref.leg set to each index.
func moveAll(ctx context.Context, tx *sql.Tx, guild string, ts []Transfer, defaultReason string, ref ledgerRef) error {
	for i, t := range ts {
		if t.Reason == "" {
			t.Reason = defaultReason
		}
		ref.leg = i
		if err := move(ctx, tx, guild, t, ref); err != nil {
			if len(ts) > 1 {
				return fmt.Errorf("transfer %d (%v): %w", i, t, err)
			}
			return err
		}
	}
	return nil
}

// move applies one transfer inside tx: it takes the amount from t.From, adds
// it to t.To and writes the ledger row. Destination escrow and kitty accounts
// are created on first use, an escrow only for a member with a wallet; a
// wallet must exist (EnsureWallet); the mint is created on first use and is
// the only account that may go negative.
//
// The common case is three statements: a debit and a credit, each an UPDATE
// whose WHERE clause holds the limits (so SQLite never computes a value out
// of range), and the ledger row. Only when an UPDATE matches no row does move
// read the balances to find out why, or create the account.
func move(ctx context.Context, tx *sql.Tx, guild string, t Transfer, ref ledgerRef) error {
	if t.Amount <= 0 {
		return fmt.Errorf("%w: %d (%s -> %s)", ErrBadAmount, t.Amount, t.From, t.To)
	}
	if t.From == t.To {
		return fmt.Errorf("%w: %s", ErrSelfTransfer, t.From)
	}
	from, err := parseAccount(t.From)
	if err != nil {
		return err
	}
	to, err := parseAccount(t.To)
	if err != nil {
		return err
	}
	if err := debit(ctx, tx, guild, t.From, from, t.Amount); err != nil {
		return err
	}
	if err := credit(ctx, tx, guild, t.To, to, t.Amount); err != nil {
		return err
	}

	var table, round, seq sql.NullInt64
	if ref.table != 0 {
		table = sql.NullInt64{Int64: ref.table, Valid: true}
	}
	if ref.round != 0 {
		round = sql.NullInt64{Int64: ref.round, Valid: true}
		seq = sql.NullInt64{Int64: int64(ref.seq), Valid: true}
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO ledger
		(guild_id, from_account, to_account, amount, reason, table_id, round_id, action_seq, leg, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		guild, t.From, t.To, t.Amount, t.Reason, table, round, seq, ref.leg, formatTime(ref.now))
	if err != nil {
		if isUnique(err) {
			return fmt.Errorf("%w: ledger leg %d of round %d action %d exists", ErrDuplicateAction, ref.leg, ref.round, ref.seq)
		}
		return fmt.Errorf("store: ledger: %w", err)
	}
	return nil
}

// debit takes amount from an account: down to 0, or for the mint down to the
// smallest int64.
func debit(ctx context.Context, tx *sql.Tx, guild, name string, a account, amount int64) error {
	floor := amount // balance - amount >= 0
	if a.kind == kindMint {
		floor = math.MinInt64 + amount // balance - amount >= MinInt64
	}
	ok, err := update(ctx, tx, `UPDATE accounts SET balance = balance - ?3
		WHERE guild_id = ?1 AND account = ?2 AND balance >= ?4`, guild, name, amount, floor)
	if ok || err != nil {
		return err
	}
	have, exists, err := balance(ctx, tx, guild, name)
	switch {
	case err != nil:
		return err
	case a.kind != kindMint:
		return &InsufficientChipsError{Account: name, Need: amount, Have: have}
	case exists:
		return &OverflowError{Account: name, Balance: have, Amount: -amount, Max: math.MinInt64}
	}
	return insertAccount(ctx, tx, guild, name, -amount)
}

// credit adds amount to an account: up to MaxChips, or for the mint up to
// the largest int64.
func credit(ctx context.Context, tx *sql.Tx, guild, name string, a account, amount int64) error {
	limit := MaxChips
	if a.kind == kindMint {
		limit = math.MaxInt64
	}
	ok, err := update(ctx, tx, `UPDATE accounts SET balance = balance + ?3
		WHERE guild_id = ?1 AND account = ?2 AND balance <= ?4`, guild, name, amount, limit-amount)
	if ok || err != nil {
		return err
	}
	have, exists, err := balance(ctx, tx, guild, name)
	if err != nil {
		return err
	}
	if exists {
		return &OverflowError{Account: name, Balance: have, Amount: amount, Max: limit}
	}
	// A new account. An escrow belongs to a member with a wallet, so that
	// whatever it holds has somewhere to go back to (CloseTable).
	switch a.kind {
	case kindWallet:
		return &NotFoundError{What: "wallet", Key: a.member}
	case kindEscrow:
		var w bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM wallets WHERE guild_id = ? AND member_id = ?)`,
			guild, a.member).Scan(&w); err != nil {
			return fmt.Errorf("store: read wallet: %w", err)
		}
		if !w {
			return &NotFoundError{What: "wallet", Key: a.member}
		}
	}
	if amount > limit {
		return &OverflowError{Account: name, Balance: 0, Amount: amount, Max: limit}
	}
	return insertAccount(ctx, tx, guild, name, amount)
}

// update runs a guarded UPDATE of one account and reports whether it matched.
func update(ctx context.Context, tx *sql.Tx, query string, args ...any) (bool, error) {
	res, err := tx.ExecContext(ctx, query, args...)
	if err != nil {
		return false, fmt.Errorf("store: update %v: %w", args[1], err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("store: update %v: %w", args[1], err)
	}
	return n == 1, nil
}

func insertAccount(ctx context.Context, tx *sql.Tx, guild, name string, bal int64) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO accounts (guild_id, account, balance) VALUES (?, ?, ?)`,
		guild, name, bal); err != nil {
		return fmt.Errorf("store: create account %s: %w", name, err)
	}
	return nil
}

// balance returns an account's balance and whether it exists (0 if not).
func balance(ctx context.Context, tx *sql.Tx, guild, name string) (int64, bool, error) {
	var b int64
	err := tx.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE guild_id = ? AND account = ?`, guild, name).Scan(&b)
	if err == sql.ErrNoRows {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("store: balance of %s: %w", name, err)
	}
	return b, true, nil
}

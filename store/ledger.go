package store

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
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
	if !utf8.ValidString(name) {
		// PostgreSQL could not store it, and an action's legs are JSON (encodeLegs).
		return bad("not UTF-8")
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
	now   time.Time
	// inAction: the legs are in the action's row already (applyAction, encodeLegs), so
	// flush writes the balances only.
	inAction bool
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

// moveAll applies ts in order, leg by leg, each ledger row carrying its index:
// either all of them or, with an error naming the leg, none.
//
// It costs a fixed handful of statements however many legs there are: one
// SELECT reads (and on PostgreSQL locks, in name order, so two transactions
// never wait for each other in a cycle) every account the legs touch; the
// legs are then checked one after the other in Go, exactly as if each were
// applied alone; then each account whose balance changed is written once,
// with its final balance, and the ledger rows go in one INSERT. The
// database's CHECK constraints still hold every balance to its limits.
func moveAll(ctx context.Context, tx *txn, guild string, ts []Transfer, defaultReason string, ref ledgerRef) error {
	if len(ts) == 0 {
		return nil
	}
	b, err := readBooks(ctx, tx, guild, ts, ref.inAction && tx.hot != nil)
	if err != nil {
		return err
	}
	return b.apply(ctx, tx, ts, defaultReason, ref)
}

// apply moves the transfers ts in the books, read already, and writes them.
func (b *books) apply(ctx context.Context, tx *txn, ts []Transfer, defaultReason string, ref ledgerRef) error {
	for i, t := range ts {
		if t.Reason == "" {
			t.Reason = defaultReason
		}
		if err := b.move(ctx, tx, t); err != nil {
			if len(ts) > 1 {
				return fmt.Errorf("transfer %d (%v): %w", i, t, err)
			}
			return err
		}
	}
	return b.flush(ctx, tx, ref)
}

// move applies one transfer inside tx: it takes the amount from t.From, adds
// it to t.To and writes the ledger row. Destination escrow and kitty accounts
// are created on first use, an escrow only for a member with a wallet; a
// wallet must exist (EnsureWallet); the mint is created on first use and is
// the only account that may go negative.
func move(ctx context.Context, tx *txn, guild string, t Transfer, ref ledgerRef) error {
	return moveAll(ctx, tx, guild, []Transfer{t}, "", ref)
}

// books is the state of the accounts a list of transfers touches, read once
// and changed in memory leg by leg until flush writes it. The accounts are a
// slice sorted by name rather than maps: a list of transfers names a handful,
// and an action should not pay for building maps of them.
type books struct {
	guild   string
	accts   []bookAccount   // every well-formed account named, by name
	order   []string        // accounts in the order first changed, for flush
	legs    []Transfer      // applied so far
	wallets map[string]bool // members known to have a wallet row
}

// bookAccount is one account of the books.
type bookAccount struct {
	name    string
	bal     int64 // the balance now, if exists
	old     int64 // the balance as read, if existed
	exists  bool  // the account exists, or will once flushed
	existed bool  // the account was read from the database
}

// account returns the account name in the books, adding it (as not
// existing) if the transfers did not name it.
func (b *books) account(name string) *bookAccount {
	i, found := slices.BinarySearchFunc(b.accts, name, func(a bookAccount, n string) int { return strings.Compare(a.name, n) })
	if !found {
		b.accts = slices.Insert(b.accts, i, bookAccount{name: name})
	}
	return &b.accts[i]
}

// readBooks reads the balances of every well-formed account named in ts: with
// cached (an action on SQLite, whose transaction has checked the hot state), from
// memory when every one of them is known there (hot.go), else from the database.
func readBooks(ctx context.Context, tx *txn, guild string, ts []Transfer, cached bool) (*books, error) {
	b := newBooks(guild, ts)
	if len(b.accts) == 0 {
		return b, nil
	}
	if cached && b.fromHot(tx) {
		return b, nil
	}
	q, args := b.query(tx.d)
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: read balances: %w", err)
	}
	defer rows.Close()
	return b, b.scan(rows)
}

// newBooks returns the books of the well-formed accounts named in ts, sorted by
// name, none read yet.
func newBooks(guild string, ts []Transfer) *books {
	b := &books{guild: guild, accts: make([]bookAccount, 0, 2*len(ts))}
	for _, t := range ts {
		for _, n := range [2]string{t.From, t.To} {
			if _, err := parseAccount(n); err == nil &&
				!slices.ContainsFunc(b.accts, func(a bookAccount) bool { return a.name == n }) {
				b.accts = append(b.accts, bookAccount{name: n})
			}
		}
	}
	slices.SortFunc(b.accts, func(x, y bookAccount) int { return strings.Compare(x.name, y.name) })
	return b
}

// query returns the SELECT of the books' accounts, in the store's spelling, and
// its arguments. On PostgreSQL it locks them, in name order.
func (b *books) query(d *dialect) (string, []any) {
	args := make([]any, 0, 1+len(b.accts))
	args = append(args, b.guild)
	for _, a := range b.accts {
		args = append(args, a.name)
	}
	return d.accountsQuery(len(b.accts)), args
}

// scan reads the (account, balance) rows of query into the books.
func (b *books) scan(rows interface {
	Next() bool
	Scan(...any) error
	Err() error
}) error {
	for rows.Next() {
		var n string
		var v int64
		if err := rows.Scan(&n, &v); err != nil {
			return fmt.Errorf("store: read balances: %w", err)
		}
		a := b.account(n)
		a.bal, a.old, a.exists, a.existed = v, v, true, true
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: read balances: %w", err)
	}
	return nil
}

// fromHot fills the books from the hot state if it knows every account named, and
// reports whether it did; it changes nothing when it does not.
func (b *books) fromHot(tx *txn) bool {
	for i := range b.accts {
		if _, ok := tx.hotBalance(hotAccount{b.guild, b.accts[i].name}); !ok {
			return false
		}
	}
	for i := range b.accts {
		a := &b.accts[i]
		v, _ := tx.hotBalance(hotAccount{b.guild, a.name})
		a.bal, a.old, a.exists, a.existed = v, v, true, true
	}
	return true
}

// move checks and applies one transfer to the books in memory.
func (b *books) move(ctx context.Context, tx *txn, t Transfer) error {
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
	if err := b.debit(t.From, from, t.Amount); err != nil {
		return err
	}
	if err := b.credit(ctx, tx, t.To, to, t.Amount); err != nil {
		return err
	}
	b.legs = append(b.legs, t)
	return nil
}

// set records an account's new balance.
func (b *books) set(name string, v int64) {
	if !slices.Contains(b.order, name) {
		b.order = append(b.order, name)
	}
	a := b.account(name)
	a.bal, a.exists = v, true
}

// balance returns an account's balance in the books and whether it exists.
func (b *books) balance(name string) (int64, bool) {
	a := b.account(name)
	return a.bal, a.exists
}

// debit takes amount from an account: down to 0, or for the mint down to the
// smallest int64.
func (b *books) debit(name string, a account, amount int64) error {
	have, exists := b.balance(name)
	floor := amount // balance - amount >= 0
	if a.kind == kindMint {
		floor = math.MinInt64 + amount // balance - amount >= MinInt64
	}
	switch {
	case exists && have >= floor:
		b.set(name, have-amount)
		return nil
	case a.kind != kindMint:
		return &InsufficientChipsError{Account: name, Need: amount, Have: have}
	case exists:
		return &OverflowError{Account: name, Balance: have, Amount: -amount, Max: math.MinInt64}
	}
	b.set(name, -amount) // the guild's mint, created on first use
	return nil
}

// credit adds amount to an account: up to MaxChips, or for the mint up to
// the largest int64.
func (b *books) credit(ctx context.Context, tx *txn, name string, a account, amount int64) error {
	limit := MaxChips
	if a.kind == kindMint {
		limit = math.MaxInt64
	}
	have, exists := b.balance(name)
	if exists {
		if have > limit-amount {
			return &OverflowError{Account: name, Balance: have, Amount: amount, Max: limit}
		}
		b.set(name, have+amount)
		return nil
	}
	// A new account. An escrow belongs to a member with a wallet, so that
	// whatever it holds has somewhere to go back to (CloseTable).
	switch a.kind {
	case kindWallet:
		return &NotFoundError{What: "wallet", Key: a.member}
	case kindEscrow:
		if !b.wallets[a.member] {
			var w bool
			if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM wallets WHERE guild_id = ? AND member_id = ?)`,
				b.guild, a.member).Scan(&w); err != nil {
				return fmt.Errorf("store: read wallet: %w", err)
			}
			if !w {
				return &NotFoundError{What: "wallet", Key: a.member}
			}
			if b.wallets == nil {
				b.wallets = map[string]bool{}
			}
			b.wallets[a.member] = true
		}
	}
	if amount > limit {
		return &OverflowError{Account: name, Balance: 0, Amount: amount, Max: limit}
	}
	b.set(name, amount)
	return nil
}

// ledgerChunk is how many ledger rows one INSERT carries (17 + 4 parameters
// a row at most, far below either engine's limit).
const ledgerChunk = 64

// flushSQL caches the texts of flush's statements by row count: a text is
// built once, not on every action, and the same text finds the same
// prepared statement in the driver's cache.
var flushSQL sync.Map // flushKey -> string

type flushKey struct {
	ledger bool // the ledger INSERT; false: the accounts upsert
	start  int  // ledger: the first row's leg
	n      int  // rows
}

// accountsUpsert is the upsert of n accounts' balances: the guild is ?1, and
// row i is (?1, ?(2+2i), ?(3+2i)), so the guild is bound once.
func accountsUpsert(n int) string {
	k := flushKey{n: n}
	if q, ok := flushSQL.Load(k); ok {
		return q.(string)
	}
	var b strings.Builder
	b.WriteString(`INSERT INTO accounts (guild_id, account, balance) VALUES `)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "(?1, ?%d, ?%d)", 2+2*i, 3+2*i)
	}
	b.WriteString(` ON CONFLICT (guild_id, account) DO UPDATE SET balance = excluded.balance`)
	q, _ := flushSQL.LoadOrStore(k, b.String())
	return q.(string)
}

// ledgerInsert is the INSERT of n ledger rows whose legs are start, start+1,
// ...: what the rows share (guild ?1, table ?2, round ?3, action ?4, time
// ?5) is bound once, and each row binds only its from, to, amount and
// reason. Legs are literals: a row's leg is its place in the statement.
func ledgerInsert(start, n int) string {
	k := flushKey{ledger: true, start: start, n: n}
	if q, ok := flushSQL.Load(k); ok {
		return q.(string)
	}
	var b strings.Builder
	b.WriteString(`INSERT INTO ledger
		(guild_id, from_account, to_account, amount, reason, table_id, round_id, action_seq, leg, created_at) VALUES `)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		p := 6 + 4*i
		fmt.Fprintf(&b, "(?1, ?%d, ?%d, ?%d, ?%d, ?2, ?3, ?4, %d, ?5)", p, p+1, p+2, p+3, start+i)
	}
	q, _ := flushSQL.LoadOrStore(k, b.String())
	return q.(string)
}

// flush writes the books: each account whose balance changed, with its
// final balance, then the ledger rows.
func (b *books) flush(ctx context.Context, tx *txn, ref ledgerRef) error {
	// Every account that changed or is new, in one upsert.
	args := make([]any, 1, 1+2*len(b.order))
	args[0] = b.guild
	for _, name := range b.order {
		if a := b.account(name); !a.existed || a.bal != a.old {
			args = append(args, name, a.bal)
		}
	}
	if len(args) > 1 {
		if _, err := tx.ExecContext(ctx, accountsUpsert(len(args)/2), args...); err != nil {
			return fmt.Errorf("store: update balances: %w", err)
		}
	}
	// Every balance the books know, read or written, is what the database holds
	// once tx commits (hot.go).
	for _, a := range b.accts {
		if a.exists {
			tx.note(hotNote{acct: hotAccount{b.guild, a.name}, bal: a.bal})
		}
	}
	if ref.inAction {
		return nil
	}
	var table, round, seq sql.NullInt64
	if ref.table != 0 {
		table = sql.NullInt64{Int64: ref.table, Valid: true}
	}
	if ref.round != 0 {
		round = sql.NullInt64{Int64: ref.round, Valid: true}
		seq = sql.NullInt64{Int64: int64(ref.seq), Valid: true}
	}
	now := formatTime(ref.now)
	for start := 0; start < len(b.legs); start += ledgerChunk {
		legs := b.legs[start:min(start+ledgerChunk, len(b.legs))]
		args := make([]any, 0, 5+4*len(legs))
		args = append(args, b.guild, table, round, seq, now)
		for _, t := range legs {
			args = append(args, t.From, t.To, t.Amount, t.Reason)
		}
		if _, err := tx.ExecContext(ctx, ledgerInsert(start, len(legs)), args...); err != nil {
			if isUnique(err) {
				return fmt.Errorf("%w: ledger of round %d action %d exists", ErrDuplicateAction, ref.round, ref.seq)
			}
			return fmt.Errorf("store: ledger: %w", err)
		}
	}
	return nil
}

// encodeLegs is an action's transfers as its row's legs column stores them (migration
// 00090): a JSON array of [from, to, amount] or [from, to, amount, reason], NULL for
// none. The row is written on every action, and the smaller it is the less often the
// actions' b-tree splits (a split writes three or four more pages), so a leg is short:
// no reason when it is defaultReason (the verb; a leg without one takes it), and the
// accounts of the action's own table and every wallet by their short names (legName).
// The view ledger_entries spells them out again. Written by hand because encoding/json
// would allocate for each value; strings are escaped as JSON requires.
func encodeLegs(ts []Transfer, tableID int64, defaultReason string) sql.NullString {
	if len(ts) == 0 {
		return sql.NullString{}
	}
	b := make([]byte, 0, 40*len(ts))
	b = append(b, '[')
	for i, t := range ts {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = appendJSONString(b, legName(t.From, tableID))
		b = append(b, ',')
		b = appendJSONString(b, legName(t.To, tableID))
		b = append(b, ',')
		b = strconv.AppendInt(b, t.Amount, 10)
		if t.Reason != "" && t.Reason != defaultReason {
			b = append(b, ',')
			b = appendJSONString(b, t.Reason)
		}
		b = append(b, ']')
	}
	b = append(b, ']')
	return sql.NullString{String: string(b), Valid: true}
}

// legName is an account's name in an action's legs (encodeLegs): "w:<member>" for a
// wallet, "e:<member>" for an escrow of table tableID, "k" for its kitty, and any other
// name as it is (another table's account: checkTableTransfers refuses the action). No
// account's full name starts with "w:" or "e:" or is "k", so each reads back one way.
func legName(name string, tableID int64) string {
	a, err := parseAccount(name)
	switch {
	case err != nil:
		return name
	case a.kind == kindWallet:
		return "w:" + a.member
	case a.kind == kindEscrow && a.table == tableID:
		return "e:" + a.member
	case a.kind == kindKitty && a.table == tableID:
		return "k"
	}
	return name
}

// appendJSONString appends s as a JSON string. Bytes that are not valid UTF-8 become
// U+FFFD, as encoding/json writes them: no account's name has any (parseAccount).
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xf])
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}

// balance returns an account's balance and whether it exists (0 if not).
func balance(ctx context.Context, tx *txn, guild, name string) (int64, bool, error) {
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

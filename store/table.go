package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Table status values.
const (
	StatusOpen   = "open"
	StatusClosed = "closed"
)

// Table is one session of a Pontoon table in a channel.
type Table struct {
	ID          int64
	Guild       string
	Channel     string
	Host        string // who opened it
	Rules       string // the game's house rules as JSON; opaque to the store
	BankOwner   string // who holds the bank; "" before anyone does
	Status      string // StatusOpen or StatusClosed
	RoundNumber int    // the number of the last round started; 0 before the first
	NextPack    []string
	CreatedAt   time.Time
	ClosedAt    time.Time // zero while open
	Seats       []Seat    // in seat order
}

// Kitty returns the name of the table's kitty account.
func (t Table) Kitty() string { return KittyAccount(t.ID) }

// Seat is a member seated at a table.
type Seat struct {
	Member   string
	SeatNo   int // 0 is the first seat; the order is clockwise
	JoinedAt time.Time
}

// OpenTableParams are the arguments of OpenTable.
type OpenTableParams struct {
	Guild, Channel, Host string
	Rules                string // JSON; "" means "{}"
	// BankOwner is the bank's owner if the channel has none yet. A channel
	// whose earlier table had a bank owner keeps that one (RULES.md R6.4).
	BankOwner string
	// MaxOpen, when above 0, is how many open tables the server may have: the
	// table is refused with ErrTooManyTables when it has that many already,
	// counted in the transaction that opens it, so two concurrent opens cannot
	// both pass the last place.
	MaxOpen int
	Now     time.Time
}

// OpenTable opens a table in a channel, or returns ErrTableOpen if the
// channel has one. The bank and the kitty belong to the channel (RULES.md
// R6.4): the new table takes the bank owner of the channel's last table, and
// that table's kitty moves to the new one's (ledger reason "kitty carried
// over"). The pack is not carried: a new session starts from a shuffle.
func (s *Store) OpenTable(ctx context.Context, p OpenTableParams) (Table, error) {
	if err := checkIDs("guild", p.Guild, "channel", p.Channel, "host", p.Host); err != nil {
		return Table{}, err
	}
	if err := checkNow(p.Now); err != nil {
		return Table{}, err
	}
	rules, err := jsonText("rules", p.Rules, "{}")
	if err != nil {
		return Table{}, err
	}
	var out Table
	err = s.write(ctx, "OpenTable", func(tx *txn) error {
		var prevID int64
		var prevOwner sql.NullString
		var prevStatus string
		err := tx.QueryRowContext(ctx, `SELECT id, bank_owner, status FROM tables
			WHERE guild_id = ? AND channel_id = ? ORDER BY id DESC LIMIT 1`,
			p.Guild, p.Channel).Scan(&prevID, &prevOwner, &prevStatus)
		switch {
		case err == sql.ErrNoRows:
			prevID = 0
		case err != nil:
			return fmt.Errorf("store: open table: %w", err)
		case prevStatus == StatusOpen:
			return fmt.Errorf("%w: table %d", ErrTableOpen, prevID)
		}
		if p.MaxOpen > 0 {
			var open int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM tables WHERE guild_id = ? AND status = 'open'`,
				p.Guild).Scan(&open); err != nil {
				return fmt.Errorf("store: open table: %w", err)
			}
			if open >= p.MaxOpen {
				return fmt.Errorf("%w (%d)", ErrTooManyTables, p.MaxOpen)
			}
		}
		owner := nullString(p.BankOwner)
		if prevOwner.Valid {
			owner = prevOwner
		}
		var id int64
		err = tx.QueryRowContext(ctx, `INSERT INTO tables (guild_id, channel_id, host_id, rules, bank_owner, status, created_at)
			VALUES (?, ?, ?, ?, ?, 'open', ?) RETURNING id`, p.Guild, p.Channel, p.Host, rules, owner, formatTime(p.Now)).Scan(&id)
		if err != nil {
			if isUnique(err) {
				return ErrTableOpen
			}
			return fmt.Errorf("store: open table: %w", err)
		}
		if prevID != 0 {
			kitty, _, err := balance(ctx, tx, p.Guild, KittyAccount(prevID))
			if err != nil {
				return err
			}
			if kitty > 0 {
				t := Transfer{From: KittyAccount(prevID), To: KittyAccount(id), Amount: kitty,
					Reason: "kitty carried over from table " + strconv.FormatInt(prevID, 10)}
				if err := move(ctx, tx, p.Guild, t, ledgerRef{table: id, now: p.Now}); err != nil {
					return err
				}
			}
		}
		out, err = table(ctx, tx, id)
		return err
	})
	if err != nil {
		return Table{}, err
	}
	return out, nil
}

// TableByChannel returns the channel's open table, or a NotFoundError.
func (s *Store) TableByChannel(ctx context.Context, guild, channel string) (Table, error) {
	if err := checkIDs("guild", guild, "channel", channel); err != nil {
		return Table{}, err
	}
	tx, err := s.beginRead(ctx)
	if err != nil {
		return Table{}, err
	}
	defer tx.Rollback()
	var id int64
	err = tx.QueryRowContext(ctx, `SELECT id FROM tables WHERE guild_id = ? AND channel_id = ? AND status = 'open'`,
		guild, channel).Scan(&id)
	if err == sql.ErrNoRows {
		return Table{}, &NotFoundError{What: "open table in channel", Key: channel}
	}
	if err != nil {
		return Table{}, fmt.Errorf("store: table by channel: %w", err)
	}
	return table(ctx, tx, id)
}

// TableByID returns a table, open or closed, or a NotFoundError.
func (s *Store) TableByID(ctx context.Context, id int64) (Table, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return Table{}, err
	}
	defer tx.Rollback()
	return table(ctx, tx, id)
}

// OpenTables returns every open table of every guild, oldest first: what the
// bot brings back to life at start-up.
func (s *Store) OpenTables(ctx context.Context) ([]Table, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return tablesWhere(ctx, tx, `status = 'open'`)
}

// CloseTable closes a table. It refuses with ErrRoundInProgress while a
// round is unfinished: finish it first (an ApplyAction with Finish, which can
// close the table in the same transaction). Chips still in the table's escrows
// go back to their owners' wallets; the kitty stays, and moves to the channel's
// next table (see OpenTable). The seeds of the packs dealt are revealed with it:
// the pack is put away with the table.
func (s *Store) CloseTable(ctx context.Context, tableID int64, now time.Time) error {
	if err := checkNow(now); err != nil {
		return err
	}
	return s.write(ctx, "CloseTable", func(tx *txn) error { return closeTable(ctx, tx, tableID, now) })
}

// closeTable is CloseTable inside tx.
func closeTable(ctx context.Context, tx *txn, tableID int64, now time.Time) error {
	t, err := openTable(ctx, tx, tableID)
	if err != nil {
		return err
	}
	if err := noUnfinishedRound(ctx, tx, tableID); err != nil {
		return err
	}
	escrows, err := escrowBalances(ctx, tx, t.Guild, tableID)
	if err != nil {
		return err
	}
	trs := make([]Transfer, len(escrows))
	for i, e := range escrows {
		trs[i] = Transfer{From: EscrowAccount(tableID, e.member), To: WalletAccount(e.member), Amount: e.balance,
			Reason: "escrow returned at close"}
	}
	if err := moveAll(ctx, tx, t.Guild, trs, "", ledgerRef{table: tableID, now: now}); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE tables SET status = 'closed', closed_at = ? WHERE id = ?`,
		formatTime(now), tableID); err != nil {
		return fmt.Errorf("store: close table: %w", err)
	}
	if err := clearDeadlines(ctx, tx, tableID); err != nil {
		return err
	}
	return revealSeeds(ctx, tx, tableID, now)
}

// SetSeats replaces the seats of an open table with members, in clockwise
// order. A member already seated keeps their joined time.
func (s *Store) SetSeats(ctx context.Context, tableID int64, members []string, now time.Time) error {
	return s.SetSeatsAndPack(ctx, tableID, members, now, nil)
}

// SetSeatsAndPack is SetSeats with the table's next pending pack recorded in the same
// transaction (as SetPendingPack), when pending is not nil: a Join or Leave that
// changes how many packs the seats need draws the next pack with it.
func (s *Store) SetSeatsAndPack(ctx context.Context, tableID int64, members []string, now time.Time, pending *PendingPack) error {
	if err := checkNow(now); err != nil {
		return err
	}
	var pack string
	if pending != nil {
		var err error
		if pack, err = pendingJSON(*pending); err != nil {
			return err
		}
	}
	seen := make(map[string]bool, len(members))
	for _, m := range members {
		if m == "" {
			return invalid("empty member in seats")
		}
		if seen[m] {
			return invalid("member %s seated twice", m)
		}
		seen[m] = true
	}
	return s.write(ctx, "SetSeats", func(tx *txn) error {
		t, err := openTable(ctx, tx, tableID)
		if err != nil {
			return err
		}
		joined := make(map[string]time.Time, len(t.Seats))
		for _, st := range t.Seats {
			joined[st.Member] = st.JoinedAt
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM seats WHERE table_id = ?`, tableID); err != nil {
			return fmt.Errorf("store: set seats: %w", err)
		}
		for i, m := range members {
			at, ok := joined[m]
			if !ok {
				at = now
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO seats (table_id, member_id, seat_no, joined_at) VALUES (?, ?, ?, ?)`,
				tableID, m, i, formatTime(at)); err != nil {
				return fmt.Errorf("store: set seats: %w", err)
			}
		}
		if err := tableChanged(ctx, tx, tableID, now); err != nil {
			return err
		}
		if pending != nil {
			return setPendingPack(ctx, tx, tableID, *pending, pack)
		}
		return nil
	})
}

// tableChanged records that what a table shows between rounds changed at now (its
// seats, its bank), in the transaction that changes it: RecentlyChangedTables finds
// it after a restart.
func tableChanged(ctx context.Context, tx *txn, tableID int64, now time.Time) error {
	if _, err := tx.ExecContext(ctx, `UPDATE tables SET changed_at = ? WHERE id = ?`, formatTime(now), tableID); err != nil {
		return fmt.Errorf("store: table changed: %w", err)
	}
	return nil
}

// SetRules replaces an open table's house rules (JSON, opaque to the store).
// A round in progress keeps the rules recorded in its history.
func (s *Store) SetRules(ctx context.Context, tableID int64, rules string) error {
	rules, err := jsonText("rules", rules, "{}")
	if err != nil {
		return err
	}
	return s.write(ctx, "SetRules", func(tx *txn) error {
		if _, err := openTable(ctx, tx, tableID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE tables SET rules = ? WHERE id = ?`, rules, tableID); err != nil {
			return fmt.Errorf("store: set rules: %w", err)
		}
		return nil
	})
}

// TableState is where a table's chips and bank stand.
type TableState struct {
	TableID      int64
	Guild        string
	Status       string
	BankOwner    string           // "" if nobody holds the bank
	Kitty        int64            // the balance of KittyAccount(TableID)
	Escrows      map[string]int64 // member -> chips in play; only members holding some
	NextPack     []string         // the pack carried to the next round; nil to shuffle
	RoundNumber  int              // the last round started
	CurrentRound int64            // the id of the unfinished round; 0 between rounds
}

// TableState returns a table's bank owner, kitty, escrows, next pack and
// round, as of one moment.
func (s *Store) TableState(ctx context.Context, tableID int64) (TableState, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return TableState{}, err
	}
	defer tx.Rollback()

	t, err := table(ctx, tx, tableID)
	if err != nil {
		return TableState{}, err
	}
	st := TableState{TableID: t.ID, Guild: t.Guild, Status: t.Status, BankOwner: t.BankOwner,
		NextPack: t.NextPack, RoundNumber: t.RoundNumber, Escrows: map[string]int64{}}
	if st.Kitty, _, err = balance(ctx, tx, t.Guild, KittyAccount(t.ID)); err != nil {
		return TableState{}, err
	}
	escrows, err := escrowBalances(ctx, tx, t.Guild, t.ID)
	if err != nil {
		return TableState{}, err
	}
	for _, e := range escrows {
		st.Escrows[e.member] = e.balance
	}
	err = tx.QueryRowContext(ctx, `SELECT id FROM rounds WHERE table_id = ? AND finished_at IS NULL`, t.ID).Scan(&st.CurrentRound)
	if err != nil && err != sql.ErrNoRows {
		return TableState{}, fmt.Errorf("store: table state: %w", err)
	}
	return st, nil
}

// BankParams are the arguments of UpdateBank.
type BankParams struct {
	TableID int64
	// Transfers between wallets and the table's kitty: a kitty top-up
	// (wallet of the banker -> kitty), a sale (buyer's wallet -> seller's
	// wallet, kitty -> old banker, RULES.md R6.3, R9.9).
	Transfers []Transfer
	BankOwner *string // the new owner; nil leaves it, "" clears it
	Reason    string  // the ledger reason of transfers that give none; "" means "bank"
	Now       time.Time
	// Offer, when set, is the open offer (bank.go) this change accepts: it is ended as
	// accepted in the same transaction, and the change refused with ErrOfferEnded if it
	// is not open, so that an offer sells the bank once.
	Offer string
	// Auction, when set, closes the table's auction (bank.go) in the same transaction,
	// refusing with ErrNoAuction when none runs, so that an auction sells once.
	Auction bool
}

// UpdateBank applies a between-rounds change of the bank in one transaction:
// its transfers, then the new owner. It refuses with ErrRoundInProgress during
// a round, and refuses transfers touching escrows, the mint or another table.
func (s *Store) UpdateBank(ctx context.Context, p BankParams) error {
	if err := checkNow(p.Now); err != nil {
		return err
	}
	if err := checkTableTransfers(p.Transfers, p.TableID, false); err != nil {
		return err
	}
	reason := p.Reason
	if reason == "" {
		reason = "bank"
	}
	return s.write(ctx, "UpdateBank", func(tx *txn) error {
		t, err := openTable(ctx, tx, p.TableID)
		if err != nil {
			return err
		}
		if err := noUnfinishedRound(ctx, tx, p.TableID); err != nil {
			return err
		}
		if err := moveAll(ctx, tx, t.Guild, p.Transfers, reason, ledgerRef{table: p.TableID, now: p.Now}); err != nil {
			return err
		}
		if err := tableChanged(ctx, tx, p.TableID, p.Now); err != nil {
			return err
		}
		if p.BankOwner != nil {
			if _, err := tx.ExecContext(ctx, `UPDATE tables SET bank_owner = ? WHERE id = ?`,
				nullString(*p.BankOwner), p.TableID); err != nil {
				return fmt.Errorf("store: update bank: %w", err)
			}
		}
		if p.Offer != "" {
			of, err := endOffer(ctx, tx, p.Offer, OfferAccepted)
			if err != nil {
				return err
			}
			if of.TableID != p.TableID {
				return invalid("update bank: offer %s is of table %d", p.Offer, of.TableID)
			}
		}
		if p.Auction {
			if _, err := endAuction(ctx, tx, p.TableID); err != nil {
				return err
			}
		}
		return nil
	})
}

const tableColumns = `id, guild_id, channel_id, host_id, rules, bank_owner, status, round_number, next_pack, created_at, closed_at`

// table reads one table with its seats.
func table(ctx context.Context, tx *txn, id int64) (Table, error) {
	ts, err := tablesWhere(ctx, tx, `id = ?`, id)
	if err != nil {
		return Table{}, err
	}
	if len(ts) == 0 {
		return Table{}, &NotFoundError{What: "table", Key: strconv.FormatInt(id, 10)}
	}
	return ts[0], nil
}

// openTable reads a table and refuses a closed one with ErrTableClosed.
func openTable(ctx context.Context, tx *txn, id int64) (Table, error) {
	t, err := table(ctx, tx, id)
	if err != nil {
		return Table{}, err
	}
	if t.Status != StatusOpen {
		return Table{}, fmt.Errorf("%w: table %d", ErrTableClosed, id)
	}
	return t, nil
}

// tablesWhere reads the tables matching a condition, oldest first, with
// their seats.
func tablesWhere(ctx context.Context, tx *txn, cond string, args ...any) ([]Table, error) {
	rows, err := tx.QueryContext(ctx, `SELECT `+tableColumns+` FROM tables WHERE `+cond+` ORDER BY id`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: tables: %w", err)
	}
	var ts []Table
	for rows.Next() {
		t, err := scanTable(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		ts = append(ts, t)
	}
	if err := rows.Close(); err != nil {
		return nil, fmt.Errorf("store: tables: %w", err)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: tables: %w", err)
	}
	for i := range ts {
		if ts[i].Seats, err = seats(ctx, tx, ts[i].ID); err != nil {
			return nil, err
		}
	}
	return ts, nil
}

func scanTable(rows *sql.Rows) (Table, error) {
	var t Table
	var owner, pack, closed sql.NullString
	var created string
	if err := rows.Scan(&t.ID, &t.Guild, &t.Channel, &t.Host, &t.Rules, &owner, &t.Status, &t.RoundNumber,
		&pack, &created, &closed); err != nil {
		return Table{}, fmt.Errorf("store: tables: %w", err)
	}
	t.BankOwner = owner.String
	var err error
	if t.NextPack, err = decodePack(pack); err != nil {
		return Table{}, err
	}
	if t.CreatedAt, err = parseTime(created); err != nil {
		return Table{}, err
	}
	if t.ClosedAt, err = parseNullTime(closed); err != nil {
		return Table{}, err
	}
	return t, nil
}

func seats(ctx context.Context, tx *txn, tableID int64) ([]Seat, error) {
	rows, err := tx.QueryContext(ctx, `SELECT member_id, seat_no, joined_at FROM seats WHERE table_id = ? ORDER BY seat_no`, tableID)
	if err != nil {
		return nil, fmt.Errorf("store: seats: %w", err)
	}
	defer rows.Close()
	var ss []Seat
	for rows.Next() {
		var st Seat
		var joined string
		if err := rows.Scan(&st.Member, &st.SeatNo, &joined); err != nil {
			return nil, fmt.Errorf("store: seats: %w", err)
		}
		if st.JoinedAt, err = parseTime(joined); err != nil {
			return nil, err
		}
		ss = append(ss, st)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: seats: %w", err)
	}
	return ss, nil
}

// noUnfinishedRound returns ErrRoundInProgress if the table has a round
// that has not finished.
func noUnfinishedRound(ctx context.Context, tx *txn, tableID int64) error {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT number FROM rounds WHERE table_id = ? AND finished_at IS NULL`, tableID).Scan(&n)
	if err == sql.ErrNoRows {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: rounds: %w", err)
	}
	return fmt.Errorf("%w: round %d of table %d", ErrRoundInProgress, n, tableID)
}

type escrowBalance struct {
	member  string
	balance int64
}

// escrowBalances returns the table's escrow accounts holding chips, by member.
func escrowBalances(ctx context.Context, tx *txn, guild string, tableID int64) ([]escrowBalance, error) {
	// "escrow:7:" <= name < "escrow:7;" selects exactly table 7's escrows
	// (';' follows ':'), using the primary key instead of a LIKE scan.
	prefix := EscrowAccount(tableID, "")
	upper := strings.TrimSuffix(prefix, ":") + ";"
	rows, err := tx.QueryContext(ctx, `SELECT account, balance FROM accounts
		WHERE guild_id = ? AND account >= ? AND account < ? AND balance <> 0 ORDER BY account`, guild, prefix, upper)
	if err != nil {
		return nil, fmt.Errorf("store: escrows: %w", err)
	}
	defer rows.Close()
	var es []escrowBalance
	for rows.Next() {
		var name string
		var e escrowBalance
		if err := rows.Scan(&name, &e.balance); err != nil {
			return nil, fmt.Errorf("store: escrows: %w", err)
		}
		e.member = strings.TrimPrefix(name, prefix)
		es = append(es, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: escrows: %w", err)
	}
	return es, nil
}

// jsonText checks that s is JSON, taking def for "".
func jsonText(what, s, def string) (string, error) {
	if s == "" {
		return def, nil
	}
	if !json.Valid([]byte(s)) {
		return "", invalid("%s is not valid JSON", what)
	}
	return s, nil
}

// encodePack stores a pack as a JSON array; an empty pack is NULL.
func encodePack(pack []string) (sql.NullString, error) {
	if len(pack) == 0 {
		return sql.NullString{}, nil
	}
	b, err := json.Marshal(pack)
	if err != nil {
		return sql.NullString{}, fmt.Errorf("store: encode pack: %w", err)
	}
	return sql.NullString{String: string(b), Valid: true}, nil
}

func decodePack(s sql.NullString) ([]string, error) {
	if !s.Valid {
		return nil, nil
	}
	var pack []string
	if err := json.Unmarshal([]byte(s.String), &pack); err != nil {
		return nil, fmt.Errorf("store: bad next pack in database: %w", err)
	}
	return pack, nil
}

package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// copyTables is every table of the schema, parents before children, with the
// columns Copy moves (a generated column is left to the destination). A
// migration that adds a table adds it here; TestCopyCoversSchema fails until
// it does.
var copyTables = []struct {
	name    string
	columns []string
	id      string // an identity column the destination must continue after copying, or ""
}{
	{"accounts", []string{"guild_id", "account", "balance"}, ""},
	{"wallets", []string{"guild_id", "member_id", "first_seen", "daily_claimed_at"}, ""},
	{"tables", []string{"id", "guild_id", "channel_id", "host_id", "rules", "bank_owner", "status", "round_number",
		"next_pack", "created_at", "closed_at", "changed_at"}, "id"},
	{"seats", []string{"table_id", "member_id", "seat_no", "joined_at"}, ""},
	{"rounds", []string{"id", "table_id", "number", "history", "commitment", "salt", "started_at", "finished_at", "result"}, "id"},
	{"actions", []string{"round_id", "seq", "member_id", "verb", "args", "interaction_id", "created_at", "legs"}, ""},
	{"ledger", []string{"id", "guild_id", "from_account", "to_account", "amount", "reason", "table_id", "round_id",
		"action_seq", "leg", "created_at"}, "id"},
	{"interactions", []string{"id", "seen_at"}, ""},
	{"settings", []string{"guild_id", "json", "updated_at"}, ""},
	{"table_messages", []string{"table_id", "message_id", "drawn"}, ""},
	{"pending_packs", []string{"table_id", "for_round", "pack", "salt", "commitment"}, ""},
	{"table_stops", []string{"table_id"}, ""},
	{"shuffle_seeds", []string{"table_id", "commitment", "server_seed", "round_id", "created_at", "revealed_at"}, ""},
	{"member_seeds", []string{"table_id", "commitment", "seq", "member_id", "seed", "created_at"}, ""},
	{"odds", []string{"rules", "seats", "report", "created_at"}, ""},
	{"member_languages", []string{"guild_id", "member_id", "language", "updated_at"}, ""},
	{"round_results", []string{"round_id", "guild_id", "member_id", "banker", "hands", "pontoons", "tricks", "busts", "net"}, ""},
	{"table_leases", []string{"table_id", "holder", "until"}, ""},
	{"identify_slots", []string{"bucket", "next_at"}, ""},
	{"deadlines", []string{"table_id", "kind", "ref", "due", "claimed_by", "claimed_until"}, ""},
	{"bank_offers", []string{"id", "table_id", "guild_id", "channel_id", "seller_id", "buyer_id", "price", "message_id", "expires", "status"}, ""},
	{"bank_auctions", []string{"table_id", "guild_id", "channel_id", "seller_id", "message_id", "ends"}, ""},
	{"auction_bids", []string{"table_id", "member_id", "amount"}, ""},
}

// CopyReport is what Copy moved and how both ends audit.
type CopyReport struct {
	Rows   map[string]int64 // table -> rows copied
	Source AuditReport
	Dest   AuditReport
}

// OK reports whether both ends balance and hold the same chips.
func (r CopyReport) OK() bool {
	return r.Source.OK() && r.Dest.OK() && slices.Equal(r.Source.Guilds, r.Dest.Guilds)
}

// String describes the copy for a person: rows per table, then both audits.
func (r CopyReport) String() string {
	var b strings.Builder
	for _, t := range copyTables {
		fmt.Fprintf(&b, "copied %d %s\n", r.Rows[t.name], t.name)
	}
	b.WriteString("source: " + r.Source.String())
	b.WriteString("destination: " + r.Dest.String())
	if r.OK() {
		b.WriteString("copy OK: both ends balance and hold the same chips\n")
	} else {
		b.WriteString("copy FAILED: the two ends differ or do not balance\n")
	}
	return b.String()
}

// copyBatch is how many rows one INSERT of Copy carries.
const copyBatch = 200

// Copy moves the whole of src — wallets and their accounts, the ledger,
// tables with their seats, rounds with their actions, settings, table
// messages, pending packs and recent interactions — into dst, which must be
// empty (freshly migrated), keeping every id. It reads src in one snapshot
// and writes dst in one transaction: either dst receives everything or it is
// left empty. It then audits both ends; the copy is good when CopyReport.OK.
// Both stores must be at the same schema version. Stop the bot first: what it
// commits to src after the snapshot is not copied.
func Copy(ctx context.Context, dst, src *Store) (CopyReport, error) {
	sv, err := src.Version(ctx)
	if err != nil {
		return CopyReport{}, err
	}
	dv, err := dst.Version(ctx)
	if err != nil {
		return CopyReport{}, err
	}
	if sv != dv {
		return CopyReport{}, invalid("copy: the source is at schema version %d, the destination at %d", sv, dv)
	}
	rep := CopyReport{}
	rtx, err := src.beginRead(ctx)
	if err != nil {
		return CopyReport{}, err
	}
	defer rtx.Rollback()
	tx, err := dst.beginWrite(ctx)
	if err != nil {
		return CopyReport{}, err
	}
	defer tx.Rollback()
	for _, t := range copyTables {
		var has bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM `+t.name+`)`).Scan(&has); err != nil {
			return CopyReport{}, fmt.Errorf("store: copy: %s: %w", t.name, err)
		}
		if has {
			return CopyReport{}, invalid("copy: the destination is not empty: table %s has rows", t.name)
		}
	}
	rep.Rows = map[string]int64{}
	for _, t := range copyTables {
		n, err := copyTable(ctx, tx, rtx, t.name, t.columns)
		if err != nil {
			return CopyReport{}, err
		}
		rep.Rows[t.name] = n
		if t.id != "" && tx.d.dollar {
			// Identity columns go on from the largest copied id, so the next
			// table or round gets a new one.
			if _, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('`+t.name+`', '`+t.id+`'),
				coalesce(max(`+t.id+`), 0) + 1, false) FROM `+t.name); err != nil {
				return CopyReport{}, fmt.Errorf("store: copy: %s ids: %w", t.name, err)
			}
		}
	}
	if err := dst.commit(tx, "Copy"); err != nil {
		return CopyReport{}, err
	}
	if rep.Source, err = src.Audit(ctx); err != nil {
		return CopyReport{}, err
	}
	if rep.Dest, err = dst.Audit(ctx); err != nil {
		return CopyReport{}, err
	}
	return rep, nil
}

// copyTable copies one table's rows, in key order, in batches.
func copyTable(ctx context.Context, dst, src *txn, table string, columns []string) (int64, error) {
	cols := strings.Join(columns, ", ")
	rows, err := src.QueryContext(ctx, `SELECT `+cols+` FROM `+table+` ORDER BY `+columns[0])
	if err != nil {
		return 0, fmt.Errorf("store: copy: read %s: %w", table, err)
	}
	defer rows.Close()
	var n int64
	batch := make([]any, 0, copyBatch*len(columns))
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		k := len(batch) / len(columns)
		values := strings.TrimSuffix(strings.Repeat(placeholders(len(columns))+", ", k), ", ")
		if _, err := dst.ExecContext(ctx, `INSERT INTO `+table+` (`+cols+`) VALUES `+values, batch...); err != nil {
			return fmt.Errorf("store: copy: write %s: %w", table, err)
		}
		n += int64(k)
		batch = batch[:0]
		return nil
	}
	vals := make([]any, len(columns))
	ptrs := make([]any, len(columns))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return 0, fmt.Errorf("store: copy: read %s: %w", table, err)
		}
		for _, v := range vals {
			if b, ok := v.([]byte); ok {
				v = string(b) // every column is text or a number
			}
			batch = append(batch, v)
		}
		if len(batch) == cap(batch) {
			if err := flush(); err != nil {
				return 0, err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("store: copy: read %s: %w", table, err)
	}
	if err := flush(); err != nil {
		return 0, err
	}
	return n, nil
}

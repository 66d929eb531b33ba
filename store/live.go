package store

import (
	"context"
	"fmt"
	"time"
)

// What the live tables of the bot need beyond the rest of the store: finding, after a
// restart, the open tables that have no message, and keeping "stop after this round".

// UnpostedTables returns the open tables that have no recorded public message (a start
// killed before the message was posted or recorded), oldest first, with their seats.
func (s *Store) UnpostedTables(ctx context.Context) ([]Table, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return tablesWhere(ctx, tx, `status = 'open' AND id NOT IN (SELECT table_id FROM table_messages)`)
}

// RecentlyChangedTables returns the open tables whose latest round finished at since or
// later, or whose seats or bank changed then (SetSeats, UpdateBank): after a kill, the
// edit that would have shown the settlement or the change may have died with the
// process, and the restart redraws them.
func (s *Store) RecentlyChangedTables(ctx context.Context, since time.Time) ([]Table, error) {
	if err := checkNow(since); err != nil {
		return nil, err
	}
	tx, err := s.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	at := formatTime(since)
	return tablesWhere(ctx, tx, `status = 'open' AND (changed_at >= ? OR id IN (SELECT r.table_id FROM rounds r
		WHERE r.number = tables.round_number AND r.table_id = tables.id AND r.finished_at >= ?))`, at, at)
}

// SetStopping records (or withdraws) that an open table closes when its round settles.
func (s *Store) SetStopping(ctx context.Context, tableID int64, stopping bool) error {
	return s.write(ctx, "SetStopping", func(tx *txn) error {
		if _, err := openTable(ctx, tx, tableID); err != nil {
			return err
		}
		q := `DELETE FROM table_stops WHERE table_id = ?`
		if stopping {
			q = `INSERT INTO table_stops (table_id) VALUES (?) ON CONFLICT (table_id) DO NOTHING`
		}
		if _, err := tx.ExecContext(ctx, q, tableID); err != nil {
			return fmt.Errorf("store: set stopping: %w", err)
		}
		return nil
	})
}

// Stopping reports whether an open table closes when its round settles.
func (s *Store) Stopping(ctx context.Context, tableID int64) (bool, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM table_stops WHERE table_id = ?`, tableID).Scan(&n); err != nil {
		return false, fmt.Errorf("store: stopping: %w", err)
	}
	return n > 0, nil
}

// StoppingTables returns the open tables that close when their round settles, oldest
// first, with their seats.
func (s *Store) StoppingTables(ctx context.Context) ([]Table, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return tablesWhere(ctx, tx, `status = 'open' AND id IN (SELECT table_id FROM table_stops)`)
}

// VoidRoundReason is the ledger reason of the escrow refunds made by ResolveBroken.
const VoidRoundReason = "void round: escrow returned (recovery failed)"

// ResolveBroken closes an open table whose unfinished round could not be recovered: in
// one transaction every escrow of the table goes back to its member's wallet as the
// ledger holds it (reason VoidRoundReason), the round is marked finished as void, and
// the table closes. The kitty stays with the table's bank, as at any close (R6.4).
func (s *Store) ResolveBroken(ctx context.Context, tableID int64, now time.Time) error {
	if err := checkNow(now); err != nil {
		return err
	}
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	t, err := openTable(ctx, tx, tableID)
	if err != nil {
		return err
	}
	escrows, err := escrowBalances(ctx, tx, t.Guild, tableID)
	if err != nil {
		return err
	}
	for _, e := range escrows {
		tr := Transfer{From: EscrowAccount(tableID, e.member), To: WalletAccount(e.member), Amount: e.balance, Reason: VoidRoundReason}
		if err := move(ctx, tx, t.Guild, tr, ledgerRef{table: tableID, now: now}); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE rounds SET finished_at = ?, result = ? WHERE table_id = ? AND finished_at IS NULL`,
		formatTime(now), `{"void":true}`, tableID); err != nil {
		return fmt.Errorf("store: resolve broken table: %w", err)
	}
	tx.note(hotNote{forget: true}) // a round finished outside applyAction
	if _, err := tx.ExecContext(ctx, `UPDATE tables SET status = 'closed', closed_at = ? WHERE id = ?`, formatTime(now), tableID); err != nil {
		return fmt.Errorf("store: resolve broken table: %w", err)
	}
	// The void round's pack is put away with the table.
	if err := revealSeeds(ctx, tx, tableID, now); err != nil {
		return err
	}
	if err := clearDeadlines(ctx, tx, tableID); err != nil {
		return err
	}
	return s.commit(tx, "ResolveBroken")
}

// Ahead counts the guild's wallets holding more than balance: one less than the rank of
// anyone holding balance when equal balances share a rank.
func (s *Store) Ahead(ctx context.Context, guild string, balance int64) (int, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var n int
	err = tx.QueryRowContext(ctx, `SELECT count(*) FROM wallets w JOIN accounts a ON a.guild_id = w.guild_id AND a.account = w.account
		WHERE w.guild_id = ? AND a.balance > ?`, guild, balance).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: ahead: %w", err)
	}
	return n, nil
}

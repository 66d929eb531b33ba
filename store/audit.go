package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// AuditReport is the result of Audit: the chip totals of each guild and
// every inconsistency found.
type AuditReport struct {
	Guilds   []GuildAudit
	Problems []string // empty when the books balance
}

// GuildAudit is one guild's chip totals.
type GuildAudit struct {
	Guild       string
	Accounts    int   // accounts, the mint included
	Circulating int64 // chips in wallets, escrows and kitties
	Minted      int64 // chips ever granted: minus the mint's balance
	LedgerRows  int64
}

// OK reports whether the audit found no problem.
func (r AuditReport) OK() bool { return len(r.Problems) == 0 }

// String describes the report for a person: one line per guild, then one
// line per problem.
func (r AuditReport) String() string {
	var b strings.Builder
	if r.OK() {
		fmt.Fprintf(&b, "audit OK: %d guild(s)\n", len(r.Guilds))
	} else {
		fmt.Fprintf(&b, "audit FAILED: %d problem(s) in %d guild(s)\n", len(r.Problems), len(r.Guilds))
	}
	for _, g := range r.Guilds {
		fmt.Fprintf(&b, "guild %s: %d chips in play, %d minted, %d accounts, %d ledger rows\n",
			g.Guild, g.Circulating, g.Minted, g.Accounts, g.LedgerRows)
	}
	for _, p := range r.Problems {
		fmt.Fprintf(&b, "problem: %s\n", p)
	}
	return b.String()
}

// Audit checks the books of every guild, as of one moment (RULES.md R7.3):
//   - the chips in all non-mint accounts equal the chips ever minted;
//   - every account's balance equals its ledger inflows minus its outflows;
//   - no account but the mint is negative.
//
// A failed check is a Problem in the report, not an error: the error is for
// failing to read.
func (s *Store) Audit(ctx context.Context) (AuditReport, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return AuditReport{}, err
	}
	defer tx.Rollback()
	if s.d.auditSetup != "" {
		if _, err := tx.ExecContext(ctx, s.d.auditSetup); err != nil {
			return AuditReport{}, fmt.Errorf("store: audit: %w", err)
		}
	}

	var r AuditReport
	if err := auditTotals(ctx, tx, &r); err != nil {
		return AuditReport{}, err
	}
	if err := auditNegatives(ctx, tx, &r); err != nil {
		return AuditReport{}, err
	}
	if err := auditLedger(ctx, tx, &r); err != nil {
		return AuditReport{}, err
	}
	return r, nil
}

func auditTotals(ctx context.Context, tx *txn, r *AuditReport) error {
	// The entries are counted once per guild in one pass, not by a subquery per guild:
	// ledger_entries is a view that decodes every action's legs.
	rows, err := tx.QueryContext(ctx, `WITH entries (guild_id, n) AS (
			SELECT guild_id, count(*) FROM ledger_entries GROUP BY guild_id
		)
		SELECT a.guild_id, count(*),
			CAST(coalesce(sum(CASE WHEN a.account = 'mint' THEN 0 ELSE a.balance END), 0) AS BIGINT),
			CAST(coalesce(sum(CASE WHEN a.account = 'mint' THEN a.balance ELSE 0 END), 0) AS BIGINT),
			coalesce(max(e.n), 0)
		FROM accounts a LEFT JOIN entries e ON e.guild_id = a.guild_id
		GROUP BY a.guild_id ORDER BY a.guild_id`)
	if err != nil {
		return fmt.Errorf("store: audit: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var g GuildAudit
		var mint int64
		if err := rows.Scan(&g.Guild, &g.Accounts, &g.Circulating, &mint, &g.LedgerRows); err != nil {
			return fmt.Errorf("store: audit: %w", err)
		}
		g.Minted = -mint
		if g.Circulating != g.Minted {
			r.Problems = append(r.Problems, fmt.Sprintf("guild %s: %d chips in accounts but %d minted",
				g.Guild, g.Circulating, g.Minted))
		}
		r.Guilds = append(r.Guilds, g)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: audit: %w", err)
	}
	return nil
}

func auditNegatives(ctx context.Context, tx *txn, r *AuditReport) error {
	rows, err := tx.QueryContext(ctx, `SELECT guild_id, account, balance FROM accounts
		WHERE balance < 0 AND account <> 'mint' ORDER BY guild_id, account`)
	if err != nil {
		return fmt.Errorf("store: audit: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var guild, account string
		var bal int64
		if err := rows.Scan(&guild, &account, &bal); err != nil {
			return fmt.Errorf("store: audit: %w", err)
		}
		r.Problems = append(r.Problems, fmt.Sprintf("guild %s: %s is negative: %d", guild, account, bal))
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: audit: %w", err)
	}
	return nil
}

// auditLedgerSQL lists the accounts whose balance is not the sum of their ledger
// entries, and the ledger's accounts that do not exist.
const auditLedgerSQL = `
		WITH flows (guild_id, account, delta) AS (
			SELECT guild_id, to_account, amount FROM ledger_entries
			UNION ALL
			SELECT guild_id, from_account, -amount FROM ledger_entries
		), net AS (
			SELECT guild_id, account, CAST(sum(delta) AS BIGINT) AS net FROM flows GROUP BY guild_id, account
		)
		SELECT a.guild_id, a.account, a.balance, coalesce(n.net, 0)
		FROM accounts a LEFT JOIN net n ON n.guild_id = a.guild_id AND n.account = a.account
		WHERE a.balance <> coalesce(n.net, 0)
		UNION ALL
		SELECT n.guild_id, n.account, NULL, n.net
		FROM net n LEFT JOIN accounts a ON a.guild_id = n.guild_id AND a.account = n.account
		WHERE a.account IS NULL
		ORDER BY 1, 2`

// auditLedger compares every account's balance with the sum of its ledger
// rows, in both directions: an account without rows must be empty, and rows
// naming an account that does not exist are a problem too.
func auditLedger(ctx context.Context, tx *txn, r *AuditReport) error {
	rows, err := tx.QueryContext(ctx, auditLedgerSQL)
	if err != nil {
		return fmt.Errorf("store: audit: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var guild, account string
		var bal sql.NullInt64
		var net int64
		if err := rows.Scan(&guild, &account, &bal, &net); err != nil {
			return fmt.Errorf("store: audit: %w", err)
		}
		if !bal.Valid {
			r.Problems = append(r.Problems, fmt.Sprintf("guild %s: ledger names missing account %s (net %d)", guild, account, net))
			continue
		}
		r.Problems = append(r.Problems, fmt.Sprintf("guild %s: %s holds %d but its ledger sums to %d",
			guild, account, bal.Int64, net))
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: audit: %w", err)
	}
	return nil
}

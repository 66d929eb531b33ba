package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mattn/go-sqlite3"
)

// dialect is everything the store's SQL does differently on SQLite and on
// PostgreSQL. It is deliberately thin: a method is written once, in SQLite's
// spelling with ? placeholders, and runs on both. What differs is here:
//
//   - placeholders: "?" and "?N" become "$n" on PostgreSQL (rebind);
//   - locking: forUpdate is " FOR UPDATE" on PostgreSQL, where writers run
//     concurrently, and "" on SQLite, where one connection writes at a time;
//     skipLocked likewise, " FOR UPDATE SKIP LOCKED" for a queue's claimants;
//   - isolation: PostgreSQL writes are SERIALIZABLE, so a method sees the
//     same single-writer world it sees on SQLite, and a transaction that
//     loses a race is retried (retryable);
//   - error codes: isUnique and retryable know both drivers' errors.
//
// Everything else is SQL both engines speak: INSERT ... RETURNING id instead
// of LastInsertId, ON CONFLICT upserts, CAST(sum(...) AS BIGINT) because
// PostgreSQL's sum of bigints is numeric, and times as fixed-width UTC text.
type dialect struct {
	name string // "sqlite" or "postgres"
	// forUpdate is appended to a SELECT that reads rows the transaction will
	// change, to lock them in the order read.
	forUpdate string
	// skipLocked is forUpdate for a queue: rows another transaction has locked are
	// skipped, not waited for (ClaimDeadlines); "" on SQLite.
	skipLocked string
	dollar     bool // placeholders are $1, $2, ...
	// auditSetup is run first in the audit's read transaction; "" on SQLite. On
	// PostgreSQL it turns parallel workers off: the planner guesses 100 legs for each
	// action's jsonb_array_elements in ledger_entries, so even a ledger of a few
	// hundred entries looked big enough for a parallel plan, whose workers took 80-90
	// ms to start where the whole query takes about 1 ms serially (the property test's
	// 20,000 audits spent most of the store tests' time there). The audit is a
	// background check: one process is plenty for it.
	auditSetup string

	rebound  sync.Map // query -> rebound query
	accounts sync.Map // n -> accountsQuery(n)
}

var (
	sqliteDialect   = &dialect{name: "sqlite"}
	postgresDialect = &dialect{name: "postgres", forUpdate: " FOR UPDATE", skipLocked: " FOR UPDATE SKIP LOCKED", dollar: true,
		auditSetup: `SET LOCAL max_parallel_workers_per_gather = 0`}
)

// q returns query in the dialect's placeholders. Queries are constants or
// built from a few shapes, so the rewrite is done once per text.
func (d *dialect) q(query string) string {
	if !d.dollar {
		return query
	}
	if r, ok := d.rebound.Load(query); ok {
		return r.(string)
	}
	r := rebind(query)
	d.rebound.Store(query, r)
	return r
}

// rebind turns SQLite placeholders into PostgreSQL's: "?" is the next
// number, "?N" is $N. Text inside single quotes, double quotes or a "--"
// comment is left alone.
func rebind(query string) string {
	var b strings.Builder
	b.Grow(len(query) + 8)
	n := 0
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch c {
		case '\'', '"':
			j := strings.IndexByte(query[i+1:], c)
			if j < 0 {
				b.WriteString(query[i:])
				return b.String()
			}
			b.WriteString(query[i : i+j+2])
			i += j + 1
		case '-':
			if strings.HasPrefix(query[i:], "--") {
				j := strings.IndexByte(query[i:], '\n')
				if j < 0 {
					b.WriteString(query[i:])
					return b.String()
				}
				b.WriteString(query[i : i+j])
				i += j - 1
				continue
			}
			b.WriteByte(c)
		case '?':
			j := i + 1
			for j < len(query) && query[j] >= '0' && query[j] <= '9' {
				j++
			}
			b.WriteByte('$')
			if j > i+1 {
				b.WriteString(query[i+1 : j])
			} else {
				n++
				b.WriteString(strconv.Itoa(n))
			}
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// writeOptions are the options of a write transaction.
func (d *dialect) writeOptions() *sql.TxOptions {
	if d.dollar {
		return &sql.TxOptions{Isolation: sql.LevelSerializable}
	}
	return nil // SQLite: BEGIN IMMEDIATE, from the DSN
}

// lockedOptions are the options of a write transaction that locks the rows
// it depends on itself (Store.writeLocked).
func (d *dialect) lockedOptions() *sql.TxOptions {
	if d.dollar {
		return &sql.TxOptions{Isolation: sql.LevelReadCommitted}
	}
	return nil
}

// readOptions are the options of a read transaction: one snapshot that never
// fails for a concurrent writer.
func (d *dialect) readOptions() *sql.TxOptions {
	if d.dollar {
		return &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}
	}
	return &sql.TxOptions{ReadOnly: true}
}

// PostgreSQL error codes (SQLSTATE) the store acts on.
const (
	pgUniqueViolation      = "23505"
	pgSerializationFailure = "40001"
	pgDeadlockDetected     = "40P01"
)

// isUnique reports whether err is a UNIQUE or PRIMARY KEY violation, on
// either engine.
func isUnique(err error) bool {
	var se sqlite3.Error
	if errors.As(err, &se) {
		return se.ExtendedCode == sqlite3.ErrConstraintUnique || se.ExtendedCode == sqlite3.ErrConstraintPrimaryKey
	}
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == pgUniqueViolation
}

// retryable reports whether a write transaction that failed with err should
// run again from the start: PostgreSQL said another transaction won a race
// (serialization failure, deadlock), or a unique key the method did not
// expect to collide did, which under SERIALIZABLE is the same race reported
// differently. A method that maps a unique violation to one of its own
// errors (ErrTableOpen, ErrDuplicateAction) does not wrap the driver's error,
// so that answer is final. SQLite, with one writer, never needs a retry.
func retryable(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return false
	}
	switch pe.Code {
	case pgSerializationFailure, pgDeadlockDetected, pgUniqueViolation:
		return true
	}
	return false
}

// accountsQuery returns the SELECT of n accounts' (account, balance) rows:
// the guild is ?1, the account names ?2 ... ?(n+1). On SQLite it is n
// primary-key lookups joined by UNION ALL, which SQLite runs several times
// faster than the same lookups as an IN list (no ephemeral table to build,
// no sort). PostgreSQL allows no FOR UPDATE with UNION, and needs the rows
// locked in one order, so it gets the IN list, sorted, locked.
func (d *dialect) accountsQuery(n int) string {
	if q, ok := d.accounts.Load(n); ok {
		return q.(string)
	}
	var b strings.Builder
	if d.dollar {
		b.WriteString(`SELECT account, balance FROM accounts WHERE guild_id = ?1 AND account IN (`)
		for i := range n {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("?" + strconv.Itoa(i+2))
		}
		b.WriteString(`) ORDER BY account` + d.forUpdate)
	} else {
		for i := range n {
			if i > 0 {
				b.WriteString(" UNION ALL ")
			}
			b.WriteString(`SELECT account, balance FROM accounts WHERE guild_id = ?1 AND account = ?` + strconv.Itoa(i+2))
		}
	}
	q, _ := d.accounts.LoadOrStore(n, b.String())
	return q.(string)
}

// placeholders returns "(?, ?, ...)" with n marks, for IN lists.
func placeholders(n int) string {
	return "(" + strings.TrimSuffix(strings.Repeat("?, ", n), ", ") + ")"
}

// Package store keeps the Pontoon bot's state in one SQLite file, or in one
// PostgreSQL database that several processes of the bot share: members'
// chips, tables with their bank and kitty, rounds as hand histories with
// their action logs, the interactions applied recently and per-guild settings.
//
// Start with Open (a file name, or a postgres:// URL), then read ledger.go: chips live in accounts named
// WalletAccount, EscrowAccount, KittyAccount and MintAccount, each scoped by
// guild, and move only by Transfer, each one written to a double-entry
// ledger: a row of ledger, or for an action a leg in the action's own row
// (migration 00090); the view ledger_entries is both. The mint is the only
// account that may go negative; its negative is every chip ever granted, so a
// guild's balances always sum to zero, and Audit checks that, and that every
// balance equals its ledger.
//
// The store knows no rules. The game package decides what happens and which
// chips move; the bot hands those movements to the store as []Transfer:
//
//	st, err := store.Open(ctx, "pontoon.db")
//	w, _, err := st.EnsureWallet(ctx, guild, member, 1000, now)
//	t, err := st.OpenTable(ctx, store.OpenTableParams{Guild: guild, Channel: ch, Host: member, Now: now})
//	r, err := st.StartRound(ctx, store.StartRoundParams{TableID: t.ID, Number: 1, History: historyJSON, Now: now})
//	err = st.ApplyAction(ctx, store.ApplyParams{RoundID: r.ID, Seq: 1, Member: member, Verb: "stake", Args: "10",
//		Now: now, Transfers: []store.Transfer{{From: store.WalletAccount(member), To: store.EscrowAccount(t.ID, member), Amount: 20}}})
//
// A Discord interaction changes the store once. The bot hands every write the
// interaction causes a context from WithInteraction (interaction.go), and the write
// path (Store.write, on both engines) records the interaction's id in the interactions
// table inside the transaction of the first write that commits for it: a gift, a daily
// claim, a grant, a seat, a deal, a bank sale, a kitty, a bid, a member's seed. A write
// for an id another delivery recorded changes nothing and returns
// ErrDuplicateInteraction, before or after a restart, in any process sharing the
// database; a write that fails or is rolled back leaves no id behind; the later writes
// of the same delivery go on (Applied reports that it changed something). What an
// effect merely needs first (EnsureWallet's wallet, a table's lease) is written with
// writeAside and records nothing, so a delivery cut short after it is applied whole
// when it comes again. An action is its own record: its row carries the interaction id
// (below), so ApplyAction writes nothing more for it, and InteractionApplied looks for
// an id in both places. PruneInteractions forgets ids after an hour (Discord gives up
// on an interaction after 15 minutes) through the index on seen_at.
//
// A round is stored as its hand history (HISTORY.md: rules, table, pack) plus
// its actions in order; the live state is never stored. At start-up
// UnfinishedRounds returns what the bot replays through the game to rebuild
// every table. ApplyAction refuses an action applied before (same sequence
// number, or an interaction id an action of the round carries), and its legs
// are in its row under the (round, seq) primary key, so a replay can never
// move chips twice. On SQLite what an action reads first (its round's last
// seq and interaction ids, the balances) is answered from memory (hot.go),
// which another process's writes invalidate.
//
// Every method is one transaction. A method that writes is one closure
// handed to Store.write; one that reads begins with beginRead, defers
// Rollback and reads. Helpers take the transaction as a *txn, whose
// ExecContext, QueryContext and QueryRowContext take SQLite's SQL with ?
// placeholders on both engines:
//
//	func (s *Store) SetThing(ctx context.Context, id int64, v string, now time.Time) error {
//		return s.write(ctx, func(tx *txn) error {
//			if _, err := openTable(ctx, tx, id); err != nil {
//				return err
//			}
//			_, err := tx.ExecContext(ctx, `UPDATE tables SET thing = ? WHERE id = ?`, v, id)
//			return err
//		})
//	}
//
// The body may run more than once (PostgreSQL retries a transaction that
// lost a race), so it sets its results afresh each time. Either all of a
// method's changes land or none. The store reads no clock: every method that
// writes a time takes now.
//
// Porting a method written for SQLite (begin, defer Rollback, helpers on
// *sql.Tx, commit): put its body in s.write, change *sql.Tx to *txn, use
// INSERT ... RETURNING id instead of LastInsertId, CAST(sum(x) AS BIGINT)
// for sums, no LIMIT -1; dialect.go lists the rest. A new table needs a
// migration in both dialects (see package migrations) and a line in
// copyTables. Tests: eachBackend runs a test on both engines.
// seeds.go keeps each table's pontoon-shuffle/1 server seeds (HISTORY.md,
// "Seeded shuffles"): the pending one whose commitment the table shows, the
// members' seeds for it, the one a round was dealt from (DealParams.Seed ties
// it in the deal's own transaction) and when it was revealed. odds.go keeps a
// simulation's figures once per rule set and table size, the newest SaveOdds's
// keep of them. OpenTable counts a server's open tables in its own transaction
// (OpenTableParams.MaxOpen). deadline.go keeps the rules' timers of every table
// (turns, offers' expiries, auctions' closes), claimed by one process when due, and
// bank.go the tables' bank offers and auctions, each ended once in the transaction
// that acts on it; lease.go the tables' leases of processes that share them.
//
// Every method is one transaction: begin, defer Rollback, unexported helpers
// taking the *sql.Tx, Commit. Either all of a method's changes land or none.
// The store reads no clock: every method that writes a time takes now.
//
// Backup (backup.go) writes a consistent copy of the SQLite file while the bot
// serves, for `pontoon backup`; Audit on a store opened over the copy checks
// it. On PostgreSQL Backup refuses: pg_dump is the tool there.
//
// WithCommitObserver (observe.go) hears of every commit with the name of the
// method it carries, which each method passes to write; metrics use it.
//
// Errors wrap the sentinels in errors.go (ErrInsufficientChips,
// ErrDuplicateAction, ...), some through typed errors carrying data
// (*InsufficientChipsError, *CooldownError, ...). Test them with errors.Is and
// errors.As; the bot turns them into player text in one place.
//
// A *Store is safe for concurrent use. On SQLite, writes go through a single
// connection, so concurrent writers queue instead of failing with "database
// is locked"; one writer goroutine runs the method bodies queued at one
// moment in one transaction, a savepoint each, and commits once (sqlite.go),
// so with Synchronous("full") concurrent tables share an fsync; a
// checkpointer goroutine keeps WAL checkpoints out of commits, at most one a
// second, and finishes each with commits held back for the few pages written
// meanwhile, so that the log starts again from the top under a steady stream
// of commits instead of growing for as long as it lasts. Reads use a
// pool of read-only connections and see a consistent snapshot. On
// PostgreSQL (postgres.go) one pool of 16 connections serves both, handed out
// in the order transactions ask for them (pool.take: database/sql alone picks
// a random waiter, and 100 tables acting at once then had a p99 several times
// their mean); a URL on this machine that leaves TLS to the default connects
// without it (plainOnLoopback). Writes are SERIALIZABLE and retried when they
// lose a race, or lock their rows first at READ COMMITTED (writeLocked, an
// action); reads REPEATABLE READ. docs/PERFORMANCE.md has the figures. Tests
// use a file in t.TempDir(), never ":memory:", or a schema of their own
// (storetest).
package store

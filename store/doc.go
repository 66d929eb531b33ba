// Package store keeps the Pontoon bot's state in one SQLite file: members'
// chips, tables with their bank and kitty, rounds as hand histories with
// their action logs, recently seen interactions and per-guild settings.
//
// Start with Open, then read ledger.go: chips live in accounts named
// WalletAccount, EscrowAccount, KittyAccount and MintAccount, each scoped by
// guild, and move only by Transfer, each one written to a double-entry
// ledger. The mint is the only account that may go negative; its negative is
// every chip ever granted, so a guild's balances always sum to zero, and
// Audit checks that, and that every balance equals its ledger.
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
// A round is stored as its hand history (HISTORY.md: rules, table, pack) plus
// its actions in order; the live state is never stored. At start-up
// UnfinishedRounds returns what the bot replays through the game to rebuild
// every table. ApplyAction refuses an action applied before (same sequence
// number, same interaction id), and its ledger rows carry (round, action,
// leg) under a unique key, so a replay can never move chips twice.
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
// A *Store is safe for concurrent use. Writes go through a single
// connection, so concurrent writers queue instead of failing with "database
// is locked"; reads use a pool of read-only connections and see a consistent
// snapshot. Tests use a file in t.TempDir(), never ":memory:".
package store

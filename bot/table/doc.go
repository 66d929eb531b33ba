// Package table is the live table: one open Pontoon table in memory, with its lock, and
// everything that changes it — seats, the deal (banker by persisted owner or a cut, the
// pack committed to before the deal), apply (the engine on a copy, then one store
// transaction, then the copy is kept), the bank between rounds (sales, kitty, auctions),
// the rules' timers (R7.4 turns, R6.3 offers, R9.8 auctions) and recovery after a
// restart. It adds nothing to the rules (package game has them) and knows nothing of
// Discord: it imports no discordgo. Package bot routes members' clicks here, and package
// view renders the Snapshot a method returns.
//
// Start with Manager (manager.go): it holds the open tables in use, finds one by id or
// channel (loading it from the store on first use, its round rebuilt from the actions the
// store holds), opens them, and after a restart recovers only the tables that need it:
// an unfinished round, no message, a stop asked for. Then Table (table.go) and its
// commands: play.go (Act, Deal, apply), seats.go (Join, Leave, Stop, Abandon), bank.go
// (offers, kitty, auctions), deadlines.go and due.go (the rules' timers). seeds.go is the
// seeded shuffle (pontoon-shuffle/1, HISTORY.md): the pending server seed a table commits
// to before Deal, members' seeds, the derivation at Deal from the Deal interaction's id,
// the reveal when the pack is shuffled away; and ActAll, several actions of one click
// ("Shoot & twist", R9.4). store.go lists the small store interfaces (Stores), each
// declared beside the code that uses it. StandingOffer (offer_lookup.go) reads a standing
// offer from the store for package bot's check of where it was clicked. idle.go drops a
// table idle between rounds from memory (DropIdle); the next Get loads it again.
//
// # One path in every deployment
//
// A table works the same way whether one process owns its database (SQLite, or gateway
// shards each serving their own servers) or several share it (HTTP replicas on one
// PostgreSQL). Each change is one store transaction: an action with its chip movements
// and its interaction id (ApplyAction), a whole deal — the cut's change of bank, the
// wallets, the round start and its turn deadline (DealRound) —, a
// sale or a kitty (UpdateBank), an offer with its expiry (OpenOffer), an auction with its
// close (StartAuction), a bid (PlaceBid). Only then does the table keep the new state.
// Bank offers and auctions are never in memory: a click on one reads the store's row, and
// the transaction that ends one (the sale, a decline, the expiry, the close) changes it
// only if it is still open, so it ends once. They, and the turn deadlines, outlive a
// restart or a kill. A table whose round recovery could not trust refuses play until a
// member who may manage the server stops it: the round is voided and every escrow goes
// back as the ledger holds it (ResolveBroken).
//
// The rules' timers are rows of the store's deadlines (deadlines.go). Whoever finds one
// due claims it (once, across processes), takes the table's hold, checks that the claim
// is still the table's deadline, and fires it. A turn's row is written at the deal and
// not at each action: actions only move a turn's deadline later, so the row says the
// earliest it can time out, and the firing moves it on to the table's own deadline (the
// last action's time plus the turn timer) when that has not come yet. An action thus
// writes no deadline, and costs on SQLite what it cost when turn timers were in memory.
// What differs between deployments is only how a process learns a deadline is due, and
// that is due.go's Waker: a timer armed at the store's next deadline when one process
// owns the database (moved earlier as this process commits earlier ones), a poll every
// 500 ms when processes share it.
//
// Leases. Processes that share tables (Options.Leases) work on a table only under its
// lease in the store (Manager.Hold, shared.go), and a process whose claim finds that
// another held the table since drops its copy and loads it again. A process that owns
// its database takes no lease: no other process ever holds one, so it is as if it held
// every table's lease for as long as it runs, and a click costs no lease write (one
// write transaction per click, the figure package store's benchmarks hold to). Its Hold
// takes only this process's own slot for the table.
//
// Measured (BenchmarkDeadlineLateness: each round, one player stakes halfway through a
// 20 ms turn, which moves the turn's deadline past the store's row, and the other's stake
// times out; a timeout's commit less its deadline, 50 rounds per run, three runs, a 2-vCPU
// EPYC shared with other work): SQLite with the timer, p50 1–2 ms, p99 6–31 ms;
// PostgreSQL with the poll, p50 481–486 ms, p99 539–571 ms (one timeout in the runs
// took 1.7 s). Both within R7.4's second at the 99th percentile.
//
//	go test -run XXX -bench DeadlineLateness -benchtime 50x ./bot/table
//
// # Why not a job library (github.com/riverqueue/river)
//
// River schedules jobs transactionally on PostgreSQL and, through riversqlite, on
// SQLite. Measured against what a table's timers need, it does not fit here:
//
//   - A turn deadline moves at every action: here it is one row per table, upserted in
//     the action's own transaction. As river jobs each action would insert a job and
//     cancel the last, two more writes on the path a member waits on and rows to prune,
//     where the load goal leaves about 0.1 ms of a click's CPU for the store.
//   - Inserting a job in our transaction needs river's driver to share it: riverpgxv5
//     wants a pgx transaction and riversqlite a *sql.Tx of its own pool, while the store
//     runs every method through its own database/sql transactions (store.txn) with the
//     dialect's locking and its hot state (store/hot.go). Either the store hands out its
//     transactions or river's rows are written outside them, losing the "in the
//     transaction of the action" property that makes a deadline fire once and never for
//     an action that rolled back.
//   - riversqlite is documented as in early testing with little real use, and asks for a
//     pool of one connection (SetMaxOpenConns(1)) to avoid SQLITE_BUSY from river's own
//     concurrent maintenance; the store keeps a writer and several readers in WAL mode.
//   - River owns its schema and migrations (rivermigrate: river_job, river_leader,
//     river_queue …), beside our goose migrations in both dialects, and runs leader
//     election, a scheduler and fetch polls in every process at all times: idle writes on
//     SQLite's one writer, where the timer here costs nothing while no deadline is due.
//   - Latency, the deciding one: a job scheduled for later becomes available only when
//     the elected leader's job scheduler runs, every 5 s by default
//     (maintenance.JobSchedulerIntervalDefault; the client's schedulerInterval is not a
//     public setting in the versions read), and then waits for a fetch poll or a
//     notification. A turn would time out up to 5 s late, where R7.4's timer wants it
//     within a second; the timer here fires within milliseconds on SQLite, and a 500 ms
//     poll on PostgreSQL is within the second without river's machinery.
//
// Exactly once with two processes and after a kill is what the deadlines' claim gives
// (store/deadline.go: FOR UPDATE SKIP LOCKED on PostgreSQL, a claim that lapses when its
// process dies, and the firing's own transaction that moves or deletes the deadline),
// tested by TestADeadlineFiresOnceWithTwoManagersOnOnePostgreSQL and, across a restart,
// by package bot's TestATurnDeadlinePendingAtAStopFiresAfterTheRestart.
//
// # Lock order
//
// There are three kinds of lock, always taken in this order and never the other way:
//
//  0. a table's hold (Manager.Hold): this process's own slot for the table and, for
//     shared tables, its lease in the store (renewed while held), taken before the
//     table's mu and never while holding it. Waiting for it ends with the caller's
//     context, and nothing that waits on Discord runs under it.
//  1. a Table's mu, held for the whole of one command on that table, so a table applies
//     its commands one at a time. Nobody holds two tables' locks at once.
//  2. the Manager's mu, which guards only its maps and flags. It may be taken while a
//     table's lock is held, and is never held while taking one.
//  3. leaves, each held for a few lines: a Notifier's own lock (package bot's
//     publisher) and the Waker's (due.go), which a committed deadline tells under the
//     table's lock.
//
// While a table's lock is held there is no network call (this package has none: the
// Notifier only takes note, and package bot edits messages later with no lock held) and
// no store read: what the table needs is in memory, and the store is read only to load a
// table, or a bank offer's or auction's row, before its lock is taken. The store writes
// made under the lock are the command's own.
//
// Errors a member should read are Refusals (a catalog key and values) or the engine's
// *game.Error; package bot puts both into words.
package table

// Package table is the live table: one open Pontoon table in memory, with its lock, and
// everything that changes it — seats, the deal (banker by persisted owner or a cut, the
// pack committed to before the deal), apply (the engine on a copy, then one store
// transaction, then the copy is kept), the bank between rounds (sales, kitty, auctions),
// turn timers (R7.4) and recovery after a restart. It adds nothing to the rules (package
// game has them) and knows nothing of Discord: it imports no discordgo. Package bot routes
// members' clicks here, and package view renders the Snapshot a method returns.
//
// Start with Manager (manager.go): it holds the open tables in use, finds one by id or
// channel (loading it from the store on first use), opens them, and after a restart
// recovers only the tables that need it: an unfinished round, no message, a stop asked
// for. Then Table (table.go) and its commands: play.go (Act, Deal, apply), seats.go
// (Join, Leave, Stop, Abandon), bank.go (offers, kitty, auctions), timers.go. store.go
// declares the small Store this package needs.
//
// Each change is one store transaction: an action with its chip movements and its
// interaction id (ApplyAction), a whole deal — the cut's change of bank, the wallets
// and the round start (DealRound) —, a sale or a kitty (UpdateBank). Only then does the
// table keep the new state. A table whose round recovery could not trust refuses play
// until a member who may manage the server stops it: the round is voided and every
// escrow goes back as the ledger holds it (ResolveBroken).
// Start with Manager (manager.go): it holds the open tables, finds one by id or channel,
// opens and recovers them. Then Table (table.go) and its commands: play.go (Act, Deal,
// apply), seats.go (Join, Leave, Stop), bank.go (offers, kitty, auctions), timers.go.
// seeds.go is the seeded shuffle (pontoon-shuffle/1, HISTORY.md): the pending server seed
// a table commits to before Deal, members' seeds, the derivation at Deal from the Deal
// interaction's id, the reveal when the pack is shuffled away; and ActAll, several actions
// of one click ("Shoot & twist", R9.4).
// store.go declares the small Store this package needs. shared.go is for processes that
// share one database's tables (HTTP replicas): Hold claims a table's lease in
// the store and rebuilds a copy another process changed; deadlines.go fires their turn
// timers, which live in the store, from whichever process claims one when it falls due,
// and bank_shared.go keeps their bank offers and auctions in the store, whose ends the
// same poll fires. AnswerOffer is written once over an offerBook: the Manager's map
// (memoryOffers, bank.go) or the store (storeOffers, bank_shared.go); StandingOffer
// (offer_lookup.go) reads one from it for package bot's check of where it was clicked.
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
//  2. the Manager's mu, which guards only its maps (tables, offers, auctions) and flags.
//     It may be taken while a table's lock is held, and is never held while taking one.
//  3. a Notifier's own lock (package bot's publisher): a leaf, held for a few lines.
//
// While a table's lock is held there is no network call (this package has none: the
// Notifier only takes note, and package bot edits messages later with no lock held) and
// no store read: what the table needs is in memory, and the store is read only to load a
// table, before its lock is taken. The store writes made under the lock are the
// command's own.
//
// Errors a member should read are Refusals (a catalog key and values) or the engine's
// *game.Error; package bot puts both into words.
package table

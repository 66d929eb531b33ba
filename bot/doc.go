// Package bot hosts Pontoon tables in Discord channels. It only translates: Discord
// interactions become game.Actions for the engine (package game) and store commits
// (package store), and the engine's state becomes embeds, buttons, selects and modals.
// It adds nothing to the rules.
//
// Start with Bot (bot.go): New builds it over a Store, Start recovers the open tables,
// connects and registers /pontoon, Close lets in-flight actions finish. Then:
//
//   - interact.go: every interaction's way in (handle), dedup of redelivered ids, the
//     reply helpers, and errText, the one place an error becomes a member's words;
//   - handlers.go: /pontoon subcommands and the table's buttons, selects and modals;
//   - table.go: a live table (one lock per table, so tables never wait on each other),
//     apply (engine on a copy, then one store transaction, then the copy is kept),
//     deal (banker by persisted owner or a cut, pack, commitment) and recovery;
//   - render.go: the public table and each member's private panel;
//   - timers.go: turn timers (R7.4) and coalesced public edits;
//   - economy.go, bank.go, admin.go: balances, bank sales and auctions, history, settings;
//   - commands.go: the slash command tree, localized from the catalog (package i18n);
//   - perms.go: who counts as a server admin (Manage Server or Administrator);
//   - observe.go: what the bot tells its Recorder (package metrics) of each interaction,
//     the interaction's logger, and the live counts read at scrape time.
//
// Custom ids are pt:<kind>:<table>:<round>:<member action count>:<arg>; the round and the
// member's count make a button from an earlier round or turn (or a double click) a
// refusal instead of a second action.
//
// Tests run the real bot against the fake Discord of package discordtest on a real
// SQLite file: e2e*_test.go play whole games as members; load_test.go measures.
package bot

// Package bot is the Discord adapter of the Pontoon bot. It only translates: an
// interaction is routed to a live table (package table), the table's Snapshot is rendered
// (package view), and the answer goes back to Discord. It adds nothing to the rules.
//
// A click reads in one direction: route → table → view → reply.
//
//   - bot.go: Bot. New builds it over a *store.Store, which it keeps as small
//     interfaces of a few methods, each declared in the file that uses it (economy.go's
//     economyStore, stats.go's statsStore, ...); Start recovers the open tables, connects
//     and registers /pontoon; Close lets in-flight work finish.
//   - routes.go: the one route table, slash subcommand name or custom-id kind → handler,
//     and for each kind of component where the bot posts it. Before any handler runs,
//     options.go checks every option against the declared command tree (type, range,
//     length, choices; Discord's client is not the only sender) and place.go refuses a
//     component anywhere but where the bot posted it (its table's server and channel,
//     the table's own message, a private panel, the offer's message), changing nothing.
//   - reply.go: every interaction's answer (answer; handle posts it over the gateway),
//     the replies, words (the one place an error becomes a member's words; answers use
//     refusalText or fail, so the metrics count what the member was told) and the
//     choice of language. Every write an interaction causes carries its id
//     (store.WithInteraction), which the store records in that write's transaction: a
//     redelivery, after a restart or on another replica, changes nothing, and answer
//     gives it no answer (redelivered).
//   - scale.go: several processes: gateway shards (Options.Scale), Route for
//     HTTP interactions (package httpin), and replicas sharing one PostgreSQL's tables.
//     Gateway handlers run on discordgo's reader (SyncEvents) and hand each
//     interaction, decoded lean (discordapi.DecodeInteraction), to workers.go: an idle
//     worker goroutine or a new one, never a queue.
//   - play.go, bank.go, economy.go, admin.go: the handlers; economy.go also holds a
//     server's give rules (GiveRules: rounds played, account age, a daily cap), which
//     its admin sets with /pontoon settings.
//   - publish.go: the public messages (tables, offers, auctions), edited with no table
//     lock, hold or lease held and coalesced per table. A click that updates the table
//     message in its own answer (updateTable) claims the message first, so that the
//     answer and an edit drawn from an older state never overlap. Each accepted edit or
//     answer records what the message was drawn from, and after a restart only the
//     messages that do not show their table's state are drawn again (check).
//   - commands.go: the slash command tree, localized from the catalog (package i18n),
//     and its registration, which carries on the application's Entry Point command
//     (Activities' Launch) that Discord will not let an overwrite remove.
//   - picture.go: the table's picture on the public message (a new one at the deal, the
//     banker's reveal and the settlement), rendered and uploaded by the publisher. Three
//     pictures a round are a third of the bot's CPU under load (docs/PERFORMANCE.md);
//     Options.TextOnly (game.table_picture: false) leaves them off.
//   - language.go: /pontoon language, a member's own language, which wins over their
//     client's locale in everything only they read.
//   - stats.go: /pontoon stats and the leaderboard by net winnings; words.go: each
//     action's own refusal (err.cannot_now.<verb>).
//   - fair.go: fairness and advice: /pontoon seed, /pontoon odds (simulated
//     once per rule set after a deferred reply, kept in the store; odds.go: one
//     simulation at a time per process and an hourly budget per server), the bank offer's
//     fair-price hint, the Hint button (game/sim's Advise; Advice gives the same move to
//     the scripted players of `pontoon demo`, package bot/demo), "Shoot & twist" (R9.4) and
//     the revealed server seed in /pontoon history's file.
//   - cache.go: the bounded caches (members' names and languages, the members Discord
//     said it does not know, servers' settings and locales, tables' pictures, fair-price
//     hints, odds budgets), least recently used out first; idle.go: the sweep that drops
//     tables idle between rounds from memory (table.DropIdle).
//   - names.go: members' names for the picture and the page. Each interaction shows its
//     member's; one not heard since the start (after a restart, until they click) is
//     looked up from Discord (GET /guilds/{guild}/members/{user}) on its own goroutine,
//     never on a click's path or under a table's hold, once per member at a time and at
//     most a few at once; a member Discord does not know (they left) stays "Seat N" and
//     is not asked again for ten minutes. A name that arrives tells the pages watching the
//     channels that missed it (WebWatch); the picture takes it at its next drawing.
//   - perms.go: who counts as a server admin (Manage Server or Administrator).
//   - web.go: the table in the browser (package bot/activity serves it): WebState is
//     what a member sees of a channel's table (the table message's text and buttons,
//     the picture's seats with a face-down card's value only for its owner, and their
//     panel as /pontoon hand shows it), WebAct runs a page's click through answer as a
//     component interaction on the message it was drawn from (the answer that would go
//     to Discord becomes the page's result; one that redraws the table message in place
//     is reported undelivered, so the publisher edits it), and WebWatch tells the pages
//     of every change: the publisher's Changed and an answer that redraws the table
//     (updateTable). Replicas that share tables also look at the watched tables every
//     500 ms (pollWatched), since another replica's change reaches only its own
//     publisher. Open table (Options.Activity) answers with LAUNCH_ACTIVITY.
//   - observe.go: what the bot tells its Recorder (package metrics) of each interaction,
//     the interaction's logger, and the live counts read at scrape time.
//
// Tests run the real bot against the fake Discord of package discordtest on a real
// SQLite file: e2e*_test.go play whole games as members; load_test.go measures.
package bot

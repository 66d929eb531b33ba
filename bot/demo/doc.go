// Package demo is `pontoon demo`: the Pontoon bot, the fake Discord of package
// discordtest and the table's web page (package bot/activity) in one process, so that a
// person with no Discord can play a table from a browser.
//
// Start at OpenStack (stack.go): it starts the fake on loopback, opens the bot's SQLite
// file, connects the bot, serves the page and the /demo/ endpoints on one listener, and
// opens the demo's table. cmd/pontoon's demo.go only adds the command line around it.
//
// Demo (demo.go) is the demo's side of the fake Discord:
//
//   - Member adds a member of the demo's server by name (the page's ?user=NAME, the
//     activity server's Demo.Member); the same name is always the same id (MemberID).
//   - Start opens the table: a scripted "Dealer" runs /pontoon start, as a member would,
//     and holds the bank. The bot gives the bank to the channel's owner (RULES.md R6.4)
//     and cuts for it only when the owner is not seated (R1.4), so Start first makes the
//     Dealer the channel's owner in the store, and the Dealer, as host, is seated.
//   - seats.go: the scripted players, the Dealer and those POST /demo/seats seats
//     (Seat). Every Think, each one the round waits on asks the bot what the Hint button
//     would say (Adviser, game/sim's documented strategy) and makes that move by
//     pressing components through the fake (Click, Select, SubmitModal) on the table
//     message and its own panel, so each move takes the bot's real path.
//
// The /demo/ endpoints (http.go), mounted beside the page:
//
//	GET  /demo/channel?user=NAME   the channel as the fake holds it, oldest first: the
//	                               public messages (the table message drawn plainly:
//	                               text, picture, buttons) and NAME's own ephemeral ones
//	GET  /demo/attachments/ID/NAME a public message's picture
//	POST /demo/click               {"user","message","id","values"}: a click (or a choice
//	                               when values is given) as that member; {"ok":true}, or
//	                               {"modal":{...}} when the bot asks for an amount
//	POST /demo/submit              {"user","id","fields"}: the form that click opened
//	POST /demo/seats               {"count":N}: scripted players sit down; {"ok":true,"seated":N}
//
// A refusal is {"error":"<words>"} with a 4xx status, in the members' language.
//
// Tests: the package's tests run the whole stack; browser_test.go drives the page in
// a real Chromium (github.com/chromedp/chromedp) at phone size, one browser per test
// binary. With CI set a missing Chromium fails them.
package demo

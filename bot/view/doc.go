// Package view is pure rendering: a table's Snapshot (package table) and the message
// catalog (package i18n) in, Discord message structs out — the public table, a member's
// private panel, the rules, bank offers and auctions, the leaderboard, history and
// settings. It holds no lock, reads no store and makes no call; the golden tests render
// a Snapshot built by hand, with no bot. Nor does it import package store: the
// leaderboards, /pontoon stats and history take view's own Standing, NetStanding, Stats
// and RoundLine, which package bot fills from the store's rows.
//
// Start with Renderer (view.go), then table.go (the public table) and panel.go (a
// member's panel with the actions legal now). Both are Components V2 messages (Message.V2):
// one Container whose text displays tell everything, the picture in a media gallery
// (WithPicture) and the buttons in rows inside it; the other messages are embeds or text. picture.go copies a Snapshot into the
// terms of package picture and names the moments a new picture is due; stats.go renders
// /pontoon stats and the leaderboard by net winnings. customid.go is the one place custom ids
// are built, parsed and checked for staleness: pt:<kind>:<table>:<round>:<member action
// count>:<arg>; the round and the member's count turn a button from an earlier round or
// turn (or a double click) into a refusal instead of a second action. Leaves (view.go)
// is the one walk of a message's component tree, for whoever reads one back: Text (what
// a message says), the web page's controls, the check that a message holds a table's
// buttons.
package view

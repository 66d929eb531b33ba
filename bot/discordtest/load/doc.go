// Package load measures the bot as it runs in production: the real binary in its
// own process, against the fake Discord of package discordtest, with simulated
// members playing real rounds at many tables at once. Command pontoon-load
// (cmd/pontoon-load) is its command line; start reading at Run (run.go).
//
// Run starts the fake in this process and the bot binary as a child, configured
// only through its environment (PONTOON_DISCORD_API_URL points it at the fake, a
// fresh SQLite file in a temporary directory). It opens the tables with /pontoon
// start and Join, then sends interactions on an open schedule: arrivals at a fixed
// rate, evenly spaced or as a Poisson process, each taking the oldest click that
// is ready, never waiting for an answer before the next arrival. The members
// (play.go) only press what they are shown: Deal and My cards on the table
// message, the stake select and the action buttons on their own panel, and they
// look at their cards when the panel names them as the one the round waits for.
//
// It measures answer latency at the fake (dispatch to callback), the bot's CPU
// from /proc/<pid>/stat over the measured window divided by the interactions
// answered in it, and the bot's peak RSS; and it checks that every interaction
// was answered, none refused, and that `pontoon audit` balances afterwards.
//
// It lives beside discordtest rather than in package bot because it knows the bot
// only as members do, through the fake's exported API and the messages the bot
// sends, and never imports it: it measures whatever binary it is given.
//
// Figures depend on the machine: the fake and the members share its cores with
// the bot, and the report says how much CPU they and everything else used. With
// Config.Pin (pin.go) they do not: the bot runs on CPU 0 alone and this process on
// the others, as a bot on a machine that is otherwise idle.
package load

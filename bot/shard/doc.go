// Package shard holds the two rules of Discord's gateway sharding that the
// bot must follow itself, as pure functions of their inputs (// "Gateway shards"):
//
//   - which shard a guild lives on: Of, Discord's (guild_id >> 22) % count;
//   - when a shard may identify: a Pacer lets max_concurrency identifies
//     through per window (Discord: 5 s), one per rate-limit key
//     shard_id % max_concurrency, so shards start bucket by bucket in order.
//
// Start with Of and NewPacer. Nothing here touches the network: the caller
// reads max_concurrency from GET /gateway/bot (discordgo's
// Session.GatewayBot) and calls Pacer.Wait before each Session.Open.
//
// Pacing matters more with discordgo than the docs suggest: Discord answers
// a too-early identify with op 9 Invalid Session, and discordgo v0.29.0
// identifies again at once, with no delay, so one early shard spins through
// the application's 1,000 identifies a day (after which Discord resets the
// token). Wait before the first identify is the only place to get it right.
package shard

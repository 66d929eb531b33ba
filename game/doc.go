// Package game is the rules of Pontoon and Shoot Pontoon (docs/RULES.md at the repository's root), and
// nothing else: it imports nothing of Discord or SQL, reads no clock and owns no random
// source. The pack is an input; Shuffle takes the random source to use.
//
// Start with Game: NewGame seats a table, Deal starts a round from a pack, and Apply
// performs one person's decision (an Action, in HISTORY.md's words: "bob buy 6"). Apply
// either succeeds and returns the chip movements it caused as Transfers, or returns an
// *Error (errors.Is-comparable with ErrBelowStickMinimum and friends) and changes
// nothing. Legal lists the moves open to a player now and ToAct who the round waits on.
//
// A round is a state machine over Phase: between rounds (kitty, bank sale) → staking →
// shooting (Shoot only) → doubling (banker_may_double only) → playing → banker → between.
// The engine deals, declares pontoons, ends hands at 21 or five cards and settles by
// itself; an Action is only what a person decides.
//
// History and Replay are HISTORY.md: a table, each round's pack and actions. Replaying a
// history rebuilds a Game exactly, which is how the bot recovers after a restart and how
// anyone checks a disputed round.
//
//	h, _ := game.ParseHistory(data)
//	g, report, err := game.Replay(h) // err is a *ReplayError naming round and action
//
// Seeded shuffles (HISTORY.md, pontoon-shuffle/1): ShuffleCommitment is what the bot
// shows before the deal, DealPack derives the pack from the server seed, the Deal
// interaction's id and members' seeds, and Replay checks a round's SeededShuffle. The
// seed is always passed in; the engine draws no randomness of its own.
//
// Chips: a stake, buy or split moves the amount and an equal reserve into the player's
// escrow (R7.1) and the bank's worst-case payout into the banker's escrow (R7.2); shoot
// bets go to escrow and are covered by the kitty (R9.2). Settlement moves everything
// out again, so between rounds escrow is empty and Total never changes (R7.3).
//
// Decisions where RULES.md is silent (each is also commented where it is made):
//   - Default limits: stakes 1 to 50, kitty 10 to 200 (HISTORY.md's example figures).
//   - The banker's cover is held in escrow, not only checked, so chips the bank needs
//     cannot leave the table mid-round; a history that stops mid-round therefore reports
//     the banker's free balance without the cover.
//   - The banker's pontoon collects banker_pontoon_collects undoubled under R8.3; a
//     royal pontoon is paid 3 against anything.
//   - A pontoon that outranks the banker's (R8.7) beats the banker, so its shoot bet is
//     paid from the kitty (R9.7) rather than lost (R9.3).
//   - Split hands are numbered in the order they are made; hand 1 gets its new card
//     first. A split hand (2 and later) may shoot once on being reached (R9.5), any hand
//     once with three cards (R9.4), and `shoot 0` is a pass.
//   - A three-card shoot bet goes with asking for the fourth card (R9.4): until the card
//     comes the hand may only buy or twist (a stick is ErrShootMustDraw), and a timeout
//     in between hands the bet back (ReasonShootReturn) before R7.4 sticks or folds the
//     hand. A pass binds nothing.
//   - Timeouts (R7.4): a shoot decision times out as no bet, the double as no double.
//   - Used cards go under the pack at the end of the round in play order (each
//     player's hands, then the banker's); bust and burned cards went under at once.
//   - Buys are limited only by R4.3, not by max_stake.
//   - A round in which nobody stakes ends at once: no second cards, nothing moves.
package game

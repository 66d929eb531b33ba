// Package sim is a Monte Carlo simulation of whole Pontoon and Shoot Pontoon rounds
// (docs/RULES.md) under any house-rule set, and the strategy it plays, so that
// the banker's edge can be measured and a player can ask what the strategy would do.
//
// Start with Simulate (a Config in, a Report out: the bank's edge per chip staked with a
// 95 % interval, the rate of each hand kind, and each R8 variation's effect against the
// defaults), then Table.Play (one round from a given pack) and Advise (the strategy's
// next move at a real game.Game, with its reason as a typed Why, for a Hint button).
// Canonical is a rule set as the simulation plays it: rule sets with one Canonical form
// give the same figures, so one kept result answers for them all.
//
// The simulator keeps no second copy of the rules: hands are evaluated with
// game.Evaluate, settled with game.HandNet and checked with game.CanSplit, CanBurn,
// CanBuy and BuyRange. The flow of a round (who gets which card when, R3, R4, R5) is
// played in a flat loop over fixed arrays, because going through game.Apply for every
// decision is a hundred times slower; TestSimulationAgreesWithEngine plays 20,000
// random packs both ways, with Advise taking every decision in the engine, and requires
// the same cards, kinds, stakes and nets hand by hand.
//
// # The strategy
//
// Every player stakes the same flat amount (10 chips within the table's limits; the
// edge per chip does not depend on it) and plays each hand by these rules, first match:
//
//  1. Burn (R8.8) whenever the table allows it: 13 or 14 is the worst start.
//  2. Split (R4.2) Aces and 8s when the table allows and the player holds fewer than four
//     hands; never other pairs.
//  3. Four cards totalling 11 or less (Aces as 1) cannot bust: draw to a five card trick,
//     buying at the highest price allowed (R4.3), or twisting if the hand has twisted or
//     R8.5 forbids the buy.
//  4. A soft total (an Ace counted as 11) of 18 or less cannot bust on one card: twist.
//  5. Stick on 15 or more, or the table's stick minimum (R4.5, R8.2).
//  6. Two cards totalling 10 or 11: buy the third card at twice the stake (R4.3).
//  7. Otherwise twist.
//
// In Shoot (R9) a player shoots the stake (within the kitty, R9.2) after the stakes when
// the first card is an Ace; on reaching a split hand whose first card is an Ace (R9.5);
// and with three cards totalling 11 or less, just before drawing the fourth (R9.4),
// which then cannot bust the hand. No other shoot bets.
//
// The banker doubles (R8.3) when its first card is an Ace, a 9 or worth ten. On its
// turn it draws with four cards totalling 11 or less (the fifth cannot bust it, and a
// five card trick beats every hand but a pontoon, R5.5), draws under 17, and stays on 17
// or more unless most open hands visibly hold more (R5.1: it sees the face-up cards and
// how many are face down; a hand holds at least its face-up cards with Aces as 1, one
// for each face-down card, and the stick minimum, since an open hand stuck or stopped at
// 21; a five card trick beats any four cards).
//
// The thresholds are the simulator's own findings, each alternative played in turn
// (300,000 rounds at five seats, default rules; the bank's takings per round per player
// stake, about): against a
// banker staying on 17, sticking on 15 (12.9 %) beats 16 (13.2 %) and 17 (13.6 %); against
// players sticking on 15, the banker staying on 17 (12.9 %) beats 16 (11.6 %) and 18
// (9.7 %), which holds even when staying on 16 would beat hands that stuck on 15. Drawing
// to soft 18 beats drawing to soft 17; buying on 10 or 11 at twice the stake beats 9 to
// 11, 11 alone and the lowest price; the banker doubling on A, 9 and ten-cards beats A
// and ten-cards, A alone, 8 and up, and always. Shooting on a ten-point first card and
// skipping the three-card shoot both cost the players.
//
// Simplifications: each round is dealt from a freshly shuffled pack (R6.1's unshuffled
// continuation changes nothing for players who do not count cards); the kitty is full
// (kitty_max) at the start of every Shoot round; no player sits out or times out; and
// every player and the bank can always afford their bets (R7.1, R7.2). The bank's net
// includes the kitty's, since the kitty is the banker's (R9.1, R9.9).
//
// Everything is deterministic in the seed, whatever the number of workers.
package sim

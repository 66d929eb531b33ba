package game

import "fmt"

// Code names a kind of refusal. Codes are stable: the bot turns them into a player's
// language (one catalog key per code), and tests match on them with errors.Is.
type Code string

// Error is a refusal of an action or a malformed input. Msg says why in words a player
// understands, Rule cites RULES.md, and Args carries the figures a translation needs.
// An action that returns an *Error has changed nothing.
type Error struct {
	Code Code
	Rule string
	Msg  string
	Args map[string]any
}

func (e *Error) Error() string { return e.Msg }

// Is makes errors.Is(err, ErrBelowStickMinimum) match any refusal with that code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// why names which of a code's several explanations applies, for the bot's catalog key.
func why(w string) map[string]any { return map[string]any{"why": w} }

func newErr(sentinel *Error, rule string, args map[string]any, format string, a ...any) *Error {
	return &Error{Code: sentinel.Code, Rule: rule, Msg: fmt.Sprintf(format, a...), Args: args}
}

// The refusals the engine gives. Each is a sentinel for errors.Is; the returned errors
// carry the details.
var (
	ErrWrongPhase         = &Error{Code: "wrong_phase", Msg: "that cannot be done at this point of the round"}
	ErrNotSeated          = &Error{Code: "not_seated", Msg: "that player is not seated at this table"}
	ErrNotYourTurn        = &Error{Code: "not_your_turn", Msg: "it is not your turn"}
	ErrBankerOnly         = &Error{Code: "banker_only", Msg: "only the banker may do that"}
	ErrNotForBanker       = &Error{Code: "not_for_banker", Msg: "the banker does not do that"}
	ErrAlreadyStaked      = &Error{Code: "already_staked", Msg: "you have already staked this round"}
	ErrStakeOutOfRange    = &Error{Code: "stake_out_of_range", Msg: "the stake is outside the table's limits"}
	ErrBadAmount          = &Error{Code: "bad_amount", Msg: "the amount is not a valid number of chips"}
	ErrInsufficientChips  = &Error{Code: "insufficient_chips", Msg: "you do not have enough free chips"}
	ErrBankCannotCover    = &Error{Code: "bank_cannot_cover", Msg: "the bank cannot cover that bet"}
	ErrShootOnly          = &Error{Code: "shoot_only", Msg: "that belongs to Shoot Pontoon"}
	ErrNoShootNow         = &Error{Code: "no_shoot_now", Msg: "no shoot bet may be placed now"}
	ErrOverKitty          = &Error{Code: "over_kitty", Msg: "shoot bets may not exceed the kitty"}
	ErrCannotSplit        = &Error{Code: "cannot_split", Msg: "this hand cannot be split"}
	ErrCannotBurn         = &Error{Code: "cannot_burn", Msg: "this hand cannot be burned"}
	ErrNoBuyAfterTwist    = &Error{Code: "no_buy_after_twist", Msg: "a hand that has twisted may not buy"}
	ErrBuyOutOfRange      = &Error{Code: "buy_out_of_range", Msg: "that buy is outside the allowed range"}
	ErrFourLowTwistOnly   = &Error{Code: "four_low_twist_only", Msg: "this hand may only twist its fifth card"}
	ErrHandFinished       = &Error{Code: "hand_finished", Msg: "this hand takes no more cards"}
	ErrBelowStickMinimum  = &Error{Code: "below_stick_minimum", Msg: "the total is under the stick minimum"}
	ErrShootMustDraw      = &Error{Code: "shoot_must_draw", Msg: "after a three-card shoot bet the hand must buy or twist"}
	ErrNoDoubling         = &Error{Code: "no_doubling", Msg: "the banker may not double at this table"}
	ErrKittyOutOfRange    = &Error{Code: "kitty_out_of_range", Msg: "that kitty is outside the table's limits"}
	ErrKittyRequired      = &Error{Code: "kitty_required", Msg: "the banker must put up a kitty first"}
	ErrBadSale            = &Error{Code: "bad_sale", Msg: "that bank sale is not allowed"}
	ErrPackExhausted      = &Error{Code: "pack_exhausted", Msg: "pack exhausted"}
	ErrNothingToTimeOut   = &Error{Code: "nothing_to_time_out", Msg: "that player has no action pending"}
	ErrBadAction          = &Error{Code: "bad_action", Msg: "that is not an action"}
	ErrBadTable           = &Error{Code: "bad_table", Msg: "the table is not set up correctly"}
	ErrBankerMustAct      = &Error{Code: "banker_turn", Msg: "it is the banker's turn"}
	ErrNotEnoughPlayers   = &Error{Code: "not_enough_players", Msg: "a round needs the banker and at least one other player"}
	ErrRoundNotInProgress = &Error{Code: "no_round", Msg: "no round is being played"}
)

package game

import (
	"strconv"
	"strings"
)

// Verb is what a person decides. The words are HISTORY.md's action words.
type Verb string

// The action words of HISTORY.md.
const (
	VerbStake    Verb = "stake"    // P stake N: initial stake (R3.3)
	VerbShoot    Verb = "shoot"    // P shoot N: shoot bet, 0 for none (R9.2, R9.4, R9.5)
	VerbDouble   Verb = "double"   // B double (R8.3)
	VerbNoDouble Verb = "nodouble" // B nodouble (R8.3)
	VerbSplit    Verb = "split"    // R4.2
	VerbBurn     Verb = "burn"     // R8.8
	VerbBuy      Verb = "buy"      // P buy N (R4.3)
	VerbTwist    Verb = "twist"    // R4.4
	VerbStick    Verb = "stick"    // R4.5
	VerbDraw     Verb = "draw"     // the banker takes a card (R5.2)
	VerbStay     Verb = "stay"     // the banker stops (R5.2)
	VerbKitty    Verb = "kitty"    // B kitty N: put up or top up the kitty (R9.1, R9.8)
	VerbSell     Verb = "sell"     // S sell B2 N: sell the bank (R6.3)
	VerbTimeout  Verb = "timeout"  // the turn timer ran out (R7.4)
)

// Action is one person's decision: "<player> <verb> [arguments]".
type Action struct {
	Player string
	Verb   Verb
	Amount int64  // stake, shoot, buy, kitty and sell
	Target string // sell: the buyer
}

// IsBetweenRounds reports whether the action belongs before a deal (HISTORY.md).
func (a Action) IsBetweenRounds() bool { return a.Verb == VerbKitty || a.Verb == VerbSell }

// Args writes the action's arguments as HISTORY.md does ("6", "bob 30", or "").
func (a Action) Args() string {
	switch a.Verb {
	case VerbStake, VerbShoot, VerbBuy, VerbKitty:
		return strconv.FormatInt(a.Amount, 10)
	case VerbSell:
		return a.Target + " " + strconv.FormatInt(a.Amount, 10)
	}
	return ""
}

// String writes the action as HISTORY.md does: "<player> <verb> [arguments]".
func (a Action) String() string {
	if args := a.Args(); args != "" {
		return a.Player + " " + string(a.Verb) + " " + args
	}
	return a.Player + " " + string(a.Verb)
}

// ParseAction reads "<player> <verb> [arguments]".
func ParseAction(s string) (Action, error) {
	f := strings.Fields(s)
	bad := func(format string, args ...any) (Action, error) {
		return Action{}, newErr(ErrBadAction, "", nil, format, args...)
	}
	if len(f) < 2 {
		return bad("an action is \"<player> <verb> [arguments]\"")
	}
	a := Action{Player: f[0], Verb: Verb(f[1])}
	amount := func(word string) (int64, error) {
		n, err := strconv.ParseInt(word, 10, 64)
		if err != nil || n < 0 || n > MaxChips {
			return 0, newErr(ErrBadAmount, "", nil, "%q is not an amount of chips (a whole number from 0 to %d)", word, MaxChips)
		}
		return n, nil
	}
	var err error
	switch a.Verb {
	case VerbStake, VerbShoot, VerbBuy, VerbKitty:
		if len(f) != 3 {
			return bad("%s takes one amount: \"%s %s N\"", a.Verb, a.Player, a.Verb)
		}
		a.Amount, err = amount(f[2])
	case VerbSell:
		if len(f) != 4 {
			return bad("sell takes a buyer and a price: \"%s sell BUYER N\"", a.Player)
		}
		a.Target = f[2]
		a.Amount, err = amount(f[3])
	case VerbDouble, VerbNoDouble, VerbSplit, VerbBurn, VerbTwist, VerbStick, VerbDraw, VerbStay, VerbTimeout:
		if len(f) != 2 {
			return bad("%s takes no arguments", a.Verb)
		}
	default:
		return bad("%q is not an action word", f[1])
	}
	if err != nil {
		return Action{}, err
	}
	return a, nil
}

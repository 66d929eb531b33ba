package bot

import (
	"fmt"

	"github.com/pontoon-bot/pontoon/game"
)

// cannotNowKey is the refusal with an action's own words, err.cannot_now.<verb>, for
// the engine's "not at this point of the round" (ErrWrongPhase with a verb and no more
// specific reason): "You cannot double now: …" rather than a sentence with the Double
// button's label inside it. "" when the error is another one.
func cannotNowKey(e *game.Error) string {
	if e.Code != game.ErrWrongPhase.Code {
		return ""
	}
	if _, why := e.Args["why"]; why {
		return ""
	}
	verb, ok := e.Args["verb"]
	if !ok {
		return ""
	}
	return "err.cannot_now." + fmt.Sprint(verb)
}

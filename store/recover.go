package store

import (
	"context"
	"fmt"

	"github.com/pontoon-bot/pontoon/game"
)

// RoundHistory is a stored round as a HISTORY.md history: the snapshot and pack it was
// dealt from, its actions, and the salt once the round has finished (never before: the
// salt would let anyone read the pack of a round still in play).
func RoundHistory(r Round, actions []Action) (*game.History, error) {
	h, err := game.ParseHistory([]byte(r.History))
	if err != nil {
		return nil, fmt.Errorf("round %d: stored history: %w", r.Number, err)
	}
	if len(h.Rounds) != 1 {
		return nil, fmt.Errorf("round %d: the stored history has %d rounds", r.Number, len(h.Rounds))
	}
	for _, a := range actions {
		s := a.Member + " " + a.Verb
		if a.Args != "" {
			s += " " + a.Args
		}
		h.Rounds[0].Actions = append(h.Rounds[0].Actions, s)
	}
	if r.Finished() {
		h.Rounds[0].Salt = r.Salt
	}
	return h, nil
}

// Rebuilt is an unfinished round replayed through the engine after a start.
type Rebuilt struct {
	RoundWithActions
	Game *game.Game // the round's state, as the engine rebuilds it from pack and actions
	Err  error      // why the round could not be trusted: replay failed, or escrow differs from the ledger
}

// RecoverRounds rebuilds every unfinished round by replaying its pack and actions through
// the engine (the hand history is the write-ahead log) and checks the result against what
// the ledger holds in the table's escrow and kitty. A round that fails either is returned
// with Err set, to be reported, never silently continued.
func (s *Store) RecoverRounds(ctx context.Context) ([]Rebuilt, error) {
	rounds, err := s.UnfinishedRounds(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Rebuilt, 0, len(rounds))
	for _, u := range rounds {
		rb := Rebuilt{RoundWithActions: u}
		rb.Game, rb.Err = s.rebuild(ctx, u)
		out = append(out, rb)
	}
	return out, nil
}

func (s *Store) rebuild(ctx context.Context, u RoundWithActions) (*game.Game, error) {
	h, err := RoundHistory(u.Round, u.Actions)
	if err != nil {
		return nil, err
	}
	g, _, err := game.Replay(h)
	if err != nil {
		return nil, err
	}
	if !g.InRound() {
		return nil, fmt.Errorf("round %d: its actions settle it, but it is not marked finished", u.Round.Number)
	}
	st, err := s.TableState(ctx, u.Table.ID)
	if err != nil {
		return nil, err
	}
	if g.Kitty != st.Kitty {
		return nil, fmt.Errorf("round %d: kitty: the engine has %d, the ledger %d", u.Round.Number, g.Kitty, st.Kitty)
	}
	for p, v := range g.Escrow {
		if st.Escrows[p] != v {
			return nil, fmt.Errorf("round %d: escrow of %s: the engine has %d, the ledger %d", u.Round.Number, p, v, st.Escrows[p])
		}
	}
	for p, v := range st.Escrows {
		if g.Escrow[p] != v {
			return nil, fmt.Errorf("round %d: escrow of %s: the engine has %d, the ledger %d", u.Round.Number, p, g.Escrow[p], v)
		}
	}
	return g, nil
}

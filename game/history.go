package game

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
)

// HistoryFormat is the format tag of HISTORY.md.
const HistoryFormat = "pontoon-history/1"

// History is a hand history (HISTORY.md): a table as it stood, and the pack and actions
// of each round. The bot stores every round as a one-round History; recovery, `pontoon
// replay` and `/pontoon history` all run it through Replay, so they cannot disagree.
type History struct {
	Format string         `json:"format"`
	Rules  Rules          `json:"rules"`
	Table  HistoryTable   `json:"table"`
	Rounds []HistoryRound `json:"rounds"`
}

// HistoryTable is the table before the first round.
type HistoryTable struct {
	Seats    []string         `json:"seats"`
	Banker   string           `json:"banker"`
	Balances map[string]int64 `json:"balances"`
	Kitty    int64            `json:"kitty"`
}

// HistoryRound is one round's pack (top first) and actions. Commitment and Salt are
// optional (Decision: the bot adds them so that replay can check a round against the
// commitment published before the deal; see Commitment).
//
// SeededShuffle, when present, says how a freshly shuffled pack was derived
// (pontoon-shuffle/1, HISTORY.md "Seeded shuffles"); Replay checks it.
type HistoryRound struct {
	Pack          []string       `json:"pack"`
	Actions       []string       `json:"actions"`
	Commitment    string         `json:"commitment,omitempty"`
	Salt          string         `json:"salt,omitempty"`
	SeededShuffle *SeededShuffle `json:"seeded_shuffle,omitempty"`
}

// ParseHistory reads a history strictly: unknown keys, a wrong format tag, bad rules and
// values of the wrong type are errors.
func ParseHistory(data []byte) (*History, error) {
	var aux struct {
		Format *string         `json:"format"`
		Rules  json.RawMessage `json:"rules"`
		Table  *HistoryTable   `json:"table"`
		Rounds []HistoryRound  `json:"rounds"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&aux); err != nil {
		return nil, fmt.Errorf("not a hand history: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("not a hand history: text after the JSON object")
	}
	if aux.Format == nil || *aux.Format != HistoryFormat {
		return nil, fmt.Errorf("format must be %q", HistoryFormat)
	}
	if aux.Table == nil {
		return nil, fmt.Errorf("the history has no table")
	}
	rules, err := ParseRules(aux.Rules)
	if err != nil {
		return nil, err
	}
	return &History{Format: HistoryFormat, Rules: rules, Table: *aux.Table, Rounds: aux.Rounds}, nil
}

// ReplayError names where a history went wrong: Round and Action are 1-based. Round is
// zero when the fault is in the file; Action is zero when it is in the round's pack or its
// seeded shuffle, found before any action (HISTORY.md: "naming the round with action 0").
type ReplayError struct {
	Round  int
	Action int
	Text   string // the action as written
	Err    error
}

func (e *ReplayError) Error() string {
	switch {
	case e.Round == 0:
		return fmt.Sprintf("history: %v", e.Err)
	case e.Action == 0:
		return fmt.Sprintf("round %d, action 0: %v", e.Round, e.Err)
	}
	return fmt.Sprintf("round %d, action %d %q: %v", e.Round, e.Action, e.Text, e.Err)
}

func (e *ReplayError) Unwrap() error { return e.Err }

// Report is what `pontoon replay --json` prints (HISTORY.md).
type Report struct {
	Balances map[string]int64 `json:"balances"`
	Kitty    int64            `json:"kitty"`
	Banker   string           `json:"banker"`
	Rounds   []RoundReport    `json:"rounds"`
}

// RoundReport is one round's account.
type RoundReport struct {
	Banker     string       `json:"banker"`
	BankerHand HandReport   `json:"banker_hand"`
	Hands      []HandResult `json:"hands"`
	NextBanker string       `json:"next_banker"`
	Shuffle    bool         `json:"shuffle"`
	Complete   *bool        `json:"complete,omitempty"` // present, false, only for a round the history stops inside

	// NotDealt marks a stopped Shoot round that waits for its kitty (R9.1): the
	// readable output says so. It is not part of HISTORY.md's JSON.
	NotDealt bool `json:"-"`
	// Seeded is what replay could check of the round's seeded shuffle, for the readable
	// output (HISTORY.md asks it to say when the seed is not yet revealed).
	Seeded SeedCheck `json:"-"`
}

// SeedCheck is what Replay checked of a round's "seeded_shuffle".
type SeedCheck uint8

// The outcomes of checking a seeded shuffle. A mismatch is not among them: it fails the
// replay, naming the round.
const (
	SeedNone       SeedCheck = iota // the round has no seeded_shuffle
	SeedUnrevealed                  // the server seed is still secret: only its form was checked
	SeedVerified                    // the commitment matches the seed and the pack matches the derivation
)

// HandReport is a hand's cards and evaluation.
type HandReport struct {
	Cards []string `json:"cards"`
	Kind  string   `json:"kind"`
	Total int      `json:"total"`
}

// HandResult is a player's hand in a RoundReport.
type HandResult struct {
	Player string   `json:"player"`
	Hand   int      `json:"hand"`
	Cards  []string `json:"cards"`
	Kind   string   `json:"kind"`
	Total  int      `json:"total"`
	Stake  int64    `json:"stake"`
	Shoot  int64    `json:"shoot"`
	Net    int64    `json:"net"`
}

// Replay plays a history through the engine and returns the final game and the report.
// Between-round actions (kitty, sell) come first in a round's list; the round is dealt
// at its first other action, or after the list if there is none.
func Replay(h *History) (*Game, *Report, error) {
	t := h.Table
	g, err := NewGame(h.Rules, t.Seats, t.Banker, t.Balances, t.Kitty)
	if err != nil {
		return nil, nil, &ReplayError{Err: err}
	}
	rep := &Report{Rounds: []RoundReport{}}
	for ri, round := range h.Rounds {
		rn := ri + 1
		pack, err := ParseCards(round.Pack)
		if err == nil {
			err = ValidatePack(pack, h.Rules.DecksFor(len(g.Seats)))
		}
		// A commitment is checked once its salt is revealed; the bot stores rounds in play
		// with the commitment alone.
		if err == nil && round.Salt != "" && Commitment(pack, round.Salt) != round.Commitment {
			err = fmt.Errorf("the pack does not match its commitment %q with salt %q", round.Commitment, round.Salt)
		}
		if err != nil {
			return g, nil, &ReplayError{Round: rn, Err: fmt.Errorf("pack: %w", err)}
		}
		seeded := SeedNone
		if ss := round.SeededShuffle; ss != nil {
			revealed, err := ss.Verify(pack, h.Rules.DecksFor(len(g.Seats)))
			if err != nil {
				return g, nil, &ReplayError{Round: rn, Err: err}
			}
			seeded = SeedUnrevealed
			if revealed {
				seeded = SeedVerified
			}
		}
		dealt := false
		for ai, s := range round.Actions {
			fail := func(err error) (*Game, *Report, error) {
				return g, nil, &ReplayError{Round: rn, Action: ai + 1, Text: s, Err: err}
			}
			a, err := ParseAction(s)
			if err != nil {
				return fail(err)
			}
			if dealt && !g.InRound() {
				return fail(fmt.Errorf("the round has already settled; the next round's actions belong in the next round"))
			}
			if !dealt && !a.IsBetweenRounds() {
				if err := g.Deal(pack); err != nil {
					return fail(err)
				}
				dealt = true
			}
			if _, err := g.Apply(a); err != nil {
				return fail(err)
			}
		}
		if !dealt {
			// A Shoot round whose banker has not yet put up the kitty (R9.1, R9.8, R9.9)
			// is where the bot stops between a settled round and the next deal: the last
			// round of a history may stop there, nothing dealt, nothing moved (HISTORY.md).
			if rn == len(h.Rounds) && g.Rules.Variant == Shoot && g.Kitty == 0 {
				rr := g.undealtReport()
				rr.Seeded = seeded
				rep.Rounds = append(rep.Rounds, rr)
				break
			}
			if err := g.Deal(pack); err != nil {
				return g, nil, &ReplayError{Round: rn, Err: err}
			}
		}
		rr := g.RoundReport()
		rr.Seeded = seeded
		rep.Rounds = append(rep.Rounds, rr)
	}
	rep.Balances = maps.Clone(g.Balances)
	rep.Kitty = g.Kitty
	rep.Banker = g.Banker
	return g, rep, nil
}

// RoundReport describes the current or last round as HISTORY.md's JSON does.
func (g *Game) RoundReport() RoundReport {
	r := g.Round
	if r == nil {
		return RoundReport{}
	}
	rr := RoundReport{Banker: r.Banker, Hands: []HandResult{}, NextBanker: g.Banker}
	bv := Evaluate(Cards(r.BankerHand), g.Rules, true)
	rr.BankerHand = HandReport{Cards: cardStrings(r.BankerHand), Kind: bv.Kind.String(), Total: bv.Total}
	for _, h := range r.Hands {
		if !h.Active() {
			continue
		}
		v := h.Value(g.Rules)
		rr.Hands = append(rr.Hands, HandResult{Player: h.Player, Hand: h.Number, Cards: cardStrings(h.Cards),
			Kind: v.Kind.String(), Total: v.Total, Stake: h.Stake, Shoot: h.Shoot, Net: h.Net})
	}
	if r.Outcome != nil {
		rr.NextBanker, rr.Shuffle = r.Outcome.NextBanker, r.Outcome.Shuffle
	} else {
		f := false
		rr.Complete = &f
	}
	return rr
}

// undealtReport is a round listed before its banker put up the kitty: stopped, with
// no cards and no hands (HISTORY.md).
func (g *Game) undealtReport() RoundReport {
	f := false
	return RoundReport{Banker: g.Banker, BankerHand: HandReport{Cards: []string{}, Kind: KindPoints.String()},
		Hands: []HandResult{}, NextBanker: g.Banker, Complete: &f, NotDealt: true}
}

func cardStrings(hc []HandCard) []string { return CardStrings(Cards(hc)) }

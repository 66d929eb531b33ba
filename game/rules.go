package game

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// MaxChips bounds every amount and balance the engine handles. It keeps every product the
// rules need (a stake times three) far from int64 overflow and inside the ±2^53 that
// Discord's integer options and JSON numbers carry exactly.
const MaxChips int64 = 1 << 50

// Variant is the game played at a table.
type Variant string

// The two variants: plain Pontoon and Shoot Pontoon (R9).
const (
	Classic Variant = "classic"
	Shoot   Variant = "shoot"
)

// SplitRule is which pairs may be split (R8.1).
type SplitRule string

// The split variations (R8.1).
const (
	SplitAny  SplitRule = "any"
	SplitAces SplitRule = "aces"
	SplitNone SplitRule = "none"
)

// Tiers says how pontoons compare with each other (R8.7).
type Tiers string

// The pontoon tier variations (R8.7).
const (
	TiersEqual           Tiers = "equal"
	TiersPictureBeatsTen Tiers = "picture_beats_ten"
	TiersTenNotPontoon   Tiers = "ten_not_pontoon"
	TiersNaturals        Tiers = "naturals"
)

// Decks is how many packs are shuffled together (R1.2): 0 means auto.
type Decks int

// DecksAuto uses two packs when eight or more players are seated, else one (R1.2).
const DecksAuto Decks = 0

// Rules are one table's house rules: the limits and every variation of R8 and R9.
// The JSON keys are those of HISTORY.md's "rules" object.
type Rules struct {
	Variant               Variant   `json:"variant"`
	MinStake              int64     `json:"min_stake"`
	MaxStake              int64     `json:"max_stake"`
	KittyMin              int64     `json:"kitty_min"`
	KittyMax              int64     `json:"kitty_max"`
	StickMin              int       `json:"stick_min"`
	Split                 SplitRule `json:"split"`
	BankerMayDouble       bool      `json:"banker_may_double"`
	PontoonPays           int64     `json:"pontoon_pays"`
	BankerPontoonCollects int64     `json:"banker_pontoon_collects"`
	FourLowTwistOnly      bool      `json:"four_low_twist_only"`
	RoyalPontoon          bool      `json:"royal_pontoon"`
	PontoonTiers          Tiers     `json:"pontoon_tiers"`
	Burn                  int       `json:"burn"`
	Decks                 Decks     `json:"decks"`
}

// DefaultRules are RULES.md's defaults (the first value of each R8 key). The page gives
// no default limits; Decision: stakes 1 to 50 and a kitty of 10 to 200, the figures of
// HISTORY.md's examples.
func DefaultRules() Rules {
	return Rules{
		Variant:               Classic,
		MinStake:              1,
		MaxStake:              50,
		KittyMin:              10,
		KittyMax:              200,
		StickMin:              15,
		Split:                 SplitAny,
		PontoonPays:           2,
		BankerPontoonCollects: 2,
		PontoonTiers:          TiersEqual,
		Burn:                  0,
		Decks:                 DecksAuto,
	}
}

// ParseRules reads a HISTORY.md rules object over the defaults. An unknown key or a
// value outside the allowed set is an error.
func ParseRules(raw []byte) (Rules, error) {
	r := DefaultRules()
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return r, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return Rules{}, fmt.Errorf("rules: %w", err)
	}
	if err := r.Validate(); err != nil {
		return Rules{}, err
	}
	return r, nil
}

// Validate checks every value against the sets RULES.md allows.
func (r Rules) Validate() error {
	bad := func(key string, v any, allowed string) error {
		return fmt.Errorf("rules: %s is %v; allowed: %s", key, v, allowed)
	}
	switch r.Variant {
	case Classic, Shoot:
	default:
		return bad("variant", r.Variant, "classic, shoot")
	}
	if r.MinStake < 1 || r.MinStake > MaxChips {
		return bad("min_stake", r.MinStake, "a whole number of chips from 1")
	}
	if r.MaxStake < r.MinStake || r.MaxStake > MaxChips {
		return bad("max_stake", r.MaxStake, fmt.Sprintf("at least min_stake (%d)", r.MinStake))
	}
	if r.KittyMin < 1 || r.KittyMin > MaxChips {
		return bad("kitty_min", r.KittyMin, "a whole number of chips from 1")
	}
	if r.KittyMax < r.KittyMin || r.KittyMax > MaxChips {
		return bad("kitty_max", r.KittyMax, fmt.Sprintf("at least kitty_min (%d)", r.KittyMin))
	}
	if r.StickMin != 15 && r.StickMin != 16 {
		return bad("stick_min", r.StickMin, "15, 16")
	}
	switch r.Split {
	case SplitAny, SplitAces, SplitNone:
	default:
		return bad("split", r.Split, "any, aces, none")
	}
	if r.PontoonPays < 1 || r.PontoonPays > 3 {
		return bad("pontoon_pays", r.PontoonPays, "2, 1, 3")
	}
	if r.BankerPontoonCollects != 1 && r.BankerPontoonCollects != 2 {
		return bad("banker_pontoon_collects", r.BankerPontoonCollects, "2, 1")
	}
	switch r.PontoonTiers {
	case TiersEqual, TiersPictureBeatsTen, TiersTenNotPontoon, TiersNaturals:
	default:
		return bad("pontoon_tiers", r.PontoonTiers, "equal, picture_beats_ten, ten_not_pontoon, naturals")
	}
	if r.Burn != 0 && r.Burn != 13 && r.Burn != 14 {
		return bad("burn", r.Burn, "0, 13, 14")
	}
	if r.Decks != DecksAuto && r.Decks != 1 && r.Decks != 2 {
		return bad("decks", r.Decks, "auto, 1, 2")
	}
	return nil
}

// DecksFor is how many packs a table of seated players uses (R1.2).
func (r Rules) DecksFor(seated int) int {
	switch {
	case r.Decks == 1 || r.Decks == 2:
		return int(r.Decks)
	case seated >= 8:
		return 2
	default:
		return 1
	}
}

// maxPayoutMultiple is the most a winning hand can be paid, in stakes (R7.2): the
// largest of pontoon_pays, 2 (five card trick or a doubled ordinary win) and 3 for a
// royal pontoon.
func (r Rules) maxPayoutMultiple() int64 {
	m := max(r.PontoonPays, 2)
	if r.RoyalPontoon {
		m = max(m, 3)
	}
	return m
}

// MarshalJSON writes "auto", 1 or 2.
func (d Decks) MarshalJSON() ([]byte, error) {
	if d == DecksAuto {
		return []byte(`"auto"`), nil
	}
	return []byte(strconv.Itoa(int(d))), nil
}

// UnmarshalJSON reads "auto", 1, 2, "1" or "2".
func (d *Decks) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		if s == "auto" {
			*d = DecksAuto
			return nil
		}
		b = []byte(s)
	}
	n, err := strconv.Atoi(string(b))
	if err != nil || (n != 1 && n != 2) {
		return fmt.Errorf("decks is %s; allowed: auto, 1, 2", string(b))
	}
	*d = Decks(n)
	return nil
}

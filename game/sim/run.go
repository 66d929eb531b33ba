package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/pontoon-bot/pontoon/game"
)

// Config is one simulation: a rule set, the table size (banker included), how many
// rounds and the seed that fixes every pack.
type Config struct {
	Rules   game.Rules
	Seats   int
	Rounds  int
	Seed    uint64
	Workers int // goroutines; 0 uses GOMAXPROCS. The result does not depend on it.
}

// Result is what a rule set gives over the simulated rounds, from the bank's side.
type Result struct {
	Rules        game.Rules         `json:"rules"`
	Rounds       int64              `json:"rounds"`
	PlayerHands  int64              `json:"player_hands"`
	Staked       int64              `json:"staked"`
	BankerNet    int64              `json:"banker_net"`
	Edge         float64            `json:"edge"`           // the bank's net per chip staked
	EdgeHalf     float64            `json:"edge_ci95"`      // half-width of the 95 % interval of Edge
	BankPerRound float64            `json:"bank_per_round"` // the bank's expected chips per round
	Stake        int64              `json:"stake"`          // the flat initial stake each player places
	PlayerKinds  map[string]float64 `json:"player_kinds"`   // share of final player hands of each kind
	BankerKinds  map[string]float64 `json:"banker_kinds"`   // share of rounds by the banker's final hand
}

// Effect is one rule's change to the bank's edge against the defaults, on the same packs.
type Effect struct {
	Rule       string  `json:"rule"` // key=value, as `pontoon simulate --rules` takes it
	Result     Result  `json:"result"`
	Change     float64 `json:"change"`      // Edge minus the defaults' edge
	ChangeHalf float64 `json:"change_ci95"` // half-width of its 95 % interval (paired rounds)
}

// Report is a simulation of Config's rules with the defaults and every variation of
// RULES.md R8 (and Shoot, R9) beside it for comparison.
type Report struct {
	Seats    int      `json:"seats"`
	Rounds   int      `json:"rounds"`
	Seed     uint64   `json:"seed"`
	Result   Result   `json:"result"`
	Defaults Result   `json:"defaults"`
	Effects  []Effect `json:"effects"`
}

// Variation is one change of one rule from the defaults.
type Variation struct {
	Key, Value string
	Apply      func(*game.Rules)
}

// Variations lists every value of RULES.md's R8 keys other than the default, and Shoot.
func Variations() []Variation {
	return []Variation{
		{"split", "aces", func(r *game.Rules) { r.Split = game.SplitAces }},
		{"split", "none", func(r *game.Rules) { r.Split = game.SplitNone }},
		{"stick_min", "16", func(r *game.Rules) { r.StickMin = 16 }},
		{"banker_may_double", "true", func(r *game.Rules) { r.BankerMayDouble = true }},
		{"pontoon_pays", "1", func(r *game.Rules) { r.PontoonPays = 1 }},
		{"pontoon_pays", "3", func(r *game.Rules) { r.PontoonPays = 3 }},
		{"banker_pontoon_collects", "1", func(r *game.Rules) { r.BankerPontoonCollects = 1 }},
		{"four_low_twist_only", "true", func(r *game.Rules) { r.FourLowTwistOnly = true }},
		{"royal_pontoon", "true", func(r *game.Rules) { r.RoyalPontoon = true }},
		{"pontoon_tiers", "picture_beats_ten", func(r *game.Rules) { r.PontoonTiers = game.TiersPictureBeatsTen }},
		{"pontoon_tiers", "ten_not_pontoon", func(r *game.Rules) { r.PontoonTiers = game.TiersTenNotPontoon }},
		{"pontoon_tiers", "naturals", func(r *game.Rules) { r.PontoonTiers = game.TiersNaturals }},
		{"burn", "13", func(r *game.Rules) { r.Burn = 13 }},
		{"burn", "14", func(r *game.Rules) { r.Burn = 14 }},
		{"variant", "shoot", func(r *game.Rules) { r.Variant = game.Shoot }},
	}
}

// acc sums one rule set's rounds; cross sums pair it with the defaults (index 1).
type acc struct {
	n                      float64
	x, s, xx, xs, ss       float64
	xx0, xs0, sx0, ss0     float64 // x·x0, x·s0, s·x0, s·s0
	kinds, bkinds          [6]int64
	hands, staked, bankNet int64
}

func (a *acc) add(b *acc) {
	a.n += b.n
	a.x, a.s, a.xx, a.xs, a.ss = a.x+b.x, a.s+b.s, a.xx+b.xx, a.xs+b.xs, a.ss+b.ss
	a.xx0, a.xs0, a.sx0, a.ss0 = a.xx0+b.xx0, a.xs0+b.xs0, a.sx0+b.sx0, a.ss0+b.ss0
	for i := range a.kinds {
		a.kinds[i] += b.kinds[i]
		a.bkinds[i] += b.bkinds[i]
	}
	a.hands, a.staked, a.bankNet = a.hands+b.hands, a.staked+b.staked, a.bankNet+b.bankNet
}

const block = 4096 // rounds per unit of work; block b's packs come from PCG(seed, b·4+decks)

// Run simulates cfg's rules alone: the bank's edge and its expected value per round at
// this table (BankPerRound), e.g. for a fair-price hint on a bank offer (R6.3).
func Run(cfg Config) (Result, error) {
	if err := check(cfg); err != nil {
		return Result{}, err
	}
	accs := run([]game.Rules{cfg.Rules}, cfg)
	return result(cfg.Rules, &accs[0]), nil
}

func check(cfg Config) error {
	if err := cfg.Rules.Validate(); err != nil {
		return err
	}
	if cfg.Seats < 2 || cfg.Seats > 8 {
		return fmt.Errorf("seats must be from 2 to 8 (the banker and 1 to 7 players), not %d", cfg.Seats)
	}
	if cfg.Rounds < 1 {
		return fmt.Errorf("rounds must be at least 1, not %d", cfg.Rounds)
	}
	return nil
}

// Simulate runs cfg's rules, the defaults and every Variation of the defaults over the
// same packs, and reports each rule's effect against the defaults with a paired 95 %
// interval. Everything is deterministic in cfg.Seed.
func Simulate(cfg Config) (Report, error) {
	if err := check(cfg); err != nil {
		return Report{}, err
	}
	sets := []game.Rules{cfg.Rules, game.DefaultRules()}
	vars := Variations()
	for _, v := range vars {
		r := game.DefaultRules()
		v.Apply(&r)
		sets = append(sets, r)
	}
	accs := run(sets, cfg)
	rep := Report{Seats: cfg.Seats, Rounds: cfg.Rounds, Seed: cfg.Seed}
	results := make([]Result, len(sets))
	for i := range sets {
		results[i] = result(sets[i], &accs[i])
	}
	rep.Result, rep.Defaults = results[0], results[1]
	for i, v := range vars {
		k := i + 2
		ch, half := change(&accs[k], &accs[1])
		rep.Effects = append(rep.Effects, Effect{Rule: v.Key + "=" + v.Value, Result: results[k], Change: ch, ChangeHalf: half})
	}
	return rep, nil
}

// run plays cfg.Rounds rounds of every rule set, in blocks spread over workers.
func run(sets []game.Rules, cfg Config) []acc {
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	blocks := (cfg.Rounds + block - 1) / block
	next := make(chan int)
	out := make([][]acc, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			sum := make([]acc, len(sets))
			tables := make([]*Table, len(sets))
			for i, r := range sets {
				tables[i] = NewTable(r, cfg.Seats-1)
			}
			for b := range next {
				playBlock(tables, sets, cfg, b, sum)
			}
			out[w] = sum
		}(w)
	}
	for b := 0; b < blocks; b++ {
		next <- b
	}
	close(next)
	wg.Wait()
	total := make([]acc, len(sets))
	for _, sum := range out {
		for i := range total {
			total[i].add(&sum[i])
		}
	}
	return total
}

func playBlock(tables []*Table, sets []game.Rules, cfg Config, b int, sum []acc) {
	n := min(block, cfg.Rounds-b*block)
	var rngs [3]*rand.Rand
	var packs [3][]game.Card
	ref := min(1, len(sets)-1) // the defaults, when Simulate runs them beside others
	xs := make([]float64, len(sets))
	ss := make([]float64, len(sets))
	for _, r := range sets {
		if d := r.DecksFor(cfg.Seats); packs[d] == nil {
			rngs[d] = rand.New(rand.NewPCG(cfg.Seed, uint64(b)*4+uint64(d)))
			packs[d] = game.NewPack(d)
		}
	}
	for round := 0; round < n; round++ {
		var shuffled [3]bool
		for i, r := range sets {
			d := r.DecksFor(cfg.Seats)
			if !shuffled[d] { // reshuffling the last order is as random as a fresh pack
				Shuffle(packs[d], rngs[d])
				shuffled[d] = true
			}
			res := tables[i].Play(packs[d])
			xs[i], ss[i] = float64(res.BankerNet), float64(res.Staked)
		}
		for i := range sets {
			a := &sum[i]
			x, s := xs[i], ss[i]
			x0, s0 := xs[ref], ss[ref]
			a.n++
			a.x, a.s, a.xx, a.xs, a.ss = a.x+x, a.s+s, a.xx+x*x, a.xs+x*s, a.ss+s*s
			a.xx0, a.xs0, a.sx0, a.ss0 = a.xx0+x*x0, a.xs0+x*s0, a.sx0+s*x0, a.ss0+s*s0
			a.bankNet += int64(x)
			a.staked += int64(s)
		}
	}
	for i, t := range tables {
		a := &sum[i]
		for k := range a.kinds {
			a.kinds[k] += t.playerKinds[k]
			a.bkinds[k] += t.bankerKinds[k]
		}
		a.hands += t.handCount
		t.playerKinds, t.bankerKinds, t.handCount = [6]int64{}, [6]int64{}, 0
	}
}

// result turns sums into the edge with its 95 % interval (the ratio's delta method).
func result(r game.Rules, a *acc) Result {
	e := a.x / a.s
	ms := a.s / a.n
	v := (a.xx - 2*e*a.xs + e*e*a.ss) / a.n // variance of x - e·s per round
	res := Result{Rules: r, Rounds: int64(a.n), PlayerHands: a.hands, Staked: a.staked, BankerNet: a.bankNet,
		Edge: e, EdgeHalf: 1.96 * math.Sqrt(v/a.n) / ms, BankPerRound: a.x / a.n, Stake: stakeFor(r),
		PlayerKinds: map[string]float64{}, BankerKinds: map[string]float64{}}
	var hands, rounds int64
	for k := range a.kinds {
		hands += a.kinds[k]
		rounds += a.bkinds[k]
	}
	for k := range a.kinds {
		name := game.Kind(k).String()
		res.PlayerKinds[name] = float64(a.kinds[k]) / float64(max(hands, 1))
		res.BankerKinds[name] = float64(a.bkinds[k]) / float64(max(rounds, 1))
	}
	return res
}

// change is a's edge minus the defaults' (d), with the 95 % half-width of the paired
// difference: both were played on the same packs.
func change(a, d *acc) (float64, float64) {
	ea, ed := a.x/a.s, d.x/d.s
	ma, md := a.s/a.n, d.s/d.n
	va := (a.xx - 2*ea*a.xs + ea*ea*a.ss) / a.n
	vd := (d.xx - 2*ed*d.xs + ed*ed*d.ss) / d.n
	cov := (a.xx0 - ed*a.xs0 - ea*a.sx0 + ea*ed*a.ss0) / a.n
	v := va/(ma*ma) + vd/(md*md) - 2*cov/(ma*md)
	return ea - ed, 1.96 * math.Sqrt(max(v, 0)/a.n)
}

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/game/sim"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newSimulateCmd) }

func newSimulateCmd(stdout, stderr io.Writer) *cobra.Command {
	var (
		rules  []string
		seats  int
		rounds int
		seed   uint64
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "simulate",
		Short: "Simulate whole rounds and report the banker's edge under a rule set",
		Long: "Plays whole rounds with the strategy documented in game/sim and reports the bank's edge per\n" +
			"chip staked with a 95% interval, the rate of each hand kind, and the effect of each house rule\n" +
			"(RULES.md R8, and Shoot) against the defaults, on the same packs.\n\n" +
			"--rules takes a JSON file holding a rules object (HISTORY.md's keys) or key=value pairs\n" +
			"(several with commas, or the flag repeated), e.g. --rules split=aces,burn=13.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, err := simRules(rules)
			if err != nil {
				return err
			}
			rep, err := sim.Simulate(sim.Config{Rules: r, Seats: seats, Rounds: rounds, Seed: seed})
			if err != nil {
				return err
			}
			if asJSON {
				writeJSON(stdout, rep)
				return nil
			}
			writeSimulation(stdout, rep, rules)
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&rules, "rules", nil, "a rules file (JSON) or key=value house rules, over RULES.md's defaults")
	cmd.Flags().IntVar(&seats, "seats", 5, "seats at the table, the banker included (2 to 8)")
	cmd.Flags().IntVar(&rounds, "rounds", 200000, "rounds to play for each rule set")
	cmd.Flags().Uint64Var(&seed, "seed", 1, "seed of the packs: the same seed gives the same figures")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object instead of a table")
	return cmd
}

// simRules reads --rules values over the defaults: each a JSON file or key=value pairs.
// Values are checked by game.ParseRules, so a bad key or value names itself.
func simRules(args []string) (game.Rules, error) {
	def, _ := json.Marshal(game.DefaultRules())
	m := map[string]any{}
	_ = json.Unmarshal(def, &m)
	for _, arg := range args {
		if !strings.Contains(arg, "=") {
			data, err := os.ReadFile(arg)
			if err != nil {
				return game.Rules{}, fmt.Errorf("--rules %s: %w", arg, err)
			}
			var f map[string]any
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.UseNumber()
			if err := dec.Decode(&f); err != nil {
				return game.Rules{}, fmt.Errorf("--rules %s: not a JSON rules object: %w", arg, err)
			}
			for k, v := range f {
				m[k] = v
			}
			continue
		}
		for _, kv := range strings.Split(arg, ",") {
			k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
			if !ok || k == "" {
				return game.Rules{}, fmt.Errorf("--rules %q: expected key=value", kv)
			}
			m[k] = ruleValue(v)
		}
	}
	data, _ := json.Marshal(m)
	r, err := game.ParseRules(data)
	if err != nil {
		return game.Rules{}, fmt.Errorf("--rules: %w", err)
	}
	return r, nil
}

// ruleValue types a command-line value as JSON would: a whole number, true or false, or
// a word.
func ruleValue(v string) any {
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		return n
	}
	if b, err := strconv.ParseBool(v); err == nil && (v == "true" || v == "false") {
		return b
	}
	return v
}

func pct(f float64) string { return fmt.Sprintf("%+.2f%%", 100*f) }

var kindOrder = []string{"royal_pontoon", "pontoon", "five_card_trick", "twenty_one", "points", "bust"}

func kinds(m map[string]float64) string {
	var parts []string
	for _, k := range kindOrder {
		if v := m[k]; v > 0 {
			parts = append(parts, fmt.Sprintf("%s %.2f%%", strings.ReplaceAll(k, "_", " "), 100*v))
		}
	}
	return strings.Join(parts, ", ")
}

// writeSimulation prints the report as a readable table.
func writeSimulation(w io.Writer, rep sim.Report, rules []string) {
	r := rep.Result
	set := "the defaults of RULES.md"
	if len(rules) > 0 {
		set = strings.Join(rules, " ")
	}
	fmt.Fprintf(w, "%d rounds at %d seats (the banker and %d players), seed %d, rules: %s\n", rep.Rounds, rep.Seats, rep.Seats-1, rep.Seed, set)
	fmt.Fprintf(w, "Banker's edge: %s of every chip staked (95%% interval %s to %s)\n", pct(r.Edge), pct(r.Edge-r.EdgeHalf), pct(r.Edge+r.EdgeHalf))
	fmt.Fprintf(w, "The bank's expected value: %+.3f chips a round, players staking %d each\n", r.BankPerRound, r.Stake)
	fmt.Fprintf(w, "Player hands (%d): %s\n", r.PlayerHands, kinds(r.PlayerKinds))
	fmt.Fprintf(w, "Banker's hands: %s\n", kinds(r.BankerKinds))
	fmt.Fprintf(w, "\nEach rule alone against the defaults (edge %s), on the same packs:\n", pct(rep.Defaults.Edge))
	effects := append([]sim.Effect(nil), rep.Effects...)
	sort.SliceStable(effects, func(i, j int) bool { return effects[i].Change > effects[j].Change })
	fmt.Fprintf(w, "  %-34s %9s %20s\n", "rule", "edge", "change (95%)")
	for _, e := range effects {
		fmt.Fprintf(w, "  %-34s %9s %11s ± %.2f%%\n", e.Rule, pct(e.Result.Edge), pct(e.Change), 100*e.ChangeHalf)
	}
}

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newReplayCmd) }

func newReplayCmd(stdout, stderr io.Writer) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "replay FILE",
		Short: "Replay a hand history (HISTORY.md) and print what happened",
		Long: "Replays a hand history through the same engine the bot uses. Exit status 0 when every\n" +
			"round replays legally; otherwise one line on stderr names the round, the action and why.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return replay(args[0], asJSON, stdout, stderr)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object (HISTORY.md) instead of a readable account")
	return cmd
}

func replay(path string, asJSON bool, stdout, stderr io.Writer) error {
	fail := func(re *game.ReplayError) error {
		fmt.Fprintln(stderr, re.Error())
		if asJSON {
			why := re.Err.Error()
			out := map[string]any{"error": map[string]any{"round": re.Round, "action": re.Action, "why": why}}
			writeJSON(stdout, out)
		}
		return exitError{1}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fail(&game.ReplayError{Err: err})
	}
	h, err := game.ParseHistory(data)
	if err != nil {
		return fail(&game.ReplayError{Err: err})
	}
	_, rep, err := game.Replay(h)
	if err != nil {
		var re *game.ReplayError
		if !errors.As(err, &re) {
			re = &game.ReplayError{Err: err}
		}
		return fail(re)
	}
	if asJSON {
		writeJSON(stdout, rep)
		return nil
	}
	writeText(stdout, h, rep)
	return nil
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

// writeText prints a readable account of each round.
func writeText(w io.Writer, h *game.History, rep *game.Report) {
	for i, r := range rep.Rounds {
		fmt.Fprintf(w, "Round %d, banker %s\n", i+1, r.Banker)
		switch r.Seeded {
		case game.SeedVerified:
			fmt.Fprintf(w, "  seeded shuffle (%s): the server seed matches the commitment and the pack matches the derivation\n", game.ShuffleAlg)
		case game.SeedUnrevealed:
			fmt.Fprintf(w, "  seeded shuffle (%s): the server seed is not revealed yet, so the derivation was not checked\n", game.ShuffleAlg)
		}
		if r.NotDealt {
			fmt.Fprintf(w, "  (not dealt: %s has not put up the kitty yet, R9.1; nothing has moved)\n", r.Banker)
			continue
		}
		for _, hd := range r.Hands {
			fmt.Fprintf(w, "  %-12s hand %d: %-20s %-15s %2d  stake %d", hd.Player, hd.Hand, strings.Join(hd.Cards, " "), hd.Kind, hd.Total, hd.Stake)
			if hd.Shoot > 0 {
				fmt.Fprintf(w, "  shoot %d", hd.Shoot)
			}
			fmt.Fprintf(w, "  net %+d\n", hd.Net)
		}
		b := r.BankerHand
		fmt.Fprintf(w, "  %-12s banker: %-20s %-15s %2d\n", r.Banker, strings.Join(b.Cards, " "), b.Kind, b.Total)
		if r.Complete != nil && !*r.Complete {
			fmt.Fprintln(w, "  (the history stops inside this round; open stakes are still held)")
			continue
		}
		shuffle := "no (used cards go under the pack)"
		if r.Shuffle {
			shuffle = "yes"
		}
		fmt.Fprintf(w, "  next banker: %s; shuffle: %s\n", r.NextBanker, shuffle)
	}
	names := make([]string, 0, len(rep.Balances))
	for n := range rep.Balances {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return indexOf(h.Table.Seats, names[i]) < indexOf(h.Table.Seats, names[j]) })
	fmt.Fprintln(w, "Balances:")
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %d\n", n, rep.Balances[n])
	}
	if h.Rules.Variant == game.Shoot {
		fmt.Fprintf(w, "Kitty: %d\n", rep.Kitty)
	}
	fmt.Fprintf(w, "Banker: %s\n", rep.Banker)
}

func indexOf(ss []string, s string) int {
	for i, x := range ss {
		if x == s {
			return i
		}
	}
	return len(ss)
}

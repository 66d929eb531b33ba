package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strconv"
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
		return fail(&game.ReplayError{Err: historyError(path, data, err)})
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

// historyWanted is what replay reads, for a message about a file that is not it.
const historyWanted = `want a hand history (HISTORY.md): a JSON object with "format": "` + game.HistoryFormat + `", "rules", "table" and "rounds"`

// historyError says on one line why data, read from path, is not a history it can
// replay: the file, where the JSON went wrong (line and column) and what a history
// is, in the words of the file rather than of the decoder's Go types.
func historyError(path string, data []byte, err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fmt.Errorf("%s is not JSON: %s at %s; %s", path, syntax.Error(), position(data, syntax.Offset), historyWanted)
	case errors.As(err, &typ):
		what := "the file"
		if typ.Field != "" {
			what = strconv.Quote(typ.Field)
		}
		return fmt.Errorf("%s is not a hand history: %s is %s at %s, where %s belongs; %s",
			path, what, withArticle(typ.Value), position(data, typ.Offset), jsonKind(typ.Type), historyWanted)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%s is not a hand history: the JSON ends before it is complete; %s", path, historyWanted)
	}
	msg := err.Error()
	if before, key, ok := strings.Cut(msg, "json: unknown field "); ok {
		where := ""
		if off := keyOffset(data, key); off >= 0 {
			where = " at " + position(data, int64(off)+1)
		}
		if strings.HasPrefix(before, "rules") {
			return fmt.Errorf("%s: the rules have no key %s%s; HISTORY.md lists the rules' keys", path, key, where)
		}
		return fmt.Errorf("%s is not a hand history: unknown key %s%s; %s", path, key, where, historyWanted)
	}
	return fmt.Errorf("%s: %s", path, msg)
}

// position is where the decoder stopped, offset bytes into data (at the last byte it
// read), as a person finds it in an editor.
func position(data []byte, offset int64) string {
	i := int(min(max(offset-1, 0), int64(len(data))))
	before := data[:i]
	line := bytes.Count(before, []byte("\n")) + 1
	col := i - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("line %d, column %d", line, col)
}

// keyOffset is where key, quoted as JSON writes it, first stands as a key in data, or -1.
func keyOffset(data []byte, quoted string) int {
	for i := 0; ; {
		j := bytes.Index(data[i:], []byte(quoted))
		if j < 0 {
			return -1
		}
		at := i + j
		if rest := bytes.TrimLeft(data[at+len(quoted):], " \t\r\n"); len(rest) > 0 && rest[0] == ':' {
			return at
		}
		i = at + len(quoted)
	}
}

// withArticle names a JSON value kind as the decoder reports it ("array", "number").
func withArticle(kind string) string {
	switch kind {
	case "array", "object":
		return "an " + kind
	case "string":
		return "text"
	case "bool":
		return "true or false"
	}
	return "a " + kind
}

// jsonKind names what JSON value a Go type reads.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.String:
		return "text"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "another value"
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

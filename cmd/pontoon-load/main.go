package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/pontoon-bot/pontoon/bot/discordtest/load"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	var cfg load.Config
	var asJSON, quiet bool
	fs := flag.NewFlagSet("pontoon-load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.Bot, "bot", "", "the bot binary (default: build ./cmd/pontoon)")
	fs.IntVar(&cfg.Tables, "tables", 500, "tables open at once")
	fs.IntVar(&cfg.Guilds, "guilds", 5, "servers the tables are spread over")
	fs.IntVar(&cfg.Seats, "seats", 4, "members seated at each table, the banker included")
	fs.Float64Var(&cfg.Rate, "rate", 200, "interactions sent per second")
	fs.BoolVar(&cfg.Poisson, "poisson", false, "Poisson arrivals instead of evenly spaced ones")
	fs.BoolVar(&cfg.Pin, "pin", false, "run the bot on CPU 0 alone and this process on the other CPUs (taskset), as a bot on an otherwise idle machine")
	fs.BoolVar(&cfg.HTTP, "http", false, "send the interactions to the bot's HTTP interactions endpoint instead of over the gateway")
	fs.DurationVar(&cfg.Warmup, "warmup", 0, "load before the measured window (0: about one round at every table; negative: none)")
	fs.DurationVar(&cfg.Duration, "duration", load.DefaultDuration, "the measured window")
	fs.IntVar(&cfg.MaxInteractions, "max", 0, "end the window after this many interactions (0: no limit)")
	fs.DurationVar(&cfg.Timeout, "timeout", load.DefaultTimeout, "the whole run, setup and audit included")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "seed of the members' choices and of Poisson gaps")
	fs.BoolVar(&cfg.OpenAPI, "openapi", false, "also check request bodies against Discord's OpenAPI spec (costs this process CPU)")
	fs.StringVar(&cfg.LogLevel, "log-level", "info", "the bot's log level")
	fs.StringVar(&cfg.Dir, "dir", "", "directory for the database (default: a temporary one, removed afterwards)")
	fs.StringVar(&cfg.PerfOut, "perf", "", "record a CPU profile of the bot during the window with `perf record -g` into this file")
	fs.Func("env", "a setting for the bot as `PONTOON_KEY=value`, e.g. PONTOON_GAME_TABLE_PICTURE=false (repeatable)", func(kv string) error {
		if k, _, ok := strings.Cut(kv, "="); !ok || !strings.HasPrefix(k, "PONTOON_") {
			return fmt.Errorf("%q is not PONTOON_KEY=value", kv)
		}
		cfg.BotEnv = append(cfg.BotEnv, kv)
		return nil
	})
	fs.BoolVar(&asJSON, "json", false, "print the report as JSON")
	fs.BoolVar(&quiet, "quiet", false, "no progress lines on stderr")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "pontoon-load: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if !quiet {
		cfg.Progress = stderr
	}
	// The fake and the members allocate a lot and the machine has memory to spare:
	// collecting less often leaves more CPU to the bot being measured.
	debug.SetGCPercent(400)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	rep, err := load.Run(ctx, cfg)
	if err != nil {
		fmt.Fprintln(stderr, "pontoon-load:", err)
		return 2
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(rep)
	} else {
		rep.WriteText(stdout)
	}
	if !rep.OK() {
		return 1
	}
	return 0
}

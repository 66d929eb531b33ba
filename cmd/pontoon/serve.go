package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os/signal"
	"syscall"

	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/config"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newServeCmd) }

// configFlag is --config, shared by the subcommands that read the configuration.
var configFlag string

func newServeCmd(stdout, stderr io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "serve",
		Short: "Run the bot (the default): connect to Discord and host tables until SIGINT or SIGTERM",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return serve(cmd.Context(), stderr) },
	}
}

// loadConfig reads the configuration and prints one line naming the key when it is wrong.
func loadConfig(stderr io.Writer, validate bool) (config.Config, error) {
	cfg, err := config.Load(configFlag, nil)
	if err == nil && validate {
		err = cfg.Validate()
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return cfg, exitError{2}
	}
	return cfg, nil
}

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.Log.SlogLevel()}
	if cfg.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// serve wires config -> store -> bot and runs until a signal, then lets in-flight
// actions finish and closes the gateway and the database.
func serve(parent context.Context, stderr io.Writer) error {
	cfg, err := loadConfig(stderr, true)
	if err != nil {
		return err
	}
	rulesJSON, err := cfg.Game.RulesJSON()
	if err != nil {
		fmt.Fprintln(stderr, "config: game.rules:", err)
		return exitError{2}
	}
	rules, err := game.ParseRules(rulesJSON)
	if err != nil {
		fmt.Fprintln(stderr, "config: game.rules:", err)
		return exitError{2}
	}
	log := newLogger(cfg, stderr)
	if parent == nil {
		parent = context.Background()
	}
	ctx, stop := signal.NotifyContext(parent, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	st, err := openStore(ctx, cfg.Database)
	if err != nil {
		// The error names the file or the URL without its password.
		log.Error("opening the database", "err", err)
		return exitError{1}
	}
	defer st.Close()
	b, err := bot.New(st, bot.Options{
		Token: cfg.Discord.Token.Reveal(), AppID: cfg.Discord.ApplicationID, GuildID: cfg.Discord.GuildID, APIURL: cfg.Discord.APIURL,
		TurnTimer: cfg.Game.TurnTimer, StartingChips: cfg.Game.StartingChips, DailyAmount: cfg.Game.DailyAmount,
		DailyCooldown: cfg.Game.DailyCooldown, DefaultRules: rules, Language: cfg.Game.Language,
		OfferTTL: cfg.Game.BankOfferTTL, BidWindow: cfg.Game.BidWindow, Logger: log,
	})
	if err != nil {
		log.Error("starting the bot", "err", err)
		return exitError{1}
	}
	if err := b.Start(ctx); err != nil {
		log.Error("starting the bot", "err", err)
		_ = b.Close()
		return exitError{1}
	}
	log.Info("serving; stop with SIGINT or SIGTERM", "database", st.Path())
	<-ctx.Done()
	log.Info("shutting down: finishing in-flight actions")
	if err := b.Close(); err != nil {
		log.Warn("closing the gateway", "err", err)
	}
	return nil
}

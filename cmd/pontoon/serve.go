package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/bot/discordapi"
	"github.com/pontoon-bot/pontoon/bot/logging"
	"github.com/pontoon-bot/pontoon/bot/metrics"
	"github.com/pontoon-bot/pontoon/config"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
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

// rulesError words an error of the house rules in the configuration's terms: a value
// of the wrong kind names its key and variable instead of the decoder's Go types.
func rulesError(err error) string {
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) && typ.Field != "" {
		key := "game.rules." + typ.Field
		return fmt.Sprintf("config: %s is %s, must be %s; set %s or %s in the config file",
			key, withArticle(typ.Value), jsonKind(typ.Type), config.EnvName(key), key)
	}
	return fmt.Sprintf("config: game.rules: %v", err)
}

// newLogger is the process's logger. Its handler scrubs every token and the database's
// password from every line (logging.Redact), whichever package logs.
func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.Log.SlogLevel()}
	var h slog.Handler = slog.NewTextHandler(w, opts)
	if cfg.Log.Format == "json" {
		h = slog.NewJSONHandler(w, opts)
	}
	secrets := append([]string{cfg.Discord.Token.Reveal(), cfg.Admin.Token.Reveal(), cfg.Discord.ClientSecret.Reveal()},
		store.LocationSecrets(cfg.Database.URL.Reveal())...)
	return slog.New(logging.Redact(h, secrets...))
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
		fmt.Fprintln(stderr, rulesError(err))
		return exitError{2}
	}
	log := newLogger(cfg, stderr)
	if tuneRuntime {
		applyRuntime(cfg.Runtime, log)
	}
	for _, w := range config.UnknownEnv(nil) {
		log.Warn("config: " + w)
	}
	// discordgo logs through a package variable; its session's level is set in OnSession.
	discordgo.Logger = logging.Discordgo(log)
	// So are its endpoints: requests, and the errors that quote them, name discord.api_url.
	if err := discordapi.UseBaseURL(cfg.Discord.APIURL); err != nil {
		log.Error("discord.api_url", "err", err)
		return exitError{2}
	}
	if parent == nil {
		parent = context.Background()
	}
	ctx, stop := signal.NotifyContext(parent, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	var endpointUp atomic.Bool // the HTTP interactions endpoint listens (readiness)
	// Metrics exist only to be served: with no admin listener there are none.
	var m *metrics.Metrics
	var storeOpts []store.Option
	if cfg.Admin.Listen != "" {
		m = metrics.New()
		m.Declare(bot.InteractionKinds())
		storeOpts = append(storeOpts, store.WithCommitObserver(m.CommitObserver))
	}
	st, err := openStore(ctx, cfg.Database, storeOpts...)
	if err != nil {
		// The error names the file or the URL without its password.
		log.Error("opening the database", "err", err)
		return exitError{1}
	}
	defer st.Close()
	opts := bot.Options{
		Token: cfg.Discord.Token, AppID: cfg.Discord.ApplicationID, GuildID: cfg.Discord.GuildID, APIURL: cfg.Discord.APIURL,
		TurnTimer: cfg.Game.TurnTimer, StartingChips: cfg.Game.StartingChips, DailyAmount: cfg.Game.DailyAmount,
		DailyCooldown: cfg.Game.DailyCooldown, DefaultRules: rules, Language: cfg.Game.Language,
		OfferTTL: cfg.Game.BankOfferTTL, BidWindow: cfg.Game.BidWindow, TextOnly: !cfg.Game.TablePicture, Logger: log,
		MaxOpenTables: cfg.Limits.MaxOpenTables, OddsPerHour: cfg.Limits.OddsPerHour, OddsKept: cfg.Limits.OddsKept,
		IdleTable: cfg.Limits.IdleTable, CacheEntries: cfg.Limits.CacheEntries,
		Scale:    scaleOptions(cfg.Discord.Scale),
		Activity: cfg.Activity.Listen != "",
		Give: bot.GiveRules{MinRounds: int(cfg.Game.GiveMinRounds), MinAccountAge: cfg.Game.GiveMinAccountAge,
			DailyCap: cfg.Game.GiveDailyCap},
		OnSession: func(s *discordgo.Session) {
			s.LogLevel = logging.DiscordgoLevel(cfg.Log.SlogLevel())
			if m != nil {
				m.WatchGateway(s)
			}
		},
	}
	if m != nil {
		opts.Recorder = m
		opts.HTTPClient = &http.Client{Timeout: 20 * time.Second, Transport: discordapi.ObserveTransport(nil, m.REST)}
	}
	b, err := bot.New(st, opts)
	if err != nil {
		log.Error("starting the bot", "err", err)
		return exitError{1}
	}
	if m != nil {
		m.Sample(b.LiveTables, b.TimersPending)
		front := metrics.Check{Name: "gateway", Func: m.GatewayReady}
		if cfg.Discord.Scale.InteractionsListen != "" {
			// HTTP interactions: no gateway; ready once the endpoint is listening.
			front = metrics.Check{Name: "interactions endpoint", Func: func(context.Context) error {
				if !endpointUp.Load() {
					return errors.New("interactions endpoint: not listening yet")
				}
				return nil
			}}
		}
		stopAdmin, err := startAdmin(ctx, cfg.Admin, log, m, st, front)
		if err != nil {
			log.Error("starting the admin listener", "addr", cfg.Admin.Listen, "err", err)
			return exitError{1}
		}
		defer stopAdmin()
	}
	if err := b.Start(ctx); err != nil {
		log.Error("starting the bot", "err", err)
		_ = b.Close()
		return exitError{1}
	}
	endpoint, err := listenInteractions(cfg.Discord, b, log, m)
	if err != nil {
		log.Error("starting the interactions endpoint", "err", err)
		_ = b.Close()
		return exitError{1}
	}
	stopPage, err := listenActivity(cfg, b, log)
	if err != nil {
		log.Error("starting the table's page", "err", err)
		endpoint.close()
		_ = b.Close()
		return exitError{1}
	}
	endpointUp.Store(true)
	log.Info("serving; stop with SIGINT or SIGTERM", "database", st.Path())
	<-ctx.Done()
	log.Info("shutting down: finishing in-flight actions")
	stopPage()
	endpoint.close()
	if err := b.Close(); err != nil {
		log.Warn("closing the gateway", "err", err)
	}
	return nil
}

package demo

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"sync"
	"time"

	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/bot/activity"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/config"
	"github.com/pontoon-bot/pontoon/game/sim"
	"github.com/pontoon-bot/pontoon/store"
)

// StackConfig configures OpenStack.
type StackConfig struct {
	// Dir holds the SQLite file (pontoon.db). It is the caller's: `pontoon demo` makes
	// a temporary one and removes it; a test passes t.TempDir().
	Dir string
	// Listen is the page's address, host:port; port 0 takes a free one.
	Listen string
	// Think is the scripted players' pause before each move (Config.Think).
	Think time.Duration
	// Bankroll is what the Dealer is granted at the start (Config.Bankroll).
	Bankroll int64
	// Fake are the fake Discord's options (pontoon demo passes WithoutOpenAPI: no
	// spec ships with the binary).
	Fake []discordtest.Option
	// SessionTTL is how long a page's session lasts (activity.Config.SessionTTL).
	SessionTTL time.Duration
	// Bot adjusts the bot's options before each start, when set.
	Bot func(*bot.Options)
	Log *slog.Logger // nothing logged when nil
}

// Stack is everything `pontoon demo` runs in one process: the fake Discord on
// loopback, the bot connected to it over a SQLite file, the demo's members and
// scripted players, and one HTTP listener serving the page with the /demo/ endpoints
// beside it. Its methods are safe for concurrent use.
type Stack struct {
	Fake *discordtest.Server
	Demo *Demo
	// URL is the page's base URL, http://host:port/, with the port the listener took.
	URL string

	cfg      StackConfig
	log      *slog.Logger
	stopFake func()
	addr     string

	// secret signs the page's sessions: one per stack, so that a session outlives a
	// restart of the bot, as it does under an application's client secret.
	secret string

	mu  sync.Mutex
	st  *store.Store
	b   *bot.Bot
	act *activity.Server
	srv *http.Server
}

// OpenStack starts the fake, the bot, the page's listener and the demo's table. Close
// stops them all.
func OpenStack(ctx context.Context, cfg StackConfig) (_ *Stack, err error) {
	if cfg.Dir == "" {
		return nil, errors.New("demo: StackConfig.Dir is required")
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	s := &Stack{cfg: cfg, log: cfg.Log, addr: cfg.Listen, secret: hex.EncodeToString(key)}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	fake, stopFake, err := discordtest.Standalone(func(format string, args ...any) {
		s.log.Debug("fake discord: " + fmt.Sprintf(format, args...))
	}, cfg.Fake...)
	if err != nil {
		return nil, err
	}
	s.Fake, s.stopFake = fake, stopFake
	defer func() {
		if err != nil {
			s.Close()
		}
	}()
	if s.Demo, err = New(Config{Fake: fake, Bot: s, Think: cfg.Think, Bankroll: cfg.Bankroll, Log: s.log}); err != nil {
		return nil, err
	}
	if err := s.start(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	st := s.st
	s.mu.Unlock()
	if err := s.Demo.Start(ctx, st); err != nil {
		return nil, err
	}
	return s, nil
}

// start listens on the stack's address (the same one again after a restart), opens the
// store, starts the bot on it and serves the page. On an error it undoes what it did.
func (s *Stack) start(ctx context.Context) (err error) {
	var undo []func()
	defer func() {
		if err != nil {
			for i := len(undo) - 1; i >= 0; i-- {
				undo[i]()
			}
		}
	}()
	// The address first: one that is taken fails at once, before the bot connects.
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		return err
	}
	undo = append(undo, func() { _ = ln.Close() })
	st, err := store.Open(ctx, filepath.Join(s.cfg.Dir, "pontoon.db"))
	if err != nil {
		return err
	}
	undo = append(undo, func() { _ = st.Close() })
	opts := bot.Options{Token: config.Secret(s.Fake.Token), APIURL: s.Fake.URL(), StartingChips: 1000, DailyAmount: 200,
		Activity: true, Logger: s.log}
	if s.cfg.Bot != nil {
		s.cfg.Bot(&opts)
	}
	b, err := bot.New(st, opts)
	if err != nil {
		return err
	}
	undo = append(undo, func() { _ = b.Close() })
	if err = b.Start(ctx); err != nil {
		return err
	}
	act, err := activity.New(activity.Config{ClientID: s.Fake.AppID, ClientSecret: s.secret, APIURL: s.Fake.URL(),
		BotToken: s.Fake.Token, SessionTTL: s.cfg.SessionTTL, Log: s.log,
		Demo: &activity.Demo{Guild: s.Demo.Guild(), Channel: s.Demo.Channel(), Member: s.Demo.Member}}, b)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/demo/", s.Demo.Handler())
	mux.Handle("/", act.Handler())
	if s.URL == "" {
		s.addr = ln.Addr().String()
		s.URL = "http://" + s.addr + "/"
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("demo: serving the page", "err", err)
		}
	}()
	s.mu.Lock()
	s.st, s.b, s.act, s.srv = st, b, act, srv
	s.mu.Unlock()
	return nil
}

// stop closes the page's listener and every connection on it, then the bot and the store.
func (s *Stack) stop() {
	s.mu.Lock()
	st, b, act, srv := s.st, s.b, s.act, s.srv
	s.st, s.b, s.act, s.srv = nil, nil, nil, nil
	s.mu.Unlock()
	if srv != nil {
		_ = srv.Close()
	}
	if act != nil {
		act.Close() // the sockets: the pages reconnect to the next start
	}
	if b != nil {
		if err := b.Close(); err != nil {
			s.log.Warn("demo: closing the bot", "err", err)
		}
	}
	if st != nil {
		_ = st.Close()
	}
}

// RestartBot stops the bot as a process stop would (its listener, sockets and store
// closed) and starts it again on the same SQLite file and address. The fake Discord
// and the scripted players stay, as Discord and its members do.
func (s *Stack) RestartBot(ctx context.Context) error {
	s.stop()
	return s.start(ctx)
}

// Close stops the scripted players, the page, the bot and the fake.
func (s *Stack) Close() {
	if s.Demo != nil {
		s.Demo.Close()
	}
	s.stop()
	if s.stopFake != nil {
		s.stopFake()
	}
}

// Store is the bot's store as the stack runs it now (nil while the bot restarts).
func (s *Stack) Store() *store.Store {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st
}

// Advice asks the bot running now (Adviser); nothing while it restarts.
func (s *Stack) Advice(ctx context.Context, guild, channel, member string) (sim.Advice, bool) {
	s.mu.Lock()
	b := s.b
	s.mu.Unlock()
	if b == nil {
		return sim.Advice{}, false
	}
	return b.Advice(ctx, guild, channel, member)
}

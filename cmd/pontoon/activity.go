package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/bot/activity"
	"github.com/pontoon-bot/pontoon/config"
)

// listenActivity serves the table's web page (package bot/activity) on activity.listen;
// the returned func stops it, closing every socket. Nothing is served when the key is
// empty.
func listenActivity(cfg config.Config, b *bot.Bot, log *slog.Logger) (func(), error) {
	if cfg.Activity.Listen == "" {
		return func() {}, nil
	}
	s, err := activity.New(activity.Config{ClientID: cfg.Discord.ApplicationID, ClientSecret: cfg.Discord.ClientSecret.Reveal(),
		APIURL: cfg.Discord.APIURL, BotToken: cfg.Discord.Token.Reveal(), Origins: cfg.Activity.Origins, Log: log}, b)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", cfg.Activity.Listen)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("table page stopped", "err", err)
		}
	}()
	log.Info("serving the table's page", "listen", ln.Addr().String())
	return func() {
		s.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}, nil
}

package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/bot/httpin"
	"github.com/pontoon-bot/pontoon/bot/metrics"
	"github.com/pontoon-bot/pontoon/config"
)

// scaleOptions turns discord.shard_id, shard_count, shards and interactions_listen into
// the bot's Scale.
func scaleOptions(s config.Scale) bot.Scale {
	return bot.Scale{ShardID: s.ShardID, ShardCount: s.ShardCount, Auto: s.Shards == config.ShardsAuto,
		HTTP: s.InteractionsListen != ""}
}

// interactionsEndpoint is the HTTP server of discord.interactions_listen, or nothing.
type interactionsEndpoint struct {
	srv *http.Server
	h   *httpin.Handler
}

// listenInteractions starts answering Discord's interaction POSTs on
// discord.interactions_listen when it is set, within the limits of discord.interactions_*
// and counting refused requests in m when there are metrics. The listener is bound before
// this returns, so a failure to bind stops start-up with its reason.
func listenInteractions(d config.Discord, b *bot.Bot, log *slog.Logger, m *metrics.Metrics) (*interactionsEndpoint, error) {
	s := d.Scale
	if s.InteractionsListen == "" {
		return &interactionsEndpoint{}, nil
	}
	key, err := httpin.ParsePublicKey(s.PublicKey)
	if err != nil {
		return nil, err
	}
	o := httpin.Options{PublicKey: key, Router: b.Route, Webhooks: b.REST(), Logger: log}
	if m != nil { // a nil *Metrics in the interface would not be a nil Recorder
		o.Recorder = m
		m.DeclareEndpointRefusals(httpin.RefusalReasons)
	}
	h, err := httpin.New(o)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", s.InteractionsListen)
	if err != nil {
		return nil, err
	}
	limits := httpin.Limits{ReadTimeout: d.Endpoint.ReadTimeout, IdleTimeout: d.Endpoint.IdleTimeout, MaxConns: d.Endpoint.MaxConnections}
	srv := limits.Server(h)
	go func() {
		if err := srv.Serve(limits.Listener(ln)); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("interactions endpoint stopped", "err", err)
		}
	}()
	log.Info("answering interactions over HTTP", "listen", ln.Addr().String())
	return &interactionsEndpoint{srv: srv, h: h}, nil
}

// close stops taking requests, then waits for the answers that follow a deferral.
func (e *interactionsEndpoint) close() {
	if e.srv == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	_ = e.srv.Shutdown(ctx)
	e.h.Wait()
}

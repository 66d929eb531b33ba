package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/pontoon-bot/pontoon/bot/metrics"
	"github.com/pontoon-bot/pontoon/config"
	"github.com/pontoon-bot/pontoon/store"
)

// chipSampleInterval is how often the chips in circulation are sampled from the audit,
// which reads the whole ledger.
const chipSampleInterval = time.Minute

// adminWriteTimeout bounds an admin answer. The longest is a profile, which pprof
// refuses when it would not end before the write timeout, so this sits above
// metrics.MaxProfile.
const adminWriteTimeout = metrics.MaxProfile + 30*time.Second

// startAdmin serves the admin listener (admin.listen) until stop is called: metrics,
// health, readiness (the database answers and front, the way interactions come in, is
// ready: the gateway, or the HTTP interactions endpoint) and, with admin.pprof, pprof;
// behind admin.token when it is set. It listens before it returns, so a bad or taken
// address stops start-up.
func startAdmin(ctx context.Context, cfg config.Admin, log *slog.Logger, m *metrics.Metrics, st *store.Store, front metrics.Check) (stop func(), err error) {
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return nil, err
	}
	srv := adminServer(metrics.AdminHandler(m, metrics.AdminOptions{Token: cfg.Token.Reveal(), Pprof: cfg.Pprof},
		metrics.Check{Name: "database", Func: st.Ping},
		front))
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("admin listener", "err", err)
		}
	}()
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		m.SampleChips(sctx, st, chipSampleInterval)
	}()
	paths := "/metrics, /healthz, /readyz"
	if cfg.Pprof {
		paths += ", /debug/pprof/"
	}
	log.Info("admin listener serving "+paths, "addr", ln.Addr().String(), "token", cfg.Token != "")
	if !onLoopback(ln.Addr()) && cfg.Token == "" {
		log.Warn("admin listener reachable beyond loopback with no admin.token: whoever reaches it reads the metrics"+
			" and readiness; set admin.token (PONTOON_ADMIN_TOKEN) or listen on 127.0.0.1",
			"addr", cfg.Listen, "bound", ln.Addr().String())
	}
	return func() {
		cancel()
		<-done
		shctx, shcancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer shcancel()
		_ = srv.Shutdown(shctx)
	}, nil
}

// adminServer is the admin listener's server: no client holds a connection longer than
// a request and its answer take, the longest answer being a profile.
func adminServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      adminWriteTimeout,
		IdleTimeout:       time.Minute,
	}
}

// onLoopback reports whether a listener's address is reachable only from this machine:
// a loopback IP. The unspecified address (":9464", "0.0.0.0:9464") is every interface.
func onLoopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

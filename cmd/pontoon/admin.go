package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/pontoon-bot/pontoon/bot/metrics"
	"github.com/pontoon-bot/pontoon/store"
)

// chipSampleInterval is how often the chips in circulation are sampled from the audit,
// which reads the whole ledger.
const chipSampleInterval = time.Minute

// startAdmin serves the admin listener (admin.listen) until stop is called: metrics,
// health, readiness (the database answers and front, the way interactions come in, is
// ready: the gateway, or the HTTP interactions endpoint) and pprof. It listens before it
// returns, so a bad or taken address stops start-up.
func startAdmin(ctx context.Context, addr string, log *slog.Logger, m *metrics.Metrics, st *store.Store, front metrics.Check) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{
		Handler: metrics.AdminHandler(m,
			metrics.Check{Name: "database", Func: st.Ping},
			front),
		ReadHeaderTimeout: 10 * time.Second,
	}
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
	log.Info("admin listener serving /metrics, /healthz, /readyz, /debug/pprof/", "addr", ln.Addr().String())
	return func() {
		cancel()
		<-done
		shctx, shcancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer shcancel()
		_ = srv.Shutdown(shctx)
	}, nil
}

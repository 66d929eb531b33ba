package metrics

import (
	"context"
	"fmt"
	"net/http"
	"net/http/pprof"
	"strings"
	"time"
)

// Check is one readiness condition of /readyz: a name for the report and a function
// that returns nil when the condition holds.
type Check struct {
	Name string
	Func func(ctx context.Context) error
}

// AdminHandler serves the operators' endpoints:
//
//	/metrics        the metrics, for Prometheus
//	/healthz        200 while the process can answer at all (liveness)
//	/readyz         200 when every check passes, else 503; one line per check
//	/debug/pprof/   net/http/pprof's profiles
//
// It has no authentication: serve it on loopback or a private network only.
func AdminHandler(m *Metrics, checks ...Check) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		var b strings.Builder
		ok := true
		for _, c := range checks {
			if err := c.Func(ctx); err != nil {
				ok = false
				fmt.Fprintf(&b, "%s: %s\n", c.Name, oneLine(err.Error()))
				continue
			}
			fmt.Fprintf(&b, "%s: ok\n", c.Name)
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if !ok {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		fmt.Fprint(w, b.String())
	})
	// pprof's handlers by hand: importing the package also registers them on
	// http.DefaultServeMux, which nothing here serves.
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

package metrics

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net/http"
	"net/http/pprof"
	"strconv"
	"strings"
	"time"
)

// Check is one readiness condition of /readyz: a name for the report and a function
// that returns nil when the condition holds.
type Check struct {
	Name string
	Func func(ctx context.Context) error
}

// MaxProfile is the longest profile or trace /debug/pprof/ takes (its seconds
// parameter): a longer one would hold a connection, and the CPU profiler, for as long.
// The admin listener's write timeout must be above it.
const MaxProfile = 60 * time.Second

// AdminOptions choose what the admin handler serves and to whom.
type AdminOptions struct {
	// Token, when set, is the bearer token every endpoint but /healthz requires
	// (Authorization: Bearer <token>). "" serves everything to anyone who reaches the
	// listener.
	Token string
	// Pprof serves net/http/pprof's profiles under /debug/pprof/. A profile costs CPU
	// while it runs and shows the program's insides, so it is served only when asked.
	Pprof bool
}

// AdminHandler serves the operators' endpoints:
//
//	/metrics        the metrics, for Prometheus
//	/healthz        200 while the process can answer at all (liveness); never needs the token
//	/readyz         200 when every check passes, else 503; one line per check
//	/debug/pprof/   net/http/pprof's profiles, when o.Pprof; at most MaxProfile long
//
// With o.Token set every endpoint but /healthz answers 401 to a request without it.
func AdminHandler(m *Metrics, o AdminOptions, checks ...Check) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
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
	if o.Pprof {
		// pprof's handlers by hand: importing the package also registers them on
		// http.DefaultServeMux, which nothing here serves.
		mux.HandleFunc("/debug/pprof/", boundSeconds(pprof.Index))
		mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
		mux.HandleFunc("/debug/pprof/profile", boundSeconds(pprof.Profile))
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("/debug/pprof/trace", boundSeconds(pprof.Trace))
	}
	var guarded http.Handler = mux
	if o.Token != "" {
		guarded = bearer(o.Token, mux)
	}
	root := http.NewServeMux()
	root.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	})
	root.Handle("/", guarded)
	return root
}

// bearer passes on the requests that carry token as a bearer token and answers 401 to
// the others. The comparison takes the same time whatever the request sends: both
// sides are hashed to one length and compared in constant time.
func bearer(token string, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, got, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		sum := sha256.Sum256([]byte(got))
		if subtle.ConstantTimeCompare(sum[:], want[:]) != 1 || !strings.EqualFold(scheme, "Bearer") {
			w.Header().Set("WWW-Authenticate", `Bearer realm="pontoon admin"`)
			http.Error(w, "unauthorized: send Authorization: Bearer and the admin.token", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// boundSeconds refuses a profile, trace or delta profile asked for longer than
// MaxProfile. pprof reads the seconds parameter with FormValue, and so does this.
func boundSeconds(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s := r.FormValue("seconds"); s != "" {
			// !(sec <= max) refuses NaN as well, which compares false with everything.
			if sec, err := strconv.ParseFloat(s, 64); err != nil || !(sec <= MaxProfile.Seconds()) {
				http.Error(w, fmt.Sprintf("seconds is %q, must be a number of at most %d", s, int(MaxProfile.Seconds())), http.StatusBadRequest)
				return
			}
		}
		next(w, r)
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

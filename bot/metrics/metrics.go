package metrics

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/pontoon-bot/pontoon/store"
)

// Outcomes of an interaction, the values of the outcome label.
const (
	Answered = "answered" // the member got what they asked for
	Refused  = "refused"  // the member was told no, with a reason code (bad input, not their turn, ...)
	Failed   = "failed"   // something went wrong: an unexpected error, a panic, or Discord refused the answer
	// Redelivered is an interaction delivered again after one of its deliveries was
	// applied: it changed nothing and got no answer, the first delivery's being the one.
	Redelivered = "redelivered"
)

// latencyBuckets reach past Discord's 3 s answer deadline, so a histogram shows how close
// the slow answers come to it.
var latencyBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2, 3, 5, 10}

// Metrics holds the bot's Prometheus metrics in a registry of its own (with the Go
// runtime's and the process's). Every method is safe for concurrent use; the zero value
// is not usable, call New.
type Metrics struct {
	reg *prometheus.Registry

	interactionSeconds *prometheus.HistogramVec
	interactions       *prometheus.CounterVec
	restRequests       *prometheus.CounterVec
	restLimited        *prometheus.CounterVec
	gatewayUp          prometheus.Gauge
	gatewayConnects    prometheus.Counter
	gatewayDisconnects prometheus.Counter
	gatewayResumes     prometheus.Counter
	commitSeconds      *prometheus.HistogramVec
	rounds             prometheus.Counter
	actions            prometheus.Counter
	chips              *prometheus.GaugeVec
	auditProblems      prometheus.Gauge
	auditErrors        prometheus.Counter
	endpointRefused    *prometheus.CounterVec

	ready  atomic.Bool // READY or RESUMED seen since the last disconnect
	tables atomic.Pointer[func() int]
	timers atomic.Pointer[func() int]

	chipsMu sync.Mutex // one audit sample at a time replaces the per-guild series
}

// New builds the metrics. Names follow Prometheus's conventions: pontoon_ prefix, base
// units (_seconds), _total for counters.
func New() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	f := factory{m.reg}
	m.interactionSeconds = f.histogramVec("pontoon_interaction_duration_seconds",
		"Time from an interaction's arrival to the bot's answer being accepted by Discord, by kind and outcome.",
		latencyBuckets, "kind", "outcome")
	m.interactions = f.counterVec("pontoon_interactions_total",
		"Interactions answered, by kind, outcome (answered, refused, failed) and, for refusals, the reason code.",
		"kind", "outcome", "reason")
	m.restRequests = f.counterVec("pontoon_discord_requests_total",
		"Discord REST requests by route (rate limit bucket template) and HTTP status (0: no answer).", "route", "status")
	m.restLimited = f.counterVec("pontoon_discord_rate_limited_total",
		"Discord REST answers 429 Too Many Requests by route and X-RateLimit-Scope.", "route", "scope")
	m.gatewayUp = f.gauge("pontoon_gateway_connected", "1 while the gateway session is ready (READY or RESUMED seen since the last disconnect), else 0.")
	m.gatewayConnects = f.counter("pontoon_gateway_connects_total", "Gateway websocket connections opened.")
	m.gatewayDisconnects = f.counter("pontoon_gateway_disconnects_total", "Gateway websocket connections lost or closed.")
	m.gatewayResumes = f.counter("pontoon_gateway_resumes_total", "Gateway sessions resumed after a reconnect (RESUMED events).")
	m.commitSeconds = f.histogramVec("pontoon_store_commit_duration_seconds",
		"Time the store's COMMIT of a write transaction takes, by store method and outcome (ok, error).",
		[]float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1}, "op", "outcome")
	m.rounds = f.counter("pontoon_rounds_started_total", "Rounds committed to the store as started (dealt).")
	m.actions = f.counter("pontoon_actions_committed_total", "Game actions committed to the store (members' and timeouts').")
	m.chips = f.gaugeVec("pontoon_chips_circulating", "Chips in wallets, escrows and kitties per server, as of the last audit sample.", "guild")
	m.auditProblems = f.gauge("pontoon_audit_problems", "Problems the last audit sample found (chips not conserved, a balance off its ledger); 0 when the books balance.")
	m.auditErrors = f.counter("pontoon_audit_sample_errors_total", "Audit samples that could not be read.")
	m.endpointRefused = f.counterVec("pontoon_interactions_endpoint_refused_total",
		"Requests the HTTP interactions endpoint refused before the bot saw them, by reason (httpin's Refused* values: bad_signature, body_too_large, ...).", "reason")
	f.gaugeFunc("pontoon_tables_live", "Tables open in this process.", func() float64 { return sample(&m.tables) })
	f.gaugeFunc("pontoon_timers_pending", "Turn timers armed (R7.4) and waiting to fire.", func() float64 { return sample(&m.timers) })
	m.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, op := range waitedOps {
		for _, outcome := range []string{"ok", "error"} {
			m.commitSeconds.WithLabelValues(op, outcome)
		}
	}
	return m
}

// waitedOps are the store methods a member's click waits on. Their commit series exist
// from the start, at zero, so that an alert on the commit histogram works before the
// first click; other methods' series appear when they first commit.
var waitedOps = []string{"ApplyAction", "ApplyActions", "DealRound", "EnsureWallet", "Give", "ClaimDaily", "Grant", "UpdateBank", "SetSeats", "OpenTable", "CloseTable"}

// Declare makes the interaction series of each kind (see the bot's InteractionKinds)
// exist at zero for every outcome, so that /metrics shows the interaction histogram
// and an alert on it works before the first interaction.
func (m *Metrics) Declare(kinds []string) {
	for _, kind := range kinds {
		for _, outcome := range []string{"answered", "refused", "failed"} {
			m.interactionSeconds.WithLabelValues(kind, outcome)
		}
	}
}

func sample(p *atomic.Pointer[func() int]) float64 {
	if f := p.Load(); f != nil {
		return float64((*f)())
	}
	return 0
}

// Handler serves the metrics in Prometheus's exposition format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Registry is the registry behind Handler, for a caller that adds its own collectors.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Interaction records one interaction: its kind (a subcommand or a component kind; see
// the bot's interactionKind), its outcome (Answered, Refused or Failed), the reason code
// of a refusal ("" otherwise) and the time from its arrival to the answer.
func (m *Metrics) Interaction(kind, outcome, reason string, d time.Duration) {
	m.interactionSeconds.WithLabelValues(kind, outcome).Observe(d.Seconds())
	m.interactions.WithLabelValues(kind, outcome, reason).Inc()
}

// EndpointRefused counts one request the HTTP interactions endpoint refused; it is an
// httpin.Recorder. reason is one of httpin's fixed Refused* values.
func (m *Metrics) EndpointRefused(reason string) {
	m.endpointRefused.WithLabelValues(reason).Inc()
}

// DeclareEndpointRefusals makes the refusal series of each reason (httpin.RefusalReasons)
// exist at zero, so that an alert on refusals works before the first one.
func (m *Metrics) DeclareEndpointRefusals(reasons []string) {
	for _, r := range reasons {
		m.endpointRefused.WithLabelValues(r)
	}
}

// REST records one Discord REST request; it is a discordapi.RESTObserver.
func (m *Metrics) REST(route string, status int, scope string) {
	m.restRequests.WithLabelValues(route, strconv.Itoa(status)).Inc()
	if status == http.StatusTooManyRequests {
		m.restLimited.WithLabelValues(route, scope).Inc()
	}
}

// CommitObserver times the store's commits and counts the rounds and actions committed;
// pass it to store.WithCommitObserver.
func (m *Metrics) CommitObserver(op string) func(error) {
	start := time.Now()
	return func(err error) {
		outcome := "ok"
		if err != nil {
			outcome = "error"
		}
		m.commitSeconds.WithLabelValues(op, outcome).Observe(time.Since(start).Seconds())
		if err != nil {
			return
		}
		switch op {
		case "ApplyAction":
			m.actions.Inc()
		case "DealRound", "StartRound": // the bot deals with DealRound; StartRound is its older form
			m.rounds.Inc()
		}
	}
}

// WatchGateway follows a session's gateway: connections, disconnections, resumes and
// whether it is ready. Call it before the session opens.
func (m *Metrics) WatchGateway(s *discordgo.Session) {
	s.AddHandler(func(*discordgo.Session, *discordgo.Connect) { m.gatewayConnects.Inc() })
	s.AddHandler(func(*discordgo.Session, *discordgo.Ready) { m.setReady(true) })
	s.AddHandler(func(*discordgo.Session, *discordgo.Resumed) {
		m.gatewayResumes.Inc()
		m.setReady(true)
	})
	s.AddHandler(func(*discordgo.Session, *discordgo.Disconnect) {
		m.gatewayDisconnects.Inc()
		m.setReady(false)
	})
}

func (m *Metrics) setReady(up bool) {
	m.ready.Store(up)
	if up {
		m.gatewayUp.Set(1)
	} else {
		m.gatewayUp.Set(0)
	}
}

// ErrGatewayNotReady is GatewayReady's answer while the gateway is down.
var ErrGatewayNotReady = errors.New("gateway: not connected (no READY or RESUMED since the last disconnect)")

// GatewayReady reports whether the watched gateway session is ready; it is a readiness
// check for the admin listener.
func (m *Metrics) GatewayReady(context.Context) error {
	if !m.ready.Load() {
		return ErrGatewayNotReady
	}
	return nil
}

// Sample sets the functions read at each scrape for the gauges a count in memory
// answers best: live tables and pending turn timers. Either may be nil.
func (m *Metrics) Sample(liveTables, timersPending func() int) {
	set := func(p *atomic.Pointer[func() int], f func() int) {
		if f == nil {
			p.Store(nil)
			return
		}
		p.Store(&f)
	}
	set(&m.tables, liveTables)
	set(&m.timers, timersPending)
}

// Auditor is what SampleChips reads: *store.Store.
type Auditor interface {
	Audit(ctx context.Context) (store.AuditReport, error)
}

// SampleChips runs the store's audit now and then every interval until ctx ends, and
// sets the chips in circulation per server and the problem count from it. The audit
// reads the whole ledger, so it is sampled, never run per request or per scrape.
func (m *Metrics) SampleChips(ctx context.Context, a Auditor, every time.Duration) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		m.sampleChips(ctx, a)
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

func (m *Metrics) sampleChips(ctx context.Context, a Auditor) {
	actx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	rep, err := a.Audit(actx)
	if err != nil {
		if ctx.Err() == nil {
			m.auditErrors.Inc()
		}
		return
	}
	m.chipsMu.Lock()
	defer m.chipsMu.Unlock()
	m.chips.Reset() // a server with no accounts any more leaves no stale series
	for _, g := range rep.Guilds {
		m.chips.WithLabelValues(g.Guild).Set(float64(g.Circulating))
	}
	m.auditProblems.Set(float64(len(rep.Problems)))
}

// factory registers metrics as it makes them.
type factory struct{ reg *prometheus.Registry }

func (f factory) counter(name, help string) prometheus.Counter {
	c := prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
	f.reg.MustRegister(c)
	return c
}

func (f factory) counterVec(name, help string, labels ...string) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
	f.reg.MustRegister(c)
	return c
}

func (f factory) gauge(name, help string) prometheus.Gauge {
	g := prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: help})
	f.reg.MustRegister(g)
	return g
}

func (f factory) gaugeVec(name, help string, labels ...string) *prometheus.GaugeVec {
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: help}, labels)
	f.reg.MustRegister(g)
	return g
}

func (f factory) gaugeFunc(name, help string, fn func() float64) {
	f.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, fn))
}

func (f factory) histogramVec(name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
	h := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets}, labels)
	f.reg.MustRegister(h)
	return h
}

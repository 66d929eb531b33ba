package load

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"
)

// Report is what a run measured. Latencies are from the fake sending the interaction
// over the gateway to the bot's callback arriving at the fake. CPU is user plus
// system time from /proc over the window; "per interaction" divides it by the
// interactions answered in the window.
type Report struct {
	Bot      string  `json:"bot"`
	Tables   int     `json:"tables"`
	Guilds   int     `json:"guilds"`
	Seats    int     `json:"seats"`
	Rate     float64 `json:"rate_per_second"`
	Arrivals string  `json:"arrivals"` // even or poisson
	// Interactions is how they reach the bot: gateway, or http (its endpoint)
	Interactions string  `json:"interactions"`
	Warmup       float64 `json:"warmup_seconds"`
	Window       float64 `json:"window_seconds"` // first arrival to the last answer's CPU reading
	CPUs         int     `json:"cpus"`
	// Pinned says how the processors were shared out (Config.Pin); "": not at all.
	Pinned string `json:"pinned,omitempty"`
	// Settings are the bot's settings the run gave it beyond its own (Config.BotEnv).
	Settings []string `json:"settings,omitempty"`

	Sent     int            `json:"sent"`     // interactions sent in the window
	Answered int            `json:"answered"` // of them, answered by the bot
	Refused  int            `json:"refused"`  // of them, answered with a refusal: the members' click was not legal
	Errors   int            `json:"errors"`   // of them, not answered (or not sendable)
	Missed   int            `json:"missed"`   // arrivals that found no click ready
	Mix      map[string]int `json:"mix"`      // answered, by kind: deal, look, act
	Achieved float64        `json:"achieved_per_second"`

	RoundsDealt   int `json:"rounds_dealt"`
	RoundsSettled int `json:"rounds_settled"`
	StuckTables   int `json:"stuck_tables"` // tables the members gave up on

	LatencyMS struct {
		P50  float64 `json:"p50"`
		P90  float64 `json:"p90"`
		P99  float64 `json:"p99"`
		Max  float64 `json:"max"`
		Mean float64 `json:"mean"`
	} `json:"latency_ms"`
	// Seconds is the window second by second, by when the interactions were sent: a
	// stall (a slow disk, a collection, a neighbour's build) shows as one bad second.
	Seconds []Second `json:"seconds"`

	MaxScheduleLagMS float64 `json:"max_schedule_lag_ms"` // how late this process sent an arrival at worst
	MaxInFlight      int     `json:"max_in_flight"`       // interactions sent and not yet answered, at most

	BotCPUSeconds          float64 `json:"bot_cpu_seconds"`
	BotCPUPerInteractionMS float64 `json:"bot_cpu_ms_per_interaction"`
	BotCores               float64 `json:"bot_cores"` // the bot's CPU over the window's wall time
	// BotKernelShare is the share of the bot's CPU that the kernel spent on its behalf
	// (system time): its sockets, its writes to the database file, its threads' sleeps
	// and wake-ups.
	BotKernelShare float64 `json:"bot_kernel_share"`
	// BotThreadShares are the shares of the bot's CPU in the window that its busiest
	// threads took, largest first (at most eight). BotMonitorShare is the share of its
	// second thread, the first the Go runtime starts: sysmon, which polls every 20 µs
	// after it wakes from its deep sleep, backing off to 10 ms.
	BotThreadShares         []float64 `json:"bot_thread_shares"`
	BotMonitorShare         float64   `json:"bot_monitor_share"`
	BotPeakRSSMiB           float64   `json:"bot_peak_rss_mib"`
	BotRSSMiB               float64   `json:"bot_rss_mib"`
	LoadCPUPerInteractionMS float64   `json:"load_cpu_ms_per_interaction"` // this process: the fake and the members
	OtherCores              float64   `json:"other_cores"`                 // everything else on the machine, in cores
	// CPUPressure is the share of the window during which some runnable task on the
	// machine waited for a CPU (Linux PSI); -1 where the kernel does not report it.
	CPUPressure       float64    `json:"cpu_pressure"`
	LoadAverageBefore [3]float64 `json:"load_average_before"`
	LoadAverageAfter  [3]float64 `json:"load_average_after"`

	FakeFailures int `json:"fake_failures"` // requests the fake rejected, interactions not answered in 3s: the whole run
	// FakeFailuresInWindow are those recorded from the window's opening until the
	// last answer of the window (a late answer to a warmup click counts here).
	FakeFailuresInWindow int      `json:"fake_failures_in_window"`
	FakeFailureSamples   []string `json:"fake_failure_samples,omitempty"`
	BotWarnings          int      `json:"bot_warnings"`
	BotErrors            int      `json:"bot_errors"`
	BotLogSamples        []string `json:"bot_log_samples,omitempty"`
	Samples              []string `json:"samples,omitempty"` // the first refusals and errors the members met
	BotExit              string   `json:"bot_exit"`
	AuditBalanced        bool     `json:"audit_balanced"`
	AuditOutput          string   `json:"audit_output"`
	PerfOut              string   `json:"perf_out,omitempty"`
	PerfError            string   `json:"perf_error,omitempty"`
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// quantile is the q-quantile of sorted durations (nearest rank).
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

func (r *Report) fill(p *players, before, after usage) {
	r.Window = after.at.Sub(before.at).Seconds()
	r.Mix = map[string]int{}
	for k := kind(0); k < kinds; k++ {
		r.Answered += p.answered[k]
		r.Refused += p.refused[k]
		r.Errors += p.errs[k]
		r.Mix[kindNames[k]] = p.answered[k]
	}
	if r.Window > 0 {
		r.Achieved = float64(r.Answered) / r.Window
	}
	r.RoundsDealt, r.RoundsSettled, r.StuckTables = p.roundsDealt, p.roundsSettled, p.stuck
	r.Samples = p.samples
	var lat []time.Duration
	for _, o := range p.outcomes {
		if !o.failed {
			lat = append(lat, o.latency)
		}
	}
	slices.Sort(lat)
	r.Seconds = perSecond(p.outcomes, before.at)
	r.LatencyMS.P50, r.LatencyMS.P90 = ms(quantile(lat, .5)), ms(quantile(lat, .9))
	r.LatencyMS.P99, r.LatencyMS.Max = ms(quantile(lat, .99)), ms(quantile(lat, 1))
	if len(lat) > 0 {
		var sum time.Duration
		for _, d := range lat {
			sum += d
		}
		r.LatencyMS.Mean = ms(sum / time.Duration(len(lat)))
	}
	bot, self := after.bot-before.bot, after.self-before.self
	r.BotCPUSeconds = bot.Seconds()
	if bot > 0 {
		r.BotKernelShare = (after.botKernel - before.botKernel).Seconds() / bot.Seconds()
	}
	r.BotThreadShares, r.BotMonitorShare = threadShares(before.threads, after.threads)
	if r.Answered > 0 {
		r.BotCPUPerInteractionMS = ms(bot) / float64(r.Answered)
		r.LoadCPUPerInteractionMS = ms(self) / float64(r.Answered)
	}
	if r.Window > 0 {
		r.BotCores = bot.Seconds() / r.Window
		r.OtherCores = max(0, (after.machine-before.machine-bot-self).Seconds()/r.Window)
	}
	r.CPUPressure = -1
	if before.hasPressure && after.hasPressure && r.Window > 0 {
		r.CPUPressure = (after.pressure - before.pressure).Seconds() / r.Window
	}
}

// threadShares splits the CPU the bot's threads used between two samples: the shares
// of the busiest (at most eight), largest first, and the share of the second thread by
// id, the Go runtime's sysmon (the main thread's id is the process's; sysmon's M is the
// first the runtime creates).
func threadShares(before, after map[int]time.Duration) (busiest []float64, monitor float64) {
	var total time.Duration
	used := make(map[int]time.Duration, len(after))
	for tid, d := range after {
		if u := d - before[tid]; u > 0 {
			used[tid] = u
			total += u
		}
	}
	if total == 0 {
		return nil, 0
	}
	tids := slices.Sorted(maps.Keys(after))
	if len(tids) > 1 {
		monitor = float64(used[tids[1]]) / float64(total)
	}
	for _, u := range used {
		busiest = append(busiest, float64(u)/float64(total))
	}
	slices.SortFunc(busiest, func(a, b float64) int { return cmp.Compare(b, a) })
	return busiest[:min(len(busiest), 8)], monitor
}

// OK reports whether the run was clean: every interaction sent in the window
// answered, none refused, no failure at the fake, no table given up on, the bot
// stopped cleanly and the audit balanced.
func (r *Report) OK() bool {
	return r.Sent > 0 && r.Answered == r.Sent && r.Refused == 0 && r.Errors == 0 && r.FakeFailures == 0 &&
		r.StuckTables == 0 && r.AuditBalanced && strings.HasPrefix(r.BotExit, "stopped by SIGTERM: exit status 0")
}

// WriteText writes the report for a person: one screen.
func (r *Report) WriteText(w io.Writer) {
	verdict := "clean"
	if !r.OK() {
		verdict = "NOT CLEAN (see below)"
	}
	fmt.Fprintf(w, "pontoon load: %d tables in %d servers, %d seated each; %s arrivals at %g/s over %s; %.1fs measured after %.1fs warmup; %d CPUs\n",
		r.Tables, r.Guilds, r.Seats, r.Arrivals, r.Rate, r.Interactions, r.Window, r.Warmup, r.CPUs)
	fmt.Fprintf(w, "  run:        %s\n", verdict)
	if r.Pinned != "" {
		fmt.Fprintf(w, "  pinned:     %s\n", r.Pinned)
	}
	if len(r.Settings) > 0 {
		fmt.Fprintf(w, "  settings:   %s\n", strings.Join(r.Settings, " "))
	}
	fmt.Fprintf(w, "  sent:       %d (deal %d, look %d, act %d answered); %.1f answered/s; %d arrivals found nothing ready\n",
		r.Sent, r.Mix["deal"], r.Mix["look"], r.Mix["act"], r.Achieved, r.Missed)
	fmt.Fprintf(w, "  answered:   %d, refused %d, unanswered %d; rounds dealt %d, settled %d; stuck tables %d\n",
		r.Answered, r.Refused, r.Errors, r.RoundsDealt, r.RoundsSettled, r.StuckTables)
	fmt.Fprintf(w, "  latency:    p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms (mean %.1f ms)\n",
		r.LatencyMS.P50, r.LatencyMS.P90, r.LatencyMS.P99, r.LatencyMS.Max, r.LatencyMS.Mean)
	fmt.Fprintf(w, "  bot CPU:    %.2f ms per interaction (%.1f s, %.2f cores; %.0f%% of it in the kernel)\n",
		r.BotCPUPerInteractionMS, r.BotCPUSeconds, r.BotCores, 100*r.BotKernelShare)
	if len(r.BotThreadShares) > 0 {
		shares := make([]string, len(r.BotThreadShares))
		for i, f := range r.BotThreadShares {
			shares[i] = fmt.Sprintf("%.0f%%", 100*f)
		}
		fmt.Fprintf(w, "  bot threads: busiest %s of its CPU; the Go runtime's sysmon (its second thread) %.0f%%\n",
			strings.Join(shares, ", "), 100*r.BotMonitorShare)
	}
	fmt.Fprintf(w, "  bot memory: peak RSS %.0f MiB, now %.0f MiB\n", r.BotPeakRSSMiB, r.BotRSSMiB)
	fmt.Fprintf(w, "  elsewhere:  this process %.2f ms CPU per interaction; others on the machine %.2f cores; load average %.2f before, %.2f after\n",
		r.LoadCPUPerInteractionMS, r.OtherCores, r.LoadAverageBefore[0], r.LoadAverageAfter[0])
	if r.CPUPressure >= 0 {
		fmt.Fprintf(w, "  contention: some task waited for a CPU %.0f%% of the window (PSI); figures from a busy machine are noisy\n", 100*r.CPUPressure)
	}
	if s := r.worstSecond(); s != nil {
		fmt.Fprintf(w, "  worst 1 s:  second %d: %d sent, %d unanswered, p50 %.1f ms, p99 %.1f ms (every second is in --json)\n",
			s.Second, s.Sent, s.Unanswered, s.P50MS, s.P99MS)
	}
	fmt.Fprintf(w, "  schedule:   worst lag %.1f ms; at most %d in flight\n", r.MaxScheduleLagMS, r.MaxInFlight)
	audit := "balanced"
	if !r.AuditBalanced {
		audit = "NOT BALANCED: " + strings.TrimSpace(r.AuditOutput)
	}
	fmt.Fprintf(w, "  bot:        %s; %d warnings, %d errors logged; audit %s\n", r.BotExit, r.BotWarnings, r.BotErrors, audit)
	fmt.Fprintf(w, "  fake:       %d failures in the window, %d in the whole run\n", r.FakeFailuresInWindow, r.FakeFailures)
	// Three of each keep the report on one screen; --json has them all.
	for _, s := range r.FakeFailureSamples[:min(len(r.FakeFailureSamples), 3)] {
		fmt.Fprintf(w, "    fake: %s\n", s)
	}
	for _, s := range r.BotLogSamples {
		fmt.Fprintf(w, "    log:  %s\n", s)
	}
	for _, s := range r.Samples[:min(len(r.Samples), 3)] {
		fmt.Fprintf(w, "    seen: %s\n", s)
	}
	if r.PerfOut != "" {
		fmt.Fprintf(w, "  profile:    perf report -i %s\n", r.PerfOut)
	}
	if r.PerfError != "" {
		fmt.Fprintf(w, "  profile:    %s\n", r.PerfError)
	}
}

// Second is one second of the window.
type Second struct {
	Second     int     `json:"second"` // from the window's start
	Sent       int     `json:"sent"`
	Unanswered int     `json:"unanswered"`
	P50MS      float64 `json:"p50_ms"`
	P99MS      float64 `json:"p99_ms"`
	MaxMS      float64 `json:"max_ms"`
}

func perSecond(outcomes []outcome, start time.Time) []Second {
	var lat [][]time.Duration
	var out []Second
	for _, o := range outcomes {
		i := max(0, int(o.sent.Sub(start)/time.Second))
		for len(out) <= i {
			out = append(out, Second{Second: len(out)})
			lat = append(lat, nil)
		}
		out[i].Sent++
		if o.failed {
			out[i].Unanswered++
		} else {
			lat[i] = append(lat[i], o.latency)
		}
	}
	for i := range out {
		slices.Sort(lat[i])
		out[i].P50MS, out[i].P99MS, out[i].MaxMS = ms(quantile(lat[i], .5)), ms(quantile(lat[i], .99)), ms(quantile(lat[i], 1))
	}
	return out
}

// worstSecond is the second with the highest p99 (an unanswered interaction counts
// as the worst), or nil.
func (r *Report) worstSecond() *Second {
	var w *Second
	for i := range r.Seconds {
		s := &r.Seconds[i]
		if w == nil || s.Unanswered > w.Unanswered || s.Unanswered == w.Unanswered && s.P99MS > w.P99MS {
			w = s
		}
	}
	return w
}

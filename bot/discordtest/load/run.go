package load

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
)

// Defaults of Config.
const (
	DefaultTables   = 500
	DefaultGuilds   = 5
	DefaultSeats    = 4
	DefaultRate     = 200
	DefaultDuration = 30 * time.Second
	DefaultTimeout  = 10 * time.Minute
)

// clicksPerRound is about how many interactions a round of four seats takes: a
// Deal, everyone's look at their cards, three stakes, and a look and one or two
// actions for each player and the banker in turn.
const clicksPerRound = 18

// AutoWarmup is the time the load takes to play about one round at every table,
// between 5 seconds and 2 minutes: long enough for the tables, all dealt at once at
// the start, to drift apart, so the window sees every phase of a round.
func AutoWarmup(tables int, rate float64) time.Duration {
	d := time.Duration(float64(tables*clicksPerRound) / rate * float64(time.Second))
	return min(max(d, 5*time.Second), 2*time.Minute).Round(time.Second)
}

// Config says what to run. A zero field takes the default in its comment.
type Config struct {
	Bot     string  // the bot binary; "" builds ./cmd/pontoon into the run's directory
	Tables  int     // tables open at once: 500
	Guilds  int     // servers the tables are spread over: 5
	Seats   int     // members seated at each table, one of whom holds the bank: 4
	Rate    float64 // interactions sent per second: 200
	Poisson bool    // exponential gaps between arrivals (a Poisson process) instead of even ones
	// Warmup is load before the measured window, not measured. 0: AutoWarmup, about
	// one round at every table; negative: none.
	Warmup   time.Duration
	Duration time.Duration // the measured window: 30s
	// MaxInteractions ends the window once this many have been sent in it; 0: no limit
	// but Duration.
	MaxInteractions int
	Timeout         time.Duration // the whole run, setup and audit included: 10m
	Seed            uint64        // seeds the members' choices and Poisson gaps; 0: 1
	// OpenAPI also checks every request body against Discord's OpenAPI spec, as the
	// tests do. It costs this process CPU, not the bot's, so it is off by default; the
	// fake's hand-coded limits always apply.
	OpenAPI  bool
	LogLevel string // the bot's log level: info, as in production
	// Dir holds the run's database and, when built, the binary; "": a new temporary
	// directory, removed afterwards.
	Dir string
	// PerfOut, when set, runs `perf record -g` on the bot process during the window
	// and writes the profile there (read it with `perf report -i FILE`).
	PerfOut string
	// HTTP has the fake POST each interaction to the bot's interactions endpoint
	// (discord.interactions_listen, signed as Discord signs them) instead of sending
	// it over the gateway; the bot then answers in the HTTP response and opens no
	// gateway. On the run's SQLite the bot is one process that owns its tables.
	HTTP bool
	// Pin runs the bot on a processor of its own (CPU 0) and this process on the
	// others, as a bot on a machine that is otherwise idle (pin.go). It pins the
	// calling process for the rest of its life.
	Pin      bool
	BotEnv   []string  // more environment for the bot, e.g. PONTOON_GAME_TURN_TIMER=2m
	Progress io.Writer // progress lines while it runs; nil: none
}

func (c *Config) defaults() error {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.Tables, DefaultTables)
	def(&c.Guilds, DefaultGuilds)
	def(&c.Seats, DefaultSeats)
	if c.Rate == 0 {
		c.Rate = DefaultRate
	}
	switch {
	case c.Warmup == 0:
		c.Warmup = AutoWarmup(c.Tables, c.Rate)
	case c.Warmup < 0:
		c.Warmup = 0
	}
	if c.Duration == 0 {
		c.Duration = DefaultDuration
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.Seed == 0 {
		c.Seed = 1
	}
	if c.LogLevel == "" {
		c.LogLevel = "info"
	}
	if c.Progress == nil {
		c.Progress = io.Discard
	}
	c.Guilds = min(c.Guilds, c.Tables) // a server without a table would measure nothing
	switch {
	case c.Tables < 1 || c.Tables > 100000:
		return fmt.Errorf("tables: %d is not between 1 and 100000", c.Tables)
	case c.Guilds < 1:
		return fmt.Errorf("guilds: %d is less than 1", c.Guilds)
	case c.Seats < 2 || c.Seats > 10:
		return fmt.Errorf("seats: %d is not between 2 (a banker and a player) and 10", c.Seats)
	case c.Rate <= 0 || c.Rate > 100000:
		return fmt.Errorf("rate: %v is not between 0 and 100000 per second", c.Rate)
	case c.Warmup < 0 || c.Duration < 0 || c.MaxInteractions < 0:
		return errors.New("warmup, duration and max interactions cannot be negative")
	case c.Warmup+c.Duration > c.Timeout:
		return fmt.Errorf("warmup %v plus duration %v do not fit in the timeout %v", c.Warmup, c.Duration, c.Timeout)
	}
	return nil
}

// token is the fake's bot token: the bot gets it through its environment.
const token = "MTEwMDAwMDAwMDAwMDAwMDAwMQ.GfAkEt.load-test-token" // the shape config.Validate accepts

// Run starts the fake Discord in this process and the bot as a child process
// pointed at it, opens the tables, sends interactions at the configured rate for
// the warmup and the window, stops the bot and audits its database. The error is
// for a run that could not be made; what went wrong inside a run (unanswered
// interactions, refusals, an audit that does not balance) is in the Report.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	progress := func(format string, args ...any) {
		fmt.Fprintf(cfg.Progress, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
	}

	dir := cfg.Dir
	if dir == "" {
		d, err := os.MkdirTemp("", "pontoon-load-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	bin := cfg.Bot
	if bin == "" {
		progress("building ./cmd/pontoon")
		b, err := BuildBot(ctx, dir)
		if err != nil {
			return nil, err
		}
		bin = b
	} else if abs, err := filepath.Abs(bin); err == nil {
		bin = abs
	}

	opts := []discordtest.Option{discordtest.WithToken(token), discordtest.WithWaitTimeout(10 * time.Second)}
	if !cfg.OpenAPI {
		opts = append(opts, discordtest.WithoutOpenAPI())
	}
	fake, stopFake, err := discordtest.Standalone(func(f string, a ...any) { progress(f, a...) }, opts...)
	if err != nil {
		return nil, err
	}
	defer stopFake()
	tables := addTables(fake, cfg)

	db := filepath.Join(dir, "pontoon.db")
	env := cfg.BotEnv
	endpoint := ""
	if cfg.HTTP {
		addr, err := freeLoopback()
		if err != nil {
			return nil, err
		}
		endpoint = "http://" + addr + "/"
		env = append(env[:len(env):len(env)], "PONTOON_DISCORD_INTERACTIONS_LISTEN="+addr,
			"PONTOON_DISCORD_PUBLIC_KEY="+fake.PublicKey(), "PONTOON_DISCORD_APPLICATION_ID="+fake.AppID)
	}
	pinned := ""
	if cfg.Pin {
		// This process first, so that nothing it starts from here runs on the bot's CPU.
		if pinned, err = pinSelf(); err != nil {
			return nil, err
		}
	}
	bp, err := startBot(bin, dir, botEnv(fake.URL(), token, db, cfg.LogLevel, env), cfg.Pin)
	if err != nil {
		return nil, err
	}
	if endpoint != "" {
		// As the Developer Portal does, the fake PINGs the endpoint before it takes it:
		// try until the bot listens.
		deadline := time.Now().Add(time.Minute)
		for {
			err := fake.SetInteractionsEndpoint(endpoint)
			if err == nil {
				break
			}
			if time.Now().After(deadline) || bp.exited() {
				return nil, fmt.Errorf("the bot's interactions endpoint: %w\nbot log:\n%s", err, bp.logs.tail())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	defer bp.stop(5 * time.Second) // on an early return; a no-op once stopped
	progress("fake Discord at %s; bot started, pid %s; waiting for it to register /pontoon", fake.URL(), bp.pid())
	if err := bp.waitReady(ctx, time.Minute, func() bool { return len(fake.Commands("")) > 0 }); err != nil {
		return nil, err
	}

	progress("opening %d tables in %d servers, %d members each", cfg.Tables, cfg.Guilds, cfg.Seats)
	setupStart := time.Now()
	if err := openTables(ctx, fake, tables); err != nil {
		return nil, fmt.Errorf("opening the tables: %w\nbot log:\n%s", err, bp.logs.tail())
	}
	progress("tables open in %v; load at %v/s: %v warmup, then %v measured", time.Since(setupStart).Round(time.Millisecond), cfg.Rate, cfg.Warmup, cfg.Duration)

	rep := &Report{Bot: bin, Tables: cfg.Tables, Guilds: cfg.Guilds, Seats: cfg.Seats, Rate: cfg.Rate,
		Arrivals: "even", Interactions: "gateway", Warmup: cfg.Warmup.Seconds(), CPUs: runtime.NumCPU(), Pinned: pinned, Settings: cfg.BotEnv, LoadAverageBefore: loadAverage()}
	if cfg.Poisson {
		rep.Arrivals = "poisson"
	}
	if cfg.HTTP {
		rep.Interactions = "http"
	}
	if err := measure(ctx, cfg, fake, bp, tables, rep, progress); err != nil {
		return nil, err
	}
	rep.LoadAverageAfter = loadAverage()
	if rss, peak, err := procMemory(bp.pid()); err == nil {
		rep.BotRSSMiB, rep.BotPeakRSSMiB = mib(rss), mib(peak)
	}

	rep.BotExit = bp.stop(20 * time.Second)
	rep.BotWarnings, rep.BotErrors, rep.BotLogSamples = bp.logs.counts()
	f := fake.Failures()
	rep.FakeFailures = len(f)
	rep.FakeFailureSamples = f[:min(len(f), 5)]
	ok, out, err := bp.audit(ctx)
	if err != nil {
		return nil, err
	}
	rep.AuditBalanced, rep.AuditOutput = ok, out
	return rep, nil
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

// ids are snowflake-shaped: the fake and the bot take them as Discord's.
func id(base int64, n int) string { return strconv.FormatInt(base+int64(n), 10) }

// addTables creates the servers, channels and members of the run on the fake. The
// servers speak different languages, so every catalog is used.
func addTables(fake *discordtest.Server, cfg Config) []*table {
	locales := []string{"en-US", "id", "pl", "pt-BR", "en-GB"}
	for g := 0; g < cfg.Guilds; g++ {
		fake.AddGuild(id(110000000000000000, g), locales[g%len(locales)])
	}
	tables := make([]*table, cfg.Tables)
	for i := range tables {
		g := i % cfg.Guilds
		t := &table{n: i, guild: id(110000000000000000, g), channel: id(210000000000000000, i),
			panels: map[string]*discordgo.Message{}, busy: map[string]bool{}}
		fake.AddChannel(t.guild, t.channel)
		for k := 0; k < cfg.Seats; k++ {
			m := id(310000000000000000, i*cfg.Seats+k)
			fake.AddMember(t.guild, m, "member"+m[len(m)-6:], 0, locales[g%len(locales)])
			t.members = append(t.members, m)
		}
		tables[i] = t
	}
	return tables
}

// openTables runs /pontoon start at every table and seats its members with Join, a
// few tables at a time. This is setup: it is not measured.
func openTables(ctx context.Context, fake *discordtest.Server, tables []*table) error {
	work := make(chan *table)
	errc := make(chan error, 1)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range work {
				if err := openTable(ctx, fake, t); err != nil {
					select {
					case errc <- fmt.Errorf("table %d (channel %s): %w", t.n, t.channel, err):
					default:
					}
				}
			}
		}()
	}
	var err error
feed:
	for _, t := range tables {
		select {
		case work <- t:
		case err = <-errc:
			break feed
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(work)
	wg.Wait()
	if err == nil {
		select {
		case err = <-errc:
		default:
		}
	}
	return err
}

var startCommand = []*discordgo.ApplicationCommandInteractionDataOption{{Name: "start", Type: discordgo.ApplicationCommandOptionSubCommand}}

func openTable(ctx context.Context, fake *discordtest.Server, t *table) error {
	r, err := fake.Command(t.guild, t.channel, t.members[0], "pontoon", startCommand)
	if err != nil {
		return err
	}
	if txt := discordtest.Text(r.Message); r.Message != nil && containsRefusal(txt) {
		return fmt.Errorf("/pontoon start refused: %s", firstLine(txt))
	}
	// The table message is posted after the reply.
	var msg *discordgo.Message
	for deadline := time.Now().Add(10 * time.Second); msg == nil; {
		for _, m := range fake.Messages(t.channel) {
			if hasComponent(m, prefixJoin) {
				msg = m
			}
		}
		if msg != nil {
			break
		}
		if time.Now().After(deadline) {
			return errors.New("no table message with a Join button within 10s of /pontoon start")
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.msgID = msg.ID
	for _, m := range t.members[1:] {
		join, ok := discordtest.CustomID(msg, prefixJoin, "")
		if !ok {
			return errors.New("the table message lost its Join button")
		}
		r, err := fake.Click(t.channel, msg.ID, m, join)
		if err != nil {
			return err
		}
		if txt := discordtest.Text(r.Message); containsRefusal(txt) {
			return fmt.Errorf("the Join was refused: %s", firstLine(txt))
		}
		if msg = fake.Message(t.channel, t.msgID); msg == nil {
			return errors.New("the table message is gone")
		}
	}
	return nil
}

func containsRefusal(s string) bool { return strings.Contains(s, refusalMarker) }

// send sends one click and waits for the bot's answer. A click on the table message
// takes the component as the message stands now.
func send(fake *discordtest.Server, c *click) (*discordtest.Response, error) {
	if c.fromTable {
		// A member waits for the table to show the round a Deal acknowledged without an
		// update (as they would watch the message change), but not for ever.
		deadline := time.Now().Add(tableWait)
		for {
			m := fake.Message(c.t.channel, c.t.msgID)
			if m == nil {
				return nil, fmt.Errorf("table message %s is gone", c.t.msgID)
			}
			id, ok := discordtest.CustomID(m, c.prefix, "")
			if ok && idRound(id) > c.after {
				c.msgID, c.customID = m.ID, id
				break
			}
			if time.Now().After(deadline) {
				if !ok {
					return nil, fmt.Errorf("the table message has no %s… component", c.prefix)
				}
				return nil, fmt.Errorf("the table message still shows round %d after %s (want past %d)", idRound(id), tableWait, c.after)
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	if c.values != nil {
		return fake.Select(c.t.channel, c.msgID, c.member, c.customID, c.values)
	}
	return fake.Click(c.t.channel, c.msgID, c.member, c.customID)
}

// freeLoopback picks a loopback address for the bot's interactions endpoint: the fake
// must know it before the bot listens.
func freeLoopback() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := ln.Addr().String()
	return addr, ln.Close()
}

// tableWait is how long a member watches the table message for the round they expect.
const tableWait = 3 * time.Second

// usage is the CPU used so far by the bot, by this process and by the whole machine.
type usage struct {
	at                 time.Time
	bot, self, machine time.Duration
	botKernel          time.Duration         // the part of bot spent in the kernel
	threads            map[int]time.Duration // the bot's, by thread id
	pressure           time.Duration         // some task waiting for a CPU; see cpuPressure
	hasPressure        bool
}

func sampleUsage(pid string) (usage, error) {
	u := usage{at: time.Now()}
	var err1, err2, err3 error
	var botUser time.Duration
	botUser, u.botKernel, err1 = procTimes(pid)
	u.bot = botUser + u.botKernel
	u.self, err2 = procCPU("self")
	u.machine, err3 = machineCPU()
	u.pressure, u.hasPressure = cpuPressure()
	var err4 error
	u.threads, err4 = threadCPU(pid)
	return u, errors.Join(err1, err2, err3, err4)
}

// measure plays the tables at the configured rate and fills in the report's figures.
//
// The schedule is open: arrival k is due at a fixed time (even gaps of 1/rate, or
// exponential ones), whatever the answers so far. At each arrival the oldest ready
// click is sent without waiting for its answer; a member whose click is in flight is
// not ready, so an arrival that finds no click ready is counted as missed. The window
// opens at the first arrival after the warmup and closes at its end; the clicks in
// flight then are waited for, and the CPU is read after them.
func measure(ctx context.Context, cfg Config, fake *discordtest.Server, bp *botProcess, tables []*table,
	rep *Report, progress func(string, ...any)) error {
	q := &queue{rng: rand.New(rand.NewPCG(cfg.Seed, 0x6a09e667f3bcc908))}
	p := &players{q: q, rng: rand.New(rand.NewPCG(cfg.Seed, 0x9e3779b97f4a7c15))}
	for _, t := range tables {
		p.deal(t, t.n)
	}
	answers := make(chan answer, 4096)
	playersDone := make(chan struct{})
	go func() {
		defer close(playersDone)
		for a := range answers {
			p.handle(a)
		}
	}()

	gaps := rand.New(rand.NewPCG(cfg.Seed, 0x2545f4914f6cdd1d))
	mean := 1 / cfg.Rate
	start := time.Now()
	windowStart, windowEnd := start.Add(cfg.Warmup), start.Add(cfg.Warmup+cfg.Duration)
	var (
		wg       sync.WaitGroup
		inflight atomic.Int64
		// failures the fake had recorded when the window opened
		failuresBefore int
		offset         float64
		inWindow       bool
		before         usage
		perf           *exec.Cmd
		perfErr        error
		sampleErr      error
		timer          = time.NewTimer(0)
	)
	<-timer.C
	for ctx.Err() == nil {
		if cfg.Poisson {
			offset += gaps.ExpFloat64() * mean
		} else {
			offset += mean
		}
		at := start.Add(time.Duration(offset * float64(time.Second)))
		if !at.Before(windowEnd) {
			break
		}
		if d := time.Until(at); d > 0 {
			timer.Reset(d)
			select {
			case <-timer.C:
			case <-ctx.Done():
				timer.Stop()
			}
		}
		if !inWindow && !at.Before(windowStart) {
			inWindow = true
			if before, sampleErr = sampleUsage(bp.pid()); sampleErr != nil {
				break // the bot is gone: stop sending, then report it
			}
			failuresBefore = len(fake.Failures())
			if cfg.PerfOut != "" {
				perf, perfErr = startPerf(cfg.PerfOut, bp.pid())
			}
			progress("window open: %d tables, %d clicks ready", len(tables), q.len())
		}
		if inWindow {
			rep.MaxScheduleLagMS = max(rep.MaxScheduleLagMS, ms(time.Since(at)))
		}
		c := q.pop()
		if c == nil {
			if inWindow {
				rep.Missed++
			}
			continue
		}
		c.inWindow, c.sent = inWindow, time.Now()
		if inWindow {
			rep.Sent++
			rep.MaxInFlight = max(rep.MaxInFlight, int(inflight.Add(1)))
		} else {
			inflight.Add(1)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := send(fake, c)
			inflight.Add(-1)
			answers <- answer{c: c, r: r, err: err}
		}()
		if inWindow && cfg.MaxInteractions > 0 && rep.Sent >= cfg.MaxInteractions {
			break
		}
	}
	wg.Wait()
	close(answers)
	<-playersDone
	if perf != nil {
		perfErr = stopPerf(perf)
	}
	if sampleErr != nil {
		return fmt.Errorf("reading the bot's CPU: %w", sampleErr)
	}
	after, err := sampleUsage(bp.pid())
	if err != nil {
		return fmt.Errorf("reading the bot's CPU: %w", err)
	}
	if ctx.Err() != nil {
		return fmt.Errorf("the run did not finish within %v: %w", cfg.Timeout, ctx.Err())
	}
	if !inWindow {
		return errors.New("the measured window never opened")
	}
	if perfErr != nil {
		rep.PerfError = perfErr.Error()
	} else if cfg.PerfOut != "" {
		rep.PerfOut = cfg.PerfOut
	}
	rep.fill(p, before, after)
	rep.FakeFailuresInWindow = len(fake.Failures()) - failuresBefore
	progress("window closed: %d sent, %d answered", rep.Sent, rep.Answered)
	return nil
}

// startPerf samples the bot's stacks with the kernel's cpu-clock event (it needs no
// hardware counters, which virtual machines often lack).
func startPerf(out, pid string) (*exec.Cmd, error) {
	cmd := exec.Command("perf", "record", "-e", "cpu-clock", "-F", "499", "-g", "-o", out, "-p", pid)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("perf record: %w", err)
	}
	return cmd, nil
}

// stopPerf ends the recording as Ctrl-C would, so perf writes its file out.
func stopPerf(cmd *exec.Cmd) error {
	_ = cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			return fmt.Errorf("perf record: %w", err)
		}
		return nil
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		return errors.New("perf record did not stop within 30s of SIGINT")
	}
}

package load

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// BuildBot builds the bot binary (package cmd/pontoon of this module) into dir with
// `go build`, run from the working directory, which must be inside the module.
func BuildBot(ctx context.Context, dir string) (string, error) {
	bin := filepath.Join(dir, "pontoon")
	out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/pontoon-bot/pontoon/cmd/pontoon").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build ./cmd/pontoon: %v\n%s", err, out)
	}
	return bin, nil
}

// botProcess is the bot binary running as a child, configured only through its
// environment, as a server admin would run it.
type botProcess struct {
	bin  string
	dir  string
	env  []string
	cmd  *exec.Cmd
	logs *logSink
	done chan struct{} // closed when the process has exited
	err  error         // its exit, once done is closed
}

// botEnv is the bot's environment: this process's, without any PONTOON_ setting
// (a developer's real token or database must not leak into a load run), plus the
// fake's address and token and a fresh database.
func botEnv(apiURL, token, db, logLevel string, extra []string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PONTOON_") {
			env = append(env, kv)
		}
	}
	env = append(env, "PONTOON_DISCORD_TOKEN="+token, "PONTOON_DISCORD_API_URL="+apiURL,
		"PONTOON_DATABASE_PATH="+db, "PONTOON_LOG_LEVEL="+logLevel, "PONTOON_LOG_FORMAT=text",
		// A member's click can wait in the queue for a while when the rate is spread
		// over many tables; the longest turn timer (R7.4) keeps the bot from playing
		// for them, which would leave their panel stale. Timers are still armed.
		"PONTOON_GAME_TURN_TIMER=10m",
		// A run opens hundreds of tables in a few servers, far past a server's default
		// limit of open tables.
		"PONTOON_LIMITS_MAX_OPEN_TABLES=10000")
	return append(env, extra...) // later entries win: exec keeps the last of a name
}

// startBot runs `bin` (serve is the default) in dir, so that no config.yaml of the
// caller's working directory is read; pinned, on a processor of its own (pin.go).
func startBot(bin, dir string, env []string, pin bool) (*botProcess, error) {
	p := &botProcess{bin: bin, dir: dir, env: env, logs: &logSink{}, done: make(chan struct{})}
	p.cmd = exec.Command(bin)
	if pin {
		cmd, err := pinnedCommand(bin)
		if err != nil {
			return nil, err
		}
		p.cmd = cmd
	}
	p.cmd.Dir, p.cmd.Env = dir, env
	p.cmd.Stdout, p.cmd.Stderr = p.logs, p.logs
	// If this process dies without stopping the bot, the kernel stops it.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

func (p *botProcess) pid() string { return strconv.Itoa(p.cmd.Process.Pid) }

// exited reports whether the bot process has ended.
func (p *botProcess) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// waitReady waits until the bot logs that it is ready and ready() holds.
func (p *botProcess) waitReady(ctx context.Context, timeout time.Duration, ready func() bool) error {
	deadline := time.Now().Add(timeout)
	for {
		if p.logs.isReady() && ready() {
			return nil
		}
		select {
		case <-p.done:
			return fmt.Errorf("the bot exited before it was ready (%v):\n%s", p.err, p.logs.tail())
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the bot was not ready within %v:\n%s", timeout, p.logs.tail())
		}
	}
}

// stop sends SIGTERM, which lets the bot finish what is in flight, and waits; after
// grace it kills it. It returns how the process ended.
func (p *botProcess) stop(grace time.Duration) string {
	select {
	case <-p.done:
		return "exited on its own: " + exitText(p.err)
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		return "stopped by SIGTERM: " + exitText(p.err)
	case <-time.After(grace):
		_ = p.cmd.Process.Kill()
		<-p.done
		return fmt.Sprintf("killed: no exit within %v of SIGTERM", grace)
	}
}

func exitText(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// audit runs `pontoon audit` on the run's database: exit status 0 means every
// server's chips are conserved.
func (p *botProcess) audit(ctx context.Context) (bool, string, error) {
	cmd := exec.CommandContext(ctx, p.bin, "audit")
	cmd.Dir, cmd.Env = p.dir, p.env
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return true, string(out), nil
	case errors.As(err, &ee):
		return false, string(out), nil
	default:
		return false, string(out), fmt.Errorf("pontoon audit: %w", err)
	}
}

// logSink keeps what the bot writes: the last 64 KiB for error messages, the number
// of WARN and ERROR lines and the first few of them.
type logSink struct {
	mu       sync.Mutex
	buf      []byte
	partial  []byte
	warnings int
	errors   int
	samples  []string
	ready    bool
}

const logTail = 64 << 10

func (l *logSink) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, b...)
	if len(l.buf) > 2*logTail {
		l.buf = append(l.buf[:0], l.buf[len(l.buf)-logTail:]...)
	}
	l.partial = append(l.partial, b...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			break
		}
		l.line(string(l.partial[:i]))
		l.partial = l.partial[i+1:]
	}
	l.partial = append([]byte(nil), l.partial...)
	return len(b), nil
}

// line counts one line of the bot's log and keeps the first three warnings and the
// first three errors (errors are rarer and say more, so warnings cannot crowd them out).
func (l *logSink) line(s string) {
	var seen int
	switch {
	case strings.Contains(s, "level=WARN"):
		l.warnings++
		seen = l.warnings
	case strings.Contains(s, "level=ERROR"):
		l.errors++
		seen = l.errors
	default:
		if strings.Contains(s, "pontoon bot ready") {
			l.ready = true
		}
		return
	}
	if seen <= 3 {
		if r := []rune(s); len(r) > 300 {
			s = string(r[:300]) + "…"
		}
		l.samples = append(l.samples, s)
	}
}

// isReady reports whether the bot has logged that it is ready.
func (l *logSink) isReady() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ready
}

func (l *logSink) tail() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buf
	if len(b) > 4096 {
		b = b[len(b)-4096:]
	}
	return string(b)
}

func (l *logSink) counts() (warnings, errs int, samples []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.warnings, l.errors, append([]string(nil), l.samples...)
}

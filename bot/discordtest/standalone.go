package discordtest

import (
	"fmt"
	"sync"
	"testing"
)

// Standalone starts a fake Discord outside a test, for a tool such as
// cmd/pontoon-load that runs the fake in its own process. It behaves as New
// does; what New would report through t.Fatalf is returned as an error, and
// logf (nil to discard) receives what New would log. Call stop to close it.
func Standalone(logf func(format string, args ...any), opts ...Option) (srv *Server, stop func(), err error) {
	tb := &toolTB{logf: logf}
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(toolFatal)
			if !ok {
				panic(r)
			}
			tb.cleanup()
			srv, stop, err = nil, nil, f.err
		}
	}()
	srv = New(tb, opts...)
	return srv, tb.cleanup, nil
}

// toolTB is the part of testing.TB that New and Server use (Helper, Fatalf,
// Cleanup, Failed, Logf), for a Server that lives outside a test. The embedded
// interface is nil: it only satisfies testing.TB's unexported method, so a
// call of any other method panics, and a new use of t in the package shows up
// at once in the tool's test.
type toolTB struct {
	testing.TB
	logf func(format string, args ...any)

	mu       sync.Mutex
	cleanups []func()
	failed   bool
}

// toolFatal carries a Fatalf out of New to Standalone.
type toolFatal struct{ err error }

func (t *toolTB) Helper() {}

func (t *toolTB) Fatalf(format string, args ...any) {
	t.mu.Lock()
	t.failed = true
	t.mu.Unlock()
	panic(toolFatal{fmt.Errorf(format, args...)})
}

func (t *toolTB) Cleanup(f func()) {
	t.mu.Lock()
	t.cleanups = append(t.cleanups, f)
	t.mu.Unlock()
}

func (t *toolTB) Failed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.failed
}

func (t *toolTB) Logf(format string, args ...any) {
	if t.logf != nil {
		t.logf(format, args...)
	}
}

// cleanup runs the registered cleanups once, last first, as testing does.
func (t *toolTB) cleanup() {
	t.mu.Lock()
	fs := t.cleanups
	t.cleanups = nil
	t.mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}

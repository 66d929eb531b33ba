package httpin

import (
	"net"
	"net/http"
	"time"

	"golang.org/x/net/netutil"
)

// Defaults of Limits.
const (
	// DefaultReadTimeout bounds how long a request, headers and body, may
	// take to arrive. Discord sends a few kilobytes at once; only a client
	// holding the connection open sends slower.
	DefaultReadTimeout = 10 * time.Second
	// DefaultIdleTimeout is how long a kept-alive connection may wait for
	// its next request. Discord reuses its connections within seconds.
	DefaultIdleTimeout = 30 * time.Second
	// DefaultMaxConns is how many connections are served at once; those
	// past it wait in the kernel's queue until one closes. Each costs a
	// goroutine and up to MaxBodyBytes, so this bounds the memory the
	// clients can hold.
	DefaultMaxConns = 256
	// writeMargin is what WriteTimeout adds to ReadTimeout by default. The
	// write deadline starts once the headers are read, so it covers the
	// body, the router until DefaultDeferAfter, and the answer.
	writeMargin = 10 * time.Second
)

// Limits bound what clients can hold of the endpoint: the time a request
// takes to arrive, to be answered, and to be followed by the next, and the
// connections served at once. A zero field takes its default.
type Limits struct {
	ReadTimeout  time.Duration // headers and body; DefaultReadTimeout
	WriteTimeout time.Duration // from the end of the headers to the end of the answer; ReadTimeout + 10s
	IdleTimeout  time.Duration // between requests on a kept-alive connection; DefaultIdleTimeout
	MaxConns     int           // connections served at once; DefaultMaxConns
}

func (l Limits) withDefaults() Limits {
	if l.ReadTimeout <= 0 {
		l.ReadTimeout = DefaultReadTimeout
	}
	if l.WriteTimeout <= 0 {
		l.WriteTimeout = l.ReadTimeout + writeMargin
	}
	if l.IdleTimeout <= 0 {
		l.IdleTimeout = DefaultIdleTimeout
	}
	if l.MaxConns <= 0 {
		l.MaxConns = DefaultMaxConns
	}
	return l
}

// Server returns an http.Server for h with l's timeouts. Serve it on
// l.Listener's listener, so that the connections are bounded too.
func (l Limits) Server(h http.Handler) *http.Server {
	l = l.withDefaults()
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: min(l.ReadTimeout, 5*time.Second),
		ReadTimeout:       l.ReadTimeout,
		WriteTimeout:      l.WriteTimeout,
		IdleTimeout:       l.IdleTimeout,
		// Discord's headers are a few hundred bytes; the default allows 1 MiB.
		MaxHeaderBytes: 64 << 10,
	}
}

// Listener wraps ln so that it hands out at most l.MaxConns connections at
// once; Accept waits while that many are open.
func (l Limits) Listener(ln net.Listener) net.Listener {
	return netutil.LimitListener(ln, l.withDefaults().MaxConns)
}

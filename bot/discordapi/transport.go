package discordapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// rewrittenHosts are the hosts whose requests NewTransport sends to the base
// URL. Other Discord hosts (cdn.discordapp.com, media.discordapp.net) serve
// files, not the API, and are left alone.
var rewrittenHosts = map[string]bool{
	"discord.com":        true,
	"gateway.discord.gg": true,
}

// ErrEmptyToken is returned by NewSession when the token is empty.
var ErrEmptyToken = errors.New("discordapi: empty bot token")

type rewriteTransport struct {
	scheme string
	host   string
	prefix string // path of the base URL without its trailing slash, often ""
	next   http.RoundTripper
}

// NewTransport returns a RoundTripper that sends every request for
// discord.com or gateway.discord.gg to baseURL instead, keeping the path
// (after any path baseURL itself has) and the query, and hands every other
// request to next unchanged. A nil next means http.DefaultTransport.
//
// baseURL must be an absolute http or https URL with a host, such as
// "http://127.0.0.1:8080" or "https://proxy.internal/discord"; it may not
// carry a query, fragment or user info.
func NewTransport(baseURL string, next http.RoundTripper) (http.RoundTripper, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, fmt.Errorf("discordapi: invalid base URL: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("discordapi: base URL %q: scheme must be http or https", baseURL)
	}
	if u.Host == "" || u.Hostname() == "" {
		return nil, fmt.Errorf("discordapi: base URL %q has no host", baseURL)
	}
	if u.User != nil {
		// Credentials in a URL end up in logs; keep them out of the error too.
		return nil, errors.New("discordapi: base URL must not contain user info")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("discordapi: base URL %q must not have a query or fragment", baseURL)
	}
	if next == nil {
		next = keepAliveTransport()
	}
	return &rewriteTransport{
		scheme: u.Scheme,
		host:   u.Host,
		prefix: strings.TrimRight(u.EscapedPath(), "/"),
		next:   next,
	}, nil
}

// keepAliveTransport is http.DefaultTransport keeping more idle connections. Every call
// goes to one host; the default keeps only 2 idle connections per host, so under load
// most calls would dial a new connection and close it after.
func keepAliveTransport() http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 100
	return t
}

// RoundTrip implements http.RoundTripper. It never modifies req: a rewritten
// request is a shallow clone with a new URL.
func (t *rewriteTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL == nil || !rewrittenHosts[strings.ToLower(req.URL.Hostname())] {
		return t.next.RoundTrip(req)
	}
	out := req.Clone(req.Context())
	u := *req.URL
	u.Scheme = t.scheme
	u.Host = t.host
	if t.prefix != "" {
		u.Path = t.prefix + req.URL.Path
		if req.URL.RawPath != "" {
			u.RawPath = t.prefix + req.URL.RawPath
		}
	}
	out.URL = &u
	out.Host = "" // let the client derive Host from the new URL
	return t.next.RoundTrip(out)
}

// deadlineTransport gives every request a deadline timeout away, over reading the
// response body too: the deadline is cancelled when the body is closed.
type deadlineTransport struct {
	next    http.RoundTripper
	timeout time.Duration
}

func (t *deadlineTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(req.Context(), t.timeout)
	resp, err := t.next.RoundTrip(req.WithContext(ctx))
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

// cancelOnClose is a response body that releases its request's deadline when closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// NewSession returns a discordgo bot session ("Bot " + token) whose REST
// requests go to baseURL through NewTransport.
//
// client is copied, never modified; nil means a client with discordgo's
// usual 20 second timeout. Its Transport (nil: http.DefaultTransport)
// carries the rewritten requests and every request for other hosts.
//
// The session's websocket Dialer is a fresh dialer with the environment's
// proxy settings and a handshake timeout; it dials whatever URL
// GET /api/v9/gateway returned, which for the fake in discordtest is a
// ws://127.0.0.1 address (proxy settings never apply to loopback).
//
// The session is not opened. Callers set ShouldReconnectOnError, intents and
// handlers as they need, then call Open.
func NewSession(token, baseURL string, client *http.Client) (*discordgo.Session, error) {
	token = strings.TrimSpace(token)
	if token == "" {
		return nil, ErrEmptyToken
	}
	if strings.HasPrefix(token, "Bot ") {
		return nil, errors.New(`discordapi: token must be given without the "Bot " prefix`)
	}
	var c http.Client
	if client != nil {
		c = *client
	} else {
		c = http.Client{Timeout: 20 * time.Second}
	}
	rt, err := NewTransport(baseURL, c.Transport)
	if err != nil {
		return nil, err
	}
	if c.Timeout > 0 {
		// The client's timeout moves into the transport: http.Client enforces its own
		// Timeout, for a transport it does not know (ours wraps one), with a timer and a
		// goroutine per request, a tenth of a REST call's CPU. A context deadline does
		// the same job with neither.
		rt = &deadlineTransport{next: rt, timeout: c.Timeout}
		c.Timeout = 0
	}
	c.Transport = rt

	s, err := discordgo.New("Bot " + token)
	if err != nil {
		// discordgo.New does not fail today; if it ever does, its message
		// could quote the token, so it is not wrapped.
		return nil, errors.New("discordapi: cannot create discordgo session")
	}
	s.Client = &c
	s.Dialer = &websocket.Dialer{
		Proxy:            http.ProxyFromEnvironment,
		HandshakeTimeout: 45 * time.Second,
	}
	return s, nil
}

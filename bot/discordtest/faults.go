package discordtest

import (
	"net/http"
	"slices"
	"strings"
	"sync"
)

// Permission bits the fake enforces on the bot's channel routes (Discord's values).
const (
	PermViewChannel  int64 = 1 << 10
	PermSendMessages int64 = 1 << 11
	PermEmbedLinks   int64 = 1 << 14
	PermReadHistory  int64 = 1 << 16
)

func errMissingAccess() *apiError {
	return &apiError{Status: http.StatusForbidden, Code: 50001, Message: "Missing Access"}
}

func errMissingPermissions() *apiError {
	return &apiError{Status: http.StatusForbidden, Code: 50013, Message: "Missing Permissions"}
}

// SetAppPermissions sets what the bot may do in one channel: the
// app_permissions its interactions carry, and what its REST calls on the
// channel may do. Without View Channel every channel route answers 403 code
// 50001 Missing Access; posting without Send Messages, or with embeds
// without Embed Links, answers 403 code 50013 Missing Permissions (and so do
// edits adding embeds without Embed Links); listing messages needs Read
// Message History. Other channels keep the server-wide permissions
// (WithAppPermissions, DefaultAppPermissions).
func (s *Server) SetAppPermissions(channelID string, p int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.channels[channelID]; c != nil {
		c.appPerms = &p
	}
}

// appPermsLocked is what the bot may do in a channel.
func (s *Server) appPermsLocked(channelID string) int64 {
	if c := s.channels[channelID]; c != nil && c.appPerms != nil {
		return *c.appPerms
	}
	return s.cfg.appPermissions
}

// channelPermLocked checks the bot's permissions in the channel of c for
// a route: view for all, send for a new message, embed links for embeds,
// read history for listing.
func (s *Server) channelPermLocked(c *call, b *msgBody) *apiError {
	p := s.appPermsLocked(c.params["channel_id"])
	if p&PermViewChannel == 0 {
		return errMissingAccess()
	}
	switch c.route.key() {
	case RouteChannelMessageCreate:
		if p&PermSendMessages == 0 {
			return errMissingPermissions()
		}
	case "GET /channels/{channel_id}/messages":
		if p&PermReadHistory == 0 {
			return errMissingAccess()
		}
	}
	if b != nil && !emptyArray(b.raw["embeds"]) && p&PermEmbedLinks == 0 {
		return errMissingPermissions()
	}
	return nil
}

// Hold is a REST request the fake has caught and keeps waiting, so a test can
// act while the bot's call is in flight: kill the bot, restart it, or let the
// call go on.
type Hold struct {
	method, prefix string
	arrived        chan struct{}
	decided        chan struct{}
	once           sync.Once
	fail           *apiError
}

// Arrived is closed when the held request has reached the fake.
func (h *Hold) Arrived() <-chan struct{} { return h.arrived }

// Release lets the held request be served as usual (a message posted is
// then stored even if the bot is no longer there to read the answer).
func (h *Hold) Release() { h.once.Do(func() { close(h.decided) }) }

// Fail answers the held request with status and Discord's error code, as if
// it never reached the route: nothing is stored. It is not recorded as a
// failure of the bot.
func (h *Hold) Fail(status, code int, message string) {
	h.once.Do(func() {
		h.fail = &apiError{Status: status, Code: code, Message: message}
		close(h.decided)
	})
}

// HoldNext catches the next request whose path starts with routePrefix (a
// path below /api/v9, optionally led by a method, as for Inject429) and
// keeps it waiting until Release or Fail. Requests that are not caught are
// served as usual. A hold not decided when the test ends is released.
func (s *Server) HoldNext(routePrefix string) *Hold {
	method, prefix := splitRoutePrefix(routePrefix)
	h := &Hold{method: method, prefix: prefix, arrived: make(chan struct{}), decided: make(chan struct{})}
	s.mu.Lock()
	s.holds = append(s.holds, h)
	s.mu.Unlock()
	s.t.Cleanup(h.Release)
	return h
}

// FailNext makes the next n requests whose path starts with routePrefix
// answer status with Discord's error code and message, without being served
// (a 500 from Discord, or a 403 that app_permissions did not predict).
// Injected errors are not recorded as failures of the bot.
func (s *Server) FailNext(routePrefix string, n, status, code int, message string) {
	method, prefix := splitRoutePrefix(routePrefix)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failNext = append(s.failNext, &errInjection{method: method, prefix: prefix, left: n,
		err: &apiError{Status: status, Code: code, Message: message}})
}

type errInjection struct {
	method, prefix string
	left           int // requests still to fail; FailEvery's never runs out
	every          bool
	failed         int // requests answered with err, counted for FailEvery
	err            *apiError
}

// FailEvery makes every request whose path starts with routePrefix answer status with
// Discord's error code and message, without being served, until stop is called: a
// Discord that loses every edit of a message for a while, however many the bot sends
// and in whatever order. failed counts the requests it answered. Injected errors are
// not recorded as failures of the bot.
func (s *Server) FailEvery(routePrefix string, status, code int, message string) (failed func() int, stop func()) {
	method, prefix := splitRoutePrefix(routePrefix)
	inj := &errInjection{method: method, prefix: prefix, every: true, err: &apiError{Status: status, Code: code, Message: message}}
	s.mu.Lock()
	s.failNext = append(s.failNext, inj)
	s.mu.Unlock()
	failed = func() int {
		s.mu.Lock()
		defer s.mu.Unlock()
		return inj.failed
	}
	stop = func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.failNext = slices.DeleteFunc(s.failNext, func(f *errInjection) bool { return f == inj })
	}
	return failed, stop
}

func splitRoutePrefix(routePrefix string) (string, string) {
	method, prefix := "", strings.TrimSpace(routePrefix)
	if i := strings.IndexByte(prefix, ' '); i > 0 {
		method, prefix = strings.ToUpper(prefix[:i]), strings.TrimSpace(prefix[i+1:])
	}
	return method, trimAPIPrefix(prefix)
}

// takeHoldLocked returns the hold that catches this request, if any.
func (s *Server) takeHoldLocked(method, path string) *Hold {
	for i, h := range s.holds {
		if (h.method == "" || h.method == method) && strings.HasPrefix(path, h.prefix) {
			s.holds = append(s.holds[:i:i], s.holds[i+1:]...)
			return h
		}
	}
	return nil
}

func (s *Server) takeFailLocked(method, path string) *apiError {
	for i, f := range s.failNext {
		if (f.every || f.left > 0) && (f.method == "" || f.method == method) && strings.HasPrefix(path, f.prefix) {
			f.failed++
			if !f.every {
				if f.left--; f.left == 0 {
					s.failNext = append(s.failNext[:i:i], s.failNext[i+1:]...)
				}
			}
			e := *f.err
			return &e
		}
	}
	return nil
}

// injectedFault waits out a hold on the request and returns the error an
// injection or a failed hold answers it with, or nil to serve it.
func (s *Server) injectedFault(method, path string) *apiError {
	s.mu.Lock()
	h := s.takeHoldLocked(method, path)
	var e *apiError
	if h == nil {
		e = s.takeFailLocked(method, path)
	}
	s.mu.Unlock()
	if h != nil {
		close(h.arrived)
		<-h.decided
		e = h.fail
	}
	return e
}

// writeInjected answers with an injected error without recording a failure.
func writeInjected(w http.ResponseWriter, e *apiError) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.Status)
	_, _ = w.Write(e.body())
}

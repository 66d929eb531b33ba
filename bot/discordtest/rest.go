package discordtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

const maxRequestBytes = 32 << 20

// call is one REST request on its way through the fake.
type call struct {
	r       *http.Request
	route   *route
	params  map[string]string
	query   url.Values
	arrival time.Time
	payload []byte        // the JSON body, or payload_json of a multipart body
	files   []*Attachment // uploaded files of a multipart body
}

type handler func(s *Server, c *call) (int, any, *apiError)

type route struct {
	method  string
	pattern string // Discord's path template, as in the OpenAPI spec
	segs    []string
	major   []string // parameters that pick the rate limit bucket
	noAuth  bool     // token in the path: Authorization is optional
	spec    string   // OpenAPI operation whose request body applies, "" for none
	h       handler
}

func (rt *route) key() string { return rt.method + " " + rt.pattern }

var routes []*route

func addRoute(method, pattern string, major []string, noAuth bool, spec string, h handler) {
	routes = append(routes, &route{method: method, pattern: pattern, segs: strings.Split(strings.Trim(pattern, "/"), "/"),
		major: major, noAuth: noAuth, spec: spec, h: h})
}

func init() {
	chMajor := []string{"channel_id"}
	whMajor := []string{"webhook_id", "webhook_token"}
	appMajor := []string{"application_id"}
	guildMajor := []string{"guild_id"}
	addRoute("GET", "/gateway", nil, false, "", (*Server).handleGateway)
	addRoute("GET", "/gateway/bot", nil, false, "", (*Server).handleGatewayBot)
	addRoute("GET", "/users/@me", nil, false, "", (*Server).handleMe)
	addRoute("GET", "/users/{user_id}", nil, false, "", (*Server).handleUser)
	addRoute("POST", "/interactions/{interaction_id}/{interaction_token}/callback", []string{"interaction_id"}, true,
		"POST /interactions/{interaction_id}/{interaction_token}/callback", (*Server).handleCallback)
	addRoute("POST", "/webhooks/{webhook_id}/{webhook_token}", whMajor, true,
		"POST /webhooks/{webhook_id}/{webhook_token}", (*Server).handleFollowup)
	const whMsg = "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
	addRoute("GET", whMsg, whMajor, true, "", (*Server).handleWebhookGet)
	addRoute("PATCH", whMsg, whMajor, true, "PATCH "+whMsg, (*Server).handleWebhookEdit)
	addRoute("DELETE", whMsg, whMajor, true, "", (*Server).handleWebhookDelete)
	addRoute("GET", "/channels/{channel_id}", chMajor, false, "", (*Server).handleChannel)
	addRoute("GET", "/channels/{channel_id}/messages", chMajor, false, "", (*Server).handleChannelMessages)
	addRoute("POST", "/channels/{channel_id}/messages", chMajor, false, "POST /channels/{channel_id}/messages", (*Server).handleChannelPost)
	const chMsg = "/channels/{channel_id}/messages/{message_id}"
	addRoute("GET", chMsg, chMajor, false, "", (*Server).handleChannelGet)
	addRoute("PATCH", chMsg, chMajor, false, "PATCH "+chMsg, (*Server).handleChannelEdit)
	addRoute("DELETE", chMsg, chMajor, false, "", (*Server).handleChannelDelete)
	for _, scope := range []string{"/applications/{application_id}", "/applications/{application_id}/guilds/{guild_id}"} {
		major := appMajor
		if strings.Contains(scope, "guild_id") {
			major = []string{"application_id", "guild_id"}
		}
		addRoute("GET", scope+"/commands", major, false, "", (*Server).handleCommandsGet)
		addRoute("PUT", scope+"/commands", major, false, "PUT "+scope+"/commands", (*Server).handleCommandsPut)
		addRoute("POST", scope+"/commands", major, false, "POST "+scope+"/commands", (*Server).handleCommandPost)
		addRoute("GET", scope+"/commands/{command_id}", major, false, "", (*Server).handleCommandGet)
		addRoute("DELETE", scope+"/commands/{command_id}", major, false, "", (*Server).handleCommandDelete)
	}
	addRoute("GET", "/guilds/{guild_id}", guildMajor, false, "", (*Server).handleGuild)
	addRoute("GET", "/guilds/{guild_id}/channels", guildMajor, false, "", (*Server).handleGuildChannels)
	addRoute("GET", "/guilds/{guild_id}/members/{user_id}", guildMajor, false, "", (*Server).handleGuildMember)
}

// match finds the route of a path; allowed lists the methods the path has.
func match(method, path string) (*route, map[string]string, []string) {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	var allowed []string
	for _, rt := range routes {
		params, ok := matchSegs(rt.segs, segs)
		if !ok {
			continue
		}
		if rt.method == method {
			return rt, params, nil
		}
		allowed = append(allowed, rt.method)
	}
	return nil, nil, allowed
}

func matchSegs(pattern, segs []string) (map[string]string, bool) {
	if len(pattern) != len(segs) {
		return nil, false
	}
	params := map[string]string{}
	for i, p := range pattern {
		if strings.HasPrefix(p, "{") {
			if segs[i] == "" {
				return nil, false
			}
			v, err := url.PathUnescape(segs[i])
			if err != nil {
				return nil, false
			}
			params[strings.Trim(p, "{}")] = v
		} else if p != segs[i] {
			return nil, false
		}
	}
	return params, true
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/gateway" || r.URL.Path == "/gateway/":
		s.serveGateway(w, r)
	case strings.HasPrefix(r.URL.Path, "/attachments/"):
		s.serveAttachment(w, r)
	case s.serveOAuth(w, r):
	default:
		s.serveAPI(w, r)
	}
}

func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request) {
	arrival := time.Now()
	path := r.URL.Path
	api := trimAPIPrefix(path)
	var rt *route
	var params map[string]string
	var allowed []string
	if api != path {
		rt, params, allowed = match(r.Method, api)
	}
	if rt == nil {
		status, msg := http.StatusNotFound, "404: Not Found"
		if len(allowed) > 0 {
			status, msg = http.StatusMethodNotAllowed, "405: Method Not Allowed"
		}
		e := &apiError{Status: status, Code: 0, Message: msg, Note: "the fake has no such route"}
		s.finish(w, r, nil, arrival, status, nil, e)
		return
	}
	c := &call{r: r, route: rt, params: params, query: r.URL.Query(), arrival: arrival}

	if e := s.checkAuth(r, rt); e != nil {
		s.finish(w, r, rt, arrival, e.Status, nil, e)
		return
	}
	if e := s.injectedFault(r.Method, api); e != nil {
		writeInjected(w, e)
		s.record(r, rt, arrival, e.Status)
		return
	}
	major := ""
	for _, p := range rt.major {
		major += params[p] + "/"
	}
	s.mu.Lock()
	inj := s.takeInjectionLocked(r.Method, api)
	var b bucket // the bucket as this request left it, copied: others change it once the lock is released
	fits := true
	if inj == nil {
		var taken *bucket
		taken, fits = s.takeLocked(rt.key(), major, arrival)
		b = *taken
	}
	limit := s.ruleLocked(rt.key()).n
	s.mu.Unlock()
	if inj != nil {
		write429(w, rt.key(), inj.retryAfter, limit)
		s.record(r, rt, arrival, http.StatusTooManyRequests)
		return
	}
	if g := s.takeGlobal(rt, arrival); g != nil {
		writeGlobal429(w, g.resetAt.Sub(arrival))
		s.record(r, rt, arrival, http.StatusTooManyRequests)
		s.mu.Lock()
		s.failLocked("%s %s: 429 global rate limit: more than %d requests per %v across all routes (the bot did not pace itself)",
			r.Method, path, g.rule.n, g.rule.per)
		s.mu.Unlock()
		return
	}
	if !fits {
		retry := b.resetAt.Sub(arrival)
		write429(w, rt.key(), retry, b.rule.n)
		s.record(r, rt, arrival, http.StatusTooManyRequests)
		s.mu.Lock()
		s.failLocked("%s %s: 429 rate limited: more than %d requests per %v on %s (the bot ignored X-RateLimit headers)",
			r.Method, path, b.rule.n, b.rule.per, rt.key())
		s.mu.Unlock()
		return
	}
	setRateHeaders(w.Header(), rt.key(), &b, arrival)

	if e := s.readBody(c); e != nil {
		s.finish(w, r, rt, arrival, e.Status, nil, e)
		return
	}
	status, body, e := rt.h(s, c)
	if e != nil {
		status = e.Status
	}
	s.finish(w, r, rt, arrival, status, body, e)
}

func (s *Server) checkAuth(r *http.Request, rt *route) *apiError {
	h := r.Header.Get("Authorization")
	if h == "" && rt.noAuth {
		return nil
	}
	if h == "Bot "+s.Token {
		return nil
	}
	note := "missing Authorization header"
	if h != "" {
		note = "wrong Authorization header (want \"Bot <token>\")"
	}
	return &apiError{Status: http.StatusUnauthorized, Code: 0, Message: "401: Unauthorized", Note: note}
}

// readBody reads a JSON or multipart/form-data body into c.payload and c.files.
func (s *Server) readBody(c *call) *apiError {
	r := c.r
	raw, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxRequestBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return &apiError{Status: http.StatusRequestEntityTooLarge, Code: 40005, Message: "Request entity too large"}
		}
		return errBadRequest(0, "cannot read body: "+err.Error())
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	ct, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch ct {
	case "application/json":
		c.payload = raw
	case "multipart/form-data":
		if e := s.readMultipart(c, raw, params["boundary"]); e != nil {
			return e
		}
	default:
		return errInvalidForm([]fieldError{invalid("", "CONTENT_TYPE_INVALID", fmt.Sprintf("Expected \"Content-Type\" header to be one of {'application/json', 'multipart/form-data'}, got %q.", ct))})
	}
	if len(c.payload) > 0 && !json.Valid(c.payload) {
		return errBadRequest(50109, "The request body contains invalid JSON.")
	}
	return nil
}

// finish writes the answer, records the request and, for an error, a failure.
func (s *Server) finish(w http.ResponseWriter, r *http.Request, rt *route, arrival time.Time, status int, body any, e *apiError) {
	w.Header().Set("Content-Type", "application/json")
	switch {
	case e != nil:
		w.WriteHeader(e.Status)
		_, _ = w.Write(e.body())
	case status == http.StatusNoContent || body == nil:
		w.WriteHeader(http.StatusNoContent)
	default:
		if status == 0 {
			status = http.StatusOK
		}
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(body)
	}
	s.record(r, rt, arrival, status)
	if e != nil {
		s.mu.Lock()
		s.failLocked("%s %s: %s", r.Method, r.URL.Path, e.Error())
		s.mu.Unlock()
	}
}

func (s *Server) record(r *http.Request, rt *route, arrival time.Time, status int) {
	name := ""
	if rt != nil {
		name = rt.key()
	}
	s.mu.Lock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Route: name, Status: status, At: arrival})
	s.mu.Unlock()
}

// checkSpec validates the payload against the route's OpenAPI request body.
func (s *Server) checkSpec(c *call) *apiError {
	if s.spec == nil || c.route.spec == "" || len(c.payload) == 0 {
		return nil
	}
	v, err := decodeJSON(c.payload)
	if err != nil {
		return errBadRequest(50109, "The request body contains invalid JSON.")
	}
	if errs := s.spec.validateOp(c.route.spec, v); len(errs) > 0 {
		e := errInvalidForm(errs)
		e.Note = "by Discord's OpenAPI schema"
		return e
	}
	return nil
}

// checkMsg runs the hand-coded limits, then the OpenAPI schema.
func (s *Server) checkMsg(c *call, b *msgBody, rules msgRules) *apiError {
	if errs := validateMsg(b, rules); len(errs) > 0 {
		return errInvalidForm(errs)
	}
	return s.checkSpec(c)
}

func (s *Server) serveAttachment(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/attachments/"), "/")
	if len(parts) >= 2 {
		s.mu.Lock()
		for _, m := range s.messages {
			if m.channelID != parts[0] {
				continue
			}
			for _, a := range m.attachments {
				if a.ID == parts[1] {
					data, ctype := a.Data, a.ContentType
					s.mu.Unlock()
					w.Header().Set("Content-Type", ctype)
					_, _ = w.Write(data)
					return
				}
			}
		}
		s.mu.Unlock()
	}
	http.NotFound(w, r)
}

// ---- gateway, users, guilds ----

func (s *Server) handleGateway(c *call) (int, any, *apiError) {
	return 200, map[string]any{"url": s.gatewayURL()}, nil
}

func (s *Server) handleGatewayBot(c *call) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return 200, s.gatewayBotLocked(), nil
}

func (s *Server) handleMe(c *call) (int, any, *apiError) { return 200, s.botUserJSON(), nil }

func (s *Server) handleUser(c *call) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := c.params["user_id"]
	if id == s.BotUserID {
		return 200, s.botUserJSON(), nil
	}
	for _, g := range s.guilds {
		if m := g.members[id]; m != nil {
			return 200, userJSON(m), nil
		}
	}
	return 0, nil, errNotFound(10013, "Unknown User")
}

func (s *Server) handleGuild(c *call) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.guilds[c.params["guild_id"]]
	if g == nil {
		return 0, nil, errUnknownGuild()
	}
	return 200, s.guildJSONLocked(g), nil
}

func (s *Server) handleGuildChannels(c *call) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.guilds[c.params["guild_id"]]
	if g == nil {
		return 0, nil, errUnknownGuild()
	}
	out := []any{}
	for _, id := range g.channels {
		out = append(out, channelJSON(s.channels[id]))
	}
	return 200, out, nil
}

func (s *Server) handleGuildMember(c *call) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.guilds[c.params["guild_id"]]
	if g == nil {
		return 0, nil, errUnknownGuild()
	}
	m := g.members[c.params["user_id"]]
	if m == nil {
		return 0, nil, errUnknownMember()
	}
	mj := memberJSON(m)
	delete(mj, "permissions") // only interactions carry computed permissions
	return 200, mj, nil
}

// ---- channels ----

func (s *Server) channelLocked(c *call) (*channel, *apiError) {
	ch := s.channels[c.params["channel_id"]]
	if ch == nil {
		return nil, errUnknownChannel()
	}
	return ch, nil
}

// channelMessageLocked finds a public message of the channel: ephemeral
// messages cannot be reached through channel routes.
func (s *Server) channelMessageLocked(c *call) (*message, *apiError) {
	if _, e := s.channelLocked(c); e != nil {
		return nil, e
	}
	m := s.messages[c.params["message_id"]]
	if m == nil || m.deleted || m.ephemeral() || m.channelID != c.params["channel_id"] {
		return nil, errUnknownMessage()
	}
	return m, nil
}

func (s *Server) handleChannel(c *call) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, e := s.channelLocked(c)
	if e != nil {
		return 0, nil, e
	}
	return 200, channelJSON(ch), nil
}

func (s *Server) handleChannelPost(c *call) (int, any, *apiError) {
	b, e := parseMsgBody(c.payload, "")
	if e != nil {
		return 0, nil, e
	}
	if e := s.checkMsg(c, b, rulesChannelCreate); e != nil {
		return 0, nil, e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, e := s.channelLocked(c); e != nil {
		return 0, nil, e
	}
	if e := s.channelPermLocked(c, b); e != nil {
		return 0, nil, e
	}
	m, e := s.newMessageLocked(c.params["channel_id"], nil).apply(b, c.files, false)
	if e != nil {
		return 0, nil, e
	}
	if m.empty() && len(b.StickerIDs) == 0 {
		return 0, nil, errEmptyMessage()
	}
	s.commitLocked(m, false)
	return 200, s.msgJSONLocked(m), nil
}

func (s *Server) handleChannelEdit(c *call) (int, any, *apiError) {
	b, e := parseMsgBody(c.payload, "")
	if e != nil {
		return 0, nil, e
	}
	if e := s.checkMsg(c, b, rulesChannelEdit); e != nil {
		return 0, nil, e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m, e := s.channelMessageLocked(c)
	if e != nil {
		return 0, nil, e
	}
	if e := s.channelPermLocked(c, b); e != nil {
		return 0, nil, e
	}
	n, e := m.patch(b, c.files)
	if e != nil {
		return 0, nil, e
	}
	if n.empty() {
		return 0, nil, errEmptyMessage()
	}
	s.commitLocked(n, true)
	return 200, s.msgJSONLocked(m), nil
}

func (s *Server) handleChannelGet(c *call) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, e := s.channelMessageLocked(c)
	if e != nil {
		return 0, nil, e
	}
	if e := s.channelPermLocked(c, nil); e != nil {
		return 0, nil, e
	}
	return 200, s.msgJSONLocked(m), nil
}

func (s *Server) handleChannelDelete(c *call) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, e := s.channelMessageLocked(c)
	if e != nil {
		return 0, nil, e
	}
	if e := s.channelPermLocked(c, nil); e != nil {
		return 0, nil, e
	}
	m.deleted = true
	s.notifyLocked()
	return http.StatusNoContent, nil, nil
}

// handleChannelMessages lists public messages newest first, with Discord's
// limit (1-100, default 50), before (the latest ones before the id) and after (the
// first ones after it, as a client paging forward reads them).
func (s *Server) handleChannelMessages(c *call) (int, any, *apiError) {
	limit := 50
	if v := c.query.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			return 0, nil, errInvalidForm([]fieldError{invalid("limit", "NUMBER_TYPE_MAX", "Value should be between 1 and 100.")})
		}
		limit = n
	}
	before, after := c.query.Get("before"), c.query.Get("after")
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, e := s.channelLocked(c); e != nil {
		return 0, nil, e
	}
	if e := s.channelPermLocked(c, nil); e != nil {
		return 0, nil, e
	}
	var picked []*message
	keep := func(m *message) bool {
		return m.channelID == c.params["channel_id"] && !m.deleted && !m.ephemeral() &&
			(before == "" || snowflakeLess(m.id, before)) && (after == "" || snowflakeLess(after, m.id))
	}
	if after != "" {
		// The messages right after the id, as Discord pages forward; still newest first.
		for i := 0; i < len(s.order) && len(picked) < limit; i++ {
			if keep(s.order[i]) {
				picked = append(picked, s.order[i])
			}
		}
		slices.Reverse(picked)
	} else {
		for i := len(s.order) - 1; i >= 0 && len(picked) < limit; i-- {
			if keep(s.order[i]) {
				picked = append(picked, s.order[i])
			}
		}
	}
	out := make([]any, 0, len(picked))
	for _, m := range picked {
		out = append(out, s.msgJSONLocked(m))
	}
	return 200, out, nil
}

func snowflakeLess(a, b string) bool {
	x, err1 := strconv.ParseUint(a, 10, 64)
	y, err2 := strconv.ParseUint(b, 10, 64)
	if err1 != nil || err2 != nil {
		return a < b
	}
	return x < y
}

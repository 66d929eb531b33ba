package discordtest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// The OAuth2 side of an Activity: an authorization code the Embedded App SDK's
// authorize gives the page, its exchange for an access token, the user behind that
// token, and the Activity instances a member launched. The fake answers these as
// Discord does, and refusals here are what a test provokes (a wrong secret, a code used
// twice, an unknown instance), so they are not recorded as failures.

// DefaultClientSecret is the application's OAuth2 client secret the fake accepts.
const DefaultClientSecret = "fake-client-secret-0123456789"

// oauthState is the fake's codes, access tokens and Activity instances; guarded by
// Server.mu.
type oauthState struct {
	codes     map[string]oauthCode // code -> what it was minted for
	tokens    map[string]string    // access token -> user id
	instances map[string]activityInstance
}

type oauthCode struct {
	user    string
	expires time.Time
	used    bool
}

type activityInstance struct {
	guild, channel string
	users          []string
}

// ClientSecret is the application's client secret, for the configuration of whatever
// exchanges codes (discord.client_secret).
func (s *Server) ClientSecret() string { return DefaultClientSecret }

// OAuthCode mints an authorization code for the user, as the Embedded App SDK's
// authorize command gives the page once the member agrees. It works once, for ten
// minutes, as Discord's do.
func (s *Server) OAuthCode(userID string) string {
	code := randomHex(15)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.oauth.codes == nil {
		s.oauth.codes = map[string]oauthCode{}
	}
	s.oauth.codes[code] = oauthCode{user: userID, expires: time.Now().Add(10 * time.Minute)}
	return code
}

// AddActivityInstance records an Activity instance launched in a guild's channel with
// the users in it, as GET /applications/{app}/activity-instances/{id} answers it. An
// empty guild is a private channel's instance.
func (s *Server) AddActivityInstance(id, guildID, channelID string, users ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.oauth.instances == nil {
		s.oauth.instances = map[string]activityInstance{}
	}
	s.oauth.instances[id] = activityInstance{guild: guildID, channel: channelID, users: append([]string(nil), users...)}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// serveOAuth answers the OAuth2 routes, which take a form body or a Bearer token
// where the bot's routes take JSON and the bot token; false when the request is not one
// of them.
func (s *Server) serveOAuth(w http.ResponseWriter, r *http.Request) bool {
	api := trimAPIPrefix(r.URL.Path)
	if api == r.URL.Path {
		return false
	}
	arrival := time.Now()
	route := ""
	status, body := 0, any(nil)
	switch {
	case api == "/oauth2/token" && r.Method == http.MethodPost:
		route = "POST /oauth2/token"
		status, body = s.oauthToken(r)
	case api == "/users/@me" && r.Method == http.MethodGet && strings.HasPrefix(r.Header.Get("Authorization"), "Bearer "):
		route = "GET /users/@me (Bearer)"
		status, body = s.oauthMe(r)
	case strings.HasPrefix(api, "/applications/") && strings.Contains(api, "/activity-instances/") && r.Method == http.MethodGet:
		route = "GET /applications/{application_id}/activity-instances/{instance_id}"
		status, body = s.activityInstance(r, api)
	default:
		return false
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
	s.mu.Lock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Route: route, Status: status, At: arrival})
	s.mu.Unlock()
	return true
}

func oauthError(code, desc string) map[string]any {
	return map[string]any{"error": code, "error_description": desc}
}

// oauthToken is POST /oauth2/token with grant_type authorization_code: the client's
// id and secret, and a code minted by OAuthCode, unused and unexpired.
func (s *Server) oauthToken(r *http.Request) (int, any) {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/x-www-form-urlencoded") {
		return http.StatusBadRequest, oauthError("invalid_request", "The request body must be application/x-www-form-urlencoded.")
	}
	if err := r.ParseForm(); err != nil {
		return http.StatusBadRequest, oauthError("invalid_request", "Malformed form body.")
	}
	id, secret := r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	if u, p, ok := r.BasicAuth(); ok {
		id, secret = u, p
	}
	if id != s.AppID || secret != DefaultClientSecret {
		return http.StatusUnauthorized, oauthError("invalid_client", "Invalid client credentials.")
	}
	if r.PostForm.Get("grant_type") != "authorization_code" {
		return http.StatusBadRequest, oauthError("unsupported_grant_type", "Unsupported grant type.")
	}
	code := r.PostForm.Get("code")
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.oauth.codes[code]
	if !ok || c.used || time.Now().After(c.expires) {
		return http.StatusBadRequest, oauthError("invalid_grant", `Invalid "code" in request.`)
	}
	c.used = true
	s.oauth.codes[code] = c
	tok := randomHex(15)
	if s.oauth.tokens == nil {
		s.oauth.tokens = map[string]string{}
	}
	s.oauth.tokens[tok] = c.user
	return http.StatusOK, map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 604800,
		"refresh_token": randomHex(15), "scope": "identify"}
}

// oauthMe is GET /users/@me with an access token: the user who authorized it.
func (s *Server) oauthMe(r *http.Request) (int, any) {
	tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	s.mu.Lock()
	defer s.mu.Unlock()
	user, ok := s.oauth.tokens[tok]
	if !ok {
		return http.StatusUnauthorized, map[string]any{"message": "401: Unauthorized", "code": 0}
	}
	for _, g := range s.guilds {
		if m := g.members[user]; m != nil {
			out := userJSON(m)
			out["locale"] = m.locale
			return http.StatusOK, out
		}
	}
	return http.StatusOK, map[string]any{"id": user, "username": "user" + user, "discriminator": "0", "global_name": nil,
		"avatar": nil, "public_flags": 0}
}

// activityInstance is GET /applications/{app}/activity-instances/{instance}, with the
// bot's token: where the instance runs and who is in it.
func (s *Server) activityInstance(r *http.Request, api string) (int, any) {
	if r.Header.Get("Authorization") != "Bot "+s.Token {
		return http.StatusUnauthorized, map[string]any{"message": "401: Unauthorized", "code": 0}
	}
	segs := strings.Split(strings.Trim(api, "/"), "/") // applications, {app}, activity-instances, {id}
	if len(segs) != 4 || segs[2] != "activity-instances" {
		return http.StatusNotFound, map[string]any{"message": "404: Not Found", "code": 0}
	}
	if segs[1] != s.AppID {
		return http.StatusNotFound, map[string]any{"message": "Unknown Application", "code": 10002}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	in, ok := s.oauth.instances[segs[3]]
	if !ok {
		// Discord's documentation names no code of its own for an instance that is not
		// running; its API answers 404.
		return http.StatusNotFound, map[string]any{"message": "404: Not Found", "code": 0}
	}
	loc := map[string]any{"id": "gc-" + in.guild + "-" + in.channel, "kind": "gc", "guild_id": in.guild, "channel_id": in.channel}
	if in.guild == "" {
		loc = map[string]any{"id": "pc-" + in.channel, "kind": "pc", "channel_id": in.channel}
	}
	users := in.users
	if users == nil {
		users = []string{}
	}
	return http.StatusOK, map[string]any{"application_id": s.AppID, "instance_id": segs[3], "launch_id": "1",
		"location": loc, "users": users}
}

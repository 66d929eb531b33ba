package activity

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/bot/i18n"
)

// Sessions. A member signs in once per page load (POST /api/session) and gets a token
// that names them and the channel their Activity runs in. The token is stateless and
// signed (base64url(payload) "." base64url(HMAC-SHA256(key, payload))), so it needs no
// store and survives a restart; the key is derived from the client secret (sessionKey).
// The place comes from Discord's record of the Activity instance, never from the page.

// The Embedded App SDK's mock (DiscordSDKMock) authorizes with this code, in this
// instance; the demo takes nothing else.
const (
	mockCode     = "mock_code"
	mockInstance = "123456789012345678"
)

// session is what a token says.
type session struct {
	User    string `json:"u"`
	Name    string `json:"n,omitempty"`
	Locale  string `json:"l,omitempty"`
	Guild   string `json:"g"`
	Channel string `json:"c"`
	Expires int64  `json:"e"` // unix seconds
}

func (p session) viewer() bot.Viewer {
	return bot.Viewer{Guild: p.Guild, Channel: p.Channel, User: p.User, Name: p.Name, Locale: p.Locale}
}

func (p session) expires() time.Time { return time.Unix(p.Expires, 0) }

var b64 = base64.RawURLEncoding

// mint signs a session.
func (s *Server) mint(p session) string {
	raw, _ := json.Marshal(p)
	payload := b64.EncodeToString(raw)
	return payload + "." + b64.EncodeToString(s.sign(payload))
}

func (s *Server) sign(payload string) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(payload))
	return m.Sum(nil)
}

var (
	errBadSession = errors.New("bad session")
	errExpired    = errors.New("session expired")
)

// open reads a token: errBadSession unless it is one this server (or another with the
// same secret) signed, errExpired once it has run out.
func (s *Server) open(token string, now time.Time) (session, error) {
	payload, sig, ok := strings.Cut(token, ".")
	if !ok || len(token) > 2048 {
		return session{}, errBadSession
	}
	got, err := b64.DecodeString(sig)
	if err != nil || !hmac.Equal(got, s.sign(payload)) {
		return session{}, errBadSession
	}
	raw, err := b64.DecodeString(payload)
	if err != nil {
		return session{}, errBadSession
	}
	var p session
	if err := json.Unmarshal(raw, &p); err != nil || p.User == "" || p.Guild == "" || p.Channel == "" {
		return session{}, errBadSession
	}
	if !now.Before(p.expires()) {
		return p, errExpired
	}
	return p, nil
}

// interactionID is the id a member's action runs under, from the page's nonce: the
// same nonce from the same member is the same interaction, which the bot applies once
// (store.WithInteraction), after a reconnect or a restart too. It is a decimal like a
// Discord snowflake (63 bits), keyed so that a page cannot choose another member's.
func (s *Server) interactionID(user, nonce string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte("interaction\x00" + user + "\x00" + nonce))
	n := binary.BigEndian.Uint64(m.Sum(nil)[:8]) >> 1
	return strconv.FormatUint(n, 10)
}

// sessionRequest is POST /api/session's body.
type sessionRequest struct {
	Code       string `json:"code"`
	InstanceID string `json:"instance_id"`
	User       string `json:"user"` // the demo's member name; read in the demo only
}

// serveSession signs a member in: outside the demo, the SDK's authorization code is
// exchanged for an access token (which the page needs for the SDK's authenticate), the
// token names the member, and Discord's record of the Activity instance says where it
// runs and that the member is in it.
func (s *Server) serveSession(w http.ResponseWriter, r *http.Request) {
	locale := r.Header.Get("Accept-Language")
	var req sessionRequest
	if err := json.NewDecoder(io.LimitReader(r.Body, 4096)).Decode(&req); err != nil || req.Code == "" || req.InstanceID == "" {
		s.refuse(w, http.StatusBadRequest, locale, "err.activity_sign_in")
		return
	}
	now := time.Now()
	exp := now.Add(s.cfg.SessionTTL)
	if d := s.cfg.Demo; d != nil {
		if req.Code != mockCode || req.InstanceID != mockInstance || req.User == "" || len(req.User) > 32 {
			s.refuse(w, http.StatusUnauthorized, locale, "err.activity_sign_in")
			return
		}
		id, err := d.Member(r.Context(), req.User)
		if err != nil {
			s.log.Warn("activity: demo member not added", "err", err)
			s.refuse(w, http.StatusBadRequest, locale, "err.activity_sign_in")
			return
		}
		p := session{User: id, Name: req.User, Locale: browserLocale(locale), Guild: d.Guild, Channel: d.Channel, Expires: exp.Unix()}
		writeJSON(w, http.StatusOK, map[string]any{"session": s.mint(p), "expires_at": p.Expires})
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
	defer cancel()
	access, err := s.exchange(ctx, req.Code)
	if err != nil {
		s.refuseCall(w, locale, "code exchange", err)
		return
	}
	me, err := s.me(ctx, access)
	if err != nil {
		s.refuseCall(w, locale, "user lookup", err)
		return
	}
	if locale == "" {
		locale = me.Locale
	}
	inst, err := s.instance(ctx, req.InstanceID)
	if err != nil {
		s.refuseCall(w, locale, "instance lookup", err)
		return
	}
	if inst.Location.Kind != "gc" || inst.Location.GuildID == "" || inst.Location.ChannelID == "" || !slices.Contains(inst.Users, me.ID) {
		s.log.Info("activity: sign-in refused: the member is not in a guild channel's instance", "user", me.ID, "kind", inst.Location.Kind)
		s.refuse(w, http.StatusForbidden, locale, "err.activity_place")
		return
	}
	name := me.GlobalName
	if name == "" {
		name = me.Username
	}
	p := session{User: me.ID, Name: name, Locale: me.Locale, Guild: inst.Location.GuildID, Channel: inst.Location.ChannelID, Expires: exp.Unix()}
	s.log.Info("activity: member signed in", "user", p.User, "guild", p.Guild, "channel", p.Channel)
	writeJSON(w, http.StatusOK, map[string]any{"session": s.mint(p), "expires_at": p.Expires, "access_token": access})
}

func (s *Server) refuse(w http.ResponseWriter, status int, locale, key string) {
	writeJSON(w, status, map[string]any{"error": s.tables.WebText(locale, key)})
}

// discordError is a refusal from Discord (4xx): the member's sign-in is not good. Any
// other failure is Discord being unreachable.
type discordError struct {
	status int
	code   string
}

func (e *discordError) Error() string { return fmt.Sprintf("discord answered %d %s", e.status, e.code) }

func (s *Server) refuseCall(w http.ResponseWriter, locale, what string, err error) {
	var de *discordError
	if errors.As(err, &de) && de.status < 500 {
		// The code, token or instance are never logged: only what Discord said of them.
		s.log.Info("activity: sign-in refused", "step", what, "status", de.status, "error", de.code)
		s.refuse(w, http.StatusUnauthorized, locale, "err.activity_sign_in")
		return
	}
	s.log.Warn("activity: Discord not reached", "step", what, "err", err)
	s.refuse(w, http.StatusBadGateway, locale, "err.activity_unreachable")
}

// call makes one request of Discord's and decodes its JSON answer into out.
func (s *Server) call(req *http.Request, out any) error {
	resp, err := s.client.Do(req)
	if err != nil {
		// The URL may carry nothing secret, but the error is logged: keep only its kind.
		var ue *url.Error
		if errors.As(err, &ue) {
			return fmt.Errorf("%s %s: %w", req.Method, req.URL.Path, ue.Err)
		}
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		var e struct {
			Error string `json:"error"`
			Code  int    `json:"code"`
		}
		_ = json.Unmarshal(body, &e)
		code := e.Error
		if code == "" {
			code = strconv.Itoa(e.Code)
		}
		return &discordError{status: resp.StatusCode, code: code}
	}
	return json.Unmarshal(body, out)
}

// exchange trades an authorization code for an access token (the Embedded App SDK's
// authorize needs no redirect_uri).
func (s *Server) exchange(ctx context.Context, code string) (string, error) {
	form := url.Values{"client_id": {s.cfg.ClientID}, "client_secret": {s.cfg.ClientSecret},
		"grant_type": {"authorization_code"}, "code": {code}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.cfg.APIURL+"/api/v9/oauth2/token", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	var out struct {
		AccessToken string `json:"access_token"`
	}
	if err := s.call(req, &out); err != nil {
		return "", err
	}
	if out.AccessToken == "" {
		return "", &discordError{status: http.StatusBadRequest, code: "no access_token"}
	}
	return out.AccessToken, nil
}

type discordUser struct {
	ID         string `json:"id"`
	Username   string `json:"username"`
	GlobalName string `json:"global_name"`
	Locale     string `json:"locale"`
}

// me is the user an access token was issued to.
func (s *Server) me(ctx context.Context, access string) (discordUser, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.cfg.APIURL+"/api/v9/users/@me", nil)
	if err != nil {
		return discordUser{}, err
	}
	req.Header.Set("Authorization", "Bearer "+access)
	var u discordUser
	if err := s.call(req, &u); err != nil {
		return u, err
	}
	if u.ID == "" {
		return u, &discordError{status: http.StatusBadRequest, code: "no user id"}
	}
	return u, nil
}

type activityInstance struct {
	Location struct {
		Kind      string `json:"kind"`
		GuildID   string `json:"guild_id"`
		ChannelID string `json:"channel_id"`
	} `json:"location"`
	Users []string `json:"users"`
}

// instance is Discord's record of a running Activity instance: where, and who is in it.
func (s *Server) instance(ctx context.Context, id string) (activityInstance, error) {
	var out activityInstance
	u := s.cfg.APIURL + "/api/v9/applications/" + url.PathEscape(s.cfg.ClientID) + "/activity-instances/" + url.PathEscape(id)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return out, err
	}
	req.Header.Set("Authorization", "Bot "+s.cfg.BotToken)
	err = s.call(req, &out)
	return out, err
}

// browserLocale stands in for a Discord client's locale in the demo, where there is no
// Discord to say it: the first language of the browser's Accept-Language that is also a
// Discord locale the catalogs speak ("pl-PL,pl;q=0.9" is pl), or "" for the demo
// server's language.
func browserLocale(accept string) string {
	for _, part := range strings.Split(accept, ",") {
		tag, _, _ := strings.Cut(part, ";")
		if l := i18n.Match(tag); l != "" && i18n.FromDiscord(l) != "" {
			return l
		}
	}
	return ""
}

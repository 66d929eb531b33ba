package discordtest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Forgery is one way a request to the interactions endpoint can fail to be
// Discord's own, for ForgeNext.
type Forgery int

const (
	ForgeNone           Forgery = iota
	ForgeWrongKey               // signed with a key that is not the application's
	ForgeTamperedBody           // signed, then one byte of the body changed
	ForgeNoSignature            // without X-Signature-Ed25519
	ForgeStaleTimestamp         // correctly signed, but an hour old: a replay
)

func (f Forgery) String() string {
	switch f {
	case ForgeWrongKey:
		return "wrong key"
	case ForgeTamperedBody:
		return "tampered body"
	case ForgeNoSignature:
		return "no signature"
	case ForgeStaleTimestamp:
		return "stale timestamp"
	}
	return "none"
}

// ErrRefused is returned by Command, Click, Select and SubmitModal for an
// interaction sent forged (ForgeNext) that the endpoint rightly refused
// with 401.
var ErrRefused = errors.New("discordtest: the interactions endpoint refused the forged request with 401")

// endpointState is the fake's HTTP interactions delivery, guarded by
// Server.mu.
type endpointState struct {
	priv   ed25519.PrivateKey
	urls   []string
	next   int
	hits   map[string]int
	client *http.Client
	forge  Forgery
	forged map[*interaction]Forgery
	refuse map[*interaction]bool // forged and refused with 401
}

// keyLocked returns the application's signing key, made on first use.
func (s *Server) keyLocked() ed25519.PrivateKey {
	if s.ep.priv == nil {
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			panic("discordtest: " + err.Error())
		}
		s.ep.priv = priv
	}
	return s.ep.priv
}

// PublicKey is the application's public key as the Developer Portal shows
// it (64 hex digits): what the bot's discord.public_key must be.
func (s *Server) PublicKey() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return hex.EncodeToString(s.keyLocked().Public().(ed25519.PublicKey))
}

// SetInteractionsEndpoint makes the fake deliver interactions by HTTP POST
// to these URLs, in turn (as a load balancer in front of replicas would),
// instead of over the gateway; no URL goes back to the gateway. Like the
// Developer Portal when the Interactions Endpoint URL is saved, it first
// checks every URL: a signed PING must be answered 200 {"type":1}, and a
// PING with a wrong signature 401. It returns the first problem and then
// keeps the previous setting. URLs must be on loopback.
//
// Each request carries X-Signature-Ed25519 and X-Signature-Timestamp, the
// Ed25519 signature (PublicKey) of the timestamp followed by the body. The
// response is the interaction's callback: a 200 body (JSON, or multipart
// with payload_json and files) is validated and applied exactly as a POST
// to /interactions/{id}/{token}/callback would be, against the same 3 s
// deadline; a 202 means the bot answered through the callback route
// instead. Anything else is a failure, and the interaction fails when its
// deadline passes.
func (s *Server) SetInteractionsEndpoint(urls ...string) error {
	s.mu.Lock()
	if s.ep.client == nil {
		tr := &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 64}
		s.ep.client = &http.Client{Transport: tr, Timeout: s.cfg.waitTimeout + time.Second}
		s.t.Cleanup(tr.CloseIdleConnections)
	}
	key := s.keyLocked()
	client := s.ep.client
	s.mu.Unlock()

	for _, u := range urls {
		if err := loopbackURL(u); err != nil {
			return err
		}
		ping := mustJSON(map[string]any{"id": "1", "application_id": s.AppID, "type": 1, "token": randomToken("cGluZzo"), "version": 1})
		status, body, err := post(client, u, ping, sign(key, time.Now(), ping))
		if err != nil {
			return fmt.Errorf("discordtest: endpoint %s: PING: %w", u, err)
		}
		var pong struct {
			Type *int `json:"type"`
		}
		if status != http.StatusOK || json.Unmarshal(body, &pong) != nil || pong.Type == nil || *pong.Type != 1 {
			return fmt.Errorf("discordtest: endpoint %s answered a PING with %d %q, not 200 {\"type\":1}", u, status, clip(body))
		}
		_, wrong, _ := ed25519.GenerateKey(rand.Reader)
		status, body, err = post(client, u, ping, sign(wrong, time.Now(), ping))
		if err != nil {
			return fmt.Errorf("discordtest: endpoint %s: PING with a bad signature: %w", u, err)
		}
		if status != http.StatusUnauthorized {
			return fmt.Errorf("discordtest: endpoint %s answered a PING with a bad signature with %d %q, not 401", u, status, clip(body))
		}
	}
	s.mu.Lock()
	s.ep.urls = append([]string(nil), urls...)
	s.ep.next = 0
	s.mu.Unlock()
	return nil
}

// ForgeNext makes the next interaction that goes to the HTTP endpoint a
// forgery of kind f, as an attacker who knows the endpoint could send. The
// endpoint must answer 401; then the action returns ErrRefused and nothing
// is recorded as a failure. Any other answer is a failure. A forged
// interaction's token is unknown to Discord: callbacks and webhooks with it
// fail.
func (s *Server) ForgeNext(f Forgery) {
	s.mu.Lock()
	s.ep.forge = f
	s.mu.Unlock()
}

// EndpointHits counts the interactions (PINGs excluded) delivered to each
// endpoint URL.
func (s *Server) EndpointHits() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for k, v := range s.ep.hits {
		out[k] = v
	}
	return out
}

// overHTTPLocked reports whether interactions go to an HTTP endpoint.
func (s *Server) overHTTPLocked() bool { return len(s.ep.urls) > 0 }

// postLocked sends a registered interaction to the next endpoint.
func (s *Server) postLocked(in *interaction, payload map[string]any) {
	u := s.ep.urls[s.ep.next%len(s.ep.urls)]
	s.ep.next++
	if s.ep.hits == nil {
		s.ep.hits = map[string]int{}
	}
	s.ep.hits[u]++
	forge := s.ep.forge
	s.ep.forge = ForgeNone
	if forge != ForgeNone {
		if s.ep.forged == nil {
			s.ep.forged, s.ep.refuse = map[*interaction]Forgery{}, map[*interaction]bool{}
		}
		s.ep.forged[in] = forge
	}
	body := mustJSON(payload)
	key := s.keyLocked()
	client := s.ep.client
	go s.deliver(client, u, in, body, key, forge)
}

// sign returns Discord's signature headers for body at time at.
func sign(key ed25519.PrivateKey, at time.Time, body []byte) http.Header {
	ts := strconv.FormatInt(at.Unix(), 10)
	sig := ed25519.Sign(key, append([]byte(ts), body...))
	h := http.Header{}
	h.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
	h.Set("X-Signature-Timestamp", ts)
	return h
}

func post(client *http.Client, u string, body []byte, h http.Header) (int, []byte, error) {
	resp, err := postRaw(client, u, body, h)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxRequestBytes))
	return resp.StatusCode, b, err
}

func postRaw(client *http.Client, u string, body []byte, h http.Header) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header = h
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	return client.Do(req)
}

// deliver posts one interaction and treats the answer as its callback.
func (s *Server) deliver(client *http.Client, u string, in *interaction, body []byte, key ed25519.PrivateKey, forge Forgery) {
	h := sign(key, time.Now(), body)
	switch forge {
	case ForgeWrongKey:
		_, wrong, _ := ed25519.GenerateKey(rand.Reader)
		h = sign(wrong, time.Now(), body)
	case ForgeTamperedBody:
		body = bytes.Replace(body, []byte(`"type":`), []byte(`"type" :`), 1) // same JSON, other bytes
	case ForgeNoSignature:
		h.Del("X-Signature-Ed25519")
	case ForgeStaleTimestamp:
		h = sign(key, time.Now().Add(-time.Hour), body)
	}
	resp, err := postRaw(client, u, body, h)
	arrival := time.Now()
	if err != nil {
		s.mu.Lock()
		s.failLocked("%s: POST %s: %v", in.describe(), u, err)
		if forge != ForgeNone {
			s.settleForgedLocked(in, false)
		}
		s.mu.Unlock()
		return
	}
	defer resp.Body.Close()

	if forge != ForgeNone {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxRequestBytes))
		s.mu.Lock()
		if resp.StatusCode != http.StatusUnauthorized {
			s.failLocked("%s: the endpoint answered a forged request (%s) with %d, not 401", in.describe(), forge, resp.StatusCode)
		}
		s.settleForgedLocked(in, resp.StatusCode == http.StatusUnauthorized)
		s.mu.Unlock()
		return
	}

	switch resp.StatusCode {
	case http.StatusOK:
		c := &call{r: &http.Request{Header: resp.Header, Body: resp.Body}, route: callbackRoute(),
			params:  map[string]string{"interaction_id": in.id, "interaction_token": in.token},
			query:   url.Values{},
			arrival: arrival}
		e := s.readBody(c)
		if e == nil {
			_, _, e = s.handleCallback(c)
		}
		if e != nil {
			s.mu.Lock()
			s.failLocked("%s: the endpoint's response (%s): %s", in.describe(), u, e.Error())
			s.mu.Unlock()
		}
	case http.StatusAccepted:
		// Answered through POST /interactions/{id}/{token}/callback, as
		// Discord asks of a bot that does so for an HTTP interaction.
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxRequestBytes))
	default:
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
		s.mu.Lock()
		s.failLocked("%s: the endpoint %s answered %d %q", in.describe(), u, resp.StatusCode, clip(b))
		s.mu.Unlock()
	}
}

// settleForgedLocked ends a forged interaction: Discord never sent it, so
// its token works nowhere and it cannot fail as a member's would.
func (s *Server) settleForgedLocked(in *interaction, refused bool) {
	if in.timer != nil {
		in.timer.Stop()
	}
	in.failed = true
	s.ep.refuse[in] = refused
	delete(s.interactions, in.id)
	delete(s.byToken, in.token)
	s.notifyLocked()
}

// forgedResultLocked is the outcome of a forged interaction for await: nil
// when in was not forged.
func (s *Server) forgedResultLocked(in *interaction) error {
	if _, ok := s.ep.forged[in]; !ok {
		return nil
	}
	if s.ep.refuse[in] {
		return ErrRefused
	}
	return fmt.Errorf("discordtest: %s was forged (%s) and the endpoint did not refuse it", in.describe(), s.ep.forged[in])
}

func callbackRoute() *route {
	for _, rt := range routes {
		if rt.key() == "POST /interactions/{interaction_id}/{interaction_token}/callback" {
			return rt
		}
	}
	panic("discordtest: no callback route")
}

// loopbackURL refuses endpoint URLs that would leave the machine.
func loopbackURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("discordtest: endpoint %q is not an http(s) URL", s)
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("discordtest: endpoint %q is not on loopback; the fake contacts nothing else", s)
	}
	return nil
}

func clip(b []byte) string {
	if len(b) > 120 {
		b = b[:120]
	}
	return string(b)
}

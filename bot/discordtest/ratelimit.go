package discordtest

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Route templates for SetRateLimit, as the fake names its routes.
const (
	RouteChannelMessageCreate = "POST /channels/{channel_id}/messages"
	RouteChannelMessageEdit   = "PATCH /channels/{channel_id}/messages/{message_id}"
	RouteWebhookMessageEdit   = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
	RouteFollowupCreate       = "POST /webhooks/{webhook_id}/{webhook_token}"
	RouteInteractionCallback  = "POST /interactions/{interaction_id}/{interaction_token}/callback"
)

// The generous bucket every route has unless SetRateLimit says otherwise.
const (
	defaultBucketLimit  = 50
	defaultBucketWindow = time.Second
)

type rateRule struct {
	n   int
	per time.Duration
}

type bucket struct {
	count   int
	resetAt time.Time
	rule    rateRule
}

type injection struct {
	method, prefix string
	left           int
	retryAfter     time.Duration
}

// SetRateLimit enforces a bucket of n requests per window on a route
// ("PATCH /channels/{channel_id}/messages/{message_id}", see the Route
// constants), one bucket per major parameter (channel, guild, webhook, or
// interaction), announced in the X-RateLimit-* headers. route "*" changes
// the default of every other route (50 per second). A request past the
// bucket gets a 429 and is recorded as a failure: a bot that follows the
// headers never sends it. n <= 0 removes the rule.
func (s *Server) SetRateLimit(route string, n int, per time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n <= 0 || per <= 0 {
		delete(s.limits, route)
	} else {
		s.limits[route] = rateRule{n: n, per: per}
	}
	s.buckets = map[string]*bucket{}
}

// Inject429 makes the next n requests whose path starts with routePrefix
// fail with 429 Too Many Requests and retry_after, as Discord's answer to a
// shared or unexpected limit. routePrefix is a path below /api/v9 (the
// prefix may be included), e.g. "/channels/123/messages", optionally led by
// a method: "PATCH /channels/123/messages". Injected 429s are not failures.
func (s *Server) Inject429(routePrefix string, n int, retryAfter time.Duration) {
	method, prefix := "", strings.TrimSpace(routePrefix)
	if i := strings.IndexByte(prefix, ' '); i > 0 {
		method, prefix = strings.ToUpper(prefix[:i]), strings.TrimSpace(prefix[i+1:])
	}
	prefix = trimAPIPrefix(prefix)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.injections = append(s.injections, &injection{method: method, prefix: prefix, left: n, retryAfter: retryAfter})
}

func trimAPIPrefix(p string) string {
	for _, v := range []string{"/api/v9", "/api/v10"} {
		if strings.HasPrefix(p, v+"/") {
			return strings.TrimPrefix(p, v)
		}
	}
	return p
}

func (s *Server) takeInjectionLocked(method, path string) *injection {
	for i, inj := range s.injections {
		if inj.left > 0 && (inj.method == "" || inj.method == method) && strings.HasPrefix(path, inj.prefix) {
			inj.left--
			if inj.left == 0 {
				s.injections = append(s.injections[:i:i], s.injections[i+1:]...)
			}
			return inj
		}
	}
	return nil
}

func (s *Server) ruleLocked(route string) rateRule {
	if r, ok := s.limits[route]; ok {
		return r
	}
	if r, ok := s.limits["*"]; ok {
		return r
	}
	return rateRule{n: defaultBucketLimit, per: defaultBucketWindow}
}

// takeLocked counts a request in its bucket and reports whether it fits.
func (s *Server) takeLocked(route, major string, now time.Time) (*bucket, bool) {
	key := route + "|" + major
	b := s.buckets[key]
	rule := s.ruleLocked(route)
	if b == nil || !now.Before(b.resetAt) || b.rule != rule {
		b = &bucket{resetAt: now.Add(rule.per), rule: rule}
		s.buckets[key] = b
	}
	if b.count >= rule.n {
		return b, false
	}
	b.count++
	return b, true
}

func bucketHash(route string) string {
	h := sha1.Sum([]byte(route))
	return hex.EncodeToString(h[:8])
}

func secs(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	return strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
}

// setRateHeaders writes Discord's X-RateLimit-* headers for b.
func setRateHeaders(h http.Header, route string, b *bucket, now time.Time) {
	remaining := b.rule.n - b.count
	if remaining < 0 {
		remaining = 0
	}
	h.Set("X-RateLimit-Limit", strconv.Itoa(b.rule.n))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
	h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(b.resetAt.UnixMilli())/1000, 'f', 3, 64))
	h.Set("X-RateLimit-Reset-After", secs(b.resetAt.Sub(now)))
	h.Set("X-RateLimit-Bucket", bucketHash(route))
}

// write429 answers a request with Discord's rate limit error.
func write429(w http.ResponseWriter, route string, retryAfter time.Duration, limit int) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(retryAfter.Seconds()))))
	h.Set("X-RateLimit-Limit", strconv.Itoa(limit))
	h.Set("X-RateLimit-Remaining", "0")
	h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(time.Now().Add(retryAfter).UnixMilli())/1000, 'f', 3, 64))
	h.Set("X-RateLimit-Reset-After", secs(retryAfter))
	h.Set("X-RateLimit-Bucket", bucketHash(route))
	h.Set("X-RateLimit-Scope", "user")
	w.WriteHeader(http.StatusTooManyRequests)
	fmt.Fprintf(w, `{"message":"You are being rate limited.","retry_after":%s,"global":false}`, secs(retryAfter))
}

// SetGlobalRateLimit enforces Discord's global limit: n requests per window
// across every route of the bot token (Discord: 50 per second), interaction
// callbacks and webhook-token routes excepted, as on Discord. A request past
// it gets a global 429 and is recorded as a failure: a bot must pace itself,
// since discordgo only learns of the global limit from a 429. n <= 0 turns it
// off (the default).
func (s *Server) SetGlobalRateLimit(n int, per time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.global = nil
	if n > 0 && per > 0 {
		s.global = &bucket{rule: rateRule{n: n, per: per}}
	}
}

// takeGlobal counts a request against the global limit; it returns the
// bucket, as it stood, when the request does not fit.
func (s *Server) takeGlobal(rt *route, now time.Time) *bucket {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.global
	if g == nil || rt.noAuth {
		return nil
	}
	if !now.Before(g.resetAt) {
		g.count, g.resetAt = 0, now.Add(g.rule.per)
	}
	if g.count >= g.rule.n {
		full := *g // a copy: other requests change g once the lock is released
		return &full
	}
	g.count++
	return nil
}

// writeGlobal429 answers with Discord's global rate limit error.
func writeGlobal429(w http.ResponseWriter, retryAfter time.Duration) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(retryAfter.Seconds()))))
	h.Set("X-RateLimit-Global", "true")
	h.Set("X-RateLimit-Scope", "global")
	w.WriteHeader(http.StatusTooManyRequests)
	fmt.Fprintf(w, `{"message":"You are being rate limited.","retry_after":%s,"global":true}`, secs(retryAfter))
}

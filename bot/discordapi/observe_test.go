package discordapi_test

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/discordapi"
)

func TestRoute(t *testing.T) {
	for _, tt := range []struct{ method, path, want string }{
		{"POST", "/api/v9/channels/210000000000000001/messages", "POST /channels/{id}/messages"},
		{"PATCH", "/api/v9/channels/210000000000000001/messages/99", "PATCH /channels/{id}/messages/{id}"},
		{"POST", "/api/v9/interactions/123/aW50ZXJhY3Rpb246MTIzOnNlY3JldA/callback", "POST /interactions/{id}/{token}/callback"},
		{"PATCH", "/api/v9/webhooks/5/tok.en-x/messages/@original", "PATCH /webhooks/{id}/{token}/messages/@original"},
		{"POST", "/api/v9/webhooks/5/tok", "POST /webhooks/{id}/{token}"},
		{"PUT", "/api/v9/applications/7/guilds/8/commands", "PUT /applications/{id}/guilds/{id}/commands"},
		{"PUT", "/api/v9/channels/1/messages/2/reactions/%F0%9F%83%8F/@me", "PUT /channels/{id}/messages/{id}/reactions/{emoji}/@me"},
		{"GET", "/proxy/discord/api/v10/gateway", "GET /gateway"},
		{"GET", "/gateway", "GET /gateway"},
	} {
		assert.Equal(t, tt.want, discordapi.Route(tt.method, tt.path), tt.path)
	}
}

// ObserveTransport reports each request by route with its status, the scope of a 429,
// and status 0 for a request that got no answer.
func TestObserveTransport(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v9/channels/1/messages" {
			w.Header().Set("X-RateLimit-Scope", "user")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	type seen struct {
		route  string
		status int
		scope  string
	}
	var mu sync.Mutex
	var got []seen
	rt := discordapi.ObserveTransport(nil, func(route string, status int, scope string) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, seen{route, status, scope})
	})
	c := &http.Client{Transport: rt}
	for _, p := range []string{"/api/v9/channels/1/messages", "/api/v9/interactions/2/secret-token/callback"} {
		resp, err := c.Post(srv.URL+p, "application/json", nil)
		require.NoError(t, err)
		require.NoError(t, resp.Body.Close())
	}
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close()
	_, err := c.Get(dead.URL + "/api/v9/gateway")
	require.Error(t, err)
	assert.Equal(t, []seen{
		{"POST /channels/{id}/messages", 429, "user"},
		{"POST /interactions/{id}/{token}/callback", 204, ""},
		{"GET /gateway", 0, ""},
	}, got)
}

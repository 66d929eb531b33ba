package discordapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/discordapi"
)

// recorder is a RoundTripper that remembers the requests it saw and answers
// 200 without touching the network.
type recorder struct {
	mu   sync.Mutex
	urls []string
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.urls = append(r.urls, req.URL.String())
	r.mu.Unlock()
	return &http.Response{
		StatusCode: http.StatusOK,
		Body:       io.NopCloser(strings.NewReader("{}")),
		Header:     http.Header{},
		Request:    req,
	}, nil
}

func TestNewTransportRewritesDiscordHosts(t *testing.T) {
	tests := []struct {
		base, in, want string
	}{
		{"http://127.0.0.1:9999", "https://discord.com/api/v9/gateway", "http://127.0.0.1:9999/api/v9/gateway"},
		{"http://127.0.0.1:9999/", "https://discord.com/api/v9/channels/1/messages?limit=5", "http://127.0.0.1:9999/api/v9/channels/1/messages?limit=5"},
		{"https://proxy.internal/discord/", "https://discord.com/api/v9/users/@me", "https://proxy.internal/discord/api/v9/users/@me"},
		{"http://127.0.0.1:9999", "https://gateway.discord.gg/?v=9", "http://127.0.0.1:9999/?v=9"},
		{"http://127.0.0.1:9999", "https://DISCORD.COM/api/v9/gateway", "http://127.0.0.1:9999/api/v9/gateway"},
		{"http://127.0.0.1:9999", "https://cdn.discordapp.com/avatars/1/2.png", "https://cdn.discordapp.com/avatars/1/2.png"},
		{"http://127.0.0.1:9999", "https://example.org/x?y=1", "https://example.org/x?y=1"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			rec := &recorder{}
			rt, err := discordapi.NewTransport(tt.base, rec)
			require.NoError(t, err)
			req, err := http.NewRequest(http.MethodGet, tt.in, nil)
			require.NoError(t, err)
			before := req.URL.String()
			resp, err := rt.RoundTrip(req)
			require.NoError(t, err)
			require.NoError(t, resp.Body.Close())
			require.Equal(t, []string{tt.want}, rec.urls)
			assert.Equal(t, before, req.URL.String(), "the caller's request must not be modified")
		})
	}
}

func TestNewTransportRejectsBadBaseURLs(t *testing.T) {
	for _, base := range []string{
		"", "127.0.0.1:8080", "ftp://127.0.0.1", "ws://127.0.0.1:1", "http://", "http:///path",
		"http://127.0.0.1:1/?q=1", "http://127.0.0.1:1/#frag", "http://user:secret@127.0.0.1:1", "http://[::1",
	} {
		_, err := discordapi.NewTransport(base, nil)
		assert.Error(t, err, "base %q", base)
		if err != nil {
			assert.NotContains(t, err.Error(), "secret")
		}
	}
}

func TestNewTransportSendsToServer(t *testing.T) {
	var got struct {
		sync.Mutex
		path, query, auth string
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Lock()
		got.path, got.query, got.auth = r.URL.Path, r.URL.RawQuery, r.Header.Get("Authorization")
		got.Unlock()
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	defer ts.Close()

	rt, err := discordapi.NewTransport(ts.URL, nil)
	require.NoError(t, err)
	c := &http.Client{Transport: rt}
	req, err := http.NewRequest(http.MethodGet, "https://discord.com/api/v9/channels/42/messages?limit=2", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bot abc")
	resp, err := c.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	got.Lock()
	defer got.Unlock()
	assert.Equal(t, "/api/v9/channels/42/messages", got.path)
	assert.Equal(t, "limit=2", got.query)
	assert.Equal(t, "Bot abc", got.auth)
}

func TestNewSession(t *testing.T) {
	const token = "super-secret-token"
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bot "+token {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]string{"url": "ws://127.0.0.1:1/gateway"})
	}))
	defer ts.Close()

	orig := &http.Client{}
	s, err := discordapi.NewSession(token, ts.URL, orig)
	require.NoError(t, err)
	assert.Nil(t, orig.Transport, "the caller's client must not be modified")
	assert.Equal(t, "Bot "+token, s.Token)
	require.NotNil(t, s.Dialer)

	gw, err := s.Gateway()
	require.NoError(t, err)
	assert.Equal(t, "ws://127.0.0.1:1/gateway/", gw)

	for _, tc := range []struct{ token, base string }{
		{"", ts.URL},
		{"Bot " + token, ts.URL},
		{token, "not a url"},
		{token, "ftp://127.0.0.1"},
	} {
		_, err := discordapi.NewSession(tc.token, tc.base, nil)
		require.Error(t, err)
		assert.NotContains(t, err.Error(), token, "errors must never contain the token")
	}
}

// The client's timeout still ends a request that stalls, the response body's read
// included, once NewSession has moved it from the client into the transport.
func TestNewSessionKeepsTheClientTimeout(t *testing.T) {
	release := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v9/stall" {
			w.Header().Set("Content-Length", "100")
			_, _ = w.Write([]byte("{"))
			w.(http.Flusher).Flush()
			select { // the body never completes
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		_, _ = w.Write([]byte(`{}`))
	}))
	defer ts.Close()
	defer close(release)

	s, err := discordapi.NewSession("tok", ts.URL, &http.Client{Timeout: 300 * time.Millisecond})
	require.NoError(t, err)
	assert.Zero(t, s.Client.Timeout, "the timeout moved into the transport")

	_, err = s.RequestWithBucketID(http.MethodGet, "https://discord.com/api/v9/stall", nil, "stall")
	require.Error(t, err, "a body that never completes times out")
	assert.ErrorIs(t, err, context.DeadlineExceeded)

}

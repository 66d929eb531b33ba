package metrics_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/metrics"
	"github.com/pontoon-bot/pontoon/store"
)

func fetch(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// The served /metrics shows what the recorder API, the REST observer, the commit
// observer and the audit sample were told, under Prometheus-style names.
func TestServedMetrics(t *testing.T) {
	ctx := context.Background()
	m := metrics.New()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "pontoon.db"), store.WithCommitObserver(m.CommitObserver))
	require.NoError(t, err)
	defer st.Close()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	_, _, err = st.EnsureWallet(ctx, "g1", "a", 700, now)
	require.NoError(t, err)
	_, _, err = st.EnsureWallet(ctx, "g2", "b", 300, now)
	require.NoError(t, err)

	m.Interaction("command:start", metrics.Answered, "", 20*time.Millisecond)
	m.Interaction("component:act", metrics.Refused, "not_your_turn", 4*time.Second)
	m.REST("POST /channels/{id}/messages", 429, "user")
	m.REST("POST /channels/{id}/messages", 200, "")
	m.Sample(func() int { return 3 }, func() int { return 2 })
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); m.SampleChips(sctx, st, time.Hour) }()

	srv := httptest.NewServer(metrics.AdminHandler(m, metrics.AdminOptions{}))
	defer srv.Close()
	var body string
	require.Eventually(t, func() bool {
		_, body = fetch(t, srv.URL+"/metrics")
		return contains(body, `pontoon_chips_circulating{guild="g2"} 300`)
	}, 5*time.Second, 10*time.Millisecond, "no chips sample")
	cancel()
	<-done
	for _, line := range []string{
		`pontoon_interactions_total{kind="command:start",outcome="answered",reason=""} 1`,
		`pontoon_interactions_total{kind="component:act",outcome="refused",reason="not_your_turn"} 1`,
		`pontoon_interaction_duration_seconds_bucket{kind="component:act",outcome="refused",le="3"} 0`,
		`pontoon_interaction_duration_seconds_bucket{kind="component:act",outcome="refused",le="5"} 1`,
		`pontoon_discord_requests_total{route="POST /channels/{id}/messages",status="429"} 1`,
		`pontoon_discord_rate_limited_total{route="POST /channels/{id}/messages",scope="user"} 1`,
		`pontoon_store_commit_duration_seconds_count{op="EnsureWallet",outcome="ok"} 2`,
		`pontoon_chips_circulating{guild="g1"} 700`,
		`pontoon_audit_problems 0`,
		`pontoon_tables_live 3`,
		`pontoon_timers_pending 2`,
		`pontoon_gateway_connected 0`,
		`# TYPE pontoon_interaction_duration_seconds histogram`,
	} {
		assert.True(t, contains(body, line), "missing %s", line)
	}
}

// /readyz is 503 naming the failed checks until every check passes; /healthz is 200
// throughout.
func TestReadiness(t *testing.T) {
	m := metrics.New()
	dbErr := errors.New("database closed")
	srv := httptest.NewServer(metrics.AdminHandler(m, metrics.AdminOptions{},
		metrics.Check{Name: "database", Func: func(context.Context) error { return dbErr }},
		metrics.Check{Name: "gateway", Func: m.GatewayReady}))
	defer srv.Close()
	code, body := fetch(t, srv.URL+"/readyz")
	assert.Equal(t, http.StatusServiceUnavailable, code)
	assert.Equal(t, "database: database closed\ngateway: "+metrics.ErrGatewayNotReady.Error()+"\n", body)
	code, body = fetch(t, srv.URL+"/healthz")
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "ok\n", body)
	dbErr = nil
	code, _ = fetch(t, srv.URL+"/readyz")
	assert.Equal(t, http.StatusServiceUnavailable, code, "the gateway is still down")
}

func contains(body, line string) bool { return slices.Contains(strings.Split(body, "\n"), line) }

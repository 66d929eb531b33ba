package metrics_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/metrics"
)

// get sends a GET with the given Authorization header ("" for none).
func get(t *testing.T, url, auth string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, string(b)
}

// With a token, every admin endpoint but the liveness check answers 401 to a request
// without it, or with another; with it, each answers as without a token.
func TestAdminTokenGuardsAllButLiveness(t *testing.T) {
	const token = "0123456789abcdef0123456789abcdef"
	srv := httptest.NewServer(metrics.AdminHandler(metrics.New(), metrics.AdminOptions{Token: token, Pprof: true}))
	defer srv.Close()
	for _, path := range []string{"/metrics", "/readyz", "/debug/pprof/", "/debug/pprof/cmdline", "/debug/pprof/goroutine?debug=1", "/nowhere"} {
		for _, auth := range []string{"", "Bearer", "Bearer " + token[1:], "Bearer " + token + "0", "Basic " + token, token} {
			code, body := get(t, srv.URL+path, auth)
			assert.Equal(t, http.StatusUnauthorized, code, "%s with %q", path, auth)
			assert.NotContains(t, body, token)
		}
	}
	code, body := get(t, srv.URL+"/healthz", "")
	assert.Equal(t, http.StatusOK, code, "liveness needs no token")
	assert.Equal(t, "ok\n", body)
	res, err := http.Get(srv.URL + "/metrics")
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, `Bearer realm="pontoon admin"`, res.Header.Get("WWW-Authenticate"))

	for _, path := range []string{"/metrics", "/readyz", "/debug/pprof/", "/debug/pprof/goroutine?debug=1"} {
		code, _ := get(t, srv.URL+path, "Bearer "+token)
		assert.Equal(t, http.StatusOK, code, path)
	}
	code, _ = get(t, srv.URL+"/metrics", "bearer "+token)
	assert.Equal(t, http.StatusOK, code, "the scheme's case does not matter")
	code, _ = get(t, srv.URL+"/nowhere", "Bearer "+token)
	assert.Equal(t, http.StatusNotFound, code)
}

// Without admin.pprof there are no profiles; without a token everything is served.
func TestPprofOnlyWhenAsked(t *testing.T) {
	off := httptest.NewServer(metrics.AdminHandler(metrics.New(), metrics.AdminOptions{}))
	defer off.Close()
	for _, path := range []string{"/debug/pprof/", "/debug/pprof/profile?seconds=1", "/debug/pprof/trace", "/debug/pprof/heap", "/debug/pprof/cmdline"} {
		code, _ := get(t, off.URL+path, "")
		assert.Equal(t, http.StatusNotFound, code, path)
	}
	code, _ := get(t, off.URL+"/metrics", "")
	assert.Equal(t, http.StatusOK, code)

	on := httptest.NewServer(metrics.AdminHandler(metrics.New(), metrics.AdminOptions{Pprof: true}))
	defer on.Close()
	code, body := get(t, on.URL+"/debug/pprof/", "")
	assert.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, "goroutine")
}

// A profile, trace or delta profile longer than MaxProfile is refused with the bound,
// and so is a seconds that is not a number pprof would bound.
func TestProfileSecondsBounded(t *testing.T) {
	srv := httptest.NewServer(metrics.AdminHandler(metrics.New(), metrics.AdminOptions{Pprof: true}))
	defer srv.Close()
	for _, path := range []string{"/debug/pprof/profile?seconds=61", "/debug/pprof/trace?seconds=3600", "/debug/pprof/heap?seconds=100000",
		"/debug/pprof/allocs?seconds=1e9", "/debug/pprof/trace?seconds=NaN", "/debug/pprof/profile?seconds=Inf"} {
		code, body := get(t, srv.URL+path, "")
		assert.Equal(t, http.StatusBadRequest, code, path)
		assert.Contains(t, body, "must be a number of at most 60", path)
	}
	code, _ := get(t, srv.URL+"/debug/pprof/trace?seconds=0.01", "")
	assert.Equal(t, http.StatusOK, code, "a trace within the bound runs")
}

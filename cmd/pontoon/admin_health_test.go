package main

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/bot/metrics"
	"github.com/pontoon-bot/pontoon/config"
)

const adminToken = "admin-token-0123456789-must-never-be-logged"

// cleanEnv is the test's environment without PONTOON_ variables, plus extra.
func cleanEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, config.EnvPrefix) {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// runHealthcheck runs `pontoon healthcheck args...` and returns its exit status, stdout
// and stderr.
func runHealthcheck(t *testing.T, bin string, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"healthcheck"}, args...)...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), stdout.String(), stderr.String()
	}
	require.NoError(t, err)
	return 0, stdout.String(), stderr.String()
}

// `pontoon healthcheck` asks the admin listener named by admin.listen, with admin.token,
// and says in one line what it answered: exit 0 on 200, 1 on anything else, including
// no listener and no admin.listen. The token is never printed.
func TestHealthcheckAsksTheAdminListener(t *testing.T) {
	bin := sharedBinary(t)
	var dbDown atomic.Bool // set by the test, read by the server's goroutine
	h := metrics.AdminHandler(metrics.New(), metrics.AdminOptions{Token: adminToken},
		metrics.Check{Name: "database", Func: func(context.Context) error {
			if dbDown.Load() {
				return errors.New("database is down")
			}
			return nil
		}})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := &http.Server{Handler: h}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	listen := "PONTOON_ADMIN_LISTEN=127.0.0.1:" + port
	withToken := "PONTOON_ADMIN_TOKEN=" + adminToken
	url := "http://127.0.0.1:" + port

	cases := []struct {
		name   string
		env    []string
		args   []string
		before func()
		code   int
		line   string
	}{
		{"alive", []string{listen}, nil, nil, 0, "healthy: GET " + url + "/healthz: 200 OK: ok"},
		{"alive on every interface", []string{"PONTOON_ADMIN_LISTEN=:" + port}, nil, nil, 0, "healthy: GET " + url + "/healthz: 200 OK: ok"},
		{"ready", []string{listen, withToken}, []string{"--ready"}, nil, 0, "healthy: GET " + url + "/readyz: 200 OK: database: ok"},
		{"ready without the token", []string{listen}, []string{"--ready"}, nil, 1, "unhealthy: GET " + url + "/readyz: 401 Unauthorized: unauthorized"},
		{"not ready", []string{listen, withToken}, []string{"--ready"}, func() { dbDown.Store(true) }, 1,
			"unhealthy: GET " + url + "/readyz: 503 Service Unavailable: database: database is down"},
		{"nothing listening", []string{"PONTOON_ADMIN_LISTEN=" + freeAddr(t), withToken}, nil, nil, 1, "connection refused"},
		{"no admin listener", nil, nil, nil, 1, "unhealthy: admin.listen is empty, so there is no admin listener to ask; set PONTOON_ADMIN_LISTEN"},
		{"bad token", []string{listen, "PONTOON_ADMIN_TOKEN=short"}, nil, nil, 1, "unhealthy: config: admin.token is 5 characters, must be 16 to 256"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.before != nil {
				c.before()
			}
			code, stdout, stderr := runHealthcheck(t, bin, cleanEnv(c.env...), c.args...)
			assert.Equal(t, c.code, code, "stdout %q stderr %q", stdout, stderr)
			out := stdout + stderr
			assert.Equal(t, 1, strings.Count(out, "\n"), "one line: %q", out)
			assert.Contains(t, out, c.line)
			assert.NotContains(t, out, adminToken)
			if c.code == 0 {
				assert.Empty(t, stderr)
			} else {
				assert.Empty(t, stdout)
			}
		})
	}
}

// The admin listener on every interface without a token logs a warning naming the
// address and admin.token; it serves no profiles unless admin.pprof is set, and the
// container's health check passes against it. On loopback with a token there is no
// warning, and the metrics need the token.
func TestAdminListenerBeyondLoopback(t *testing.T) {
	bin := sharedBinary(t)
	fake := discordtest.New(t, discordtest.WithToken(token))
	fake.AddGuild(guild, "en-US")
	fake.AddChannel(guild, channel)
	base := cleanEnv("PONTOON_DISCORD_TOKEN="+token, "PONTOON_DISCORD_API_URL="+fake.URL(),
		"PONTOON_DATABASE_PATH="+filepath.Join(t.TempDir(), "pontoon.db"), "PONTOON_LOG_FORMAT=json")

	_, port, _ := net.SplitHostPort(freeAddr(t))
	open := append(append([]string{}, base...), "PONTOON_ADMIN_LISTEN=0.0.0.0:"+port)
	p := startServe(t, bin, open, 1)
	logs := p.logs.String()
	assert.Contains(t, logs, `"level":"WARN","msg":"admin listener reachable beyond loopback with no admin.token`)
	assert.Contains(t, logs, `"addr":"0.0.0.0:`+port+`"`)
	get(t, "http://127.0.0.1:"+port+"/debug/pprof/", http.StatusNotFound)
	get(t, "http://127.0.0.1:"+port+"/metrics", http.StatusOK)
	code, stdout, stderr := runHealthcheck(t, bin, open)
	assert.Equal(t, 0, code, stderr)
	assert.Equal(t, "healthy: GET http://127.0.0.1:"+port+"/healthz: 200 OK: ok\n", stdout)
	require.NoError(t, p.cmd.Process.Kill())
	_ = p.cmd.Wait()

	guarded := append(append([]string{}, base...), "PONTOON_ADMIN_LISTEN=127.0.0.1:0", "PONTOON_ADMIN_TOKEN="+adminToken, "PONTOON_ADMIN_PPROF=true")
	p = startServe(t, bin, guarded, 1)
	defer func() { _ = p.cmd.Process.Kill() }()
	logs = p.logs.String()
	assert.NotContains(t, logs, "beyond loopback")
	assert.NotContains(t, logs, adminToken)
	addr := adminAddr(t, logs)
	get(t, "http://"+addr+"/metrics", http.StatusUnauthorized)
	get(t, "http://"+addr+"/debug/pprof/", http.StatusUnauthorized)
	get(t, "http://"+addr+"/healthz", http.StatusOK)
	req, err := http.NewRequest(http.MethodGet, "http://"+addr+"/debug/pprof/", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+adminToken)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode, "profiles with admin.pprof and the token")
}

// The process's logger masks the admin token wherever it appears, as it masks the bot
// token.
func TestLoggerMasksTheAdminToken(t *testing.T) {
	cfg := config.Default()
	cfg.Discord.Token = token
	cfg.Admin.Token = adminToken
	var out bytes.Buffer
	newLogger(cfg, &out).Info("GET /metrics Authorization: Bearer "+adminToken, "header", "Bearer "+adminToken)
	assert.NotContains(t, out.String(), adminToken)
	assert.Equal(t, 2, strings.Count(out.String(), "Bearer [redacted]"), out.String())
}

// The admin server bounds every connection's time, and its write timeout leaves room for
// the longest profile pprof may be asked for (pprof refuses one that would outlast it).
func TestAdminServerTimeouts(t *testing.T) {
	srv := adminServer(http.NotFoundHandler())
	assert.Positive(t, srv.ReadHeaderTimeout)
	assert.Positive(t, srv.ReadTimeout)
	assert.Positive(t, srv.IdleTimeout)
	assert.Greater(t, srv.WriteTimeout, metrics.MaxProfile)
}

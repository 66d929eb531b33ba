package httpin_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/httpin"
	"github.com/pontoon-bot/pontoon/bot/logging/logtest"
	"github.com/pontoon-bot/pontoon/bot/metrics"
)

func keyPair(t *testing.T) (ed25519.PublicKey, ed25519.PrivateKey) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	return pub, priv
}

// counting is an endpoint whose refusals go to real metrics and a text log, on a clock
// the test moves.
type counting struct {
	url   string
	priv  ed25519.PrivateKey
	m     *metrics.Metrics
	log   *logtest.Buffer
	now   atomic.Int64 // Unix nanoseconds
	calls atomic.Int32
}

func newCounting(t *testing.T) *counting {
	t.Helper()
	pub, priv := keyPair(t)
	e := &counting{priv: priv, m: metrics.New(), log: &logtest.Buffer{}}
	e.now.Store(time.Now().UnixNano())
	h, err := httpin.New(httpin.Options{
		PublicKey: pub, Recorder: e.m,
		Logger: slog.New(slog.NewTextHandler(e.log, nil)),
		Now:    func() time.Time { return time.Unix(0, e.now.Load()) },
		Router: func(context.Context, *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
			e.calls.Add(1)
			return ephemeral("answered"), nil
		},
	})
	require.NoError(t, err)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	e.url = ts.URL
	return e
}

// refused reads the refusal counter of reason from the served metrics.
func (e *counting) refused(t *testing.T, reason string) int {
	t.Helper()
	rec := httptest.NewRecorder()
	e.m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	prefix := fmt.Sprintf(`pontoon_interactions_endpoint_refused_total{reason=%q} `, reason)
	for _, line := range strings.Split(rec.Body.String(), "\n") {
		if n, ok := strings.CutPrefix(line, prefix); ok {
			var v int
			_, err := fmt.Sscan(n, &v)
			require.NoError(t, err)
			return v
		}
	}
	return 0
}

// A request whose signature headers are missing or malformed, or whose declared body
// is over MaxBodyBytes, is refused on its headers: the answer comes while the client
// has sent a few bytes of a 3 MiB body, and the connection is closed, so nothing of the
// body is held. Each refusal is counted by reason.
func TestRefusedBeforeTheBodyIsRead(t *testing.T) {
	e := newCounting(t)
	addr := strings.TrimPrefix(e.url, "http://")
	sig := "X-Signature-Ed25519: " + strings.Repeat("ab", 64) + "\r\n"
	ts := "X-Signature-Timestamp: 1700000000\r\n"
	cases := []struct {
		name, headers, reason string
		status                int
	}{
		{"no headers", "", httpin.RefusedMissingSignature, http.StatusUnauthorized},
		{"no signature", ts, httpin.RefusedMissingSignature, http.StatusUnauthorized},
		{"short signature", "X-Signature-Ed25519: " + strings.Repeat("ab", 63) + "\r\n" + ts, httpin.RefusedMalformedSignature, http.StatusUnauthorized},
		{"signature not hex", "X-Signature-Ed25519: " + strings.Repeat("zz", 64) + "\r\n" + ts, httpin.RefusedMalformedSignature, http.StatusUnauthorized},
		{"no timestamp", sig, httpin.RefusedMissingTimestamp, http.StatusUnauthorized},
		{"timestamp not digits", sig + "X-Signature-Timestamp: 17e8\r\n", httpin.RefusedMalformedTimestamp, http.StatusUnauthorized},
		{"negative timestamp", sig + "X-Signature-Timestamp: -1700000000\r\n", httpin.RefusedMalformedTimestamp, http.StatusUnauthorized},
		{"declared body too large", sig + ts, httpin.RefusedBodyTooLarge, http.StatusRequestEntityTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := e.refused(t, c.reason)
			conn := dial(t, addr)
			_, err := fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n%sContent-Length: %d\r\n\r\n{\"type\":2,",
				c.headers, 3<<20)
			require.NoError(t, err)
			answer := readToClose(t, conn) // the client sends nothing more
			assert.True(t, strings.HasPrefix(answer, fmt.Sprintf("HTTP/1.1 %d ", c.status)), "answer: %q", answer)
			assert.Equal(t, before+1, e.refused(t, c.reason))
		})
	}
	assert.Zero(t, e.calls.Load())
}

// A body over 1 MiB is refused, even correctly signed, whether it declares its length
// or not (chunked), and read no further than the limit. One under it is answered.
func TestBodyOverOneMebibyteRefused(t *testing.T) {
	e := newCounting(t)
	body := []byte(`{"type":2,"pad":"` + strings.Repeat("x", 1<<20) + `"}`)
	for _, chunked := range []bool{false, true} {
		var r io.Reader = bytes.NewReader(body)
		if chunked {
			r = io.MultiReader(r) // a reader of unknown length is sent chunked
		}
		req, err := http.NewRequest(http.MethodPost, e.url, r)
		require.NoError(t, err)
		for k, v := range signed(e.priv, time.Unix(0, e.now.Load()), body) {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, http.StatusRequestEntityTooLarge, res.StatusCode, "chunked %v", chunked)
	}
	assert.Equal(t, 2, e.refused(t, httpin.RefusedBodyTooLarge))
	assert.Zero(t, e.calls.Load())

	small := []byte(`{"id":"1","application_id":"2","type":2,"token":"t","version":1,"data":{"name":"pontoon","pad":"` +
		strings.Repeat("x", 1<<20-200) + `"}}`)
	require.Less(t, len(small), 1<<20)
	status, _, _ := post(t, e.url, small, signed(e.priv, time.Unix(0, e.now.Load()), small))
	assert.Equal(t, http.StatusOK, status)
	assert.EqualValues(t, 1, e.calls.Load())
}

// Every refusal is counted, and the log gets a sample: the first refusal, then at most
// one line a minute, which says how many were refused since the line before.
func TestRefusalsCountedAndLoggedAsASample(t *testing.T) {
	e := newCounting(t)
	body := []byte(commandBody)
	for range 30 {
		status, _, _ := post(t, e.url, body, nil) // unsigned
		require.Equal(t, http.StatusUnauthorized, status)
	}
	_, other := keyPair(t)
	for range 20 {
		status, _, _ := post(t, e.url, body, signed(other, time.Unix(0, e.now.Load()), body)) // forged
		require.Equal(t, http.StatusUnauthorized, status)
	}
	assert.Equal(t, 30, e.refused(t, httpin.RefusedMissingSignature))
	assert.Equal(t, 20, e.refused(t, httpin.RefusedBadSignature))
	lines := e.log.Lines()
	require.Len(t, lines, 1, "one line for fifty refusals: %q", lines)
	assert.Contains(t, lines[0], "level=WARN")
	assert.Contains(t, lines[0], "reason=missing_signature")
	assert.Contains(t, lines[0], "refused_since_last_line=0")

	e.now.Add(int64(httpin.DefaultRefusalLogEvery - time.Second))
	status, _, _ := post(t, e.url, body, nil)
	require.Equal(t, http.StatusUnauthorized, status)
	require.Len(t, e.log.Lines(), 1, "still within the minute")

	e.now.Add(int64(time.Second))
	status, _, _ = post(t, e.url, body, signed(other, time.Unix(0, e.now.Load()), body))
	require.Equal(t, http.StatusUnauthorized, status)
	lines = e.log.Lines()
	require.Len(t, lines, 2)
	assert.Contains(t, lines[1], "reason=bad_signature")
	assert.Contains(t, lines[1], "refused_since_last_line=50", "the 49 after the first line, and the one within the minute")
	assert.Zero(t, e.calls.Load())
}

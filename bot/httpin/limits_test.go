package httpin_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/httpin"
)

// limited serves a Handler the way serve does, within l, on loopback, and returns its
// address.
func limited(t *testing.T, l httpin.Limits) string {
	t.Helper()
	pub, _ := keyPair(t)
	h, err := httpin.New(httpin.Options{PublicKey: pub, Logger: slog.New(slog.DiscardHandler),
		Router: func(context.Context, *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
			return ephemeral("x"), nil
		}})
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := l.Server(h)
	go func() { _ = srv.Serve(l.Listener(ln)) }()
	t.Cleanup(func() { _ = srv.Close() })
	return ln.Addr().String()
}

// wellFormed are signature headers of the right form (not a valid signature): they
// pass the checks made before the body is read.
var wellFormed = "X-Signature-Ed25519: " + strings.Repeat("ab", 64) + "\r\nX-Signature-Timestamp: 1700000000\r\n"

// dial connects to addr; the deadline keeps a broken test from hanging, it decides
// nothing.
func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	require.NoError(t, c.SetDeadline(time.Now().Add(20*time.Second)))
	return c
}

// readToClose reads what the server sends until it closes the connection, and fails
// the test if it never does.
func readToClose(t *testing.T, c net.Conn) string {
	t.Helper()
	b, err := io.ReadAll(c)
	var ne net.Error
	require.False(t, errors.As(err, &ne) && ne.Timeout(), "the server kept the connection open; got %q", b)
	return string(b)
}

// A body sent a byte at a time is cut off at the read timeout: the server answers and
// closes the connection while the body is still incomplete.
func TestSlowBodyIsCutOffAtTheReadTimeout(t *testing.T) {
	addr := limited(t, httpin.Limits{ReadTimeout: 300 * time.Millisecond})
	c := dial(t, addr)
	const length = 1000
	_, err := fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: x\r\n%sContent-Length: %d\r\n\r\n", wellFormed, length)
	require.NoError(t, err)
	var sent atomic.Int32
	go func() {
		for range length - 1 { // never the whole body
			if _, err := c.Write([]byte{'{'}); err != nil {
				return
			}
			sent.Add(1)
			time.Sleep(20 * time.Millisecond)
		}
	}()
	answer := readToClose(t, c)
	assert.Less(t, int(sent.Load()), length-1, "the connection closed before the client stopped sending")
	assert.True(t, strings.HasPrefix(answer, "HTTP/1.1 400 "), "answer: %q", answer)
	assert.Contains(t, answer, "request body unreadable")
}

// A kept-alive connection that sends no next request is closed at the idle timeout.
func TestIdleConnectionIsClosed(t *testing.T) {
	addr := limited(t, httpin.Limits{ReadTimeout: 30 * time.Second, IdleTimeout: 200 * time.Millisecond})
	c := dial(t, addr)
	_, err := fmt.Fprint(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	require.NoError(t, err)
	r := bufio.NewReader(c)
	res, err := http.ReadResponse(r, nil)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, res.StatusCode)
	assert.False(t, res.Close, "the connection is kept alive after the answer")
	rest, err := io.ReadAll(r)
	var ne net.Error
	assert.False(t, errors.As(err, &ne) && ne.Timeout(), "the idle connection was never closed")
	assert.Empty(t, rest)
}

// Past MaxConns open connections, a new one is not served until one of them closes.
func TestConnectionsPastTheLimitWait(t *testing.T) {
	addr := limited(t, httpin.Limits{ReadTimeout: 20 * time.Second, MaxConns: 2})
	held := []net.Conn{dial(t, addr), dial(t, addr)}
	// Each sends the start of a request, so the server has accepted it and is reading.
	for _, c := range held {
		_, err := fmt.Fprint(c, "POST / HTTP/1.1\r\n")
		require.NoError(t, err)
	}
	third := dial(t, addr)
	_, err := fmt.Fprint(third, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	require.NoError(t, err)
	require.NoError(t, third.SetReadDeadline(time.Now().Add(300*time.Millisecond)))
	_, err = third.Read(make([]byte, 1))
	var ne net.Error
	require.True(t, errors.As(err, &ne) && ne.Timeout(), "the third connection was served while two were open: %v", err)

	require.NoError(t, held[0].Close())
	require.NoError(t, third.SetReadDeadline(time.Now().Add(20*time.Second)))
	res, err := http.ReadResponse(bufio.NewReader(third), nil)
	require.NoError(t, err, "served once a connection closed")
	res.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, res.StatusCode)
}

// The limits left zero take their defaults, which the configuration's keys mirror.
func TestLimitsDefaults(t *testing.T) {
	srv := httpin.Limits{}.Server(http.NotFoundHandler())
	assert.Equal(t, httpin.DefaultReadTimeout, srv.ReadTimeout)
	assert.Equal(t, httpin.DefaultIdleTimeout, srv.IdleTimeout)
	assert.Greater(t, srv.WriteTimeout, srv.ReadTimeout+httpin.DefaultDeferAfter, "the write deadline, which starts after the headers, covers the body and a deferral")
	assert.Positive(t, srv.ReadHeaderTimeout)
	srv = httpin.Limits{ReadTimeout: 3 * time.Second, WriteTimeout: 4 * time.Second, IdleTimeout: time.Second}.Server(http.NotFoundHandler())
	assert.Equal(t, []time.Duration{3 * time.Second, 4 * time.Second, time.Second}, []time.Duration{srv.ReadTimeout, srv.WriteTimeout, srv.IdleTimeout})
}

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/store/storetest"
)

// The HTTP interactions endpoint of the real binary keeps to the limits its keys set:
// a body sent a byte at a time is cut off at discord.interactions_read_timeout, a
// connection past discord.interactions_max_connections waits, and an unsigned request
// is refused on its headers, counted in the metrics by reason, and logged once however
// many come.
func TestInteractionsEndpointKeepsItsLimits(t *testing.T) {
	bin := sharedBinary(t)
	fake := discordtest.New(t, discordtest.WithToken(token))
	fake.AddGuild(guild, "en-US")
	fake.AddChannel(guild, channel)
	addr, admin := freeAddr(t), freeAddr(t)
	env := cleanEnv("PONTOON_DISCORD_TOKEN="+token, "PONTOON_DISCORD_API_URL="+fake.URL(),
		"PONTOON_DATABASE_PATH="+storetest.SQLitePath(t), "PONTOON_LOG_FORMAT=json",
		"PONTOON_DISCORD_APPLICATION_ID="+fake.AppID, "PONTOON_DISCORD_INTERACTIONS_LISTEN="+addr,
		"PONTOON_DISCORD_PUBLIC_KEY="+fake.PublicKey(), "PONTOON_ADMIN_LISTEN="+admin,
		"PONTOON_DISCORD_INTERACTIONS_READ_TIMEOUT=5s", "PONTOON_DISCORD_INTERACTIONS_MAX_CONNECTIONS=2")
	p := startServe(t, bin, env, 1)
	defer stopServe(t, p)
	before := scrape(t, admin)
	for _, reason := range []string{"missing_signature", "bad_signature", "body_too_large", "stale_timestamp"} {
		assert.Contains(t, before["pontoon_interactions_endpoint_refused_total"], sample{map[string]string{"reason": reason}, 0},
			"the %s series is there, at zero, before the first refusal", reason)
	}

	dial := func() net.Conn {
		c, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		t.Cleanup(func() { _ = c.Close() })
		require.NoError(t, c.SetDeadline(time.Now().Add(30*time.Second))) // against a hang; decides nothing
		return c
	}

	// Two connections held open with half a request; a third is not served until one of
	// them closes.
	held := []net.Conn{dial(), dial()}
	for _, c := range held {
		_, err := fmt.Fprint(c, "POST / HTTP/1.1\r\n")
		require.NoError(t, err)
	}
	third := dial()
	_, err := fmt.Fprint(third, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	require.NoError(t, err)
	require.NoError(t, third.SetReadDeadline(time.Now().Add(300*time.Millisecond)))
	_, err = third.Read(make([]byte, 1))
	var ne net.Error
	require.True(t, errors.As(err, &ne) && ne.Timeout(), "a third connection was served while two were open: %v", err)
	require.NoError(t, held[0].Close())
	require.NoError(t, held[1].Close())
	require.NoError(t, third.SetReadDeadline(time.Now().Add(30*time.Second)))
	res, err := http.ReadResponse(bufio.NewReader(third), nil)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, res.StatusCode)
	require.NoError(t, third.Close())

	// A body a byte at a time, with headers of the right form, is cut off.
	slow := dial()
	_, err = fmt.Fprintf(slow, "POST / HTTP/1.1\r\nHost: x\r\nX-Signature-Ed25519: %s\r\nX-Signature-Timestamp: %d\r\nContent-Length: 1000\r\n\r\n",
		strings.Repeat("ab", 64), time.Now().Unix())
	require.NoError(t, err)
	var sent atomic.Int32
	go func() {
		for range 999 {
			if _, err := slow.Write([]byte{' '}); err != nil {
				return
			}
			sent.Add(1)
			time.Sleep(100 * time.Millisecond)
		}
	}()
	answer, err := io.ReadAll(slow)
	require.False(t, errors.As(err, &ne) && ne.Timeout(), "the slow body was never cut off")
	assert.Less(t, int(sent.Load()), 999)
	assert.True(t, strings.HasPrefix(string(answer), "HTTP/1.1 400 "), "%q", answer)

	// Unsigned requests: refused, counted, logged once.
	for range 10 {
		res, err := http.Post("http://"+addr+"/", "application/json", strings.NewReader(`{"type":1}`))
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, http.StatusUnauthorized, res.StatusCode)
	}
	m := scrape(t, admin)
	assert.Equal(t, 10.0, value(m, "pontoon_interactions_endpoint_refused_total", map[string]string{"reason": "missing_signature"}))
	assert.Equal(t, 1.0, value(m, "pontoon_interactions_endpoint_refused_total", map[string]string{"reason": "body_unreadable"}))
	assert.Equal(t, 1.0, value(m, "pontoon_interactions_endpoint_refused_total", map[string]string{"reason": "method"}))
	assert.Equal(t, 1, strings.Count(p.logs.String(), "interactions endpoint: refused request"), "one line for twelve refusals")
	assert.Empty(t, fake.Failures())
}

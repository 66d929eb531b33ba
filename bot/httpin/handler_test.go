package httpin_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/httpin"
)

// endpoint is a Handler on loopback with a key pair made for the test.
type endpoint struct {
	url   string
	pub   ed25519.PublicKey
	priv  ed25519.PrivateKey
	calls atomic.Int32
	h     *httpin.Handler
}

func newEndpoint(t *testing.T, router httpin.Router, tweak func(*httpin.Options)) *endpoint {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	e := &endpoint{pub: pub, priv: priv}
	o := httpin.Options{
		PublicKey: pub,
		Router: func(ctx context.Context, i *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
			e.calls.Add(1)
			return router(ctx, i)
		},
		Logger: slog.New(slog.DiscardHandler),
	}
	if tweak != nil {
		tweak(&o)
	}
	e.h, err = httpin.New(o)
	require.NoError(t, err)
	ts := httptest.NewServer(e.h)
	t.Cleanup(ts.Close)
	e.url = ts.URL
	return e
}

// post sends body with the given headers and returns the status, the
// content type and the body of the answer.
func post(t *testing.T, url string, body []byte, headers map[string]string) (int, string, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, res.Header.Get("Content-Type"), b
}

// signed returns Discord's headers for body, signed now with priv.
func signed(priv ed25519.PrivateKey, at time.Time, body []byte) map[string]string {
	ts := strconv.FormatInt(at.Unix(), 10)
	sig := ed25519.Sign(priv, append([]byte(ts), body...))
	return map[string]string{httpin.HeaderSignature: hex.EncodeToString(sig), httpin.HeaderTimestamp: ts}
}

const pingBody = `{"id":"1200000000000000001","application_id":"1100000000000000001","type":1,"token":"tok-ping","version":1}`

// commandBody is a /pontoon balance as Discord sends it.
const commandBody = `{"id":"1200000000000000002","application_id":"1100000000000000001","type":2,
"token":"tok-secret-123","version":1,"guild_id":"900000000000000001","channel_id":"900000000000000002",
"member":{"user":{"id":"900000000000000011","username":"alice"},"permissions":"32","roles":[]},
"app_permissions":"117760","locale":"pl","guild_locale":"id",
"data":{"id":"1300000000000000001","name":"pontoon","type":1,"options":[{"name":"balance","type":1}]}}`

const componentBody = `{"id":"1200000000000000003","application_id":"1100000000000000001","type":3,
"token":"tok-secret-456","version":1,"guild_id":"900000000000000001","channel_id":"900000000000000002",
"member":{"user":{"id":"900000000000000011","username":"alice"},"permissions":"32","roles":[]},
"app_permissions":"117760","locale":"pl","message":{"id":"1400000000000000001","channel_id":"900000000000000002","content":"table"},
"data":{"custom_id":"pt:join:1:0:0:","component_type":2}}`

func ephemeral(text string) *discordgo.InteractionResponse {
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: text, Flags: discordgo.MessageFlagsEphemeral}}
}

func TestPingAnsweredWithPong(t *testing.T) {
	e := newEndpoint(t, func(context.Context, *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
		return ephemeral("not for a ping"), nil
	}, nil)
	status, ctype, body := post(t, e.url, []byte(pingBody), signed(e.priv, time.Now(), []byte(pingBody)))
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, "application/json", ctype)
	assert.JSONEq(t, `{"type":1}`, string(body))
	assert.Zero(t, e.calls.Load(), "a ping never reaches the router")
}

// TestRefusedRequests: whatever is wrong with the signature or its
// timestamp, the answer is 401 and the router never runs, so nothing changes.
func TestRefusedRequests(t *testing.T) {
	e := newEndpoint(t, func(context.Context, *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
		return ephemeral("must not happen"), nil
	}, nil)
	_, otherKey, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	body := []byte(commandBody)
	good := signed(e.priv, time.Now(), body)
	without := func(h string) map[string]string {
		m := signed(e.priv, time.Now(), body)
		delete(m, h)
		return m
	}
	flipped := []byte(commandBody)
	flipped[bytes.Index(flipped, []byte("balance"))] = 'B' // one byte of the body changed after signing

	cases := []struct {
		name    string
		body    []byte
		headers map[string]string
	}{
		{"no headers", body, nil},
		{"no signature", body, without(httpin.HeaderSignature)},
		{"no timestamp", body, without(httpin.HeaderTimestamp)},
		{"signature not hex", body, map[string]string{httpin.HeaderSignature: "zz" + good[httpin.HeaderSignature][2:], httpin.HeaderTimestamp: good[httpin.HeaderTimestamp]}},
		{"signature too short", body, map[string]string{httpin.HeaderSignature: good[httpin.HeaderSignature][:64], httpin.HeaderTimestamp: good[httpin.HeaderTimestamp]}},
		{"tampered body", flipped, good},
		{"other timestamp than signed", body, map[string]string{httpin.HeaderSignature: good[httpin.HeaderSignature],
			httpin.HeaderTimestamp: strconv.FormatInt(time.Now().Unix()+1, 10)}},
		{"wrong key", body, signed(otherKey, time.Now(), body)},
		{"stale timestamp (replay)", body, signed(e.priv, time.Now().Add(-httpin.DefaultMaxSkew-time.Minute), body)},
		{"timestamp in the future", body, signed(e.priv, time.Now().Add(httpin.DefaultMaxSkew+time.Minute), body)},
		{"ping with a bad signature", []byte(pingBody), signed(otherKey, time.Now(), []byte(pingBody))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, _, answer := post(t, e.url, c.body, c.headers)
			assert.Equal(t, http.StatusUnauthorized, status)
			assert.Contains(t, string(answer), "invalid request signature")
		})
	}
	assert.Zero(t, e.calls.Load(), "no refused request reached the router")

	// The same request, correctly signed, does.
	status, _, _ := post(t, e.url, body, good)
	assert.Equal(t, http.StatusOK, status)
	assert.EqualValues(t, 1, e.calls.Load())
}

func TestOnlyPost(t *testing.T) {
	e := newEndpoint(t, func(context.Context, *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
		return ephemeral("x"), nil
	}, nil)
	res, err := http.Get(e.url)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, res.StatusCode)
	assert.Equal(t, "POST", res.Header.Get("Allow"))
}

// TestCommandDecodedAndAnswered: the router gets discordgo's own types,
// and its response is the HTTP answer, byte for byte what discordgo would
// have posted to the callback route.
func TestCommandDecodedAndAnswered(t *testing.T) {
	var got *discordgo.InteractionCreate
	e := newEndpoint(t, func(_ context.Context, i *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
		got = i
		return ephemeral("Saldo: 1000"), nil
	}, nil)
	body := []byte(commandBody)
	status, ctype, answer := post(t, e.url, body, signed(e.priv, time.Now(), body))
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "application/json", ctype)

	require.NotNil(t, got)
	assert.Equal(t, "1200000000000000002", got.ID)
	assert.Equal(t, discordgo.InteractionApplicationCommand, got.Type)
	assert.Equal(t, "tok-secret-123", got.Token)
	assert.Equal(t, "900000000000000001", got.GuildID)
	assert.Equal(t, "900000000000000011", got.Member.User.ID)
	assert.Equal(t, discordgo.Polish, got.Locale)
	assert.EqualValues(t, 117760, got.AppPermissions)
	data := got.ApplicationCommandData()
	assert.Equal(t, "pontoon", data.Name)
	require.Len(t, data.Options, 1)
	assert.Equal(t, "balance", data.Options[0].Name)

	want, err := json.Marshal(ephemeral("Saldo: 1000"))
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(answer))
}

// TestFilesAsMultipart: a response with files is sent as Discord's
// callback route takes it, payload_json and files[n].
func TestFilesAsMultipart(t *testing.T) {
	e := newEndpoint(t, func(context.Context, *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
		r := ephemeral("round 3")
		r.Data.Files = []*discordgo.File{{Name: "round-3.json", ContentType: "application/json", Reader: strings.NewReader(`{"round":3}`)}}
		return r, nil
	}, nil)
	body := []byte(commandBody)
	status, ctype, answer := post(t, e.url, body, signed(e.priv, time.Now(), body))
	require.Equal(t, http.StatusOK, status)
	mt, params, err := mime.ParseMediaType(ctype)
	require.NoError(t, err)
	require.Equal(t, "multipart/form-data", mt)
	mr := multipart.NewReader(bytes.NewReader(answer), params["boundary"])
	parts := map[string]string{}
	names := map[string]string{}
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		b, err := io.ReadAll(p)
		require.NoError(t, err)
		parts[p.FormName()] = string(b)
		names[p.FormName()] = p.FileName()
	}
	var payload discordgo.InteractionResponse
	require.NoError(t, json.Unmarshal([]byte(parts["payload_json"]), &payload))
	assert.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, payload.Type)
	assert.Equal(t, "round 3", payload.Data.Content)
	assert.Equal(t, `{"round":3}`, parts["files[0]"])
	assert.Equal(t, "round-3.json", names["files[0]"])
}

func TestRouterFailureIs500(t *testing.T) {
	for name, router := range map[string]httpin.Router{
		"error": func(context.Context, *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
			return nil, errors.New("store down")
		},
		"nil response": func(context.Context, *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
			return nil, nil
		},
		"panic": func(context.Context, *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
			panic("bug")
		},
	} {
		t.Run(name, func(t *testing.T) {
			e := newEndpoint(t, router, nil)
			body := []byte(commandBody)
			status, _, _ := post(t, e.url, body, signed(e.priv, time.Now(), body))
			assert.Equal(t, http.StatusInternalServerError, status)
		})
	}
}

// TestSlowRouterDeferred: a router still busy after DeferAfter gets the
// interaction a deferral, of the kind that fits it, within the deadline.
func TestSlowRouterDeferred(t *testing.T) {
	release := make(chan struct{})
	e := newEndpoint(t, func(context.Context, *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
		<-release
		return ephemeral("late"), nil
	}, func(o *httpin.Options) { o.DeferAfter = 20 * time.Millisecond })
	defer e.h.Wait()
	defer close(release)

	body := []byte(commandBody)
	status, _, answer := post(t, e.url, body, signed(e.priv, time.Now(), body))
	require.Equal(t, http.StatusOK, status)
	assert.JSONEq(t, `{"type":5,"data":{"tts":false,"content":"","components":null,"embeds":null,"flags":64}}`, string(answer),
		"a command is deferred with an ephemeral thinking message")

	body = []byte(componentBody)
	status, _, answer = post(t, e.url, body, signed(e.priv, time.Now(), body))
	require.Equal(t, http.StatusOK, status)
	assert.JSONEq(t, `{"type":6}`, string(answer), "a component is deferred with a deferred update")
}

func TestNewChecksOptions(t *testing.T) {
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	_, err = httpin.New(httpin.Options{PublicKey: pub})
	assert.Error(t, err, "no router")
	_, err = httpin.New(httpin.Options{PublicKey: pub[:31], Router: func(context.Context, *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
		return nil, nil
	}})
	assert.ErrorIs(t, err, httpin.ErrPublicKey)
}

func TestParsePublicKey(t *testing.T) {
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	got, err := httpin.ParsePublicKey(hex.EncodeToString(pub))
	require.NoError(t, err)
	assert.Equal(t, pub, got)
	got, err = httpin.ParsePublicKey(strings.ToUpper(hex.EncodeToString(pub)))
	require.NoError(t, err, "the portal's hex in capitals is the same key")
	assert.Equal(t, pub, got)
	for _, bad := range []string{"", "abc", hex.EncodeToString(pub)[:62], hex.EncodeToString(pub) + "00", strings.Repeat("g", 64)} {
		_, err := httpin.ParsePublicKey(bad)
		assert.ErrorIs(t, err, httpin.ErrPublicKey, bad)
	}
}

// TestThenRunsAfterTheAnswer: work scheduled with Then neither delays the
// answer nor is lost: the member has the answer while the work is still
// held, and Wait sees it finish.
func TestThenRunsAfterTheAnswer(t *testing.T) {
	hold := make(chan struct{})
	var ran atomic.Bool
	e := newEndpoint(t, func(ctx context.Context, _ *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
		ok := httpin.Then(ctx, func(context.Context) {
			<-hold
			ran.Store(true)
		})
		if !ok {
			return nil, errors.New("Then refused the router's own context")
		}
		return ephemeral("done"), nil
	}, nil)
	body := []byte(commandBody)
	status, _, answer := post(t, e.url, body, signed(e.priv, time.Now(), body))
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, string(answer), `"content":"done"`)
	assert.False(t, ran.Load(), "the answer came first")
	close(hold)
	e.h.Wait()
	assert.True(t, ran.Load())
}

// TestThenAfterLateAnswer: after a deferral, Then's work runs once the late
// answer is out.
func TestThenAfterLateAnswer(t *testing.T) {
	release := make(chan struct{})
	var ran atomic.Bool
	e := newEndpoint(t, func(ctx context.Context, _ *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
		httpin.Then(ctx, func(context.Context) { ran.Store(true) })
		<-release
		return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}, nil
	}, func(o *httpin.Options) { o.DeferAfter = 10 * time.Millisecond })
	body := []byte(componentBody)
	status, _, answer := post(t, e.url, body, signed(e.priv, time.Now(), body))
	require.Equal(t, http.StatusOK, status)
	assert.JSONEq(t, `{"type":6}`, string(answer))
	assert.False(t, ran.Load())
	close(release)
	e.h.Wait()
	assert.True(t, ran.Load())
}

func TestThenOutsideRouter(t *testing.T) {
	assert.False(t, httpin.Then(context.Background(), func(context.Context) { t.Error("must not run") }))
}

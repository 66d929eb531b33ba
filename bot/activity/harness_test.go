package activity_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/bot/activity"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/bot/logging/logtest"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
	"github.com/stretchr/testify/require"
)

const (
	guildID   = "100000000000000001"
	channelID = "200000000000000001"
	alice     = "300000000000000001" // opens the table
	bob       = "300000000000000002" // plays
	carol     = "300000000000000003" // watches
	instance  = "i-100"
)

// harness is the real bot on a real SQLite file, against the fake Discord, with the
// activity server in front of it on a loopback port.
type harness struct {
	t      testing.TB
	fake   *discordtest.Server
	dbPath string
	logs   *logtest.Buffer // every line the bot and the server log, for the secrets test
	log    *slog.Logger
	st     *store.Store
	bot    *bot.Bot
	srv    *activity.Server
	http   *httptest.Server
	cfg    activity.Config
	nonces atomic.Int64
}

func newHarness(t testing.TB, mod func(*activity.Config)) *harness {
	t.Helper()
	fake := discordtest.New(t)
	fake.AddGuild(guildID, "en-US")
	fake.AddChannel(guildID, channelID)
	fake.AddMember(guildID, alice, "alice", 0, "en-US")
	fake.AddMember(guildID, bob, "bob", 0, "en-US")
	fake.AddMember(guildID, carol, "carol", 0, "en-US")
	fake.AddActivityInstance(instance, guildID, channelID, alice, bob, carol)
	fake.EnableActivities() // as the Developer Portal does for an Activity: its Entry Point command
	logs := &logtest.Buffer{}
	h := &harness{t: t, fake: fake, dbPath: filepath.Join(t.TempDir(), "pontoon.db"), logs: logs,
		log: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	h.cfg = activity.Config{ClientID: fake.AppID, ClientSecret: fake.ClientSecret(), APIURL: fake.URL(), BotToken: fake.Token, Log: h.log}
	if mod != nil {
		mod(&h.cfg)
	}
	h.start()
	t.Cleanup(h.stop)
	return h
}

// start opens the store, starts the bot on it and the activity server in front of it,
// as pontoon serve does.
func (h *harness) start() {
	h.t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, h.dbPath)
	require.NoError(h.t, err)
	b, err := bot.New(st, bot.Options{Token: "test-token", APIURL: h.fake.URL(), TurnTimer: time.Minute, EditDelay: 10 * time.Millisecond,
		EditWait: 5 * time.Second, StartingChips: 1000, Activity: true, Logger: h.log,
		Deck: func(decks int) []game.Card { return game.NewPack(decks) }})
	require.NoError(h.t, err)
	require.NoError(h.t, b.Start(ctx))
	srv, err := activity.New(h.cfg, b)
	require.NoError(h.t, err)
	h.st, h.bot, h.srv = st, b, srv
	h.http = httptest.NewServer(srv.Handler())
}

func (h *harness) stop() {
	if h.srv != nil {
		h.srv.Close()
		h.http.Close()
		h.srv = nil
	}
	if h.bot != nil {
		_ = h.bot.Close()
		h.bot = nil
	}
	if h.st != nil {
		_ = h.st.Close()
		h.st = nil
	}
}

// restart stops the bot and its server and starts them again over the same file.
func (h *harness) restart() {
	h.t.Helper()
	h.stop()
	h.start()
}

// command runs /pontoon <sub> as a member in Discord.
func (h *harness) command(user, sub string) *discordtest.Response {
	h.t.Helper()
	r, err := h.fake.Command(guildID, channelID, user, "pontoon", []*discordgo.ApplicationCommandInteractionDataOption{
		{Name: sub, Type: discordgo.ApplicationCommandOptionSubCommand}})
	require.NoError(h.t, err)
	return r
}

// tableMessage is the channel's table message as the fake holds it now.
func (h *harness) tableMessage() *discordgo.Message {
	h.t.Helper()
	var m *discordgo.Message
	require.Eventually(h.t, func() bool {
		m = nil
		for _, msg := range h.fake.Messages(channelID) {
			if discordtest.V2(msg) {
				m = msg
			}
		}
		return m != nil
	}, 5*time.Second, 5*time.Millisecond, "no table message")
	return m
}

// waitTable waits until the table message in Discord shows want.
func (h *harness) waitTable(want string) {
	h.t.Helper()
	require.Eventually(h.t, func() bool { return strings.Contains(discordtest.Text(h.tableMessage()), want) },
		5*time.Second, 10*time.Millisecond, "the table message never showed %q:\n%s", want, discordtest.Text(h.tableMessage()))
}

// clickTable clicks a button of the table message in Discord.
func (h *harness) clickTable(user, kind string) *discordtest.Response {
	h.t.Helper()
	m := h.tableMessage()
	id, ok := discordtest.CustomID(m, "pt:"+kind+":", "")
	require.True(h.t, ok, "no %s button on the table", kind)
	r, err := h.fake.Click(channelID, m.ID, user, id)
	require.NoError(h.t, err)
	return r
}

// openTable has alice open a table with bob seated, in Discord.
func (h *harness) openTable() {
	h.t.Helper()
	h.command(alice, "start")
	h.tableMessage()
	h.clickTable(bob, "join")
	h.waitTable("<@" + bob + ">")
}

// signIn signs a member in as the page does inside Discord: a code from the SDK's
// authorize, exchanged by the server. It returns the session token and the response.
func (h *harness) signIn(user, inst string) (int, map[string]any) {
	h.t.Helper()
	body, _ := json.Marshal(map[string]string{"code": h.fake.OAuthCode(user), "instance_id": inst})
	return h.post("/api/session", body)
}

func (h *harness) post(path string, body []byte) (int, map[string]any) {
	h.t.Helper()
	resp, err := http.Post(h.http.URL+path, "application/json", bytes.NewReader(body))
	require.NoError(h.t, err)
	defer resp.Body.Close()
	var out map[string]any
	require.NoError(h.t, json.NewDecoder(resp.Body).Decode(&out))
	return resp.StatusCode, out
}

func (h *harness) session(user string) string {
	h.t.Helper()
	status, out := h.signIn(user, instance)
	require.Equal(h.t, http.StatusOK, status, "%v", out)
	tok, _ := out["session"].(string)
	require.NotEmpty(h.t, tok)
	return tok
}

// page is one open socket, as the page holds it.
type page struct {
	t      testing.TB
	h      *harness
	conn   *websocket.Conn
	frames chan frame
	closed chan struct{}
	code   atomic.Int32 // the close code, once closed
	mu     sync.Mutex
	last   *state // the last state received
	all    [][]byte
}

type frame struct {
	at    time.Time       // when the page read it
	Type  string          `json:"type"`
	Nonce string          `json:"nonce"`
	OK    bool            `json:"ok"`
	Text  string          `json:"text"`
	Code  string          `json:"code"`
	Modal json.RawMessage `json:"modal"`
	raw   []byte
}

type state struct {
	Lang  string            `json:"lang"`
	Words map[string]string `json:"words"`
	Me    bot.WebMe         `json:"me"`
	Table *bot.WebTable     `json:"table"`
	Panel *bot.WebPanel     `json:"panel"`
}

// dial opens a socket with the server's own origin.
func (h *harness) dial(origin string) (*websocket.Conn, *http.Response, error) {
	u := "ws" + strings.TrimPrefix(h.http.URL, "http") + "/api/socket"
	hdr := http.Header{}
	if origin != "" {
		hdr.Set("Origin", origin)
	}
	return websocket.DefaultDialer.Dial(u, hdr)
}

// open opens a page for a session: the socket and its hello.
func (h *harness) open(session string) *page {
	h.t.Helper()
	conn, _, err := h.dial(h.http.URL)
	require.NoError(h.t, err)
	p := &page{t: h.t, h: h, conn: conn, frames: make(chan frame, 1024), closed: make(chan struct{})}
	go p.read()
	h.t.Cleanup(func() { _ = conn.Close() })
	require.NoError(h.t, conn.WriteJSON(map[string]string{"type": "hello", "session": session}))
	return p
}

func (p *page) read() {
	defer close(p.closed)
	for {
		_, raw, err := p.conn.ReadMessage()
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				p.code.Store(int32(ce.Code))
			}
			return
		}
		var f frame
		if json.Unmarshal(raw, &f) != nil {
			continue
		}
		f.raw, f.at = raw, time.Now()
		p.mu.Lock()
		p.all = append(p.all, raw)
		if f.Type == "state" {
			var st state
			_ = json.Unmarshal(raw, &st)
			p.last = &st
		}
		p.mu.Unlock()
		p.frames <- f
	}
}

// until is the next frame that match accepts, skipping others; what names it in the
// failure.
func (p *page) until(what string, match func(frame) bool) frame {
	p.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case f := <-p.frames:
			if match(f) {
				return f
			}
		case <-timeout:
			p.t.Fatalf("no %s", what)
		}
	}
}

// next is the next frame of the given type, skipping others.
func (p *page) next(typ string) frame {
	p.t.Helper()
	return p.until(typ+" frame", func(f frame) bool { return f.Type == typ })
}

// state waits for a state that satisfies ok, and returns it.
func (p *page) waitState(what string, ok func(*state) bool) *state {
	p.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		p.mu.Lock()
		st := p.last
		p.mu.Unlock()
		if st != nil && ok(st) {
			return st
		}
		select {
		case <-p.frames:
		case <-timeout:
			raw, _ := json.Marshal(st)
			p.t.Fatalf("no state where %s; the last:\n%s", what, raw)
		}
	}
}

func (p *page) state() *state {
	p.t.Helper()
	return p.waitState("any", func(*state) bool { return true })
}

// send sends an action with a fresh nonce and returns the nonce.
func (p *page) send(typ, id string, values []string, fields map[string]string) string {
	p.t.Helper()
	nonce := fmt.Sprintf("nonce-%d-%d", time.Now().UnixNano(), p.h.nonces.Add(1))
	p.sendNonce(nonce, typ, id, values, fields)
	return nonce
}

func (p *page) sendNonce(nonce, typ, id string, values []string, fields map[string]string) {
	p.t.Helper()
	m := map[string]any{"type": typ, "nonce": nonce, "id": id}
	if values != nil {
		m["values"] = values
	}
	if fields != nil {
		m["fields"] = fields
	}
	require.NoError(p.t, p.conn.WriteJSON(m))
}

// answer is the result (or modal, or error) of the action with that nonce.
func (p *page) answer(nonce string) frame {
	p.t.Helper()
	return p.until("answer to "+nonce, func(f frame) bool { return f.Nonce == nonce && f.Type != "state" })
}

// control is the control of the member's last state whose id starts with prefix
// (and ends with suffix), on the table or the panel.
func control(st *state, prefix, suffix string) (bot.WebControl, bool) {
	var cs []bot.WebControl
	if st.Table != nil {
		cs = append(cs, st.Table.Actions...)
	}
	if st.Panel != nil {
		cs = append(cs, st.Panel.Actions...)
	}
	for _, c := range cs {
		if strings.HasPrefix(c.ID, prefix) && strings.HasSuffix(c.ID, suffix) {
			return c, true
		}
	}
	return bot.WebControl{}, false
}

// dealtWithBobsPage opens the table with alice and bob seated, opens bob's page, and has
// alice deal: bob's page is then asked for his stake.
func (h *harness) dealtWithBobsPage() *page {
	h.t.Helper()
	h.openTable()
	p := h.open(h.session(bob))
	p.waitState("bob is seated", seated)
	h.clickTable(alice, "deal")
	return p
}

func hasControl(prefix string) func(*state) bool {
	return func(st *state) bool { _, ok := control(st, prefix, ""); return ok }
}

// seated is true once the member's state shows them at a table.
func seated(st *state) bool { return st.Table != nil && st.Me.Seated }

func decode(t testing.TB, s string) string {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(s)
	require.NoError(t, err)
	return string(raw)
}

func encode(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

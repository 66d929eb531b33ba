package activity_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
	"github.com/pontoon-bot/pontoon/bot/activity"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// inRound is true once the member's state shows a round being played.
func inRound(st *state) bool { return st.Table != nil && st.Table.Deadline > 0 }

// A seated member's socket carries their own face-down card, with its value, and the
// actions of their panel, as /pontoon hand shows them; the table's own buttons come
// without Open table.
func TestMembersSocketCarriesTheirHandAndTheirPanelsActions(t *testing.T) {
	h := newHarness(t, nil)
	h.openTable()
	p := h.open(h.session(bob))
	st := p.waitState("bob is seated", seated)
	assert.Equal(t, "en", st.Lang)
	assert.Equal(t, "bob", st.Me.Name)
	_, ok := control(st, "pt:join:", "")
	assert.True(t, ok, "the table's Join button")
	_, ok = control(st, "pt:open:", "")
	assert.False(t, ok, "Open table is what opened the page")
	assert.Contains(t, strings.Join(st.Table.Text, "\n"), "@bob", "mentions read as names")

	h.clickTable(alice, "deal")
	st = p.waitState("a stake select on bob's panel", hasControl("pt:amt:"))
	require.NotNil(t, st.Panel)
	assert.NotEmpty(t, st.Panel.Text)
	var mine []string
	for _, seat := range st.Table.Seats {
		for _, hand := range seat.Hands {
			for _, c := range hand.Cards {
				if seat.Me && c.Down {
					mine = append(mine, c.Card)
				}
			}
		}
	}
	require.NotEmpty(t, mine, "bob holds a face-down card")
	for _, c := range mine {
		assert.Len(t, c, 2, "bob sees his own face-down card's value")
	}
	assert.Empty(t, h.fake.Failures())
}

// A stake chosen on the page goes through the bot as a click would: the Discord table
// message shows it; and a click in Discord reaches the page as a new state.
func TestAnActionFromThePageEditsTheDiscordTableAndAClickInDiscordReachesThePage(t *testing.T) {
	h := newHarness(t, nil)
	p := h.dealtWithBobsPage()
	st := p.waitState("a stake select", hasControl("pt:amt:"))
	sel, _ := control(st, "pt:amt:", ":stake")
	require.Equal(t, "select", sel.Kind)
	amount := sel.Options[len(sel.Options)-1].Value
	edits := h.fake.EditCount(h.tableMessage().ID)
	nonce := p.send("select", sel.ID, []string{amount}, nil)
	res := p.answer(nonce)
	require.Equal(t, "result", res.Type, "%s", res.raw)
	assert.True(t, res.OK, res.Text)
	assert.Contains(t, res.Text, "✅")
	if !assert.Eventually(t, func() bool { return strings.Contains(discordtest.Text(h.tableMessage()), "stake "+amount) }, 5*time.Second, 10*time.Millisecond) {
		t.Log(h.logs.String())
		t.Fatal(discordtest.Text(h.tableMessage()))
	}
	assert.Greater(t, h.fake.EditCount(h.tableMessage().ID), edits, "the publisher edited the Discord message")
	p.waitState("the stake on the page", func(st *state) bool {
		_, ok := control(st, "pt:amt:", ":stake")
		return !ok
	})

	// In Discord, carol joins: bob's page hears of it.
	h.clickTable(carol, "join")
	p.waitState("carol at the table", func(st *state) bool {
		for _, s := range st.Table.Seats {
			if s.Name == "carol" {
				return true
			}
		}
		return false
	})
	assert.Empty(t, h.fake.Failures())
}

// Over a whole round played from the pages, a watcher's socket never carries the value
// of a face-down card: every frame it received is read.
func TestSpectatorSocketNeverCarriesAFaceDownCard(t *testing.T) {
	h := newHarness(t, nil)
	h.openTable()
	watcher := h.open(h.session(carol))
	players := map[string]*page{alice: h.open(h.session(alice)), bob: h.open(h.session(bob))}
	watcher.waitState("the table", func(st *state) bool { return st.Table != nil })
	h.clickTable(alice, "deal")
	watcher.waitState("the round", inRound)
	settled := func(st *state) bool { return st.Table != nil && st.Table.Phase == "Round settled" }
	for moves := 0; moves < 60 && !settled(watcher.state()); moves++ {
		acted := false
		for _, who := range []string{bob, alice} {
			pg := players[who]
			st := pg.state()
			typ, id, values, ok := choose(st)
			if !ok {
				continue
			}
			res := pg.answer(pg.send(typ, id, values, nil))
			require.Equal(t, "result", res.Type, "%s", res.raw)
			// The page may act on a state a moment old; a refusal then is fine.
			acted = acted || res.OK
			if res.OK {
				pg.waitState("a new state", func(n *state) bool { return n != st })
			}
			break
		}
		if !acted {
			time.Sleep(20 * time.Millisecond) // wait for the next state to arrive
		}
	}
	watcher.waitState("the round settled", settled)
	watcher.mu.Lock()
	defer watcher.mu.Unlock()
	require.Greater(t, len(watcher.all), 3)
	downs := 0
	for _, raw := range watcher.all {
		var st state
		require.NoError(t, json.Unmarshal(raw, &st))
		if st.Table == nil {
			continue
		}
		for _, seat := range st.Table.Seats {
			assert.False(t, seat.Me, "carol has no seat")
			for _, hand := range seat.Hands {
				for _, c := range hand.Cards {
					if c.Down {
						downs++
						assert.Empty(t, c.Card, "a face-down card's value on a watcher's socket: %s", raw)
					}
				}
			}
		}
	}
	assert.Positive(t, downs, "the watcher saw face-down cards")
	var prev []byte
	for _, raw := range watcher.all {
		if strings.Contains(string(raw), `"type":"state"`) {
			assert.NotEqual(t, string(prev), string(raw), "two identical states in a row")
			prev = raw
		}
	}
	assert.Empty(t, h.fake.Failures())
}

// choose picks what a player does next on their state: an amount from a select (the
// first), else stick or stay, else another action; not the Hint or Refresh.
func choose(st *state) (typ, id string, values []string, ok bool) {
	if st.Panel == nil {
		return "", "", nil, false
	}
	for _, c := range st.Panel.Actions {
		if c.Kind == "select" && strings.HasPrefix(c.ID, "pt:amt:") && len(c.Options) > 0 {
			return "select", c.ID, []string{c.Options[0].Value}, true
		}
	}
	for _, verb := range []string{"stick", "stay", "nodouble", "twist", "draw"} {
		for _, c := range st.Panel.Actions {
			if c.Kind == "button" && strings.HasPrefix(c.ID, "pt:act:") && strings.HasSuffix(c.ID, ":"+verb) {
				return "click", c.ID, nil, true
			}
		}
	}
	return "", "", nil, false
}

// A token signed with another key, one whose payload was changed, and one past its
// time are refused: an error frame, then close code 4001, and nothing else.
func TestForgedTamperedAndExpiredSessionsAreRefused(t *testing.T) {
	h := newHarness(t, nil)
	good := h.session(bob)
	payload, sig, _ := strings.Cut(good, ".")

	// The same payload signed under another application's secret.
	other := hmac.New(sha256.New, []byte("another-applications-secret-000"))
	other.Write([]byte("pontoon activity session"))
	mac := hmac.New(sha256.New, other.Sum(nil))
	mac.Write([]byte(payload))
	forged := payload + "." + encode(string(mac.Sum(nil)))

	raw := strings.Replace(decode(t, payload), bob, alice, 1)
	tampered := encode(raw) + "." + sig

	short := newHarness(t, func(c *activity.Config) { c.SessionTTL = time.Millisecond })
	expired := short.session(bob)
	time.Sleep(5 * time.Millisecond) // let it run out

	for _, tc := range []struct {
		name, token, code string
		h                 *harness
	}{
		{"forged", forged, "bad_session", h},
		{"tampered", tampered, "bad_session", h},
		{"garbage", "not-a-token", "bad_session", h},
		{"expired", expired, "expired", short},
	} {
		p := tc.h.open(tc.token)
		f := p.next("error")
		assert.Equal(t, tc.code, f.Code, tc.name)
		assert.NotEmpty(t, f.Text, tc.name)
		<-p.closed
		assert.EqualValues(t, 4001, p.code.Load(), tc.name)
		p.mu.Lock()
		for _, raw := range p.all {
			assert.NotContains(t, string(raw), `"type":"state"`, "%s: no state before the session is good", tc.name)
		}
		p.mu.Unlock()
	}
	p := h.open(good)
	p.waitState("a state", func(*state) bool { return true })
}

// A socket from a page of another origin is refused before the upgrade; Discord's proxy
// for the application and the server's own host are taken.
func TestSocketFromAnOriginNotAllowedIsRefused(t *testing.T) {
	h := newHarness(t, nil)
	for _, origin := range []string{"https://evil.example", "", "https://" + h.fake.AppID + ".discordsays.com.evil.example"} {
		_, resp, err := h.dial(origin)
		require.Error(t, err, origin)
		require.NotNil(t, resp, origin)
		assert.Equal(t, http.StatusForbidden, resp.StatusCode, origin)
	}
	for _, origin := range []string{"https://" + h.fake.AppID + ".discordsays.com", h.http.URL} {
		conn, _, err := h.dial(origin)
		require.NoError(t, err, origin)
		_ = conn.Close()
	}
}

// The same action sent twice with one nonce applies once: a Leave sent again after
// the member sat down anew leaves them seated, on the same bot and after a restart
// over the same database.
func TestReplayedNonceAppliesOnceAlsoAfterARestart(t *testing.T) {
	h := newHarness(t, nil)
	h.openTable()
	tok := h.session(bob)
	p := h.open(tok)
	st := p.waitState("bob is seated", seated)
	leave, _ := control(st, "pt:leave:", "")
	const nonce = "leave-once"
	p.sendNonce(nonce, "click", leave.ID, nil, nil)
	require.True(t, p.answer(nonce).OK)
	st = p.waitState("bob has left", func(st *state) bool { return !st.Me.Seated })
	join, _ := control(st, "pt:join:", "")
	require.True(t, p.answer(p.send("click", join.ID, nil, nil)).OK)
	p.waitState("bob is back", seated)

	p.sendNonce(nonce, "click", leave.ID, nil, nil)
	res := p.answer(nonce)
	assert.True(t, res.OK, "answered as applied: %s", res.raw)
	h.waitTable("<@" + bob + ">")
	require.True(t, p.state().Me.Seated, "the Leave sent again did not apply again")

	h.restart()
	p = h.open(tok) // the session survives the restart
	p.waitState("bob is seated", seated)
	p.sendNonce(nonce, "click", leave.ID, nil, nil)
	res = p.answer(nonce)
	assert.True(t, res.OK, "%s", res.raw)
	time.Sleep(50 * time.Millisecond) // a state that would show him gone has time to come
	assert.True(t, p.state().Me.Seated, "after a restart, the Leave sent again did not apply again")
	assert.Contains(t, discordtest.Text(h.tableMessage()), "<@"+bob+">")
	assert.Empty(t, h.fake.Failures())
}

// An id the member's last state did not offer is refused and changes nothing: another
// member's action, a made-up one, a select value not among its options.
func TestAnIDNotOfferedIsRefusedAndChangesNothing(t *testing.T) {
	h := newHarness(t, nil)
	p := h.dealtWithBobsPage()
	st := p.waitState("a stake select", hasControl("pt:amt:"))
	sel, _ := control(st, "pt:amt:", ":stake")
	before := discordtest.Text(h.tableMessage())
	for _, try := range []struct{ typ, id string }{
		{"click", strings.Replace(sel.ID, "pt:amt:", "pt:act:", 1)},
		{"click", "pt:join:999:0:0:"},
		{"select", sel.ID},
		{"submit", strings.Replace(sel.ID, "pt:amt:", "pt:mod:", 1)},
	} {
		values := []string(nil)
		if try.typ == "select" {
			values = []string{"999999"}
		}
		nonce := p.send(try.typ, try.id, values, nil)
		f := p.answer(nonce)
		assert.Equal(t, "error", f.Type, try.id)
		assert.Equal(t, "not_offered", f.Code, try.id)
	}
	// The stake select still stands, and Discord's message is as it was.
	p.waitState("the select still offered", hasControl("pt:amt:"))
	assert.Equal(t, before, discordtest.Text(h.tableMessage()))
}

// More actions in a burst than a session may make are refused as rate limited.
func TestActionsPastTheSessionsRateAreRefused(t *testing.T) {
	h := newHarness(t, nil)
	h.openTable()
	p := h.open(h.session(bob))
	st := p.waitState("bob is seated", seated)
	rules, ok := control(st, "pt:rules:", "")
	require.True(t, ok)
	var nonces []string
	for range 30 {
		nonces = append(nonces, p.send("click", rules.ID, nil, nil))
	}
	limited, answered := 0, 0
	for _, n := range nonces {
		f := p.answer(n)
		switch {
		case f.Type == "error" && f.Code == "rate_limited":
			limited++
		case f.Type == "result" && f.OK:
			answered++
		}
	}
	assert.Positive(t, limited, "some were refused")
	assert.GreaterOrEqual(t, answered, 10, "the burst was answered")
}

// Sign-in against the fake Discord: a code that is not Discord's, a member not in the
// Activity instance, an instance in a private channel are refused; an instance in
// another server's channel signs the member in to that channel, never to the table's.
func TestSignInRefusesWhatDiscordDoesNotVouchFor(t *testing.T) {
	h := newHarness(t, nil)
	h.openTable()
	body, _ := json.Marshal(map[string]string{"code": "not-a-code", "instance_id": instance})
	status, out := h.post("/api/session", body)
	assert.Equal(t, http.StatusUnauthorized, status)
	assert.NotEmpty(t, out["error"])

	h.fake.AddActivityInstance("i-alone", guildID, channelID, alice)
	status, _ = h.signIn(bob, "i-alone")
	assert.Equal(t, http.StatusForbidden, status, "bob is not in that instance")

	status, _ = h.signIn(bob, "i-unknown")
	assert.Equal(t, http.StatusUnauthorized, status, "no such instance")

	h.fake.AddActivityInstance("i-dm", "", "500000000000000001", bob)
	status, _ = h.signIn(bob, "i-dm")
	assert.Equal(t, http.StatusForbidden, status, "a private channel has no table")

	const otherGuild, otherChannel = "100000000000000002", "200000000000000002"
	h.fake.AddActivityInstance("i-other", otherGuild, otherChannel, bob)
	status, out = h.signIn(bob, "i-other")
	require.Equal(t, http.StatusOK, status, "%v", out)
	assert.NotEmpty(t, out["access_token"], "the page authenticates the SDK with it")
	p := h.open(out["session"].(string))
	st := p.state()
	assert.Nil(t, st.Table, "the other server's channel has no table; the table's channel is never the page's to choose")
}

// The client secret, the codes, the access tokens and the session tokens never reach
// the logs, of the bot or of the server, whatever happens.
func TestTheClientSecretAndTokensNeverReachTheLogs(t *testing.T) {
	h := newHarness(t, nil)
	h.openTable()
	code := h.fake.OAuthCode(bob)
	body, _ := json.Marshal(map[string]string{"code": code, "instance_id": instance})
	status, out := h.post("/api/session", body)
	require.Equal(t, http.StatusOK, status)
	session, access := out["session"].(string), out["access_token"].(string)
	p := h.open(session)
	p.waitState("seated", seated)
	// A used code, an unknown instance, a forged session: each is logged.
	h.post("/api/session", body)
	bad, _ := json.Marshal(map[string]string{"code": h.fake.OAuthCode(bob), "instance_id": "i-nope"})
	h.post("/api/session", bad)
	q := h.open(session + "x")
	<-q.closed
	logs := h.logs.String()
	require.Contains(t, logs, "activity:", "the server logged")
	for name, secret := range map[string]string{"client secret": h.fake.ClientSecret(), "code": code, "access token": access,
		"session": session, "bot token": h.fake.Token} {
		assert.NotContains(t, logs, secret, name)
	}
}

// The page's files are served with a validator, and /api/config says whose page it is.
func TestPageFilesAreServedWithAValidator(t *testing.T) {
	h := newHarness(t, nil)
	req, _ := http.NewRequest(http.MethodGet, h.http.URL+"/", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
	etag := resp.Header.Get("ETag")
	require.NotEmpty(t, etag)
	req.Header.Set("If-None-Match", etag)
	resp, err = http.DefaultTransport.RoundTrip(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotModified, resp.StatusCode)

	resp, err = http.Get(h.http.URL + "/api/config")
	require.NoError(t, err)
	var cfg map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&cfg))
	resp.Body.Close()
	assert.Equal(t, map[string]any{"client_id": h.fake.AppID, "demo": false}, cfg)
}

// In the demo, the SDK mock's code in the mock's instance signs in the member the page
// names, at the demo's table; no access token is handed out, and any other code is
// refused.
func TestDemoSignsInTheNamedMemberWithTheMocksCode(t *testing.T) {
	var named []string
	h := newHarness(t, func(c *activity.Config) {
		c.ClientSecret, c.BotToken = "", ""
		c.Demo = &activity.Demo{Guild: guildID, Channel: channelID, Member: func(_ context.Context, name string) (string, error) {
			named = append(named, name)
			return bob, nil
		}}
	})
	h.openTable()
	mock, _ := json.Marshal(map[string]string{"code": "mock_code", "instance_id": "123456789012345678", "user": "bob"})
	status, out := h.post("/api/session", mock)
	require.Equal(t, http.StatusOK, status, "%v", out)
	assert.NotContains(t, out, "access_token")
	assert.Equal(t, []string{"bob"}, named)
	h.open(out["session"].(string)).waitState("bob is seated", seated)

	for _, body := range []map[string]string{
		{"code": h.fake.OAuthCode(bob), "instance_id": "123456789012345678", "user": "bob"},
		{"code": "mock_code", "instance_id": instance, "user": "bob"},
		{"code": "mock_code", "instance_id": "123456789012345678"},
	} {
		raw, _ := json.Marshal(body)
		status, _ := h.post("/api/session", raw)
		assert.Equal(t, http.StatusUnauthorized, status, "%v", body)
	}
	resp, err := http.Get(h.http.URL + "/api/config")
	require.NoError(t, err)
	defer resp.Body.Close()
	var cfg map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&cfg))
	assert.Equal(t, true, cfg["demo"])
}

// In the demo, where no Discord client says a member's locale, the page speaks the
// browser's first language the catalogs have.
func TestDemoPageSpeaksTheBrowsersLanguage(t *testing.T) {
	h := newHarness(t, func(c *activity.Config) {
		c.ClientSecret, c.BotToken = "", ""
		c.Demo = &activity.Demo{Guild: guildID, Channel: channelID, Member: func(context.Context, string) (string, error) { return bob, nil }}
	})
	h.openTable()
	for accept, lang := range map[string]string{"pl-PL,pl;q=0.9,en;q=0.8": "pl", "fr-FR,pt-BR;q=0.5": "pt-BR", "": "en"} {
		body, _ := json.Marshal(map[string]string{"code": "mock_code", "instance_id": "123456789012345678", "user": "bob"})
		req, err := http.NewRequest(http.MethodPost, h.http.URL+"/api/session", bytes.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept-Language", accept)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		var out map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, "%v", out)
		st := h.open(out["session"].(string)).waitState("bob is seated", seated)
		assert.Equal(t, lang, st.Lang, "Accept-Language %q", accept)
	}
}

// "Other amount" on the page asks for a form, as the modal in Discord does; its
// submit stakes the typed amount.
func TestOtherAmountAsksForAFormWhoseSubmitStakes(t *testing.T) {
	h := newHarness(t, nil)
	p := h.dealtWithBobsPage()
	st := p.waitState("other amount", hasControl("pt:ask:"))
	ask, _ := control(st, "pt:ask:", ":stake")
	f := p.answer(p.send("click", ask.ID, nil, nil))
	require.Equal(t, "modal", f.Type, "%s", f.raw)
	var m struct {
		ID     string `json:"id"`
		Title  string `json:"title"`
		Inputs []struct {
			ID       string `json:"id"`
			Label    string `json:"label"`
			Required bool   `json:"required"`
		} `json:"inputs"`
	}
	require.NoError(t, json.Unmarshal(f.Modal, &m))
	require.Len(t, m.Inputs, 1)
	assert.NotEmpty(t, m.Title)
	assert.NotEmpty(t, m.Inputs[0].Label)
	res := p.answer(p.send("submit", m.ID, nil, map[string]string{m.Inputs[0].ID: "7"}))
	require.Equal(t, "result", res.Type, "%s", res.raw)
	assert.True(t, res.OK, res.Text)
	h.waitTable("stake 7")
	// The form was for that one stake: sent again, it is no longer offered.
	f = p.answer(p.send("submit", m.ID, nil, map[string]string{m.Inputs[0].ID: "7"}))
	assert.Equal(t, "not_offered", f.Code)
}

// A page that sends no hello is closed; a session that runs out while the page is open
// is told, and the socket closed with 4001 so that the page signs in again.
func TestASocketWithoutHelloIsClosedAndAnExpiringSessionIsTold(t *testing.T) {
	h := newHarness(t, func(c *activity.Config) { c.SessionTTL = 1500 * time.Millisecond })
	conn, _, err := h.dial(h.http.URL)
	require.NoError(t, err)
	defer conn.Close()
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, _, err = conn.ReadMessage()
	var ce *websocket.CloseError
	require.ErrorAs(t, err, &ce, "closed without a hello")
	assert.Equal(t, websocket.ClosePolicyViolation, ce.Code)

	p := h.open(h.session(bob))
	p.state()
	f := p.next("error")
	assert.Equal(t, "expired", f.Code)
	<-p.closed
	assert.EqualValues(t, 4001, p.code.Load())
}

// The application's Entry Point command, which Discord creates when Activities are
// enabled and which opens the page from the App Launcher, survives the bot's
// registration of /pontoon: Discord refuses an overwrite that would remove it.
func TestStartKeepsTheEntryPointCommand(t *testing.T) {
	h := newHarness(t, nil)
	names := map[string]discordgo.ApplicationCommandType{}
	for _, c := range h.fake.Commands("") {
		names[c.Name] = c.Type
	}
	assert.Equal(t, map[string]discordgo.ApplicationCommandType{"pontoon": discordgo.ChatApplicationCommand, "launch": 4}, names)
	h.restart()
	assert.Len(t, h.fake.Commands(""), 2)
	assert.Empty(t, h.fake.Failures())
}

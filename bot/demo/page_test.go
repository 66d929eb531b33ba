package demo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image/png"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/chromedp/chromedp"
	"github.com/pontoon-bot/pontoon/bot/demo"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/bot/i18n"
	"github.com/pontoon-bot/pontoon/bot/view"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// screenshot, when set, is where TestPhoneScreenshot writes the page's picture for the
// README: go test ./bot/demo -run TestPhoneScreenshot -screenshot ../../docs/activity.png
var screenshot = flag.String("screenshot", "", "write the phone-size screenshot of the page to this file")

// joinAndDeal seats member at the table and deals, as members do in Discord.
func joinAndDeal(t testing.TB, s *demo.Stack, member string) {
	t.Helper()
	_, err := s.Demo.Member(context.Background(), member)
	require.NoError(t, err)
	id := demo.MemberID(member)
	press(t, s, id, view.KindJoin)
	r := press(t, s, id, view.KindDeal)
	require.False(t, r.Ephemeral, "the deal is not refused: %s", discordtest.Text(r.Message))
}

func TestMemberSeesTheirHandOnThePage(t *testing.T) {
	// alice sits left of the Dealer's bank: she is dealt first.
	s := openStack(t, withDeck("5H TS 7C 7S"))
	joinAndDeal(t, s, "alice")
	alice := openTab(t, s, "alice")
	alice.waitJS(`document.querySelectorAll("#my-hands li.card").length === 1`, "alice's first card")
	assert.Equal(t, []string{"Five of hearts, face down: only you can see it"}, alice.cards("#my-hands"))
	assert.Equal(t, word("web.your_turn"), alice.text("#mine-label"), "her stake is awaited")
}

// alice stakes and twists on the page: the new card shows in her hand, and the table
// message in the channel (what everyone in Discord sees) is edited to show it.
func TestTwistShowsTheNewCardAndTheTableMessageChanges(t *testing.T) {
	s := openStack(t, withDeck("5H TS 7C 7S 4D"))
	joinAndDeal(t, s, "alice")
	alice := openTab(t, s, "alice")
	alice.choose(":stake", "10")
	alice.waitJS(`document.querySelectorAll("#my-hands li.card").length === 2`, "alice's second card")
	msg := tableMessage(t, s)
	edits := s.Fake.EditCount(msg.ID)
	four, err := game.ParseCard("4D")
	require.NoError(t, err)
	require.NotContains(t, discordtest.Text(msg), view.CardText(four))

	alice.press("panel-actions", word("verb.twist"))
	alice.waitJS(`document.querySelectorAll("#my-hands li.card").length === 3`, "the twisted card")
	assert.Equal(t, "Four of diamonds", alice.cards("#my-hands")[2], "face up")
	require.Eventually(t, func() bool {
		m := s.Fake.Message(s.Demo.Channel(), msg.ID)
		return s.Fake.EditCount(msg.ID) > edits && strings.Contains(discordtest.Text(m), view.CardText(four))
	}, 10*time.Second, 20*time.Millisecond, "the table message shows the twisted card")
}

var balanceRE = regexp.MustCompile(`has ([0-9,]+) chips`)

// Two members in two tabs join, deal, stake and stick on the page; the Dealer busts.
// Each page then shows the member's chips, the same number /pontoon balance tells them
// in Discord.
func TestTwoMembersPlayARoundAndTheirChipsMatchBalance(t *testing.T) {
	// Play order: alice, bob, then the Dealer's bank. alice 19, bob 18, the Dealer 16
	// draws and busts.
	s := openStack(t, withDeck("TH KD 9H 9C 8S 7D TC"))
	alice := openTab(t, s, "alice")
	bob := openTab(t, s, "bob")
	alice.press("table-actions", word("button.join"))
	alice.waitJS(`!document.getElementById("mine").hidden`, "alice seated")
	bob.press("table-actions", word("button.join"))
	bob.waitJS(`!document.getElementById("mine").hidden`, "bob seated")
	alice.press("table-actions", word("button.deal"))
	alice.choose(":stake", "10")
	bob.choose(":stake", "10")
	alice.waitJS(`document.querySelectorAll("#my-hands li.card").length === 2`, "alice's two cards")
	alice.press("panel-actions", word("verb.stick"))
	bob.press("panel-actions", word("verb.stick"))
	finishedRound(t, s, 1)
	for _, p := range []struct {
		name string
		tab  *tab
	}{{"alice", alice}, {"bob", bob}} {
		p.tab.waitJS(`document.getElementById("panel-text").innerText.includes("Free chips")`, p.name+"'s chips after the round")
		r, err := s.Fake.Command(s.Demo.Guild(), s.Demo.Channel(), demo.MemberID(p.name), "pontoon", []*discordgo.ApplicationCommandInteractionDataOption{
			{Name: "balance", Type: discordgo.ApplicationCommandOptionSubCommand}})
		require.NoError(t, err)
		m := balanceRE.FindStringSubmatch(discordtest.Text(r.Message))
		require.NotNil(t, m, "balance reply: %s", discordtest.Text(r.Message))
		assert.Equal(t, "1,010", m[1], "%s won their stake of 10", p.name)
		assert.Contains(t, p.tab.text("#panel-text"), "Free chips: "+m[1], "%s's page shows what /pontoon balance says", p.name)
	}
}

// A member who only watches never receives the value of a face-down card on the
// socket: every card the state frames carry face down is {"down":true} alone, through a
// whole round of scripted players and the Dealer's reveal.
func TestSpectatorSocketNeverCarriesAFaceDownCard(t *testing.T) {
	s := openStack(t, nil)
	_, err := s.Demo.Seat(context.Background(), 2)
	require.NoError(t, err)
	sam := openTab(t, s, "sam")
	press(t, s, demo.MemberID(demo.ScriptedNames[0]), view.KindDeal)
	finishedRound(t, s, 1)
	sam.waitJS(`[...document.querySelectorAll("#seats .hand-note")].some(e => e.innerText.includes("·"))`, "the settled round on sam's page")
	down, shown := 0, 0
	for _, st := range sam.states() {
		assert.Nil(t, st.Panel, "a spectator has no panel")
		if st.Table == nil {
			continue
		}
		for _, seat := range st.Table.Seats {
			for _, h := range seat.Hands {
				for _, c := range h.Cards {
					if c.Down {
						down++
						assert.Empty(t, c.Card, "%s's face-down card reached a spectator", seat.Name)
					} else {
						shown++
					}
				}
			}
		}
	}
	assert.Positive(t, down, "face-down cards were on the table")
	assert.Positive(t, shown, "face-up cards were on the table")
}

// The server refuses a socket whose session was altered (here, to another member),
// with a bad_session error and close code 4001, on which the page signs in again; the
// same session unaltered is taken.
func TestForgedSessionIsRefusedOnTheSocket(t *testing.T) {
	s := openStack(t, nil)
	page := openTab(t, s, "alice")
	got := eval[forgedResult](page, `(async () => {
		const r = await fetch("api/session", {method: "POST", headers: {"content-type": "application/json"},
			body: JSON.stringify({code: "mock_code", instance_id: "123456789012345678", user: "alice"})});
		const token = (await r.json()).session;
		const [payload, sig] = token.split(".");
		const b64 = (s) => s.replace(/-/g, "+").replace(/_/g, "/");
		const claims = JSON.parse(atob(b64(payload)));
		for (const k of Object.keys(claims)) if (claims[k] === "`+demo.MemberID("alice")+`") claims[k] = "`+demo.MemberID("bob")+`";
		const forged = btoa(JSON.stringify(claims)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "") + "." + sig;
		const open = (session) => new Promise((res) => {
			const ws = new WebSocket(new URL("api/socket", location.href).href.replace(/^http/, "ws"));
			let first = "";
			ws.onopen = () => ws.send(JSON.stringify({type: "hello", session}));
			ws.onmessage = (e) => {
				const m = JSON.parse(e.data);
				if (!first) first = m.type + (m.code ? ":" + m.code : "");
				if (m.type === "state") ws.close(1000);
			};
			ws.onclose = (e) => res({code: e.code, first});
		});
		return {honest: await open(token), forged: await open(forged)};
	})()`)
	assert.Equal(t, "state", got.Honest.First, "the session as issued is taken")
	assert.Equal(t, "error:bad_session", got.Forged.First, "the altered session is refused")
	assert.Equal(t, 4001, got.Forged.Code, "and closed with 4001, for the page to sign in again")
}

type forgedResult struct {
	Honest, Forged struct {
		Code  int    `json:"code"`
		First string `json:"first"`
	}
}

// A session that expires closes the socket with 4001; the page signs in again by
// itself and draws the table again.
func TestPageSignsInAgainWhenItsSessionExpires(t *testing.T) {
	s := openStack(t, func(c *demo.StackConfig) { c.SessionTTL = 2 * time.Second })
	page := openTab(t, s, "alice")
	page.waitJS(`document.getElementById("table-actions").children.length > 0`, "the table's buttons")
	require.Eventually(t, func() bool {
		types := page.frameTypes()
		for i, ft := range types {
			if ft == "error:expired" {
				for _, later := range types[i+1:] {
					if later == "state" {
						return true
					}
				}
			}
		}
		return false
	}, 20*time.Second, 50*time.Millisecond, "an expired session, then a state again")
	page.mu.Lock()
	sessions := page.sessions
	page.mu.Unlock()
	assert.GreaterOrEqual(t, sessions, 2, "the page signed in again")
	page.waitJS(`document.getElementById("status").innerText === ""`, "no reconnecting notice")
	assert.NotEmpty(t, page.text("#table-actions"), "the table is drawn again")
}

// The bot stops and starts again on the same SQLite file: the page says it is
// reconnecting, then shows the whole state again, the member's cards included, and
// every seat by its member's name, though nobody has clicked since the restart.
func TestPageReconnectsAfterTheBotRestarts(t *testing.T) {
	s := openStack(t, withDeck("5H TS 7C 7S"))
	joinAndDeal(t, s, "alice")
	page := openTab(t, s, "alice")
	page.waitJS(`document.querySelectorAll("#my-hands li.card").length === 1`, "alice's card")
	before := page.cards("#my-hands")
	seatsBefore := page.seats()
	namesBefore := page.seatNames()
	require.Contains(t, namesBefore, "alice")
	require.Contains(t, namesBefore, "Dealer")
	statesBefore := len(page.states())

	restarted := make(chan error, 1)
	go func() { restarted <- s.RestartBot(context.Background()) }()
	page.waitJS(fmt.Sprintf(`document.getElementById("status").innerText === %q`, word("web.reconnecting")), "the reconnecting notice")
	require.NoError(t, <-restarted)
	page.waitJS(`document.getElementById("status").innerText === ""`, "the page connected again")
	require.Eventually(t, func() bool { return len(page.states()) > statesBefore }, 20*time.Second, 50*time.Millisecond,
		"a state from the restarted bot")
	assert.Equal(t, before, page.cards("#my-hands"), "the same hand")
	// The restarted bot has heard from no member yet: their names come from Discord, and
	// the page draws them when they arrive.
	if !assert.Eventually(t, func() bool {
		return slices.Equal(seatsBefore, page.seats()) && slices.Equal(namesBefore, page.seatNames())
	}, 20*time.Second, 50*time.Millisecond, "the same seats, names, bank and cards") {
		assert.Equal(t, seatsBefore, page.seats())
		assert.Equal(t, namesBefore, page.seatNames())
	}
	assert.NotContains(t, page.text("#table-text"), "@"+word("web.someone"), "mentions read as names")
	assert.False(t, page.hidden("#panel"), "the panel is back")
}

// seats describes the other seats on the felt: the member's name, whether the seat
// holds the bank, and the screen reader's words for its cards.
func (tb *tab) seats() []string {
	tb.t.Helper()
	return eval[[]string](tb, `[...document.querySelectorAll("#seats li.seat")].map(s =>
		s.querySelector(".seat-name strong").textContent + ": " +
		(s.classList.contains("seat-banker") ? "bank: " : "") +
		[...s.querySelectorAll("li.card .sr-only")].map(c => c.textContent).join(", "))`)
}

// seatNames are the names of every seat in the last state the page received, the
// member's own included.
func (tb *tab) seatNames() []string {
	tb.t.Helper()
	states := tb.states()
	var out []string
	if len(states) > 0 && states[len(states)-1].Table != nil {
		for _, s := range states[len(states)-1].Table.Seats {
			out = append(out, s.Name)
		}
	}
	return out
}

func (tb *tab) hidden(sel string) bool {
	tb.t.Helper()
	return eval[bool](tb, fmt.Sprintf(`document.querySelector(%q).hidden`, sel))
}

// The page's own controls keep their words on one line on a phone in every language:
// the demo channel's heading beside its Add a player button, and the amount form's
// Cancel and Confirm. Each language's words are put in place and measured in one
// script, so no state drawn meanwhile can put English back first.
func TestPageControlsFitAPhoneInEveryLanguage(t *testing.T) {
	s := openStack(t, nil)
	page := openTab(t, s, "alice")
	page.waitJS(`!document.getElementById("channel").hidden`, "the demo channel")
	eval[bool](page, `(document.getElementById("modal").showModal(), true)`)
	controls := map[string]string{"channel-label": "web.demo.channel", "add-player": "web.demo.add_player",
		"modal-cancel": "web.modal.cancel", "modal-submit": "web.modal.submit"}
	for _, lang := range i18n.Languages {
		texts := map[string]string{}
		for id, key := range controls {
			texts[id] = words.T(lang, key)
		}
		b, err := json.Marshal(texts)
		require.NoError(t, err)
		lines := eval[map[string]int](page, fmt.Sprintf(`((texts) => {
			for (const [id, text] of Object.entries(texts)) document.getElementById(id).textContent = text;
			const out = {};
			for (const id of Object.keys(texts)) {
				const r = document.createRange();
				r.selectNodeContents(document.getElementById(id));
				out[id] = new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
			}
			return out;
		})(%s)`, b))
		for id, n := range lines {
			assert.Equal(t, 1, n, "%s %s %q: lines at 390 px", lang, controls[id], texts[id])
		}
	}
}

// The page at phone size, on alice's turn at a table with two scripted players: a
// PNG of 780×1688 pixels (390×844 at twice the density). With -screenshot it is
// written for the README.
func TestPhoneScreenshot(t *testing.T) {
	// Play order: Ada, Bruno, alice, the Dealer. Ada and Bruno stick on 17.
	s := openStack(t, withDeck("9S KH 8D QC 8C 7H 3S 6D"))
	_, err := s.Demo.Seat(context.Background(), 2)
	require.NoError(t, err)
	joinAndDeal(t, s, "alice")
	page := openTab(t, s, "alice")
	page.choose(":stake", "10")
	page.waitJS(`document.getElementById("mine").classList.contains("turn")`, "alice's turn")
	page.waitJS(`document.querySelectorAll("#channel-messages li").length > 0`, "the demo channel")
	// Dismissed as a member would, the stake's notice leaves the table's title in view.
	page.waitJS(`document.querySelector(".toast-close") !== null`, "the stake's notice")
	eval[bool](page, `[...document.querySelectorAll(".toast-close")].every(b => (b.click(), true))`)
	// Cards fade in as they are drawn: the picture waits for the last of them.
	page.run(chromedp.Sleep(time.Second))
	ctx, cancel := context.WithTimeout(page.ctx, 30*time.Second)
	defer cancel()
	pic, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(pic))
	require.NoError(t, err)
	assert.Equal(t, 780, img.Bounds().Dx())
	assert.Equal(t, 1688, img.Bounds().Dy())
	if *screenshot != "" {
		require.NoError(t, os.WriteFile(*screenshot, pic, 0o644))
	}
}

// The first load of the page, every response it needs to draw the table and the demo
// channel, is at most 300 KB as transferred (compressed; the socket's frames counted as
// their text).
func TestFirstLoadIsAtMost300KB(t *testing.T) {
	s := openStack(t, nil)
	page := openTab(t, s, "alice")
	page.waitJS(`document.querySelectorAll("#channel-messages li").length > 0`, "the demo channel")
	page.run(chromedp.Sleep(500 * time.Millisecond))
	page.mu.Lock()
	var total float64
	var parts []string
	for id, n := range page.encoded {
		total += n
		parts = append(parts, fmt.Sprintf("%s %.0f", page.urls[id], n))
	}
	// The socket's frames too, counted as their text (the page's words come this way).
	for i, f := range page.frames {
		total += float64(len(f))
		parts = append(parts, fmt.Sprintf("socket frame %d %d", i+1, len(f)))
	}
	page.mu.Unlock()
	t.Logf("first load: %.0f bytes\n%s", total, strings.Join(parts, "\n"))
	assert.Positive(t, total)
	assert.LessOrEqual(t, total, 300.0*1024, "bytes transferred")
}

// BenchmarkFirstPaint is the time from navigation to the page's first contentful paint
// on loopback, in a fresh tab each time (nothing cached), and to the first state drawn
// (the table on the felt, seen by a poll at each animation frame).
func BenchmarkFirstPaint(b *testing.B) {
	s := openStack(b, nil)
	var paint, drawn float64
	for b.Loop() {
		ctx, cancel := chromedp.NewContext(browser(b), chromedp.WithNewBrowserContext())
		err := chromedp.Do(ctx, phone(), chromedp.Navigate(s.URL+"?user=alice"))
		var p, d float64
		if err == nil {
			p, err = chromedp.Run(ctx, chromedp.Poll[float64](`(performance.getEntriesByName("first-contentful-paint")[0] || {}).startTime || 0`,
				chromedp.WithPollingTimeout(30*time.Second)))
		}
		if err == nil {
			d, err = chromedp.Run(ctx, chromedp.Poll[float64](`!document.getElementById("app").hasAttribute("aria-busy") && performance.now()`,
				chromedp.WithPollingTimeout(30*time.Second)))
		}
		cancel()
		require.NoError(b, err)
		paint += p
		drawn += d
	}
	b.ReportMetric(paint/float64(b.N), "ms/first-paint")
	b.ReportMetric(drawn/float64(b.N), "ms/table-drawn")
}

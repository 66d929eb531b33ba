package demo_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/bot/demo"
	"github.com/pontoon-bot/pontoon/bot/discordapi"
	"github.com/pontoon-bot/pontoon/bot/i18n"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/require"
)

// The page in a real Chromium: one browser process for the test binary, a fresh
// browser context (its own cookies and storage) for each tab, every tab a phone held
// upright (390×844 CSS pixels at twice the density).

var (
	browserOnce   sync.Once
	browserCtx    context.Context
	browserErr    error
	browserCancel []context.CancelFunc
)

func TestMain(m *testing.M) {
	// As the program decodes interactions (cmd/pontoon's main): before any session.
	discordapi.LeanInteractionEvents()
	flag.Parse()
	code := m.Run()
	for i := len(browserCancel) - 1; i >= 0; i-- {
		browserCancel[i]()
	}
	os.Exit(code)
}

// chromium finds Debian's chromium (PONTOON_CHROMIUM names another).
func chromium() (string, error) {
	if p := os.Getenv("PONTOON_CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no chromium: apt-get install chromium (or set PONTOON_CHROMIUM)")
}

// browser is the test binary's browser, started on first use. Without one a test fails
// when CI is set and is skipped otherwise.
func browser(t testing.TB) context.Context {
	t.Helper()
	browserOnce.Do(func() {
		path, err := chromium()
		if err != nil {
			browserErr = err
			return
		}
		opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path),
			chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
			chromedp.Flag("disable-dev-shm-usage", true), chromedp.Flag("disable-background-networking", true))
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancel := chromedp.NewContext(alloc)
		browserCancel = append(browserCancel, cancelAlloc, cancel)
		if err := chromedp.Do(ctx); err != nil {
			browserErr = fmt.Errorf("starting %s: %w", path, err)
			return
		}
		browserCtx = ctx
	})
	if browserErr != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set and the browser tests need Chromium: %v", browserErr)
		}
		t.Skipf("no browser: %v", browserErr)
	}
	return browserCtx
}

// tab is one page in the browser, with what it received on its sockets and what it
// loaded.
type tab struct {
	t   testing.TB
	ctx context.Context

	mu       sync.Mutex
	frames   []string                     // text frames received on the page's sockets, in order
	urls     map[network.RequestID]string // every request the page made
	encoded  map[network.RequestID]float64
	sessions int      // POST /api/session requests
	console  []string // the page's console messages and uncaught exceptions, for failure messages
}

// openTab opens the page as member user (no ?user when ""), at phone size, and waits
// for the first state to be drawn.
func openTab(t testing.TB, s *demo.Stack, user string) *tab {
	t.Helper()
	tb := &tab{t: t, urls: map[network.RequestID]string{}, encoded: map[network.RequestID]float64{}}
	ctx, cancel := chromedp.NewContext(browser(t), chromedp.WithNewBrowserContext(), chromedp.WithListener(tb.listen))
	t.Cleanup(cancel)
	tb.ctx = ctx
	// The tab lives as long as the context of its first run: this one, with no timeout.
	require.NoError(t, chromedp.Do(ctx))
	url := s.URL
	if user != "" {
		url += "?user=" + user
	}
	tb.run(phone(), chromedp.Navigate(url))
	tb.waitJS(`!document.getElementById("app").hasAttribute("aria-busy")`, "the first state is drawn")
	return tb
}

func (tb *tab) listen(ev any) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventWebSocketFrameReceived:
		if e.Response != nil && e.Response.Opcode == 1 {
			tb.frames = append(tb.frames, string(e.Response.PayloadData))
		}
	case *network.EventRequestWillBeSent:
		tb.urls[e.RequestID] = e.Request.URL
		if e.Request.Method == "POST" && strings.HasSuffix(strings.SplitN(e.Request.URL, "?", 2)[0], "/api/session") {
			tb.sessions++
		}
	case *network.EventLoadingFinished:
		tb.encoded[e.RequestID] = e.EncodedDataLength
	case *runtime.EventConsoleAPICalled:
		var parts []string
		for _, a := range e.Args {
			parts = append(parts, string(a.Value)+a.Description)
		}
		tb.console = append(tb.console, string(e.Type)+": "+strings.Join(parts, " "))
	case *runtime.EventExceptionThrown:
		if d := e.ExceptionDetails; d != nil {
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			tb.console = append(tb.console, "exception: "+msg)
		}
	}
}

// run runs actions on the tab, failing the test on an error or after 30 seconds.
func (tb *tab) run(actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		tb.t.Fatalf("browser: %v\npage text:\n%s", err, tb.pageText())
	}
}

// phone holds the tab as a phone held upright: 390×844 CSS pixels at twice the density.
func phone() chromedp.Action[chromedp.Void] {
	return chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile)
}

// pageText is what the page shows and logged, for failure messages.
func (tb *tab) pageText() string {
	ctx, cancel := context.WithTimeout(tb.ctx, 5*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + "\n" + document.body.innerText`))
	if err != nil {
		s = err.Error()
	}
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return s + "\nconsole:\n" + strings.Join(tb.console, "\n")
}

// waitJS waits until the expression is true in the page.
func (tb *tab) waitJS(expr, what string) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 30*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(25*time.Millisecond))); err != nil {
		tb.t.Fatalf("waiting for %s: %v\npage text:\n%s", what, err, tb.pageText())
	}
}

// eval evaluates an expression in tb's page (awaiting a promise) as a T.
func eval[T any](tb *tab, expr string) T {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("browser: %v\npage text:\n%s", err, tb.pageText())
	}
	return v
}

// press clicks the button labelled label inside the element with id box.
func (tb *tab) press(box, label string) {
	tb.t.Helper()
	sel := fmt.Sprintf(`//*[@id=%q]//button[normalize-space(.)=%q and not(@disabled)]`, box, label)
	tb.run(chromedp.WaitVisible(sel), chromedp.Click(sel))
}

// choose picks value in the panel's select whose id ends with suffix and confirms it.
func (tb *tab) choose(suffix, value string) {
	tb.t.Helper()
	sel := fmt.Sprintf(`#panel-actions select[data-focus-key$=%q]`, suffix)
	tb.run(chromedp.WaitVisible(chromedp.CSS(sel)), chromedp.SetValue(chromedp.CSS(sel), value),
		chromedp.Click(chromedp.CSS(sel+` + button`)))
}

// cards lists the screen reader's words for the cards in the element matching sel.
func (tb *tab) cards(sel string) []string {
	tb.t.Helper()
	return eval[[]string](tb, fmt.Sprintf(`[...document.querySelectorAll(%q)].map(e => e.querySelector(".sr-only").textContent)`, sel+" li.card"))
}

func (tb *tab) text(sel string) string {
	tb.t.Helper()
	return eval[string](tb, fmt.Sprintf(`document.querySelector(%q)?.innerText ?? ""`, sel))
}

// states decodes the state frames received so far.
func (tb *tab) states() []bot.WebState {
	tb.mu.Lock()
	frames := append([]string(nil), tb.frames...)
	tb.mu.Unlock()
	var out []bot.WebState
	for _, f := range frames {
		var head struct{ Type string }
		if json.Unmarshal([]byte(f), &head) != nil || head.Type != "state" {
			continue
		}
		var st bot.WebState
		require.NoError(tb.t, json.Unmarshal([]byte(f), &st))
		out = append(out, st)
	}
	return out
}

// frameTypes lists the types of the frames received so far, with an error frame's code.
func (tb *tab) frameTypes() []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	var out []string
	for _, f := range tb.frames {
		var head struct{ Type, Code string }
		_ = json.Unmarshal([]byte(f), &head)
		if head.Code != "" {
			head.Type += ":" + head.Code
		}
		out = append(out, head.Type)
	}
	return out
}

// words are the catalog's texts in English, as the demo's members read them.
var words = i18n.MustLoad()

func word(key string) string { return words.T("en", key) }

// stacked is a pack with the given cards on top and the rest in pack order: every
// round of a test dealt from it, for hands the test knows.
func stacked(top string) func(decks int) []game.Card {
	return func(decks int) []game.Card {
		cs, err := game.ParseCards(strings.Fields(top))
		if err != nil {
			panic(err)
		}
		seen := map[game.Card]int{}
		for _, c := range cs {
			seen[c]++
		}
		for _, c := range game.NewPack(decks) {
			if seen[c] > 0 {
				seen[c]--
				continue
			}
			cs = append(cs, c)
		}
		return cs
	}
}

// withDeck deals every round from stacked(top).
func withDeck(top string) func(*demo.StackConfig) {
	return func(c *demo.StackConfig) {
		prev := c.Bot
		c.Bot = func(o *bot.Options) {
			prev(o)
			o.Deck = stacked(top)
		}
	}
}

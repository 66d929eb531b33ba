package activity

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/pontoon-bot/pontoon/bot"
	"golang.org/x/time/rate"
)

// The socket: one per open page. A reader goroutine (the handler's own) reads the
// page's frames and runs its actions one at a time, in order; a writer goroutine sends
// the answers, and the member's state whenever the table changes. The writer reads the
// state itself when it is ready to send, so a page that reads slowly is sent only the
// newest state and slows nobody else; the answers wait in a small queue, and a page
// that lets it fill is closed.

const (
	helloWithin  = 5 * time.Second  // the first frame must be a hello by then
	pingEvery    = 30 * time.Second // keeps proxies from closing an idle socket
	readIdle     = 75 * time.Second // no frame or pong for this long: the page is gone
	maxFrame     = 16 << 10
	answersQueue = 32
	// actionRate and actionBurst bound one session's actions: a person clicks a few
	// times a second at most.
	actionRate  = 5.0
	actionBurst = 10
	// closeSession is the close code that tells the page to sign in again.
	closeSession = 4001
)

// inFrame is a frame from the page.
type inFrame struct {
	Type    string            `json:"type"`
	Session string            `json:"session"`
	Nonce   string            `json:"nonce"`
	ID      string            `json:"id"`
	Values  []string          `json:"values"`
	Fields  map[string]string `json:"fields"`
}

type socket struct {
	s    *Server
	conn *websocket.Conn
	sess session
	// token is the session's token, which names the session's rate limit.
	token string

	out     chan []byte   // answers, in order
	refresh chan struct{} // the member's own action is answered: read the state again
	done    chan struct{} // closed once the socket is closing
	once    sync.Once
	acting  atomic.Int32 // actions being answered: the state waits for their answer

	mu      sync.Mutex
	offered map[string][]string // custom id -> a select's values (nil for a button) in the last state sent
	modals  map[string]string   // a form offered -> the button that asked for it
	wmu     sync.Mutex          // one writer of the connection at a time (the writer, or close)
}

// serveSocket is GET /api/socket: the origin is checked before the upgrade (403),
// then the page has helloWithin to send its session.
func (s *Server) serveSocket(w http.ResponseWriter, r *http.Request) {
	if !s.originOK(r) {
		s.log.Info("activity: socket refused: origin not allowed", "origin", r.Header.Get("Origin"))
		http.Error(w, "origin not allowed", http.StatusForbidden)
		return
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		http.Error(w, "closing", http.StatusServiceUnavailable)
		return
	}
	s.wg.Add(1)
	s.mu.Unlock()
	defer s.wg.Done()
	conn, err := s.up.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered
	}
	k := &socket{s: s, conn: conn, out: make(chan []byte, answersQueue), refresh: make(chan struct{}, 1),
		done: make(chan struct{}), offered: map[string][]string{}, modals: map[string]string{}}
	conn.SetReadLimit(maxFrame)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		_ = conn.Close()
		return
	}
	s.sockets[k] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.sockets, k)
		s.mu.Unlock()
	}()
	k.run()
}

// run is the reader: the hello, then the page's actions until the socket closes.
func (k *socket) run() {
	defer k.close(websocket.CloseNormalClosure, "")
	_ = k.conn.SetReadDeadline(time.Now().Add(helloWithin))
	var hello inFrame
	if err := k.conn.ReadJSON(&hello); err != nil || hello.Type != "hello" {
		k.close(websocket.ClosePolicyViolation, "hello first")
		return
	}
	sess, err := k.s.open(hello.Session, time.Now())
	if err != nil {
		code, key := "bad_session", "err.activity_bad_session"
		if errors.Is(err, errExpired) {
			code, key = "expired", "err.activity_expired"
		}
		k.writeNow(errorFrame(code, k.s.tables.WebText(sess.Locale, key), ""))
		k.close(closeSession, code)
		return
	}
	k.sess, k.token = sess, hello.Session
	_ = k.conn.SetReadDeadline(time.Now().Add(readIdle))
	k.conn.SetPongHandler(func(string) error { return k.conn.SetReadDeadline(time.Now().Add(readIdle)) })
	changes, stop := k.s.tables.WebWatch(sess.Guild, sess.Channel)
	defer stop()
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		k.write(changes)
	}()
	defer func() {
		k.close(websocket.CloseNormalClosure, "")
		<-writerDone
	}()
	for {
		var f inFrame
		if err := k.conn.ReadJSON(&f); err != nil {
			return
		}
		_ = k.conn.SetReadDeadline(time.Now().Add(readIdle))
		switch f.Type {
		case "click", "select", "submit":
			if !k.act(f) {
				return
			}
		case "hello":
			// A page may send its session again (after signing in anew): nothing to do.
		default:
			k.close(websocket.CloseUnsupportedData, "unknown frame")
			return
		}
	}
}

// act answers one action of the page's; false when the socket must close.
func (k *socket) act(f inFrame) bool {
	now := time.Now()
	if !now.Before(k.sess.expires()) {
		k.send(errorFrame("expired", k.text("err.activity_expired"), f.Nonce))
		k.close(closeSession, "expired")
		return false
	}
	if !k.s.limits.allow(k.token, now) {
		return k.queue(errorFrame("rate_limited", k.text("err.activity_rate_limited"), f.Nonce))
	}
	if f.Nonce == "" || len(f.Nonce) > 64 || !k.offers(f) {
		return k.queue(errorFrame("not_offered", k.text("err.activity_not_offered"), f.Nonce))
	}
	a := bot.WebAction{Interaction: k.s.interactionID(k.sess.User, f.Nonce), ID: f.ID}
	switch f.Type {
	case "select":
		a.Values = f.Values
		if a.Values == nil {
			a.Values = []string{}
		}
	case "submit":
		a.Fields = f.Fields
		if a.Fields == nil {
			a.Fields = map[string]string{}
		}
		k.mu.Lock()
		delete(k.modals, f.ID) // a form is submitted once
		k.mu.Unlock()
	}
	k.acting.Add(1)
	defer func() {
		k.acting.Add(-1)
		select {
		case k.refresh <- struct{}{}:
		default:
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	res, err := k.s.tables.WebAct(ctx, k.sess.viewer(), a)
	cancel()
	if err != nil {
		k.s.log.Warn("activity: action not answered", "user", k.sess.User, "err", err)
		return k.queue(resultFrame(f.Nonce, bot.WebResult{Text: k.text("err.activity_unreachable")}))
	}
	if res.Modal != nil {
		k.mu.Lock()
		k.modals[res.Modal.ID] = f.ID
		k.mu.Unlock()
		raw, _ := json.Marshal(map[string]any{"type": "modal", "nonce": f.Nonce, "modal": res.Modal})
		return k.queue(raw)
	}
	return k.queue(resultFrame(f.Nonce, res))
}

// offers reports whether the last state sent offered what the frame acts on: a button
// or select of the table or the panel (and for a select, values among its options), or
// a form the page was asked to fill in, while the button that asked for it is offered.
func (k *socket) offers(f inFrame) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	if f.Type == "submit" {
		ask, ok := k.modals[f.ID]
		_, still := k.offered[ask]
		return ok && still
	}
	values, ok := k.offered[f.ID]
	if !ok {
		return false
	}
	if f.Type == "click" {
		return values == nil
	}
	if values == nil || len(f.Values) == 0 {
		return false
	}
	for _, v := range f.Values {
		if !slices.Contains(values, v) {
			return false
		}
	}
	return true
}

func (k *socket) text(key string) string { return k.s.tables.WebText(k.sess.Locale, key) }

// queue hands an answer to the writer; a page whose queue is full reads too slowly to
// be kept, and false closes it.
func (k *socket) queue(frame []byte) bool {
	select {
	case k.out <- frame:
		return true
	case <-k.done:
		return false
	default:
		k.s.log.Info("activity: socket closed: the page reads too slowly", "user", k.sess.User)
		return false
	}
}

// write is the writer: answers in order, the member's state after each change (never
// the same twice in a row), pings, and the session's end.
func (k *socket) write(changes <-chan struct{}) {
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	expiry := time.NewTimer(time.Until(k.sess.expires()))
	defer expiry.Stop()
	var last []byte
	dirty := true // the first state follows the hello
	for {
		select {
		case f := <-k.out:
			if !k.send(f) {
				return
			}
			continue
		default:
		}
		if dirty && k.acting.Load() == 0 {
			dirty = false
			frame, err := k.state()
			if err != nil {
				k.s.log.Warn("activity: state not read", "user", k.sess.User, "err", err)
			} else if !bytes.Equal(frame, last) {
				if !k.send(frame) {
					return
				}
				last = frame
			}
			continue
		}
		select {
		case f := <-k.out:
			if !k.send(f) {
				return
			}
		case <-changes:
			dirty = true
		case <-k.refresh:
			dirty = true
		case <-ping.C:
			k.wmu.Lock()
			err := k.conn.WriteControl(websocket.PingMessage, nil, time.Now().Add(k.s.cfg.WriteTimeout))
			k.wmu.Unlock()
			if err != nil {
				k.close(websocket.CloseGoingAway, "")
				return
			}
		case <-expiry.C:
			k.send(errorFrame("expired", k.text("err.activity_expired"), ""))
			k.close(closeSession, "expired")
			return
		case <-k.done:
			return
		}
	}
}

// state is the member's state frame, and what it offers is noted for offers.
func (k *socket) state() ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := k.s.tables.WebState(ctx, k.sess.viewer())
	if err != nil {
		return nil, err
	}
	offered := map[string][]string{}
	note := func(cs []bot.WebControl) {
		for _, c := range cs {
			if c.Disabled {
				continue
			}
			if c.Kind == "select" {
				vals := make([]string, 0, len(c.Options))
				for _, o := range c.Options {
					vals = append(vals, o.Value)
				}
				offered[c.ID] = vals
			} else {
				offered[c.ID] = nil
			}
		}
	}
	if st.Table != nil {
		note(st.Table.Actions)
	}
	if st.Panel != nil {
		note(st.Panel.Actions)
	}
	k.mu.Lock()
	k.offered = offered
	k.mu.Unlock()
	return json.Marshal(struct {
		Type string `json:"type"`
		*bot.WebState
	}{"state", &st})
}

func (k *socket) send(frame []byte) bool {
	k.wmu.Lock()
	defer k.wmu.Unlock()
	_ = k.conn.SetWriteDeadline(time.Now().Add(k.s.cfg.WriteTimeout))
	if err := k.conn.WriteMessage(websocket.TextMessage, frame); err != nil {
		k.closeLocked(websocket.CloseGoingAway, "")
		return false
	}
	return true
}

// writeNow sends a frame from the reader, before the writer runs.
func (k *socket) writeNow(frame []byte) { k.send(frame) }

// close ends the socket with a close frame (once).
func (k *socket) close(code int, reason string) {
	k.wmu.Lock()
	defer k.wmu.Unlock()
	k.closeLocked(code, reason)
}

func (k *socket) closeLocked(code int, reason string) {
	k.once.Do(func() {
		close(k.done)
		_ = k.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(time.Second))
		_ = k.conn.Close()
	})
}

func errorFrame(code, text, nonce string) []byte {
	m := map[string]any{"type": "error", "code": code, "text": text}
	if nonce != "" {
		m["nonce"] = nonce
	}
	raw, _ := json.Marshal(m)
	return raw
}

func resultFrame(nonce string, r bot.WebResult) []byte {
	raw, _ := json.Marshal(map[string]any{"type": "result", "nonce": nonce, "ok": r.OK, "text": r.Text})
	return raw
}

// limiter holds a token bucket per session (rate.Limiter: rate actions a second, up to
// burst at once) for the limitedSessions used most recently; a session it let go starts
// again with a full bucket.
type limiter struct {
	rate  rate.Limit
	burst int
	mu    sync.Mutex // one bucket per session, even for two sockets of one session at once
	m     *lru.Cache[string, *rate.Limiter]
}

const limitedSessions = 4096

func newLimiter(perSecond float64, burst int) *limiter {
	m, err := lru.New[string, *rate.Limiter](limitedSessions)
	if err != nil {
		panic(err) // only for a size below 1
	}
	return &limiter{rate: rate.Limit(perSecond), burst: burst, m: m}
}

// allow takes one token of the session's bucket, if it has one.
func (l *limiter) allow(key string, now time.Time) bool {
	l.mu.Lock()
	b, ok := l.m.Get(key)
	if !ok {
		b = rate.NewLimiter(l.rate, l.burst)
		l.m.Add(key, b)
	}
	l.mu.Unlock()
	return b.AllowN(now, 1)
}

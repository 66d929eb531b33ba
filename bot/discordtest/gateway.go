package discordtest

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Gateway close codes the fake sends.
const (
	closeUnknownOpcode      = 4001
	closeDecodeError        = 4002
	closeNotAuthenticated   = 4003
	closeAuthFailed         = 4004
	closeAlreadyAuth        = 4005
	closeInvalidShard       = 4010
	closeInvalidAPIVersion  = 4012
	closeInvalidIntents     = 4013
	closeDisallowedIntents  = 4014
	privilegedIntents       = 1<<1 | 1<<8 | 1<<15
	replayBuffer            = 2000
	gatewayWriteTimeout     = 10 * time.Second
	gatewayOutboundCapacity = 4096
)

// GatewayState is a snapshot of the fake's gateway.
type GatewayState struct {
	Connected   bool   // a session has a live, identified connection
	SessionID   string // of the most recent session
	Sequence    int64  // last sequence number dispatched on it
	Identifies  int    // successful identifies
	Resumes     int    // successful resumes
	Heartbeats  int    // heartbeats received (each answered with op 11)
	Disconnects int    // connections that ended
	Invalidated int    // op 9 Invalid Session sent
}

type gwFrame struct {
	data      []byte
	closeCode int
	closeText string
}

type gwConn struct {
	ws   *websocket.Conn
	out  chan gwFrame
	done chan struct{}
	once sync.Once
	sess *gwSession // guarded by Server.mu
}

func (c *gwConn) kill() {
	c.once.Do(func() {
		close(c.done)
		_ = c.ws.Close()
	})
}

// send queues a frame; a client too slow to drain 4096 frames is dropped.
func (c *gwConn) send(f gwFrame) {
	select {
	case <-c.done:
	case c.out <- f:
	default:
		c.kill()
	}
}

func (c *gwConn) writer() {
	for {
		select {
		case <-c.done:
			return
		case f := <-c.out:
			_ = c.ws.SetWriteDeadline(time.Now().Add(gatewayWriteTimeout))
			if f.closeCode != 0 {
				_ = c.ws.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(f.closeCode, f.closeText))
				// Give the client a moment to read the close frame.
				time.Sleep(50 * time.Millisecond)
				c.kill()
				return
			}
			if err := c.ws.WriteMessage(websocket.TextMessage, f.data); err != nil {
				c.kill()
				return
			}
		}
	}
}

type gwEvent struct {
	seq  int64
	data []byte
}

type gwSession struct {
	id         string
	seq        int64
	buf        []gwEvent
	conn       *gwConn
	shardID    int
	shardCount int
	resumable  bool
	created    time.Time
}

func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	ws, err := up.Upgrade(w, r, nil)
	if err != nil {
		s.mu.Lock()
		s.failLocked("gateway: websocket upgrade failed: %v", err)
		s.mu.Unlock()
		return
	}
	c := &gwConn{ws: ws, out: make(chan gwFrame, gatewayOutboundCapacity), done: make(chan struct{})}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		_ = ws.Close()
		return
	}
	s.conns[c] = true
	s.mu.Unlock()
	go c.writer()

	q := r.URL.Query()
	if v := q.Get("v"); v != "" && v != "9" && v != "10" {
		c.send(gwFrame{closeCode: closeInvalidAPIVersion, closeText: "Invalid API version."})
	} else if e := q.Get("encoding"); e != "" && e != "json" {
		c.send(gwFrame{closeCode: closeDecodeError, closeText: "Only the json encoding is supported by the fake."})
	} else {
		hb := s.cfg.heartbeat.Milliseconds()
		if hb < 1 {
			hb = 1
		}
		c.send(gwFrame{data: mustJSON(map[string]any{"op": 10, "s": nil, "t": nil, "d": map[string]any{"heartbeat_interval": hb}})})
	}

	clientCode := 0
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				clientCode = ce.Code
			}
			break
		}
		if !s.onGatewayFrame(c, data) {
			break
		}
	}
	c.kill()
	s.mu.Lock()
	delete(s.conns, c)
	s.gwStats.Disconnects++
	if sess := c.sess; sess != nil && sess.conn == c {
		sess.conn = nil
		// A client that closes with 1000 or 1001 ends its session, as on
		// Discord; any other end of the connection leaves it resumable.
		if clientCode == websocket.CloseNormalClosure || clientCode == websocket.CloseGoingAway {
			sess.resumable = false
			delete(s.sessions, sess.id)
		}
	}
	s.notifyLocked()
	s.mu.Unlock()
}

type gwPayload struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
}

// onGatewayFrame handles one client frame; false ends the connection.
func (s *Server) onGatewayFrame(c *gwConn, data []byte) bool {
	var p gwPayload
	if err := json.Unmarshal(data, &p); err != nil {
		c.send(gwFrame{closeCode: closeDecodeError, closeText: "Error while decoding payload."})
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch p.Op {
	case 1: // heartbeat
		s.gwStats.Heartbeats++
		c.send(gwFrame{data: []byte(`{"op":11,"s":null,"t":null,"d":null}`)})
	case 2:
		s.identifyLocked(c, p.D)
	case 6:
		s.resumeLocked(c, p.D)
	case 3, 4, 8: // presence, voice state, request guild members: accepted, ignored
		if c.sess == nil {
			c.send(gwFrame{closeCode: closeNotAuthenticated, closeText: "Not authenticated."})
		}
	default:
		s.failLocked("gateway: client sent unknown opcode %d", p.Op)
		c.send(gwFrame{closeCode: closeUnknownOpcode, closeText: "Unknown opcode."})
	}
	return true
}

func (s *Server) tokenOK(tok string) bool {
	return strings.TrimPrefix(tok, "Bot ") == s.Token
}

func (s *Server) identifyLocked(c *gwConn, raw json.RawMessage) {
	var d struct {
		Token   string  `json:"token"`
		Intents *int64  `json:"intents"`
		Shard   *[2]int `json:"shard"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		c.send(gwFrame{closeCode: closeDecodeError, closeText: "Error while decoding payload."})
		return
	}
	if c.sess != nil {
		s.failLocked("gateway: identify on an already identified connection")
		c.send(gwFrame{closeCode: closeAlreadyAuth, closeText: "Already authenticated."})
		return
	}
	if !s.tokenOK(d.Token) {
		s.failLocked("gateway: identify with a wrong token")
		c.send(gwFrame{closeCode: closeAuthFailed, closeText: "Authentication failed."})
		return
	}
	if d.Intents == nil || *d.Intents < 0 {
		s.failLocked("gateway: identify without intents")
		c.send(gwFrame{closeCode: closeInvalidIntents, closeText: "Invalid intent(s)."})
		return
	}
	if bad := *d.Intents & privilegedIntents &^ s.cfg.privilegedIntents; bad != 0 {
		s.failLocked("gateway: identify asks for privileged intents %d the app has not enabled", bad)
		c.send(gwFrame{closeCode: closeDisallowedIntents, closeText: "Disallowed intent(s)."})
		return
	}
	shardID, shardCount := 0, 1
	if d.Shard != nil {
		shardID, shardCount = d.Shard[0], d.Shard[1]
		if shardCount < 1 || shardID < 0 || shardID >= shardCount {
			s.failLocked("gateway: identify with invalid shard [%d, %d]", shardID, shardCount)
			c.send(gwFrame{closeCode: closeInvalidShard, closeText: "Invalid shard."})
			return
		}
	}
	var mine []*guild
	for _, id := range sortedKeys(s.guilds) {
		if shardOf(id, shardCount) == shardID {
			mine = append(mine, s.guilds[id])
		}
	}
	if !s.admitIdentifyLocked(c, shardID, shardCount, len(mine)) {
		return
	}
	sess := &gwSession{id: randomToken("")[:32], conn: c, shardID: shardID, shardCount: shardCount, resumable: true, created: time.Now()}
	s.sessions[sess.id] = sess
	c.sess = sess
	s.gwStats.Identifies++
	s.gwStats.SessionID = sess.id

	unavailable := []any{}
	for _, g := range mine {
		unavailable = append(unavailable, map[string]any{"id": g.id, "unavailable": true})
	}
	ready := map[string]any{
		"v":                  9,
		"user":               s.botUserJSON(),
		"session_id":         sess.id,
		"resume_gateway_url": s.gatewayURL(),
		"application":        map[string]any{"id": s.AppID, "flags": 0},
		"guilds":             unavailable,
		"private_channels":   []any{},
		"relationships":      []any{},
		"presences":          []any{},
	}
	if d.Shard != nil {
		ready["shard"] = []int{shardID, shardCount}
	}
	s.dispatchToLocked(sess, "READY", ready)
	for _, g := range mine {
		s.dispatchToLocked(sess, "GUILD_CREATE", s.guildJSONLocked(g))
	}
	s.notifyLocked()
}

func (s *Server) resumeLocked(c *gwConn, raw json.RawMessage) {
	var d struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		c.send(gwFrame{closeCode: closeDecodeError, closeText: "Error while decoding payload."})
		return
	}
	if !s.tokenOK(d.Token) {
		s.failLocked("gateway: resume with a wrong token")
		c.send(gwFrame{closeCode: closeAuthFailed, closeText: "Authentication failed."})
		return
	}
	sess := s.sessions[d.SessionID]
	ok := sess != nil && sess.resumable && d.Seq <= sess.seq
	if ok && len(sess.buf) > 0 && d.Seq < sess.buf[0].seq-1 {
		ok = false // the missed events are no longer buffered
	}
	if !ok {
		s.gwStats.Invalidated++
		c.send(gwFrame{data: []byte(`{"op":9,"s":null,"t":null,"d":false}`)})
		return
	}
	if old := sess.conn; old != nil && old != c {
		old.sess = nil
		go old.kill()
	}
	sess.conn = c
	c.sess = sess
	for _, e := range sess.buf {
		if e.seq > d.Seq {
			c.send(gwFrame{data: e.data})
		}
	}
	s.gwStats.Resumes++
	s.gwStats.SessionID = sess.id
	s.dispatchToLocked(sess, "RESUMED", map[string]any{})
	s.notifyLocked()
}

// dispatchToLocked sends an op 0 event on a session, buffering it for resume.
func (s *Server) dispatchToLocked(sess *gwSession, t string, d any) {
	sess.seq++
	data := mustJSON(map[string]any{"op": 0, "s": sess.seq, "t": t, "d": d})
	sess.buf = append(sess.buf, gwEvent{seq: sess.seq, data: data})
	if len(sess.buf) > replayBuffer {
		sess.buf = append([]gwEvent(nil), sess.buf[len(sess.buf)-replayBuffer:]...)
	}
	if sess.conn != nil {
		sess.conn.send(gwFrame{data: data})
	}
	if sess.id == s.gwStats.SessionID {
		s.gwStats.Sequence = sess.seq
	}
}

// sessionForLocked picks the session serving a guild: the one of its shard,
// connected if possible, else resumable.
func (s *Server) sessionForLocked(guildID string) *gwSession {
	var best *gwSession
	for _, id := range sortedKeys(s.sessions) {
		sess := s.sessions[id]
		if !sess.resumable || shardOf(guildID, sess.shardCount) != sess.shardID {
			continue
		}
		if best == nil || (sess.conn != nil && best.conn == nil) ||
			((sess.conn != nil) == (best.conn != nil) && sess.created.After(best.created)) {
			best = sess
		}
	}
	return best
}

// shardOf is Discord's (guild_id >> 22) % shard_count.
func shardOf(guildID string, count int) int {
	if count <= 1 {
		return 0
	}
	id, err := strconv.ParseUint(guildID, 10, 64)
	if err != nil {
		return 0
	}
	return int((id >> 22) % uint64(count))
}

func (s *Server) gatewayURL() string {
	return "ws" + strings.TrimPrefix(s.ts.URL, "http") + "/gateway"
}

// GatewayState returns a snapshot of the gateway.
func (s *Server) GatewayState() GatewayState {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.gwStats
	if sess := s.sessions[st.SessionID]; sess != nil {
		st.Connected = sess.conn != nil
	}
	return st
}

// WaitReady waits until a session is identified (or resumed) on a live
// connection, and reports whether one is.
func (s *Server) WaitReady(timeout time.Duration) bool {
	return s.waitFor(timeout, func() bool {
		for _, sess := range s.sessions {
			if sess.conn != nil {
				return true
			}
		}
		return false
	})
}

// Disconnect drops every gateway connection without a close frame, as a
// network failure would. Sessions stay resumable: a bot that reconnects
// resumes and gets the events it missed.
func (s *Server) Disconnect() {
	s.mu.Lock()
	var conns []*gwConn
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.kill()
	}
}

// RequestReconnect sends op 7 Reconnect on every connection; discordgo then
// closes with 1012 and resumes.
func (s *Server) RequestReconnect() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		c.send(gwFrame{data: []byte(`{"op":7,"s":null,"t":null,"d":null}`)})
	}
}

// InvalidateSessions ends every session: the next resume gets op 9 and the
// bot must identify again. Live connections are dropped.
func (s *Server) InvalidateSessions() {
	s.mu.Lock()
	var conns []*gwConn
	for id, sess := range s.sessions {
		sess.resumable = false
		if sess.conn != nil {
			conns = append(conns, sess.conn)
		}
		delete(s.sessions, id)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.kill()
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("discordtest: " + err.Error())
	}
	return b
}

package activity_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/pontoon-bot/pontoon/bot/activity"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stuckThrough is how many table changes the server's write to a stalled page must
// have been waiting through before the tests count its socket as full: few enough to be
// made well within the server's write deadline, as the stalled page must still be open
// when it reads again.
const stuckThrough = 50

// stalledPage is a member's page that signs in and then reads nothing until read is
// called.
type stalledPage struct {
	*page
	changes atomic.Int64 // the table changes the test has made so far
	writing atomic.Int64 // changes when the server's write in progress began; -1 for none
	dropped atomic.Bool  // the server has closed the connection
	writes  atomic.Int64 // the server's writes to the connection, begun
}

// openStalled opens a stalled page. Its connection comes through a second listener in
// front of the same server, which keeps the server's send buffer small, and the page's
// receive buffer is fixed: the server's writes to it block after a few dozen states
// rather than after megabytes. A receive buffer much smaller than this one is slow to
// take data again once the page reads, as the kernel holds back its window.
func (h *harness) openStalled(user string) *stalledPage {
	h.t.Helper()
	s := &stalledPage{}
	s.writing.Store(-1)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(h.t, err)
	srv := httptest.NewUnstartedServer(h.srv.Handler())
	srv.Listener = stalledListener{ln.(*net.TCPListener), s}
	srv.Start()
	h.t.Cleanup(srv.Close)
	d := websocket.Dialer{NetDialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		_ = c.(*net.TCPConn).SetReadBuffer(64 << 10)
		return c, nil
	}}
	conn, _, err := d.Dial("ws"+strings.TrimPrefix(srv.URL, "http")+"/api/socket", http.Header{"Origin": {srv.URL}})
	require.NoError(h.t, err)
	h.t.Cleanup(func() { _ = conn.Close() })
	require.NoError(h.t, conn.WriteJSON(map[string]string{"type": "hello", "session": h.session(user)}))
	s.page = &page{t: h.t, h: h, conn: conn, frames: make(chan frame, 1024), closed: make(chan struct{})}
	return s
}

// read has the page read its socket from now on.
func (s *stalledPage) read() { go s.page.read() }

// stuck is true once the server's write to the page has been waiting through
// stuckThrough changes: its connection is full.
func (s *stalledPage) stuck() bool {
	since := s.writing.Load()
	return since >= 0 && s.changes.Load()-since >= stuckThrough
}

// stalledListener accepts the stalled page's connection with a small send buffer, and
// notes when the server's write to it is in progress, so that a test can tell when the
// connection is full, and when the server closes it, which the page cannot tell
// without reading.
type stalledListener struct {
	*net.TCPListener
	s *stalledPage
}

func (l stalledListener) Accept() (net.Conn, error) {
	c, err := l.AcceptTCP()
	if err != nil {
		return nil, err
	}
	_ = c.SetWriteBuffer(1024)
	return &stalledConn{c, l.s}, nil
}

type stalledConn struct {
	net.Conn
	s *stalledPage
}

func (c *stalledConn) Write(b []byte) (int, error) {
	c.s.writing.Store(c.s.changes.Load())
	defer c.s.writing.Store(-1)
	c.s.writes.Add(1)
	return c.Conn.Write(b)
}

func (c *stalledConn) Close() error {
	c.s.dropped.Store(true)
	return c.Conn.Close()
}

// stalledTable opens the table with alice and bob seated and their pages reading, and
// carol's page stalled.
func stalledTable(t *testing.T) (h *harness, readers []*page, stalled *stalledPage) {
	t.Helper()
	// A stalled page is closed once a write to it has waited WriteTimeout; these tests
	// read it again well before that, however slow the machine.
	h = newHarness(t, func(c *activity.Config) { c.WriteTimeout = 5 * time.Minute })
	h.fake.AddMember(guildID, dave, "dave", 0, "en-US")
	h.openTable()
	readers = []*page{h.open(h.session(alice)), h.open(h.session(bob))}
	for _, p := range readers {
		p.waitState("the table", seated)
	}
	return h, readers, h.openStalled(carol)
}

// changeTable has carol join and leave in Discord until the stalled page's connection
// is full and has stayed so through stuckThrough more changes, then dave join: a state
// none of the pages has seen before. Every click must be answered within the fake
// Discord's wait.
func changeTable(h *harness, s *stalledPage) {
	h.t.Helper()
	for i := 0; !s.stuck() || i%2 == 1; i++ {
		require.False(h.t, s.dropped.Load(), "the server closed the stalled page")
		require.Less(h.t, i, 800, "the stalled page's connection never filled")
		kind := "join"
		if i%2 == 1 {
			kind = "leave"
		}
		h.clickTable(carol, kind)
		s.changes.Add(1)
	}
	h.clickTable(dave, "join")
	s.changes.Add(1)
}

// final is true of the state after changeTable: dave seated, carol gone again.
func final(st *state) bool {
	names := seatNames(st)
	return slices.Contains(names, "dave") && !slices.Contains(names, "carol")
}

// A page that stops reading its socket holds up neither the table nor the other pages:
// with its connection full and the server's write to it waiting, every click in
// Discord is still answered and every reading page comes to the last state. The
// stalled page is kept; when it reads again it is sent the newest state, not each of
// the states it missed.
func TestAPageThatStopsReadingHoldsUpNoOtherPageAndGetsTheNewestStateWhenItReadsAgain(t *testing.T) {
	h, readers, stalled := stalledTable(t)
	changeTable(h, stalled)
	for _, p := range readers {
		p.waitState("dave seated and carol gone", final)
	}
	waited := stalled.writes.Load() // the last one is the write that waited
	stalled.read()
	stalled.waitState("dave seated and carol gone, on the stalled page", final)
	// The newest state is one frame: one write, or two for a frame larger than the
	// server's write buffer.
	assert.LessOrEqual(t, stalled.writes.Load()-waited, int64(2), "after the write that waited, the server wrote more than the newest state")
	assert.False(t, stalled.dropped.Load(), "the server closed the stalled page")
	assert.Empty(t, h.fake.Failures())
}

// A page that sends actions and leaves their answers unread is closed once more
// answers wait for it than its queue holds, and the log says why; the table and the
// other pages carry on meanwhile. It is never answered past the full queue: when it
// reads again it gets some of the answers that were waiting, in order, and a normal
// closure.
func TestAPageThatLeavesItsAnswersUnreadIsClosedWhileTheOthersCarryOn(t *testing.T) {
	h, readers, stalled := stalledTable(t)
	changeTable(h, stalled)
	rules, ok := control(readers[0].state(), "pt:rules:", "")
	require.True(t, ok)
	const actions = 33 // one more than the answers the queue holds
	var nonces []string
	for i := range actions {
		nonce := fmt.Sprintf("unread-%02d", i)
		stalled.sendNonce(nonce, "click", rules.ID, nil, nil)
		nonces = append(nonces, nonce)
	}
	require.Eventually(t, func() bool {
		for _, line := range strings.Split(h.logs.String(), "\n") {
			if strings.Contains(line, "activity: socket closed: the page reads too slowly") && strings.Contains(line, "user="+carol) {
				return true
			}
		}
		return false
	}, 10*time.Second, 10*time.Millisecond, "no log of the stalled page's close")

	h.clickTable(dave, "leave")
	for _, p := range readers {
		p.waitState("dave gone", func(st *state) bool { return !slices.Contains(seatNames(st), "dave") })
	}

	stalled.read()
	select {
	case <-stalled.closed:
	case <-time.After(20 * time.Second):
		t.Fatal("the stalled page's socket never ended")
	}
	var answered []string
	stalled.mu.Lock()
	for _, raw := range stalled.all {
		var f frame
		if json.Unmarshal(raw, &f) == nil && f.Type != "state" && f.Nonce != "" {
			answered = append(answered, f.Nonce)
		}
	}
	stalled.mu.Unlock()
	assert.Less(t, len(answered), actions, "the action past the full queue was answered")
	assert.EqualValues(t, websocket.CloseNormalClosure, stalled.code.Load())
	assert.Equal(t, nonces[:len(answered)], answered, "the answers it got are its first actions', in order")
	assert.Empty(t, h.fake.Failures())
}

package activity_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// BenchmarkFanOut50Pages: 50 members' pages watch one table; a member clicks Join or
// Leave in Discord; each page's time from the click to the new state on its socket.
// Reports p50 and p99 over every page of every click. "stalled" adds a 51st page that
// signs in and then never reads its socket: the others must not wait for it.
//
//	go test -run '^$' -bench FanOut50Pages -benchtime 300x ./bot/activity/
func BenchmarkFanOut50Pages(b *testing.B) {
	b.Run("all-reading", func(b *testing.B) { fanOut(b, false) })
	b.Run("one-stalled", func(b *testing.B) { fanOut(b, true) })
}

func fanOut(b *testing.B, stalled bool) {
	const pages = 50
	h := newHarness(b, nil)
	h.openTable()
	var users []string
	for i := range pages {
		id := fmt.Sprintf("3100000000000000%02d", i)
		h.fake.AddMember(guildID, id, fmt.Sprintf("watcher%02d", i), 0, "en-US")
		users = append(users, id)
	}
	h.fake.AddActivityInstance("i-bench", guildID, channelID, users...)
	var ps []*page
	for _, u := range users {
		body, _ := json.Marshal(map[string]string{"code": h.fake.OAuthCode(u), "instance_id": "i-bench"})
		status, out := h.post("/api/session", body)
		require.Equal(b, http.StatusOK, status)
		p := h.open(out["session"].(string))
		p.waitState("the table", func(st *state) bool { return st.Table != nil })
		ps = append(ps, p)
	}
	if stalled {
		conn, _, err := h.dial(h.http.URL)
		require.NoError(b, err)
		b.Cleanup(func() { _ = conn.Close() })
		require.NoError(b, conn.WriteJSON(map[string]string{"type": "hello", "session": h.session(carol)}))
		// and never a read
	}
	var lat []time.Duration
	b.ResetTimer()
	for i := range b.N {
		kind := "join"
		if i%2 == 1 {
			kind = "leave"
		}
		start := time.Now()
		h.clickTable(carol, kind)
		for _, p := range ps {
			lat = append(lat, p.next("state").at.Sub(start))
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	require.Empty(b, h.fake.Failures())
}

package table

import (
	"context"
	"time"
)

// Counts read by the metrics at scrape time (package bot/metrics, through package bot).

// LiveTables is the number of open tables this manager holds in memory.
func (m *Manager) LiveTables() int {
	n := 0
	for _, t := range m.Tables() {
		t.mu.Lock()
		if !t.closed {
			n++
		}
		t.mu.Unlock()
	}
	return n
}

// TimersPending is the number of the rules' timers armed and not yet fired, as the
// store keeps them: each table's turn deadline while its round waits on someone (R7.4),
// each standing bank offer's expiry (R6.3) and each running auction's close (R9.8),
// whichever process set them; -1 when the store cannot say.
func (m *Manager) TimersPending() int {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	n, err := m.st.CountDeadlines(ctx)
	if err != nil {
		m.log.Warn("timers not counted", "err", err)
		return -1
	}
	return n
}

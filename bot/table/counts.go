package table

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

// TimersPending is the number of the rules' timers armed and not yet fired: each table's
// turn timer while its round waits on someone (R7.4), each standing bank offer's expiry
// (R6.3) and each running auction's close (R9.8). An offer answered before it expires
// leaves the manager at once, so its timer, which will find nothing, is not counted.
// Shared tables' turn timers are not this process's (they are the store's, fired by
// whichever process claims them, deadlines.go) and a cached copy may be stale, so they
// are not counted either.
//
// The table list is copied first and each table's lock taken on its own, with the
// manager's lock not held (doc.go's lock order).
func (m *Manager) TimersPending() int {
	n := 0
	if m.opt.Shared == nil {
		for _, t := range m.Tables() {
			t.mu.Lock()
			if !t.closed && !t.deadline.IsZero() && t.inRound() && t.broken == "" {
				n++
			}
			t.mu.Unlock()
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return n + len(m.offers) + len(m.auctions)
}

package table

import "time"

// Idle tables leave memory. A table stays in memory from its first use (Get, ByChannel,
// Open, a restart's recovery) so that a click reads no store; one nobody has asked for
// in a while, between rounds, with nothing a restart left for it to do, is dropped by
// DropIdle, and the next Get loads it from the store as a restart would. Its bank offer
// or auction, if any, lives in the store and is answered or fired on the loaded copy. The member's last stake offered again and the last settlement shown
// are memory only, as after a restart; the seats, the bank, the kitty and the next pack
// are the store's.

// noteUse records that table id was asked for. m.mu must be held.
func (m *Manager) noteUse(id int64) {
	if m.lastUse == nil {
		m.lastUse = map[int64]time.Time{}
	}
	m.lastUse[id] = m.now()
}

// DropIdle drops from memory each table nobody has asked for in idle (nor finished a
// round in: a turn timer may settle one), between rounds, and returns how many it
// dropped. A command that fetched a table has touched it, so none is dropped under a
// command in progress: the check and the removal happen under the manager's lock, which
// Get and ByChannel take to fetch. It takes one table's lock at a time and the manager's
// inside it (doc.go's lock order).
func (m *Manager) DropIdle(idle time.Duration) int {
	cutoff := m.now().Add(-idle)
	dropped := 0
	for _, t := range m.Tables() {
		t.mu.Lock()
		quiet := !t.closed && !t.closing && t.broken == "" && t.restart == restartNone && !t.inRound() &&
			(t.round.ID == 0 || t.round.Finished()) && t.round.FinishedAt.Before(cutoff)
		if quiet {
			m.mu.Lock()
			if m.tables[t.id] == t && !m.lastUse[t.id].After(cutoff) {
				delete(m.tables, t.id)
				delete(m.byChan, chanKey(t.guild, t.channel))
				delete(m.lastUse, t.id)
				dropped++
			}
			m.mu.Unlock()
		}
		t.mu.Unlock()
	}
	return dropped
}

package bot

import "time"

// sweepIdle drops the tables idle for Options.IdleTable from memory (table.DropIdle),
// and runs again a third of that later (at most every ten minutes), on the rules'
// clock: a table leaves memory between IdleTable and a third more after its last use.
func (b *Bot) sweepIdle() {
	if !b.tables.Enter() {
		return // closing
	}
	defer b.tables.Done()
	if n := b.tables.DropIdle(b.opt.IdleTable); n > 0 {
		b.log.Debug("idle tables left memory", "tables", n)
	}
	b.opt.AfterFunc(idleSweepEvery(b.opt.IdleTable), b.sweepIdle)
}

func idleSweepEvery(idle time.Duration) time.Duration { return min(idle/3, 10*time.Minute) }

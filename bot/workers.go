package bot

import (
	"sync/atomic"
	"time"
)

// workers runs each gateway interaction on a goroutine that has run interactions
// before, when one is idle, and on a new one otherwise: never in a queue, so that no
// member's answer waits for another's. discordgo would start a goroutine per event
// handler (two per interaction: one for the event, one for its raw form), each
// growing its stack again; under load that was about a twentieth of the bot's CPU.
// With discordgo's SyncEvents the gateway reader calls the handlers itself and hands
// only the interaction on.
type workers struct {
	jobs chan func() // unbuffered: a send succeeds only when a worker is waiting
	idle time.Duration
	live atomic.Int32 // workers running or waiting
}

// workerIdle is how long a worker waits for the next interaction before it ends: long
// enough to carry a busy table's pauses, short enough that a quiet bot keeps none.
const workerIdle = 20 * time.Second

func newWorkers() *workers { return &workers{jobs: make(chan func()), idle: workerIdle} }

// run does f on an idle worker, or on a new one.
func (w *workers) run(f func()) {
	select {
	case w.jobs <- f:
	default:
		w.live.Add(1)
		go w.loop(f)
	}
}

func (w *workers) loop(f func()) {
	defer w.live.Add(-1)
	t := time.NewTimer(w.idle)
	defer t.Stop()
	for {
		f()
		f = nil // let the interaction's memory go while waiting
		t.Reset(w.idle)
		select {
		case f = <-w.jobs:
		case <-t.C:
			return
		}
	}
}

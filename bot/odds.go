package bot

import (
	"context"
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
)

// What /pontoon odds may cost. A rule set whose odds are not kept yet costs about a
// CPU-second to simulate (oddsRounds), and any member may name one, so:
//
//   - the process runs one simulation at a time. A member who asks while another runs
//     waits, behind the deferred reply ("thinking…"), up to oddsWait, and is then told
//     the odds are busy and to ask again in a minute; asking for the same rule set as
//     the simulation they waited for, they get its result without another;
//   - each server may start Options.OddsPerHour simulations per hour, counted when a
//     member asks for odds not kept yet; past it the member is told the limit and when
//     to ask again. Kept odds are answered at any rate. The count is this process's
//     (each replica counts its own);
//   - the store keeps Options.OddsKept results (store.SaveOdds), the newest.

// oddsWait is how long a member's /pontoon odds waits for the simulations running
// before it: many seconds' worth of them, and half of the minute the work after a reply
// has (runLater), so that the member's own simulation and answer still fit.
const oddsWait = 30 * time.Second

// oddsGate is the process's one simulation slot and each server's hourly budget.
type oddsGate struct {
	run     chan struct{} // holds a token while a simulation runs
	perHour int

	mu      sync.Mutex
	budgets *lru.Cache[string, oddsBudget] // guild -> this hour's count
}

// oddsBudget is a server's simulations since the start of its current hour.
type oddsBudget struct {
	since time.Time
	used  int
}

func newOddsGate(perHour, servers int) *oddsGate {
	return &oddsGate{run: make(chan struct{}, 1), perHour: perHour, budgets: newCache[string, oddsBudget](servers)}
}

// take counts a simulation against the server's budget, or reports when the budget
// has room again. A server the cache let go starts a fresh hour: the cache keeps the
// servers seen most recently, far more than ask for odds within one hour.
func (g *oddsGate) take(guild string, now time.Time) (ok bool, again time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	b, _ := g.budgets.Get(guild)
	if b.since.IsZero() || !now.Before(b.since.Add(time.Hour)) {
		b = oddsBudget{since: now}
	}
	if b.used >= g.perHour {
		return false, b.since.Add(time.Hour)
	}
	b.used++
	g.budgets.Add(guild, b)
	return true, time.Time{}
}

// acquire waits for the simulation slot until ctx ends or stop closes; release gives
// it back.
func (g *oddsGate) acquire(ctx context.Context, stop <-chan struct{}) (release func(), ok bool) {
	select {
	case g.run <- struct{}{}:
		return func() { <-g.run }, true
	case <-ctx.Done():
	case <-stop:
	}
	return nil, false
}

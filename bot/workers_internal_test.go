package bot

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestWorkersNeverQueue: an interaction never waits for another's: while one worker is
// busy, the next runs at once on another goroutine.
func TestWorkersNeverQueue(t *testing.T) {
	w := newWorkers()
	release, second := make(chan struct{}), make(chan struct{})
	w.run(func() { <-release })
	w.run(func() { close(second) })
	select {
	case <-second:
	case <-time.After(5 * time.Second):
		t.Fatal("the second job waited for the first")
	}
	close(release)
}

// TestWorkersReuseThenEnd: a worker that finished takes the next job (a send to the
// jobs channel finds it waiting), and ends once it has been idle for w.idle.
func TestWorkersReuseThenEnd(t *testing.T) {
	w := &workers{jobs: make(chan func()), idle: time.Hour}
	done := make(chan struct{})
	w.run(func() { close(done) })
	<-done
	ran := make(chan struct{})
	require.Eventually(t, func() bool {
		select {
		case w.jobs <- func() { close(ran) }: // only a waiting worker receives
			return true
		default:
			return false
		}
	}, 5*time.Second, time.Millisecond, "the worker did not wait for the next job")
	<-ran

	require.Equal(t, int32(1), w.live.Load(), "one worker did both jobs")

	w2 := &workers{jobs: make(chan func()), idle: time.Millisecond}
	w2.run(func() {})
	require.Eventually(t, func() bool { return w2.live.Load() == 0 }, 5*time.Second, time.Millisecond,
		"an idle worker outlived its idle time")
}

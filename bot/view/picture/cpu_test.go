package picture

import (
	"syscall"
	"testing"
	"time"
)

// cpu reports the process's CPU time (user and system, every thread: the
// garbage collector's share included) per iteration as "cpu-ns/op". On a
// shared machine it is steadier than ns/op, which is wall time. Call it as
// defer cpu(b)() just before the loop.
func cpu(b *testing.B) func() {
	start := cpuTime()
	return func() {
		b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

//go:build unix

package sim_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used, so a benchmark can report a rate per
// core that does not depend on how many other processes share the machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

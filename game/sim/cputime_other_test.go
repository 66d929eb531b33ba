//go:build !unix

package sim_test

import "time"

// cpuTime is unknown here; the benchmark then reports wall-clock rates only.
func cpuTime() time.Duration { return 0 }

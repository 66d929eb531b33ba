//go:build !unix

package game_test

import "time"

// cpuTime is unknown here; the benchmark then reports wall-clock rates only.
func cpuTime() time.Duration { return 0 }

//go:build !race

package bot_test

// raceOn reports whether the race detector is on: tests that seed thousands of rows use
// fewer under it.
const raceOn = false

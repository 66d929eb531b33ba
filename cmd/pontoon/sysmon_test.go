package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestWithSteadySysmon: runtime.steady_sysmon adds the trace period to what GODEBUG
// holds, once, and never overrides a schedtrace the operator set.
func TestWithSteadySysmon(t *testing.T) {
	for _, c := range []struct {
		on      bool
		godebug string
		want    string
		restart bool
	}{
		{true, "", "schedtrace=2147483647", true},
		{true, "madvdontneed=1", "madvdontneed=1,schedtrace=2147483647", true},
		{true, "schedtrace=2147483647", "schedtrace=2147483647", false}, // after the restart
		{true, "gctrace=1, schedtrace=0", "gctrace=1, schedtrace=0", false},
		{false, "", "", false},
		{false, "gctrace=1", "gctrace=1", false},
	} {
		got, restart := withSteadySysmon(c.on, c.godebug)
		assert.Equal(t, c.want, got, "%v %q", c.on, c.godebug)
		assert.Equal(t, c.restart, restart, "%v %q", c.on, c.godebug)
	}
	assert.True(t, sysmonSteady("schedtrace=2147483647"))
	assert.True(t, sysmonSteady("schedtrace=0,schedtrace=1000"), "the last one counts")
	assert.False(t, sysmonSteady("schedtrace=1000,schedtrace=0"))
	assert.False(t, sysmonSteady("gctrace=1"))
	assert.False(t, sysmonSteady(""))
}

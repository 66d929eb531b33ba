package main

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSetGCTargetDefault: without GOGC the bot runs with defaultGCPercent.
func TestSetGCTargetDefault(t *testing.T) {
	prev := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(prev) })
	assert.Equal(t, defaultGCPercent, setGCTarget(func(string) string { return "" }))
	assert.Equal(t, defaultGCPercent, debug.SetGCPercent(100), "the runtime's target")
}

// TestSetGCTargetHonoursGOGC: an operator's GOGC wins and the runtime's target
// (which the runtime took from GOGC itself) is left alone.
func TestSetGCTargetHonoursGOGC(t *testing.T) {
	prev := debug.SetGCPercent(150)
	t.Cleanup(func() { debug.SetGCPercent(prev) })
	env := map[string]string{"GOGC": "150"}
	assert.Equal(t, 150, setGCTarget(func(k string) string { return env[k] }))
	assert.Equal(t, 150, debug.SetGCPercent(150), "left as it was")
	env["GOGC"] = "off"
	assert.Equal(t, -1, setGCTarget(func(k string) string { return env[k] }))
	env["GOGC"] = "lots"
	assert.Equal(t, 100, setGCTarget(func(k string) string { return env[k] }))
}

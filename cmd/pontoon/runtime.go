package main

import (
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"

	"github.com/pontoon-bot/pontoon/config"
)

// tuneRuntime is set by main: only the binary applies runtime.* to the process.
var tuneRuntime bool

// applyRuntime sets GOMAXPROCS and the collector's percentage from the configuration,
// unless the GOMAXPROCS or GOGC variable already set them (Go read those at start, and
// an operator who sets them means them). It logs what the process runs with.
func applyRuntime(r config.Runtime, log *slog.Logger) {
	if _, set := os.LookupEnv("GOMAXPROCS"); !set && r.MaxProcs > 0 {
		runtime.GOMAXPROCS(r.MaxProcs)
	}
	gc := r.GCPercent
	if _, set := os.LookupEnv("GOGC"); set {
		gc = debug.SetGCPercent(-1) // read the variable's value back, then restore it
	}
	debug.SetGCPercent(gc)
	log.Info("go runtime", "gomaxprocs", runtime.GOMAXPROCS(0), "gc_percent", gc, "cpus", runtime.NumCPU())
}

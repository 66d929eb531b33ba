//go:build unix

package main

import (
	"log/slog"
	"os"
	"syscall"
)

// steadySysmon starts the binary again in place (same process id, arguments and
// environment) with steadySysmonDebug added to GODEBUG, when runtime.steady_sysmon asks
// for it and GODEBUG does not already name a schedtrace. It returns only if it did not:
// on an error, after logging it, the bot runs on as it is.
func steadySysmon(on bool, log *slog.Logger) {
	godebug, ok := withSteadySysmon(on, os.Getenv("GODEBUG"))
	if !ok {
		return
	}
	exe, err := os.Executable()
	if err == nil {
		env := append(withoutVar(os.Environ(), "GODEBUG"), "GODEBUG="+godebug)
		err = syscall.Exec(exe, os.Args, env)
	}
	log.Warn("could not restart with a steady sysmon; running on without it", "err", err)
}

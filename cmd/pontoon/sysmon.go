package main

import "strings"

// steadySysmonDebug is the GODEBUG setting runtime.steady_sysmon adds. The Go runtime's
// monitor thread (sysmon) sleeps deeply once every processor is idle, and is woken by
// the next system call, which also puts it back to polling every 20 µs for the next
// millisecond and more: a bot idle between interactions pays that at nearly every one
// of them (a sixth of its CPU, measured by thread, README "Measured"). A scheduler trace
// period is the one setting under which sysmon never sleeps deeply; it then backs off to
// polling every 10 ms for as long as no processor has to be taken back from a long
// system call. The period, in milliseconds, is the largest the runtime reads, 24.8
// days: the trace line it prints once per period is the price.
const steadySysmonDebug = "schedtrace=2147483647"

// withSteadySysmon returns the GODEBUG value to start again with, and whether to: not
// when the setting is off, and not when godebug already names a schedtrace (an
// operator's, or our own after the restart).
func withSteadySysmon(on bool, godebug string) (string, bool) {
	if _, named := schedtrace(godebug); !on || named {
		return godebug, false
	}
	if godebug == "" {
		return steadySysmonDebug, true
	}
	return godebug + "," + steadySysmonDebug, true
}

// sysmonSteady reports whether the process runs with a scheduler trace period set,
// as runtime.steady_sysmon starts it.
func sysmonSteady(godebug string) bool {
	v, _ := schedtrace(godebug)
	return v != "" && v != "0"
}

// schedtrace is the schedtrace value godebug sets, the last one as for Go, and whether
// it names one at all.
func schedtrace(godebug string) (value string, named bool) {
	for _, kv := range strings.Split(godebug, ",") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(kv), "schedtrace="); ok {
			value, named = v, true
		}
	}
	return value, named
}

// withoutVar returns env without the variable name.
func withoutVar(env []string, name string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}

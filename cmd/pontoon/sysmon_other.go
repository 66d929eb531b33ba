//go:build !unix

package main

import "log/slog"

// steadySysmon does nothing where a process cannot replace its own image.
func steadySysmon(bool, *slog.Logger) {}

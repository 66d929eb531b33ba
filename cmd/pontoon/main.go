// Command pontoon is the Pontoon bot's one binary. See doc.go.
package main

import (
	"os"
)

func main() {
	// The binary tunes the Go runtime from runtime.* (serve's tuneRuntime); tests that
	// run Main inside their own process leave theirs alone.
	tuneRuntime = true
	os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Command pontoon is the Pontoon bot's one binary. See doc.go.
package main

import (
	"os"

	"github.com/pontoon-bot/pontoon/bot/discordapi"
)

func main() {
	// Every click reaches the gateway with the whole message it was on, which discordgo
	// would decode into a full Message before any handler runs; the bot reads only its
	// flags. The swap writes a table discordgo's gateway readers read, so it comes first,
	// before any session exists.
	discordapi.LeanInteractionEvents()
	// The binary tunes the Go runtime from runtime.* (serve's tuneRuntime); tests that
	// run Main inside their own process leave theirs alone.
	tuneRuntime = true
	os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

package bot_test

import (
	"os"
	"testing"

	"github.com/pontoon-bot/pontoon/bot/discordapi"
)

// TestMain decodes interactions as the program does (cmd/pontoon's main), so that the
// bots these tests run take the same path: the swap must come before any session.
func TestMain(m *testing.M) {
	discordapi.LeanInteractionEvents()
	os.Exit(m.Run())
}

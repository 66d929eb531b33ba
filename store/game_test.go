package store

import (
	"testing"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/assert"
)

// A table's engine accounts land in the ledger as the server-wide wallet and the table's
// own escrow and kitty, each movement citing its rule.
func TestGameTransfers(t *testing.T) {
	got := GameTransfers(7, []game.Transfer{
		{From: game.Wallet("ann"), To: game.Escrow("ann"), Amount: 10, Reason: game.ReasonStake, Rule: "R3.3"},
		{From: game.Escrow("ann"), To: game.KittyAccount, Amount: 5, Reason: game.ReasonShootLoss, Rule: "R9.6"},
	})
	assert.Equal(t, []Transfer{
		{From: "wallet:ann", To: "escrow:7:ann", Amount: 10, Reason: "stake (R3.3)"},
		{From: "escrow:7:ann", To: "kitty:7", Amount: 5, Reason: "shoot loss (R9.6)"},
	}, got)
}

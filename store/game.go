package store

import "github.com/pontoon-bot/pontoon/game"

// GameAccount names an engine account of a table in the ledger: a player's wallet is
// the server-wide wallet, a player's escrow and the kitty belong to the table.
func GameAccount(tableID int64, a game.Account) string {
	switch a.Kind {
	case game.AccountWallet:
		return WalletAccount(a.Player)
	case game.AccountEscrow:
		return EscrowAccount(tableID, a.Player)
	}
	return KittyAccount(tableID)
}

// GameTransfers turns an engine action's chip movements into the ledger's, each reason
// carrying the rule it follows ("loss (R4.6)").
func GameTransfers(tableID int64, ts []game.Transfer) []Transfer {
	out := make([]Transfer, len(ts))
	for i, t := range ts {
		reason := string(t.Reason)
		if t.Rule != "" {
			reason += " (" + t.Rule + ")"
		}
		out[i] = Transfer{From: GameAccount(tableID, t.From), To: GameAccount(tableID, t.To), Amount: t.Amount, Reason: reason}
	}
	return out
}

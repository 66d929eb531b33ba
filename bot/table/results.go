package table

import (
	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
)

// roundResults sums a settled round per member for the store's stats (store.RoundResult):
// each player's hands that were played (a hand sat out, R7.4, is not a round played),
// and the banker's takings, which are what the hands lost less what they won (in Shoot
// the kitty pays and collects the shoot bets, and the kitty is the bank's, R9.1).
func roundResults(g *game.Game) []store.RoundResult {
	rd := g.Round
	if rd == nil || rd.Outcome == nil {
		return nil
	}
	var out []store.RoundResult
	at := map[string]int{}
	var bank int64
	for _, h := range rd.Hands {
		if h.SatOut {
			continue
		}
		i, ok := at[h.Player]
		if !ok {
			i = len(out)
			at[h.Player] = i
			out = append(out, store.RoundResult{Member: h.Player})
		}
		r := &out[i]
		r.Hands++
		r.Net += h.Net
		bank -= h.Net
		switch k := h.Value(g.Rules).Kind; {
		case k.IsPontoon():
			r.Pontoons++
		case k == game.KindFiveCardTrick:
			r.Tricks++
		case k == game.KindBust:
			r.Busts++
		}
	}
	return append(out, store.RoundResult{Member: rd.Banker, Banker: true, Net: bank})
}

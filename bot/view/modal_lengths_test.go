package view_test

import (
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/i18n"
	"github.com/pontoon-bot/pontoon/bot/view"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// largestAmount is the largest amount a command option allows (13 digits), so the largest
// bound a modal can be asked to show.
const largestAmount = int64(1_000_000_000_000)

// Every modal the bot opens keeps its title and every text input's label within 45
// characters and its placeholder within 100, in every language, at the largest amounts.
func TestEveryModalFitsDiscordAtTheLargestAmounts(t *testing.T) {
	r := view.New(i18n.MustLoad())
	big := game.Move{Min: largestAmount, Max: largestAmount}
	for _, lang := range i18n.Languages {
		modals := map[string]*discordgo.InteractionResponse{
			"shoot_buy": r.ShootBuyModal(lang, view.ID{Kind: view.KindAsk, Table: 1, Round: 1, Arg: view.ShootBuyVerb}, big, big),
		}
		for _, verb := range []game.Verb{game.VerbStake, game.VerbBuy, game.VerbShoot, game.VerbKitty} {
			modals[string(verb)] = r.AmountModal(lang, view.ID{Kind: view.KindAsk, Table: 1, Round: 1, Arg: string(verb)}, largestAmount, largestAmount)
		}
		for name, m := range modals {
			require.NotNil(t, m.Data, name)
			assert.LessOrEqual(t, utf8.RuneCountInString(m.Data.Title), 45, "%s %s title %q", lang, name, m.Data.Title)
			inputs := 0
			for _, row := range m.Data.Components {
				for _, c := range row.(discordgo.ActionsRow).Components {
					in := c.(discordgo.TextInput)
					inputs++
					assert.LessOrEqual(t, utf8.RuneCountInString(in.Label), 45, "%s %s label %q", lang, name, in.Label)
					assert.LessOrEqual(t, utf8.RuneCountInString(in.Placeholder), 100, "%s %s placeholder %q", lang, name, in.Placeholder)
				}
			}
			assert.Positive(t, inputs, name)
		}
	}
}

// The shoot-and-buy modal states each range in the placeholder, the reader's way.
func TestShootAndBuyRangesAreInThePlaceholders(t *testing.T) {
	r := view.New(i18n.MustLoad())
	m := r.ShootBuyModal("pl", view.ID{Kind: view.KindAsk, Table: 1, Round: 1, Arg: view.ShootBuyVerb},
		game.Move{Min: 1, Max: 5000}, game.Move{Min: 2000, Max: 1_000_000})
	var placeholders []string
	for _, row := range m.Data.Components {
		placeholders = append(placeholders, row.(discordgo.ActionsRow).Components[0].(discordgo.TextInput).Placeholder)
	}
	assert.Equal(t, []string{"Od 1 do 5\u00a0000", "Od 2\u00a0000 do 1\u00a0000\u00a0000"}, placeholders)
}

// Percentages keep their sign on the number (no space a line could break at), and
// changes in points are signed with a minus sign like other signed amounts.
func TestPercentagesAndPointsTheReadersWay(t *testing.T) {
	assert.Equal(t, "2.5%", view.Percent("en", 0.025))
	for _, lang := range []string{"id", "su", "pl", "pt-BR"} {
		assert.Equal(t, "2,5%", view.Percent(lang, 0.025), lang)
		assert.Equal(t, "−1,2", view.Points(lang, -0.012), lang)
		assert.Equal(t, "+0,4", view.Points(lang, 0.004), lang)
	}
	assert.Equal(t, "−1.2", view.Points("en", -0.012))
}

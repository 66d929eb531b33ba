package bot_test

import (
	"testing"
	"time"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	polish     = "400000000000000001"
	indonesian = "400000000000000002"
	brazilian  = "400000000000000003"
)

// A round played by members whose Discord speaks Polish, Indonesian and Brazilian
// Portuguese at a server set to Sundanese: each private reply is in the member's
// language, the public table in Sundanese, and every payload (longer than English) passes
// the fake Discord's limits.
func TestLocalizedGame(t *testing.T) {
	h := newHarness(t, nil)
	h.fake.AddMember(guildID, polish, "pl", 0, "pl")
	h.fake.AddMember(guildID, indonesian, "id", 0, "id")
	h.fake.AddMember(guildID, brazilian, "pt", 0, "pt-BR")

	r := h.cmd(admin, sub("settings", strOpt("language", "su")))
	require.Contains(t, text(r.Message), "Basa Sunda")

	r = h.cmd(polish, sub("start", strOpt("variant", "shoot"), intOpt("kitty_min", 10), intOpt("kitty_max", 300)))
	require.Contains(t, text(r.Message), "Twój stół jest otwarty", "the host's reply is in Polish: %s", text(r.Message))
	h.waitTable("Pontoon")
	h.clickTable(indonesian, "join")
	h.clickTable(brazilian, "join")
	h.deck.push(cutFor(t, 0, 3)) // the Polish member banks
	r = h.clickTable(indonesian, "deal")
	require.Contains(t, text(r.Message), "harus memasang kitty", "the refusal is in Indonesian: %s", text(r.Message))
	r = h.cmd(polish, group("bank", "kitty", intOpt("amount", 250)))
	require.Contains(t, text(r.Message), "do puli", "the reply is in Polish: %s", text(r.Message))

	// id 8H 8D (split), pt 9C 5C, pl 7S 9S.
	h.nextRound(stack(t, "8H 9C 7S 8D 5C 9S 2C 3C TC 9D KH 4S"))
	h.clickTable(indonesian, "deal")
	h.amount(indonesian, game.VerbStake, 10)
	h.amount(brazilian, game.VerbStake, 10)
	h.amount(indonesian, game.VerbShoot, 30)
	h.amount(brazilian, game.VerbShoot, 0)
	p := h.do(indonesian, game.VerbSplit)
	require.Contains(t, text(p), "Tangan 1", "Indonesian panel: %s", text(p))
	h.amount(indonesian, game.VerbBuy, 10)
	h.do(indonesian, game.VerbStick)
	h.do(indonesian, game.VerbTwist)
	h.do(indonesian, game.VerbStick)
	p = h.amount(brazilian, game.VerbBuy, 10)
	require.Contains(t, text(p), "Estourou", "Portuguese panel: %s", text(p))
	p = h.do(polish, game.VerbDraw)
	require.Contains(t, text(p), "Wolne żetony", "Polish panel: %s", text(p))
	h.do(polish, game.VerbStay)
	tbl := h.waitTable("Ronde geus réngsé") // "The round is settled", in Sundanese
	assert.Contains(t, text(tbl), "Bankir salajengna: ", "public table in Sundanese: %s", text(tbl))
	h.audit()
	h.noFailures()

	// The command itself is registered with Polish, Indonesian and Portuguese names.
	cmds := h.fake.Commands("")
	require.Len(t, cmds, 1)
	var start = cmds[0].Options[0]
	assert.NotEmpty(t, start.DescriptionLocalizations)
	assert.NotEmpty(t, start.NameLocalizations)
}

// A server whose Discord speaks Polish and has set no language gets a Polish table, and
// keeps it through the coalesced edits and timer notices that no interaction carries.
func TestGuildLocaleFollowsThroughEdits(t *testing.T) {
	clk := newClock()
	h := newHarnessIn(t, "pl", clk.use)
	h.cmd(alice, sub("start"))
	h.waitTable("Ponton")
	h.clickTable(bob, "join")
	h.deal(alice, 0, "9H 7S 8D 9S")
	// Nobody stakes: the timer's notice and the edits that follow are Polish too.
	clk.Advance(time.Minute) // the turn timer (R7.4)
	tbl := h.waitTable("Runda rozliczona")
	assert.NotContains(t, text(tbl), "ran out of time")
	h.noFailures()
}

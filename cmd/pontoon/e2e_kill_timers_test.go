package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// offerMessage is the channel's bank offer message, or nil.
func offerMessage(fake *discordtest.Server) *discordgo.Message {
	for _, m := range fake.Messages(channel) {
		if strings.Contains(m.Content, "offers the bank to") {
			return m
		}
	}
	return nil
}

func sellCmd(buyer string, price int64) []*discordgo.ApplicationCommandInteractionDataOption {
	return []*discordgo.ApplicationCommandInteractionDataOption{{Name: "bank", Type: discordgo.ApplicationCommandOptionSubCommandGroup,
		Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: "sell", Type: discordgo.ApplicationCommandOptionSubCommand,
			Options: []*discordgo.ApplicationCommandInteractionDataOption{
				{Name: "member", Type: discordgo.ApplicationCommandOptionUser, Value: buyer},
				{Name: "price", Type: discordgo.ApplicationCommandOptionInteger, Value: float64(price)},
			}}}}}
}

// The bot killed (SIGKILL) on SQLite with a bank offer standing, then again with a
// turn's deadline still to come: started again each time, it sells the bank on the
// offer made before the kill when the buyer accepts (R6.3), and times the turn out when
// its time comes though nobody clicks (R7.4); the ledger balances throughout.
func TestKillKeepsTheOfferAndTheTurnDeadline(t *testing.T) {
	bin := buildBinary(t)
	fake := newFake(t)
	db := filepath.Join(t.TempDir(), "pontoon.db")
	env := serveEnv(fake, db, "PONTOON_GAME_TURN_TIMER=10s")
	p := startServe(t, bin, env, 1)
	t.Cleanup(func() { _ = p.cmd.Process.Kill(); _ = p.cmd.Wait() })
	require.Eventually(t, func() bool { return len(fake.Commands("")) == 1 }, 10*time.Second, 20*time.Millisecond)
	at := tableAt{t: t, fake: fake, guild: guild, channel: channel}
	at.open(p.logs.String)
	at.playOut(p.logs.String)

	// The banker offers the bank to another player; the kill leaves the offer standing.
	var seller, buyer string
	for i, m := range players {
		other := players[(i+1)%len(players)]
		r, err := fake.Command(guild, channel, m, "pontoon", sellCmd(other, 10))
		require.NoError(t, err)
		if strings.Contains(msgText(r.Message), "Offer sent") {
			seller, buyer = m, other
			break
		}
	}
	require.NotEmpty(t, seller, "no player could offer the bank")
	require.Eventually(t, func() bool { return offerMessage(fake) != nil }, 10*time.Second, 20*time.Millisecond)
	require.NoError(t, p.cmd.Process.Kill())
	_ = p.cmd.Wait()

	p = startServe(t, bin, env, 1)
	of := offerMessage(fake)
	accept, ok := findID(of, "pt:offer:", ".accept")
	require.True(t, ok, "the offer lost its buttons")
	r, err := fake.Click(channel, of.ID, buyer, accept)
	require.NoError(t, err)
	require.Contains(t, msgText(r.Message), "bought the bank", "logs:\n%s", p.logs.String())

	// A round dealt, and the bot killed before anyone stakes: the stakes time out after
	// the restart, with no click to wake the table.
	deal, ok := findID(table(fake), "pt:deal:", "")
	require.True(t, ok)
	r, err = fake.Click(channel, table(fake).ID, buyer, deal)
	require.NoError(t, err)
	require.Contains(t, msgText(r.Message), "Stakes: waiting for", "logs:\n%s", p.logs.String())
	require.NoError(t, p.cmd.Process.Kill())
	_ = p.cmd.Wait()

	p = startServe(t, bin, env, 1)
	require.Eventually(t, func() bool { return strings.Contains(msgText(table(fake)), "ran out of time") }, 30*time.Second, 50*time.Millisecond,
		"the stakes never timed out after the restart:\n%s\nlogs:\n%s", msgText(table(fake)), p.logs.String())
	_, acts := currentRound(t, db, guild, channel)
	timeouts := map[string]int{}
	for _, a := range acts {
		if a.Verb == "timeout" {
			timeouts[a.Member]++
		}
	}
	assert.NotEmpty(t, timeouts)
	for m, n := range timeouts {
		assert.Equal(t, 1, n, "%s timed out %d times", m, n)
	}
	stopServe(t, p)
	auditOK(t, bin, env)
}

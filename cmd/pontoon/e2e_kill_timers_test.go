package main

import (
	"path/filepath"
	"strconv"
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

// serveAPlayedRound starts the binary and plays a round at a table in the channel, so
// that its bank can change hands. The caller kills whichever process is last started
// when the test ends.
func serveAPlayedRound(t *testing.T, bin string, fake *discordtest.Server, env []string) (*serveProcess, tableAt) {
	t.Helper()
	p := startServe(t, bin, env, 1)
	require.Eventually(t, func() bool { return len(fake.Commands("")) == 1 }, 10*time.Second, 20*time.Millisecond)
	at := tableAt{t: t, fake: fake, guild: guild, channel: channel}
	at.open(p.logs.String)
	at.playOut(p.logs.String)
	return p, at
}

// offerTheBank has the banker offer the bank to the next player for 10 chips (R6.3), and
// waits for the offer's message; it returns the seller and the buyer.
func offerTheBank(t *testing.T, fake *discordtest.Server) (seller, buyer string) {
	t.Helper()
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
	return seller, buyer
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
	bin := sharedBinary(t)
	fake := newFake(t)
	db := filepath.Join(t.TempDir(), "pontoon.db")
	env := serveEnv(fake, db, "PONTOON_GAME_TURN_TIMER=10s")
	p, _ := serveAPlayedRound(t, bin, fake, env)
	t.Cleanup(func() { _ = p.cmd.Process.Kill(); _ = p.cmd.Wait() })

	// The banker offers the bank to another player; the kill leaves the offer standing.
	_, buyer := offerTheBank(t, fake)
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

func bankCmd(name string, opts ...*discordgo.ApplicationCommandInteractionDataOption) []*discordgo.ApplicationCommandInteractionDataOption {
	return []*discordgo.ApplicationCommandInteractionDataOption{{Name: "bank", Type: discordgo.ApplicationCommandOptionSubCommandGroup,
		Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: name, Type: discordgo.ApplicationCommandOptionSubCommand, Options: opts}}}}
}

// The bot killed (SIGKILL) on SQLite while an auction of the bank takes bids (R9.8):
// started again, it keeps the bid placed before the kill, takes more, and closes the
// auction when its window ends, selling the bank to the highest bid; the ledger balances.
func TestKillKeepsTheAuction(t *testing.T) {
	bin := sharedBinary(t)
	fake := newFake(t)
	db := filepath.Join(t.TempDir(), "pontoon.db")
	env := serveEnv(fake, db, "PONTOON_GAME_BID_WINDOW=10s")
	p := startServe(t, bin, env, 1)
	t.Cleanup(func() { _ = p.cmd.Process.Kill(); _ = p.cmd.Wait() })
	require.Eventually(t, func() bool { return len(fake.Commands("")) == 1 }, 10*time.Second, 20*time.Millisecond)
	at := tableAt{t: t, fake: fake, guild: guild, channel: channel}
	_, err := fake.Command(guild, channel, players[0], "pontoon", []*discordgo.ApplicationCommandInteractionDataOption{{
		Name: "start", Type: discordgo.ApplicationCommandOptionSubCommand,
		Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: "variant", Type: discordgo.ApplicationCommandOptionString, Value: "shoot"}}}})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return at.msg() != nil }, 10*time.Second, 10*time.Millisecond)
	for _, m := range players[1:] {
		join, ok := findID(at.msg(), "pt:join:", "")
		require.True(t, ok)
		_, err := fake.Click(channel, at.msg().ID, m, join)
		require.NoError(t, err)
	}
	deal, ok := findID(at.msg(), "pt:deal:", "")
	require.True(t, ok)
	_, err = fake.Click(channel, at.msg().ID, players[0], deal) // the cut chooses the banker, who has no kitty
	require.NoError(t, err)

	var seller string
	for _, m := range players {
		r, err := fake.Command(guild, channel, m, "pontoon", bankCmd("auction"))
		require.NoError(t, err)
		if strings.Contains(msgText(r.Message), "auction has started") {
			seller = m
			break
		}
	}
	require.NotEmpty(t, seller, "no player could auction the bank:\n%s\nlogs:\n%s", msgText(at.msg()), p.logs.String())
	var bidders []string
	for _, m := range players {
		if m != seller {
			bidders = append(bidders, m)
		}
	}
	r, err := fake.Command(guild, channel, bidders[0], "pontoon", bankCmd("bid",
		&discordgo.ApplicationCommandInteractionDataOption{Name: "amount", Type: discordgo.ApplicationCommandOptionInteger, Value: float64(30)}))
	require.NoError(t, err)
	require.Contains(t, msgText(r.Message), "30 chips is the highest")
	require.NoError(t, p.cmd.Process.Kill())
	_ = p.cmd.Wait()

	p = startServe(t, bin, env, 1)
	r, err = fake.Command(guild, channel, bidders[1], "pontoon", bankCmd("bid",
		&discordgo.ApplicationCommandInteractionDataOption{Name: "amount", Type: discordgo.ApplicationCommandOptionInteger, Value: float64(30)}))
	require.NoError(t, err)
	require.Contains(t, msgText(r.Message), "Bid more than the highest bid of 30", "the bid placed before the kill still stands")
	r, err = fake.Command(guild, channel, bidders[1], "pontoon", bankCmd("bid",
		&discordgo.ApplicationCommandInteractionDataOption{Name: "amount", Type: discordgo.ApplicationCommandOptionInteger, Value: float64(45)}))
	require.NoError(t, err)
	require.Contains(t, msgText(r.Message), "45 chips is the highest")
	won := "won the bank from <@" + seller + "> for 45 chips"
	require.Eventually(t, func() bool { return strings.Contains(msgText(at.msg()), won) }, 30*time.Second, 50*time.Millisecond,
		"the auction never closed after the restart:\n%s\nlogs:\n%s", msgText(at.msg()), p.logs.String())
	stopServe(t, p)
	auditOK(t, bin, env)
}

// chips is how many chips /pontoon balance tells member they have.
func chips(t *testing.T, fake *discordtest.Server, member string) int64 {
	t.Helper()
	r, err := fake.Command(guild, channel, member, "pontoon", []*discordgo.ApplicationCommandInteractionDataOption{{Name: "balance", Type: discordgo.ApplicationCommandOptionSubCommand}})
	require.NoError(t, err)
	text := msgText(r.Message)
	i, j := strings.Index(text, " has "), strings.Index(text, " chip")
	require.True(t, i >= 0 && j > i, "not a balance: %s", text)
	n, err := strconv.ParseInt(strings.NewReplacer(",", "", " ", "", "\u00a0", "", "\u202f", "").Replace(text[i+5:j]), 10, 64)
	require.NoError(t, err, text)
	return n
}

// The bot killed (SIGKILL) the moment a bank sale is made (R6.3), before it has drawn
// the sale on the table or the offer: started again, the sale stands once — the buyer
// paid the price and the seller received it, once, though Discord delivers the accept
// again — the offer's buttons are gone and the table names the new banker; the ledger
// balances.
func TestKillRightAfterASaleKeepsTheSaleOnce(t *testing.T) {
	bin := sharedBinary(t)
	fake := newFake(t)
	db := filepath.Join(t.TempDir(), "pontoon.db")
	env := serveEnv(fake, db)
	p, at := serveAPlayedRound(t, bin, fake, env)
	t.Cleanup(func() { _ = p.cmd.Process.Kill(); _ = p.cmd.Wait() })
	seller, buyer := offerTheBank(t, fake)
	sellerBefore, buyerBefore := chips(t, fake, seller), chips(t, fake, buyer)

	of := offerMessage(fake)
	accept, ok := findID(of, "pt:offer:", ".accept")
	require.True(t, ok)
	sale, err := fake.Click(channel, of.ID, buyer, accept)
	require.NoError(t, err)
	require.Contains(t, msgText(sale.Message), "bought the bank", "logs:\n%s", p.logs.String())
	require.NoError(t, p.cmd.Process.Kill())
	_ = p.cmd.Wait()

	p = startServe(t, bin, env, 1)
	require.NoError(t, fake.Redeliver(sale))
	require.Eventually(t, func() bool { return strings.Contains(msgText(at.msg()), "<@"+buyer+">") }, 10*time.Second, 50*time.Millisecond,
		"the table never named the buyer:\n%s\nlogs:\n%s", msgText(at.msg()), p.logs.String())
	_, stillOffered := findID(offerMessage(fake), "pt:offer:", ".accept")
	assert.False(t, stillOffered, "the sold offer still has its buttons")
	assert.Equal(t, sellerBefore+10, chips(t, fake, seller), "the seller is paid the price once")
	assert.Equal(t, buyerBefore-10, chips(t, fake, buyer), "the buyer pays the price once")
	assert.Empty(t, fake.Failures(), "the redelivered accept was answered a second time")
	stopServe(t, p)
	auditOK(t, bin, env)
}

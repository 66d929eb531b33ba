package bot_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/require"
)

// give has from give amount chips to to and returns the private answer's text.
func (h *harness) give(from, to string, amount int64) string {
	h.t.Helper()
	r := h.cmd(from, sub("give", userOpt("member", to), intOpt("amount", amount)))
	require.True(h.t, r.Ephemeral, "give answers privately")
	return text(r.Message)
}

// playARound plays one round of alice (banker) against bob to its settlement.
func (h *harness) playARound() {
	h.t.Helper()
	h.deck.push(cutFor(h.t, 0, 2)) // alice banks (R1.4)
	h.nextRound(stack(h.t, "TH 7S 9D 9S 4S"))
	h.clickTable(bob, "deal")
	h.amount(bob, game.VerbStake, 10)
	h.do(bob, game.VerbStick)  // 19
	h.do(alice, game.VerbDraw) // 7S 9S 4S = 20
	h.do(alice, game.VerbStay)
	h.waitTable("Next banker")
}

func TestGiveIsRefusedUntilGiverAndReceiverHavePlayedEnoughRounds(t *testing.T) {
	h := newHarness(t, func(o *bot.Options) { o.Give = bot.GiveRules{MinRounds: 1} })
	h.cmd(alice, sub("balance"))
	got := h.give(alice, bob, 100)
	require.Contains(t, got, "only by members who have played at least 1 round; <@"+alice+"> has played 0.")
	require.Equal(t, int64(1000), h.balance(alice), "nothing was given")

	h.seat(alice, nil, bob)
	h.playARound()
	before := h.balance(alice)
	got = h.give(alice, carol, 100)
	require.Contains(t, got, "<@"+carol+"> has played 0.", "the receiver is held to the rule too")
	require.Equal(t, before, h.balance(alice))

	got = h.give(alice, bob, 100)
	require.Contains(t, got, "You gave 100 chips to <@"+bob+">")
	require.Equal(t, before-100, h.balance(alice))
	h.noFailures()
	h.audit()
}

func TestGiveIsRefusedFromAndToANewDiscordAccount(t *testing.T) {
	h := newHarness(t, func(o *bot.Options) { o.Give = bot.GiveRules{MinAccountAge: 7 * 24 * time.Hour} })
	// An account made an hour ago: its id, a snowflake, says so.
	fresh := strconv.FormatInt((time.Now().Add(-time.Hour).UnixMilli()-1420070400000)<<22, 10)
	h.fake.AddMember(guildID, fresh, "fresh", 0, "en-US")
	h.cmd(fresh, sub("balance")) // the new account has its starting chips
	h.cmd(alice, sub("balance"))

	got := h.give(fresh, alice, 100)
	require.Contains(t, got, "only by Discord accounts at least 7 days old; the account of <@"+fresh+"> is newer.")
	got = h.give(alice, fresh, 100)
	require.Contains(t, got, "the account of <@"+fresh+"> is newer.")
	require.Equal(t, int64(1000), h.balance(fresh))
	require.Equal(t, int64(1000), h.balance(alice))

	got = h.give(alice, bob, 100) // accounts from 2015
	require.Contains(t, got, "You gave 100 chips")
	h.noFailures()
	h.audit()
}

func TestGiftsPastTheDailyCapAreRefusedNamingWhatIsLeft(t *testing.T) {
	h := newHarness(t, func(o *bot.Options) { o.Give = bot.GiveRules{DailyCap: 150} })
	h.cmd(bob, sub("balance"))
	require.Contains(t, h.give(alice, bob, 100), "You gave 100 chips")
	got := h.give(alice, bob, 100)
	require.Contains(t, got, "A member may give at most 150 chips in 24 hours here; you have given 100, so you may give 50 more.")
	require.Equal(t, int64(900), h.balance(alice))
	require.Contains(t, h.give(alice, bob, 50), "You gave 50 chips")
	h.noFailures()
	h.audit()
}

func TestAnAdminSetsTheServersGiveRules(t *testing.T) {
	h := newHarness(t, nil) // configured: anyone gives anything
	require.Contains(t, h.give(alice, bob, 100), "You gave 100 chips")

	r := h.cmd(alice, sub("settings", intOpt("give_daily_cap", 50)))
	require.Contains(t, text(r.Message), "Manage Server", "only an admin sets them")
	r = h.cmd(admin, sub("settings", intOpt("give_daily_cap", 50), intOpt("give_min_rounds", 0)))
	require.Contains(t, text(r.Message), "at most 50 chips given a day")

	h.stop() // the server's rules outlive a restart
	h.start()
	got := h.give(bob, alice, 60)
	require.Contains(t, got, "at most 50 chips in 24 hours here")
	require.Contains(t, h.give(bob, alice, 50), "You gave 50 chips")
	h.noFailures()
	h.audit()
}

package bot_test

import (
	"context"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/discordapi"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every option is checked on the server against the command the bot declares, since
// Discord's client is not the only sender: a value of another type, out of range or too
// long is refused privately, in the member's language, with what the option takes, and
// changes nothing.

// polly is a member whose Discord client speaks Polish.
const polly = "300000000000000006"

// loosenCommand registers /pontoon again with change applied, as a client whose
// command list is out of date (or anything else that sends interactions) knows it: the
// fake Discord then lets through whatever the changed declaration allows.
func (h *harness) loosenCommand(change func(sub, opt string, o *discordgo.ApplicationCommandOption)) {
	h.t.Helper()
	var cmds []*discordgo.ApplicationCommand
	for _, c := range h.fake.Commands("") {
		if c.Name == "pontoon" {
			cmds = append(cmds, c)
			for _, sub := range c.Options {
				for _, o := range sub.Options {
					change(sub.Name, o.Name, o)
				}
			}
		}
	}
	require.Len(h.t, cmds, 1, "/pontoon is registered")
	s, err := discordapi.NewSession(h.fake.Token, h.fake.URL(), nil)
	require.NoError(h.t, err)
	_, err = s.ApplicationCommandBulkOverwrite(cmds[0].ApplicationID, "", cmds)
	require.NoError(h.t, err)
}

// refusedOption runs a command that must be refused with want, privately, writing
// nothing.
func (h *harness) refusedOption(user string, opts []*discordgo.ApplicationCommandInteractionDataOption, want string) {
	h.t.Helper()
	var r *discordtest.Response
	writes := h.writesDuring(func() { r = h.cmd(user, opts) })
	require.True(h.t, r.Ephemeral, "the refusal is private: %s", text(r.Message))
	assert.Contains(h.t, text(r.Message), want)
	assert.NotContains(h.t, text(r.Message), "could not be saved")
	assert.Zero(h.t, writes, "a refused option writes nothing")
}

// loosened is a table-less harness whose /pontoon lets through a turn timer out of
// range, a word for the settings' turn timer, a negative gift and a seed of any length.
func loosened(t *testing.T) *harness {
	h := newHarness(t, nil)
	h.fake.AddMember(guildID, polly, "polly", 0, "pl")
	h.loosenCommand(func(sub, opt string, o *discordgo.ApplicationCommandOption) {
		switch sub + " " + opt {
		case "start turn_timer", "give amount":
			o.MinValue, o.MaxValue = nil, 0
		case "settings turn_timer":
			o.Type, o.MinValue, o.MaxValue = discordgo.ApplicationCommandOptionString, nil, 0
		case "seed text":
			o.MaxLength = 0
		}
	})
	return h
}

func TestATurnTimerOutOfRangeOpensNoTable(t *testing.T) {
	h := loosened(t)
	h.refusedOption(alice, sub("start", intOpt("turn_timer", 5)), "The option “turn_timer” takes a whole number from 10 to 600.")
	_, err := h.st.TableByChannel(context.Background(), guildID, channelID)
	require.ErrorIs(t, err, store.ErrNotFound, "no table was opened")
	h.noFailures()
}

func TestAWordForATurnTimerChangesNoSetting(t *testing.T) {
	h := loosened(t)
	settings, err := h.st.GuildSettings(context.Background(), guildID)
	require.NoError(t, err)
	h.refusedOption(admin, sub("settings", strOpt("turn_timer", "soon")), "The option “turn_timer” takes a whole number from 10 to 600.")
	after, err := h.st.GuildSettings(context.Background(), guildID)
	require.NoError(t, err)
	assert.Equal(t, settings, after, "no setting was saved")
	h.noFailures()
}

func TestANegativeGiftIsRefusedInTheGiversLanguage(t *testing.T) {
	h := loosened(t)
	h.refusedOption(alice, sub("give", userOpt("member", bob), intOpt("amount", -5)), "The option “amount” takes a whole number from 1 to 1,000,000,000,000.")
	h.refusedOption(polly, sub("give", userOpt("member", bob), intOpt("amount", -5)), "Opcja „kwota” przyjmuje liczbę całkowitą od 1 do")
	h.noWallet(guildID, alice)
	h.noWallet(guildID, bob)
	h.noWallet(guildID, polly)
	h.audit()
	h.noFailures()
}

func TestASeedLongerThanTheOptionTakesAddsNothing(t *testing.T) {
	h := loosened(t)
	h.seat(alice, nil, bob)
	h.refusedOption(bob, sub("seed", strOpt("text", strings.Repeat("x", 500))), "The option “text” takes text of 1 to 64 characters.")
	p, ok, err := h.st.PendingSeed(context.Background(), h.tableID())
	require.NoError(t, err)
	require.True(t, ok)
	assert.Empty(t, p.MemberSeeds, "no seed was added")
	h.noFailures()
}

// A member option names someone Discord resolved for this server: an id it did not
// resolve (no member here) gets no gift and no wallet.
func TestAGiftToAnUnresolvedIDChangesNothing(t *testing.T) {
	h := newHarness(t, nil)
	h.loosenCommand(func(sub, opt string, o *discordgo.ApplicationCommandOption) {
		if sub+" "+opt == "give member" {
			o.Type = discordgo.ApplicationCommandOptionString
		}
	})
	stranger := "399999999999999999"
	h.refusedOption(alice, sub("give", strOpt("member", stranger), intOpt("amount", 5)), "The option “member” takes a member of this server.")
	h.noWallet(guildID, alice)
	h.noWallet(guildID, stranger)
	h.noFailures()
}

// An option the command does not declare, a required one left out, a word for a yes or
// no and a value that is none of the choices are each refused with what the command
// takes, before anything is done: the table is neither stopped nor opened.
func TestOptionsTheCommandDoesNotTakeAreRefused(t *testing.T) {
	h := newHarness(t, nil)
	h.loosenCommand(func(sub, opt string, o *discordgo.ApplicationCommandOption) {
		switch sub + " " + opt {
		case "give amount":
			o.Required = false
		case "start banker_may_double":
			o.Type = discordgo.ApplicationCommandOptionString
		case "start variant":
			o.Choices = nil
		}
	})
	// /pontoon stop gains an option it never had.
	var cmds []*discordgo.ApplicationCommand
	for _, c := range h.fake.Commands("") {
		for _, s := range c.Options {
			if s.Name == "stop" {
				s.Options = append(s.Options, &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString,
					Name: "colour", Description: "a colour"})
			}
		}
		cmds = append(cmds, c)
	}
	s, err := discordapi.NewSession(h.fake.Token, h.fake.URL(), nil)
	require.NoError(t, err)
	_, err = s.ApplicationCommandBulkOverwrite(cmds[0].ApplicationID, "", cmds)
	require.NoError(t, err)

	h.refusedOption(alice, sub("start", strOpt("banker_may_double", "maybe")), "The option “banker_may_double” takes True or False.")
	h.refusedOption(alice, sub("start", strOpt("variant", "poker")), "The option “variant” takes one of: Classic Pontoon, Shoot Pontoon.")
	_, err = h.st.TableByChannel(context.Background(), guildID, channelID)
	require.ErrorIs(t, err, store.ErrNotFound, "no table was opened")

	h.seat(alice, nil, bob)
	h.refusedOption(alice, sub("stop", strOpt("colour", "red")), "This command has no option “colour”.")
	h.refusedOption(alice, sub("give", userOpt("member", bob)), "The option “amount” is required.")
	assert.Equal(t, []string{alice, bob}, h.seatsAt(), "the table is still open with its seats")
	h.noFailures()
}

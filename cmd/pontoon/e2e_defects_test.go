package main

// End-to-end tests of issue 8's defects that need the real binary: a SIGKILL at a chosen
// moment, and a setting read from the environment.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newFake(t *testing.T) *discordtest.Server {
	fake := discordtest.New(t, discordtest.WithToken(token))
	fake.AddGuild(guild, "en-US")
	fake.AddChannel(guild, channel)
	for _, p := range players {
		fake.AddMember(guild, p, "p", 0, "en-US")
	}
	return fake
}

func serveEnv(fake *discordtest.Server, db string, extra ...string) []string {
	return append(append(os.Environ(), "PONTOON_DISCORD_TOKEN="+token, "PONTOON_DISCORD_API_URL="+fake.URL(),
		"PONTOON_DATABASE_PATH="+db, "PONTOON_LOG_LEVEL=debug", "PONTOON_LOG_FORMAT=json"), extra...)
}

// liveTables are the table messages in the channel that still have buttons.
func liveTables(fake *discordtest.Server) []*discordgo.Message {
	var out []*discordgo.Message
	for _, m := range fake.Messages(channel) {
		if len(m.Embeds) > 0 && strings.Contains(m.Embeds[0].Title, "Pontoon") && len(m.Components) > 0 {
			out = append(out, m)
		}
	}
	return out
}

func startCmd() []*discordgo.ApplicationCommandInteractionDataOption {
	return []*discordgo.ApplicationCommandInteractionDataOption{{Name: "start", Type: discordgo.ApplicationCommandOptionSubCommand}}
}

// Defect 6: the bot killed (SIGKILL) during /pontoon start, after the table's row was
// committed and either before its message reached Discord or after Discord stored it
// but before the bot recorded it. Started again, the bot gives the open table one live
// message: members can join, deal and stake on it, and each change shows on it; no
// frozen copy with buttons is left in the channel.
func TestDefect06KillDuringStartLeavesALiveTable(t *testing.T) {
	bin := buildBinary(t)
	for _, tc := range []struct {
		name   string
		posted bool // Discord stored the message before the kill
	}{
		{"row committed, message not posted", false},
		{"message posted, not recorded", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := newFake(t)
			env := serveEnv(fake, filepath.Join(t.TempDir(), "pontoon.db"))
			p := startServe(t, bin, env, 1)
			t.Cleanup(func() { _ = p.cmd.Process.Kill(); _ = p.cmd.Wait() })
			require.Eventually(t, func() bool { return len(fake.Commands("")) == 1 }, 10*time.Second, 20*time.Millisecond)

			hold := fake.HoldNext("POST /channels/" + channel + "/messages")
			go func() { _, _ = fake.Command(guild, channel, players[0], "pontoon", startCmd()) }()
			select {
			case <-hold.Arrived():
			case <-time.After(10 * time.Second):
				t.Fatalf("the table was never posted; logs:\n%s", p.logs.String())
			}
			require.NoError(t, p.cmd.Process.Kill()) // SIGKILL while the post is in flight
			_ = p.cmd.Wait()
			if tc.posted {
				hold.Release()
				require.Eventually(t, func() bool { return len(liveTables(fake)) == 1 }, 5*time.Second, 10*time.Millisecond)
			} else {
				hold.Fail(500, 0, "500: Internal Server Error")
				require.Empty(t, liveTables(fake))
			}

			p = startServe(t, bin, env, 1)
			var tb *discordgo.Message
			require.Eventually(t, func() bool {
				tbs := liveTables(fake)
				if len(tbs) > 0 {
					tb = tbs[len(tbs)-1]
				}
				return tb != nil
			}, 10*time.Second, 20*time.Millisecond, "after the restart the open table has no message; logs:\n%s", p.logs.String())

			for _, m := range players[1:] {
				join, ok := findID(tb, "pt:join:", "")
				require.True(t, ok)
				r, err := fake.Click(channel, tb.ID, m, join)
				require.NoError(t, err)
				require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type, msgText(r.Message))
				tb = r.Message
			}
			deal, _ := findID(tb, "pt:deal:", "")
			r, err := fake.Click(channel, tb.ID, players[0], deal)
			require.NoError(t, err)
			require.Contains(t, msgText(r.Message), "Stakes: waiting for")
			staked := 0
			for _, m := range players {
				cards, _ := findID(r.Message, "pt:cards:", "")
				pr, err := fake.Click(channel, tb.ID, m, cards)
				require.NoError(t, err)
				if id, ok := findID(pr.Message, "pt:amt:", ":stake"); ok {
					_, err := fake.Select(channel, pr.Message.ID, m, id, []string{"1"})
					require.NoError(t, err)
					staked++
				}
			}
			require.Equal(t, 2, staked)
			// The stakes were made on the panels: only an edit of the table shows them.
			require.Eventually(t, func() bool {
				m := fake.Message(channel, tb.ID)
				return strings.Count(msgText(m), "stake 1") == 2
			}, 10*time.Second, 20*time.Millisecond, "the table members use never shows the stakes:\n%s", msgText(fake.Message(channel, tb.ID)))
			assert.Len(t, liveTables(fake), 1, "one table message with buttons, no frozen copy")
			assert.Empty(t, fake.Failures())
		})
	}
}

// Defect 12: starting_chips: 0 means members start with 0 chips, not the default 1000.
func TestDefect12StartingChipsZeroMeansZero(t *testing.T) {
	bin := buildBinary(t)
	fake := newFake(t)
	env := serveEnv(fake, filepath.Join(t.TempDir(), "pontoon.db"), "PONTOON_GAME_STARTING_CHIPS=0")
	p := startServe(t, bin, env, 1)
	t.Cleanup(func() { _ = p.cmd.Process.Kill(); _ = p.cmd.Wait() })
	require.Eventually(t, func() bool { return len(fake.Commands("")) == 1 }, 10*time.Second, 20*time.Millisecond)
	r, err := fake.Command(guild, channel, players[0], "pontoon", []*discordgo.ApplicationCommandInteractionDataOption{{Name: "balance", Type: discordgo.ApplicationCommandOptionSubCommand}})
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	assert.Contains(t, msgText(r.Message), "has 0 chips", "a new member starts with starting_chips = 0")
	assert.NotContains(t, msgText(r.Message), "has 1000", "(the member id itself contains 1000)")
}

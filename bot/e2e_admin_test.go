package bot_test

import (
	"context"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// root holds Administrator and no other bit: Discord treats that as every permission,
// so the bot's admin checks must too.
const root = "300000000000000008"

// The admin commands (grant, settings, stopping somebody else's table) accept Manage
// Server and Administrator alike, and refuse a member with neither, changing nothing.
func TestAdminPermissions(t *testing.T) {
	for _, tc := range []struct {
		name   string
		member string
		perms  int64
		admin  bool
	}{
		{"manage server", admin, discordgo.PermissionManageGuild, true},
		{"administrator", root, discordgo.PermissionAdministrator, true},
		{"neither", dave, discordgo.PermissionSendMessages | discordgo.PermissionManageMessages, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, nil)
			if tc.member == root {
				h.fake.AddMember(guildID, root, "root", discordgo.PermissionAdministrator, "en-US")
			} else {
				h.fake.AddMember(guildID, tc.member, "m", tc.perms, "en-US")
			}
			h.seat(alice, nil, bob)
			before := h.balance(bob)

			grant := text(h.cmd(tc.member, sub("grant", userOpt("member", bob), intOpt("amount", 500))).Message)
			settings := h.cmd(tc.member, sub("settings", strOpt("language", "pl")))
			stop := h.cmd(tc.member, sub("stop"))
			raw, err := h.st.GuildSettings(context.Background(), guildID)
			require.NoError(t, err)

			if tc.admin {
				assert.Contains(t, grant, "Granted 500 chips")
				assert.Equal(t, before+500, h.balance(bob))
				assert.Contains(t, text(settings.Message), "Server settings saved")
				assert.Contains(t, raw, `"language":"pl"`)
				assert.Contains(t, text(stop.Message), "The table is closed.")
				_, err := h.st.TableByChannel(context.Background(), guildID, channelID)
				assert.Error(t, err, "the table is closed in the store")
			} else {
				assert.Contains(t, grant, "Only members with Manage Server can do that.")
				assert.Equal(t, before, h.balance(bob), "a refused grant mints nothing")
				assert.Contains(t, text(settings.Message), "Only members with Manage Server can do that.")
				assert.NotContains(t, raw, "language", "refused settings are not saved")
				assert.Contains(t, text(stop.Message), "Only the table's host, the banker or a member with Manage Server")
				_, err := h.st.TableByChannel(context.Background(), guildID, channelID)
				assert.NoError(t, err, "the table stays open")
			}
			assert.True(t, settings.Ephemeral && stop.Ephemeral, "answers go to the member only")
			h.audit()
			h.noFailures()
		})
	}
}

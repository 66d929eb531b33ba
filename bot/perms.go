package bot

import "github.com/bwmarrin/discordgo"

// adminPerms are the permission bits that make a member a server admin for the bot:
// Manage Server, or Administrator, which Discord treats as holding every permission
// whatever the member's other bits say.
const adminPerms = discordgo.PermissionManageGuild | discordgo.PermissionAdministrator

// canManage reports whether a member with these permissions (as the interaction carries
// them) may run the admin commands: grant, settings, and stopping a table that is not
// theirs.
func canManage(perms int64) bool { return perms&adminPerms != 0 }

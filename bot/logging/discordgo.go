package logging

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// Discordgo returns a function for discordgo.Logger that writes discordgo's own messages
// to log, with source=discordgo: LogError at Error, LogWarning at Warn, and LogInformational
// and LogDebug at Debug. discordgo's informational messages trace its own code ("called",
// "creating new VoiceConnections map") and dump the whole READY payload as Go syntax:
// what an operator needs at Info, the bot logs itself. Give it a logger whose handler is
// wrapped by Redact: at debug level discordgo writes request URLs, which hold interaction
// tokens.
func Discordgo(log *slog.Logger) func(msgL, caller int, format string, a ...any) {
	return func(msgL, _ int, format string, a ...any) {
		level := slogLevel(msgL)
		if !log.Enabled(context.Background(), level) {
			return
		}
		log.Log(context.Background(), level, strings.TrimSpace(fmt.Sprintf(format, a...)), "source", "discordgo")
	}
}

func slogLevel(msgL int) slog.Level {
	switch msgL {
	case discordgo.LogError:
		return slog.LevelError
	case discordgo.LogWarning:
		return slog.LevelWarn
	}
	return slog.LevelDebug
}

// DiscordgoLevel is the discordgo Session.LogLevel that lets through what a logger at
// level l would write, so that discordgo does not format messages only to drop them.
func DiscordgoLevel(l slog.Level) int {
	switch {
	case l <= slog.LevelDebug:
		return discordgo.LogDebug
	case l <= slog.LevelWarn:
		return discordgo.LogWarning
	}
	return discordgo.LogError
}

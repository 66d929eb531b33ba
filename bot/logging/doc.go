// Package logging keeps tokens out of the logs and brings discordgo's own logging into
// log/slog.
//
// Redact wraps a slog.Handler so that no line it writes holds a token: the bot token,
// the database's password, and the interaction tokens in callback and webhook URLs that
// discordgo's errors quote and in the payloads it logs at debug level (JSON-escaped or
// not, in paths of any case).
// cmd/pontoon wraps the process's handler with it, and bot.New wraps the logger it is
// given, so the guarantee does not rest on every caller remembering.
//
// Discordgo and DiscordgoLevel route discordgo's messages (discordgo.Logger, a package
// variable, and Session.LogLevel) into slog at the configured level; its informational
// messages, a trace of its own code, are logged at debug.
//
// Tests that read what a running bot, server or child process logs write it into a
// logtest.Buffer.
package logging

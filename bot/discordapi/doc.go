// Package discordapi connects a discordgo session to Discord, or to something
// that stands in for Discord.
//
// discordgo computes its endpoint URLs once, from package variables, so the
// only clean way to send its requests elsewhere is the HTTP client it is
// given. NewTransport wraps a RoundTripper so that every request for
// discord.com (and gateway.discord.gg) goes to another base URL, keeping
// path and query: a REST rate-limit proxy in production, or the fake Discord
// of package discordtest in tests. Requests for any other host pass through
// untouched. A process that talks to one Discord also calls UseBaseURL, which
// sets those package variables, so that the errors that quote a request's URL
// name the base URL rather than discord.com.
//
// NewSession builds a bot session with such a client:
//
//	s, err := discordapi.NewSession(token, "http://127.0.0.1:8080", nil)
//	if err != nil { ... }
//	err = s.Open() // GET /api/v9/gateway on the base URL, then dial the URL it returns
//
// The gateway needs no rewriting: discordgo dials whatever URL
// GET /api/v9/gateway answered, so a fake that answers ws://127.0.0.1:PORT/...
// is reached directly, and a REST proxy that passes Discord's answer through
// leaves the bot on Discord's own gateway.
//
// # Files with alt text
//
// discordgo v0.29.0 cannot give an uploaded file a description (alt text).
// SendMessage, EditMessage, Respond and EditResponse send a message with
// Uploads, each described in the payload's attachments array, through the
// session's own request path. The table's picture goes this way:
//
//	pic, _ := picture.Render(table)
//	embed.Image = &discordgo.MessageEmbedImage{URL: picture.EmbedURL}
//	msg, err := discordapi.SendMessage(s, channelID, &discordgo.MessageSend{Embeds: embeds},
//		[]discordapi.Upload{{Name: picture.FileName, ContentType: "image/png", Data: pic.PNG, Description: pic.Alt}})
//
// An edit with Uploads replaces the message's attachments; an edit through
// discordgo without files leaves them, and the embed's attachment:// url
// still shows the picture.
//
// OpenShards opens one session per gateway shard: the one shard
// of discord.shard_id and discord.shard_count, or with discord.shards: auto
// every shard GET /gateway/bot recommends, their identifies paced by
// max_concurrency (package shard). Shards.ForGuild and Shards.Serves say
// which session, if any, receives a guild's events.
//
// # The hot path
//
// A click costs the bot two calls (its answer and the table's edit) and one
// gateway event. Answer and Edit send the two calls with bodies written by
// AppendResponse and AppendEdit (wire.go), the same JSON discordgo's
// encoding/json would write, in a fifteenth of the time; anything they do not
// write goes through discordgo. DecodeInteraction decodes a click through
// encoding/json without the message it was on (decode.go), and
// LeanInteractionEvents, called by the program before it opens a session, makes
// discordgo's gateway reader use it (lean.go): handlers of
// func(*discordgo.Session, any) then receive an *InteractionEvent.
//
// Errors from this package never contain the bot token.
package discordapi

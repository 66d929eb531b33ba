package discordapi

import (
	"strings"

	"github.com/bwmarrin/discordgo"
)

// UseBaseURL points discordgo's endpoint variables at baseURL, so that its requests
// are made to the configured API URL and the errors that quote a request's URL
// ("Get \"http://proxy.internal/api/v9/gateway\": dial tcp …: connection refused")
// name it, not https://discord.com. baseURL is checked as NewTransport checks it.
//
// The variables are discordgo's package state: call UseBaseURL once, before any
// session is made, in a process that talks to one Discord (cmd/pontoon's serve).
// NewTransport still sends whatever is addressed to discord.com to its base URL, for
// the processes (tests) that run sessions against several.
func UseBaseURL(baseURL string) error {
	if _, err := NewTransport(baseURL, nil); err != nil {
		return err
	}
	base := strings.TrimRight(baseURL, "/") + "/"
	api := base + "api/v" + discordgo.APIVersion + "/"
	// Every variable discordgo computes from EndpointAPI when the package starts; its
	// endpoint functions read these at each call.
	discordgo.EndpointDiscord = base
	discordgo.EndpointAPI = api
	discordgo.EndpointGuilds = api + "guilds/"
	discordgo.EndpointChannels = api + "channels/"
	discordgo.EndpointUsers = api + "users/"
	discordgo.EndpointGateway = api + "gateway"
	discordgo.EndpointGatewayBot = discordgo.EndpointGateway + "/bot"
	discordgo.EndpointWebhooks = api + "webhooks/"
	discordgo.EndpointStickers = api + "stickers/"
	discordgo.EndpointStageInstances = api + "stage-instances"
	discordgo.EndpointSKUs = api + "skus"
	discordgo.EndpointVoice = api + "/voice/"
	discordgo.EndpointVoiceRegions = discordgo.EndpointVoice + "regions"
	discordgo.EndpointNitroStickersPacks = api + "/sticker-packs"
	discordgo.EndpointGuildCreate = api + "guilds"
	discordgo.EndpointApplications = api + "applications"
	return nil
}

package discordapi_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/discordapi"
)

// panelMessage is a member's ephemeral panel as Discord echoes it with a click: an
// embed, a row of buttons and a 25-option select.
func panelMessage() string {
	var opts []string
	for range 25 {
		opts = append(opts, `{"label":"10 chips","value":"10","description":"","default":false}`)
	}
	return `{"id":"900000000000000077","channel_id":"900000000000000002","guild_id":"900000000000000001","type":19,"flags":64,
"content":"","author":{"id":"900000000000000099","username":"Pontoon","discriminator":"0","bot":true},
"timestamp":"2026-12-01T22:58:00.000000+00:00","edited_timestamp":null,"tts":false,"mention_everyone":false,"mentions":[],"mention_roles":[],
"attachments":[],"embeds":[{"type":"rich","title":"Your hand","description":"▶ Hand 1: 8♥ 9♦ — 17 · stake 10\nFree chips: 240","color":1402304}],
"components":[{"type":1,"components":[{"type":2,"style":1,"label":"Twist","custom_id":"pt:act:7:3:3:twist"},{"type":2,"style":2,"label":"Stick","custom_id":"pt:act:7:3:3:stick"}]},
{"type":1,"components":[{"type":3,"custom_id":"pt:amt:7:3:3:buy","placeholder":"Buy","options":[` + strings.Join(opts, ",") + `]}]}],
"pinned":false,"interaction_metadata":{"id":"900000000000000066","type":3,"user":{"id":"900000000000000011","username":"bob"}}}`
}

const memberJSON = `{"user":{"id":"900000000000000011","username":"bob","global_name":"Bob","avatar":null,"discriminator":"0"},
"nick":"Bobby","roles":["900000000000000005"],"joined_at":"2026-01-01T00:00:00.000000+00:00","deaf":false,"mute":false,"flags":0,
"permissions":"2147483647"}`

var interactions = map[string]string{
	"click on a panel": `{"id":"900000000000000100","application_id":"900000000000000098","type":3,"token":"tok","version":1,
"guild_id":"900000000000000001","channel_id":"900000000000000002","app_permissions":"117760","locale":"pl","guild_locale":"en-GB",
"member":` + memberJSON + `,"message":` + panelMessage() + `,
"data":{"custom_id":"pt:amt:7:3:3:buy","component_type":3,"values":["10"]},"entitlements":[],"authorizing_integration_owners":{"0":"900000000000000001"},"context":0}`,
	"click on a public message": `{"id":"900000000000000101","application_id":"900000000000000098","type":3,"token":"tok","version":1,
"guild_id":"900000000000000001","channel_id":"900000000000000002","app_permissions":"117760","locale":"en-GB",
"member":` + memberJSON + `,"message":{"id":"900000000000000078","channel_id":"900000000000000002","flags":0,"embeds":[],"components":[]},
"data":{"custom_id":"pt:join:7:0:0:","component_type":2}}`,
	"command with options": `{"id":"900000000000000102","application_id":"900000000000000098","type":2,"token":"tok","version":1,
"guild_id":"900000000000000001","channel_id":"900000000000000002","app_permissions":"117760","locale":"id","member":` + memberJSON + `,
"data":{"id":"900000000000000050","name":"pontoon","type":1,"options":[{"name":"bank","type":2,"options":[{"name":"sell","type":1,
"options":[{"name":"to","type":6,"value":"900000000000000012"},{"name":"price","type":4,"value":250}]}]}],
"resolved":{"users":{"900000000000000012":{"id":"900000000000000012","username":"carol"}},"members":{"900000000000000012":{"nick":"C"}}}}}`,
	"modal": `{"id":"900000000000000103","application_id":"900000000000000098","type":5,"token":"tok","version":1,
"guild_id":"900000000000000001","channel_id":"900000000000000002","member":` + memberJSON + `,"message":` + panelMessage() + `,
"data":{"custom_id":"pt:stake:7:3:3:","components":[{"type":1,"components":[{"type":4,"custom_id":"amount","value":"25"}]}]}}`,
	"ping": `{"id":"900000000000000104","application_id":"900000000000000098","type":1,"token":"tok","version":1}`,
	"in a DM": `{"id":"900000000000000105","application_id":"900000000000000098","type":2,"token":"tok","version":1,
"channel_id":"900000000000000003","user":{"id":"900000000000000011","username":"bob"},"data":{"id":"1","name":"pontoon","type":1}}`,
}

// TestDecodeInteraction: the lean decoder gives what discordgo's decoding gives, with
// the message reduced to its id, channel, guild and flags.
func TestDecodeInteraction(t *testing.T) {
	for name, raw := range interactions {
		var want discordgo.Interaction
		require.NoError(t, json.Unmarshal([]byte(raw), &want), name)
		if m := want.Message; m != nil {
			want.Message = &discordgo.Message{ID: m.ID, ChannelID: m.ChannelID, GuildID: m.GuildID, Flags: m.Flags}
		}
		got, err := discordapi.DecodeInteraction([]byte(raw))
		require.NoError(t, err, name)
		require.Equal(t, &want, got, name)
	}
	got, err := discordapi.DecodeInteraction([]byte(interactions["click on a panel"]))
	require.NoError(t, err)
	require.Equal(t, discordgo.MessageFlagsEphemeral, got.Message.Flags)
	require.Equal(t, "pt:amt:7:3:3:buy", got.MessageComponentData().CustomID)
	require.Equal(t, "Bobby", got.Member.Nick)
	require.Equal(t, int64(117760), got.AppPermissions)
}

// TestDecodeInteractionRefuses what discordgo refuses: a body that is not JSON, a
// component or command without data, data of the wrong shape.
func TestDecodeInteractionRefuses(t *testing.T) {
	_, err := discordapi.DecodeInteraction([]byte("null"))
	require.Error(t, err, "null")
	for _, raw := range []string{`{"id":`, `{"type":3,"id":"1"}`, `{"type":2,"data":[1]}`, `{"type":3,"data":{"custom_id":5}}`} {
		var ref discordgo.Interaction
		require.Error(t, json.Unmarshal([]byte(raw), &ref), raw)
		_, err := discordapi.DecodeInteraction([]byte(raw))
		require.Error(t, err, raw)
	}
}

// BenchmarkDecodeInteraction is a click on a member's panel: discordgo's decoding
// against the lean one.
func BenchmarkDecodeInteraction(b *testing.B) {
	raw := []byte(interactions["click on a panel"])
	b.Run("discordgo", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var i discordgo.InteractionCreate
			if err := json.Unmarshal(raw, &i); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("lean", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := discordapi.DecodeInteraction(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
}

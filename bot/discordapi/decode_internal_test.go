package discordapi

import "strings"

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

// Interactions are interactions as Discord sends them, by what they are. They are
// exported to the package's external tests.
var Interactions = map[string]string{
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

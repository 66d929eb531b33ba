package discordtest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func mustDecode(t *testing.T, s string) any {
	t.Helper()
	v, err := decodeJSON([]byte(s))
	require.NoError(t, err)
	return v
}

// compileTest compiles root against named schemas, as the operation "root".
func compileTest(t *testing.T, schemas map[string]any, root any) (*openAPI, string) {
	t.Helper()
	o, err := newOpenAPI(schemas, map[string]any{"root": root})
	require.NoError(t, err)
	return o, "root"
}

func TestSchemaKeywords(t *testing.T) {
	schemas := map[string]any{
		"Snowflake": mustDecode(t, `{"type":"string","pattern":"^(0|[1-9][0-9]*)$"}`),
		"Kind":      mustDecode(t, `{"type":"integer","oneOf":[{"const":1},{"const":2}]}`),
	}
	raw := mustDecode(t, `{
		"type":"object",
		"required":["id","kind"],
		"properties":{
			"id":{"$ref":"#/components/schemas/Snowflake"},
			"kind":{"$ref":"#/components/schemas/Kind"},
			"name":{"type":["string","null"],"minLength":1,"maxLength":3},
			"tags":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":2,"uniqueItems":true},
			"n":{"type":"integer","minimum":-5,"maximum":9007199254740991},
			"perms":{"type":["integer","null"],"minimum":0},
			"color":{"enum":["red","blue"]},
			"loc":{"type":"object","additionalProperties":{"type":"string","maxLength":2},"maxProperties":2},
			"either":{"anyOf":[{"type":"string"},{"type":"boolean"}]},
			"both":{"allOf":[{"type":"string"},{"minLength":2}]},
			"strict":{"type":"object","properties":{"a":{"type":"integer"}},"additionalProperties":false}
		}
	}`)
	o, schema := compileTest(t, schemas, raw)
	cases := []struct {
		body string
		want string // substring of the first error, "" for valid
	}{
		{`{"id":"12","kind":1}`, ""},
		{`{"id":"12","kind":1,"name":null,"perms":"8","n":9007199254740991,"loc":{"pl":"ab"},"either":true,"both":"ab","strict":{"a":1}}`, ""},
		{`{"kind":1}`, "id: This field is required"},
		{`{"id":"012","kind":1}`, "id: String value did not match"},
		{`{"id":12,"kind":1}`, "id: Must be of type string"},
		{`{"id":"1","kind":3}`, "kind: Value must be"},
		{`{"id":"1","kind":1.5}`, "kind: Must be of type integer"},
		{`{"id":"1","kind":1,"name":""}`, "name: Must be 1 or more"},
		{`{"id":"1","kind":1,"name":"żółw"}`, "name: Must be 3 or fewer"},
		{`{"id":"1","kind":1,"tags":[]}`, "tags: Must be 1 or more"},
		{`{"id":"1","kind":1,"tags":["a","a"]}`, "tags: Values must be unique"},
		{`{"id":"1","kind":1,"tags":["a",1]}`, "tags.1: Must be of type string"},
		{`{"id":"1","kind":1,"n":-6}`, "n: Value should be greater than or equal to -5"},
		{`{"id":"1","kind":1,"n":9007199254740992}`, "n: Value should be less than or equal to"},
		{`{"id":"1","kind":1,"perms":"-1"}`, "perms: Value should be greater"},
		{`{"id":"1","kind":1,"perms":"eight"}`, "perms: Must be of type integer"},
		{`{"id":"1","kind":1,"color":"green"}`, "color: Value must be one of"},
		{`{"id":"1","kind":1,"loc":{"pl":"abc"}}`, "loc.pl: Must be 2 or fewer"},
		{`{"id":"1","kind":1,"loc":{"a":"","b":"","c":""}}`, "loc: Must be 2 or fewer"},
		{`{"id":"1","kind":1,"either":3}`, "either: Must be of type"},
		{`{"id":"1","kind":1,"both":"a"}`, "both: Must be 2 or more"},
		{`{"id":"1","kind":1,"strict":{"b":1}}`, "strict.b: Field is not allowed"},
	}
	for _, tc := range cases {
		errs := o.validate(schema, mustDecode(t, tc.body), "")
		if tc.want == "" {
			assert.Empty(t, errs, tc.body)
			continue
		}
		if assert.NotEmpty(t, errs, tc.body) {
			assert.Contains(t, errs[0].String(), tc.want, tc.body)
		}
	}
}

func TestUnionPicksTheBranchMeant(t *testing.T) {
	o, schema := compileTest(t, nil, mustDecode(t, `{"oneOf":[
		{"type":"object","properties":{"type":{"enum":[1]},"label":{"type":"string","maxLength":2}},"required":["type"]},
		{"type":"object","properties":{"type":{"enum":[2]},"url":{"type":"string"}},"required":["type","url"]}
	]}`))
	errs := o.validate(schema, mustDecode(t, `{"type":1,"label":"long"}`), "c")
	require.Len(t, errs, 1)
	assert.Equal(t, "c.label: Must be 2 or fewer in length.", errs[0].String())
	errs = o.validate(schema, mustDecode(t, `{"type":2}`), "c")
	require.Len(t, errs, 1)
	assert.Equal(t, "c.url: This field is required", errs[0].String())
	o, both := compileTest(t, nil, mustDecode(t, `{"oneOf":[{"type":"string"},{"maxLength":5}]}`))
	errs = o.validate(both, "abc", "")
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Message, "more than one")
}

// TestSpecAcceptsDiscordgoPayloads checks that what discordgo v0.29.0 sends
// for the calls the bot makes passes the real spec, and that the spec
// catches what it should.
func TestSpecAcceptsDiscordgoPayloads(t *testing.T) {
	path := findSpec()
	if path == "" {
		skipUnlessCI(t, "no shared/discord/openapi.json found")
	}
	o, err := loadSpec(path)
	require.NoError(t, err)
	one := 1
	min := 1.0
	perm := int64(discordgo.PermissionManageGuild)
	payloads := []struct {
		op string
		v  any
	}{
		{"POST /interactions/{interaction_id}/{interaction_token}/callback", discordgo.InteractionResponse{
			Type: 4, Data: &discordgo.InteractionResponseData{Content: "x", Flags: 64, Embeds: []*discordgo.MessageEmbed{{
				Title: "t", Type: "rich", Color: 0xff0000, Timestamp: "2024-01-01T00:00:00Z",
				Fields: []*discordgo.MessageEmbedField{{Name: "a", Value: "b", Inline: true}},
				Footer: &discordgo.MessageEmbedFooter{Text: "f"}, Author: &discordgo.MessageEmbedAuthor{Name: "a"},
			}}, Components: []discordgo.MessageComponent{
				discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					discordgo.Button{Label: "Join", CustomID: "j"},
					discordgo.Button{Label: "Rules", Style: discordgo.LinkButton, URL: "https://example.org"},
					discordgo.Button{Emoji: &discordgo.ComponentEmoji{Name: "🂡"}, CustomID: "e", Disabled: true},
				}},
				discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					discordgo.SelectMenu{CustomID: "s", MinValues: &one, MaxValues: 2, Placeholder: "p", Options: []discordgo.SelectMenuOption{
						{Label: "a", Value: "a", Default: true}, {Label: "b", Value: "b", Description: "d"},
					}},
				}},
			}}}},
		{"POST /interactions/{interaction_id}/{interaction_token}/callback", discordgo.InteractionResponse{Type: 5, Data: &discordgo.InteractionResponseData{Flags: 64}}},
		{"POST /interactions/{interaction_id}/{interaction_token}/callback", discordgo.InteractionResponse{Type: 6}},
		{"POST /interactions/{interaction_id}/{interaction_token}/callback", discordgo.InteractionResponse{Type: 7, Data: &discordgo.InteractionResponseData{Content: "x"}}},
		{"POST /interactions/{interaction_id}/{interaction_token}/callback", discordgo.InteractionResponse{Type: 9, Data: &discordgo.InteractionResponseData{
			CustomID: "m", Title: "Stake", Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.TextInput{CustomID: "amount", Label: "Amount", Style: discordgo.TextInputShort, Required: true, MinLength: 1, MaxLength: 6, Placeholder: "10"},
			}}},
		}}},
		{"POST /webhooks/{webhook_id}/{webhook_token}", discordgo.WebhookParams{Content: "x", Flags: 64}},
		{"PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", discordgo.WebhookEdit{Content: ptr("x"), Embeds: &[]*discordgo.MessageEmbed{}}},
		{"POST /channels/{channel_id}/messages", discordgo.MessageSend{Content: "x", Reference: &discordgo.MessageReference{MessageID: "1"}}},
		{"PATCH /channels/{channel_id}/messages/{message_id}", discordgo.NewMessageEdit("1", "2").SetContent("x")},
		{"PUT /applications/{application_id}/commands", []*discordgo.ApplicationCommand{{
			Name: "pontoon", Description: "Play", DefaultMemberPermissions: &perm,
			NameLocalizations: &map[discordgo.Locale]string{discordgo.Polish: "oczko"},
			Options: []*discordgo.ApplicationCommandOption{
				{Type: 1, Name: "start", Description: "Start"},
				{Type: 2, Name: "bank", Description: "Bank", Options: []*discordgo.ApplicationCommandOption{{
					Type: 1, Name: "sell", Description: "Sell", Options: []*discordgo.ApplicationCommandOption{
						{Type: 6, Name: "member", Description: "Buyer", Required: true},
						{Type: 4, Name: "price", Description: "Price", Required: true, MinValue: &min, MaxValue: 1000},
						{Type: 3, Name: "note", Description: "Note", Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "a", Value: "a"}}},
					},
				}}},
			},
		}}},
	}
	for _, p := range payloads {
		b, err := json.Marshal(p.v)
		require.NoError(t, err)
		v, err := decodeJSON(b)
		require.NoError(t, err)
		assert.Empty(t, o.validateOp(p.op, v), "%s %s", p.op, b)
	}

	bad := []struct{ op, body, want string }{
		{"POST /interactions/{interaction_id}/{interaction_token}/callback", `{"type":4,"data":{"content":"` + strings.Repeat("x", 2001) + `"}}`, "data.content"},
		{"POST /interactions/{interaction_id}/{interaction_token}/callback", `{"type":9,"data":{"custom_id":"m","title":"` + strings.Repeat("t", 46) + `","components":[{"type":1,"components":[{"type":4,"custom_id":"a","style":1,"label":"A"}]}]}}`, "data.title"},
		{"POST /channels/{channel_id}/messages", `{"components":[{"type":1,"components":[{"type":2,"style":9,"custom_id":"x","label":"l"}]}]}`, "components.0.components.0.style"},
		{"POST /channels/{channel_id}/messages", `{"embeds":[{"fields":[{"name":"a"}]}]}`, "embeds.0.fields.0.value"},
		{"PUT /applications/{application_id}/commands", `[{"name":"` + strings.Repeat("p", 33) + `","description":"d"}]`, "0.name"},
	}
	for _, b := range bad {
		errs := o.validateOp(b.op, mustDecode(t, b.body))
		if assert.NotEmpty(t, errs, b.body) {
			assert.Contains(t, errs[0].Path, b.want)
		}
	}
}

func ptr[T any](v T) *T { return &v }

package discordapi

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
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

// variant is an interaction as Discord sends it (fast: the quick path must take it), or
// changed in a way encoding/json and the quick path could read differently (the quick
// path may decline it).
type variant struct {
	name, raw string
	fast      bool
}

func decodeVariants() []variant {
	var out []variant
	for name, raw := range Interactions {
		out = append(out, variant{name, raw, true})
	}
	panel := Interactions["click on a panel"]
	command := Interactions["command with options"]
	change := func(name, base, old, new string, fast bool) {
		if !strings.Contains(base, old) {
			panic("decode variant " + name + ": " + old + " is not in the sample")
		}
		out = append(out, variant{name, strings.Replace(base, old, new, 1), fast})
	}
	// Taken by the quick path, read as encoding/json reads them.
	change("an unknown key", panel, `{"id":"900000000000000100"`, `{"zzz":{"a":[1,2,{"b":null}]},"id":"900000000000000100"`, true)
	change("escapes in a value", panel, `"username":"bob"`, `"username":"b\u006fb\"\\\/\n\ud83c\udca1"`, true)
	change("a null guild locale", panel, `"guild_locale":"en-GB"`, `"guild_locale":null`, true)
	change("spaces", panel, `{"id":"900000000000000100","application_id"`, "{ \"id\" :\n\t\"900000000000000100\" , \"application_id\"", true)
	change("no roles", panel, `"roles":["900000000000000005"]`, `"roles":[]`, true)
	change("two roles", panel, `"roles":["900000000000000005"]`, `"roles":["1","2"]`, true)
	change("null roles", panel, `"roles":["900000000000000005"]`, `"roles":null`, true)
	change("member times", panel, `"flags":0,`+"\n"+`"permissions"`, `"flags":2,"premium_since":"2026-02-01T10:00:00.5+01:00","communication_disabled_until":null,`+"\n"+`"permissions"`, true)
	change("a null message", panel, `"message":{"id":"900000000000000077"`, `"message":null,"zz":{"id":"900000000000000077"`, true)
	change("a key twice inside the message", panel, `"embeds":[{"type":"rich",`, `"embeds":[{"type":"rich","type":"rich",`, true)
	change("a user with every field", panel, `"username":"bob",`, `"username":"bob","email":"b@x","locale":"pl","token":"t","verified":true,"mfa_enabled":false,"banner":"b","accent_color":5,"bot":false,"public_flags":64,"premium_type":2,"system":false,"flags":1,`, true)
	change("resolved members", panel, `"values":["10"]`, `"values":["10"],"resolved":{"users":{"1":{"id":"1","username":"u"}}}`, true)
	change("null values", panel, `"values":["10"]`, `"values":null`, true)
	change("a command's resolved data", command, `"name":"pontoon"`, `"name":"pontoon","guild_id":"1"`, true)
	// Left to encoding/json: each may be read otherwise, or is an error.
	change("a key in another case", panel, `"token":"tok"`, `"TOKEN":"tok"`, false)
	change("a member key in another case", panel, `"nick":"Bobby"`, `"Nick":"Bobby"`, false)
	change("a key twice", panel, `"token":"tok"`, `"token":"tok","token":"tak"`, false)
	// encoding/json merges the second member into the first.
	change("a member twice", panel, `"member":{"user"`, `"member":{"nick":"Other","pending":true},"member":{"user"`, false)
	change("an escaped key", panel, `"token":"tok"`, `"\u0074oken":"tok"`, false)
	change("a fraction", panel, `"type":3,`, `"type":3.0,`, false)
	change("an exponent", panel, `"version":1`, `"version":1e0`, false)
	change("a type out of range", panel, `"type":3,`, `"type":259,`, false)
	change("a negative type", panel, `"type":3,`, `"type":-1,`, false)
	change("permissions as a number", panel, `"app_permissions":"117760"`, `"app_permissions":117760`, false)
	change("permissions with a sign", panel, `"app_permissions":"117760"`, `"app_permissions":"+117760"`, false)
	change("permissions with a leading zero", panel, `"app_permissions":"117760"`, `"app_permissions":"0117760"`, false)
	change("permissions escaped", panel, `"app_permissions":"117760"`, `"app_permissions":"\u0031"`, false)
	change("permissions in words", panel, `"permissions":"2147483647"`, `"permissions":"all"`, false)
	change("something after the value", panel, `"context":0}`, `"context":0} x`, false)
	change("no data", panel, `"data":{"custom_id":"pt:amt:7:3:3:buy","component_type":3,"values":["10"]},`, ``, false)
	change("null data", panel, `"data":{"custom_id":"pt:amt:7:3:3:buy","component_type":3,"values":["10"]},`, `"data":null,`, false)
	change("data of another shape", panel, `"custom_id":"pt:amt:7:3:3:buy"`, `"custom_id":5`, false)
	change("a null role", panel, `"roles":["900000000000000005"]`, `"roles":[null]`, false)
	change("invalid UTF-8 in the message", panel, `"title":"Your hand"`, "\"title\":\"Your \xffhand\"", false)
	change("a bad time", panel, `"joined_at":"2026-01-01T00:00:00.000000+00:00"`, `"joined_at":"yesterday"`, false)
	change("a bool as a string", panel, `"deaf":false`, `"deaf":"false"`, false)
	change("a member that is a list", panel, `"member":{"user"`, `"member":[],"x":{"user"`, false)
	for _, raw := range []string{``, `null`, `[]`, `{`, `{"id":"1"`, `"x"`, `{"type":3,"id":"1"}`} {
		out = append(out, variant{"not an interaction: " + raw, raw, false})
	}
	return out
}

// TestDecodeFastAgrees: whatever the quick path takes, it reads as encoding/json does
// (decodeSlow), and it takes what Discord sends.
func TestDecodeFastAgrees(t *testing.T) {
	for _, v := range decodeVariants() {
		got, ok := decodeFast([]byte(v.raw))
		if v.fast {
			require.True(t, ok, "%s: the quick path declined what Discord sends", v.name)
		}
		if !ok {
			continue
		}
		want, err := decodeSlow([]byte(v.raw))
		require.NoError(t, err, "%s: the quick path took what encoding/json refuses", v.name)
		require.Equal(t, want, got, v.name)
	}
}

// FuzzDecodeFast: the same agreement over mutated inputs (`go test -fuzz
// FuzzDecodeFast ./bot/discordapi`; a plain `go test` runs the variants).
func FuzzDecodeFast(f *testing.F) {
	for _, v := range decodeVariants() {
		f.Add([]byte(v.raw))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, ok := decodeFast(raw)
		if !ok {
			return
		}
		want, err := decodeSlow(raw)
		require.NoError(t, err)
		require.Equal(t, want, got)
	})
}

// BenchmarkDecodePaths is a click on a member's panel down each of DecodeInteraction's
// two paths.
func BenchmarkDecodePaths(b *testing.B) {
	raw := []byte(Interactions["click on a panel"])
	b.Run("quick", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := decodeFast(raw); !ok {
				b.Fatal("declined")
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeSlow(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
}

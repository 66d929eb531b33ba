package discordtest

import (
	"encoding/json"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// BenchmarkSpecCallback measures the OpenAPI check of a typical type 7
// panel update: an embed with fields and two rows of components.
func BenchmarkSpecCallback(b *testing.B) {
	path := findSpec()
	if path == "" {
		b.Skip("no spec")
	}
	o, err := loadSpec(path)
	if err != nil {
		b.Fatal(err)
	}
	resp := discordgo.InteractionResponse{Type: 7, Data: &discordgo.InteractionResponseData{
		Flags: 64,
		Embeds: []*discordgo.MessageEmbed{{Title: "Your hand", Description: "A♠ K♥", Color: 0x2ecc71,
			Fields: []*discordgo.MessageEmbedField{{Name: "Stake", Value: "10", Inline: true}, {Name: "Total", Value: "21", Inline: true}}}},
		Components: []discordgo.MessageComponent{
			discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{Label: "Buy", CustomID: "pontoon:buy:1:2"},
				discordgo.Button{Label: "Twist", CustomID: "pontoon:twist:1:2"},
				discordgo.Button{Label: "Stick", CustomID: "pontoon:stick:1:2"},
			}},
			discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.SelectMenu{CustomID: "pontoon:amount:1:2", Options: []discordgo.SelectMenuOption{
					{Label: "5", Value: "5"}, {Label: "10", Value: "10"}, {Label: "20", Value: "20"},
				}},
			}},
		},
	}}
	raw, _ := json.Marshal(resp)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v, _ := decodeJSON(raw)
		if errs := o.validateOp("POST /interactions/{interaction_id}/{interaction_token}/callback", v); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

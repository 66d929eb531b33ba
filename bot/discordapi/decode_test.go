package discordapi_test

import (
	"encoding/json"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/discordapi"
)

// TestDecodeInteraction: the lean decoder gives what discordgo's decoding gives, with
// the message reduced to its id, channel, guild and flags.
func TestDecodeInteraction(t *testing.T) {
	for name, raw := range discordapi.Interactions {
		var want discordgo.Interaction
		require.NoError(t, json.Unmarshal([]byte(raw), &want), name)
		if m := want.Message; m != nil {
			want.Message = &discordgo.Message{ID: m.ID, ChannelID: m.ChannelID, GuildID: m.GuildID, Flags: m.Flags}
		}
		got, err := discordapi.DecodeInteraction([]byte(raw))
		require.NoError(t, err, name)
		require.Equal(t, &want, got, name)
	}
	got, err := discordapi.DecodeInteraction([]byte(discordapi.Interactions["click on a panel"]))
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
	raw := []byte(discordapi.Interactions["click on a panel"])
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

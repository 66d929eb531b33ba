package discordtest_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/discordtest"
)

// v2 is a Components V2 message of one container holding parts.
func v2(parts ...discordgo.MessageComponent) *discordgo.MessageSend {
	accent := 0x2e7d32
	return &discordgo.MessageSend{Flags: discordgo.MessageFlagsIsComponentsV2, Components: []discordgo.MessageComponent{
		discordgo.Container{AccentColor: &accent, Components: parts}}}
}

// texts is n text displays of size characters each.
func texts(n, size int) []discordgo.MessageComponent {
	var out []discordgo.MessageComponent
	for i := range n {
		out = append(out, discordgo.TextDisplay{Content: strconv.Itoa(i%10) + strings.Repeat("x", size-1)})
	}
	return out
}

// TestComponentsV2MessagesAreHeldToDiscordsLimits: a V2 message is refused where Discord
// refuses it: more than 40 components counting those nested in containers and rows,
// more than 4,000 characters in its text displays together, content or embeds beside the
// flag, a custom id twice, a media item naming a file the message does not hold, and
// what the V2 schemas forbid (an empty text display, an
// accent colour out of range).
func TestComponentsV2MessagesAreHeldToDiscordsLimits(t *testing.T) {
	srv := discordtest.New(t)
	populate(srv)
	s := newSession(t, srv)

	// 1 container + 33 text displays + 1 row + 5 buttons = 40; one more text is 41.
	forty := append(texts(33, 10), row(buttons(5, "a")...))
	fortyOne := append(texts(34, 10), row(buttons(5, "a")...))
	bad := 0x1000000
	cases := []struct {
		name string
		msg  *discordgo.MessageSend
		want string // text the failure must name; "" means accepted
	}{
		{"40 components", v2(forty...), ""},
		{"41 components, the nested counted", v2(fortyOne...), "at most 40 components"},
		{"4000 characters of text", v2(texts(4, 1000)...), ""},
		{"4001 characters of text", v2(append(texts(4, 1000), discordgo.TextDisplay{Content: "x"})...), "at most 4000 characters"},
		{"content with the flag", func() *discordgo.MessageSend {
			m := v2(texts(1, 5)...)
			m.Content = "hello"
			return m
		}(), "content field cannot be used"},
		{"embeds with the flag", func() *discordgo.MessageSend {
			m := v2(texts(1, 5)...)
			m.Embeds = []*discordgo.MessageEmbed{{Title: "t"}}
			return m
		}(), "embeds field cannot be used"},
		{"a custom id twice", v2(row(discordgo.Button{Label: "a", CustomID: "same"}), row(discordgo.Button{Label: "b", CustomID: "same"})), "cannot be duplicated"},
		{"an empty text display", v2(discordgo.TextDisplay{}), "components.0.components.0.content"},
		{"an accent colour out of range", &discordgo.MessageSend{Flags: discordgo.MessageFlagsIsComponentsV2, Components: []discordgo.MessageComponent{
			discordgo.Container{AccentColor: &bad, Components: texts(1, 5)}}}, "accent_color"},
		{"a picture that is not attached", v2(discordgo.MediaGallery{Items: []discordgo.MediaGalleryItem{
			{Media: discordgo.UnfurledMediaItem{URL: "attachment://table.png"}}}}), `No file named "table.png"`},
		{"a container without the flag", &discordgo.MessageSend{Components: []discordgo.MessageComponent{
			discordgo.Container{Components: texts(1, 5)}}}, "components.0.type"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv.ClearFailures()
			msg, err := s.ChannelMessageSendComplex(channelID, tc.msg)
			if tc.want == "" {
				require.NoError(t, err)
				require.NotNil(t, msg)
				assert.True(t, discordtest.V2(msg))
				assert.Empty(t, srv.Failures())
				return
			}
			require.Error(t, err)
			status, code := restCode(t, err)
			assert.Equal(t, 400, status)
			assert.Equal(t, 50035, code)
			fails := srv.Failures()
			require.Len(t, fails, 1)
			assert.Contains(t, fails[0], tc.want)
		})
	}
}

// TestAnEditSetsComponentsV2ButNeverClearsIt: an embed message becomes a V2 message by an
// edit that sets the flag and empties its embeds (Discord's documented upgrade); an edit
// that sets the flag but leaves the embeds is refused; once set, an edit that sends the
// flags without it, or content (even an empty one beside the flag), is refused and the
// message stays as it was.
func TestAnEditSetsComponentsV2ButNeverClearsIt(t *testing.T) {
	srv := discordtest.New(t)
	populate(srv)
	s := newSession(t, srv)

	old, err := s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Title: "table"}},
		Components: []discordgo.MessageComponent{row(buttons(2, "b")...)}})
	require.NoError(t, err)
	require.False(t, discordtest.V2(old))

	comps := v2(texts(1, 20)...).Components
	keepEmbeds := discordgo.NewMessageEdit(channelID, old.ID)
	keepEmbeds.Flags = discordgo.MessageFlagsIsComponentsV2
	keepEmbeds.Components = &comps
	_, err = s.ChannelMessageEditComplex(keepEmbeds)
	require.Error(t, err, "the flag set over embeds left in place")
	assert.Contains(t, strings.Join(srv.Failures(), "\n"), "embeds field cannot be used")
	assert.False(t, discordtest.V2(srv.Message(channelID, old.ID)))
	srv.ClearFailures()

	upgrade := discordgo.NewMessageEdit(channelID, old.ID)
	upgrade.Flags = discordgo.MessageFlagsIsComponentsV2
	upgrade.Components = &comps
	upgrade.Embeds = &[]*discordgo.MessageEmbed{}
	_, err = s.ChannelMessageEditComplex(upgrade)
	require.NoError(t, err)
	now := srv.Message(channelID, old.ID)
	require.True(t, discordtest.V2(now), "the edit made it a V2 message")
	assert.Empty(t, now.Embeds)
	assert.Equal(t, strings.Repeat("x", 19), strings.TrimPrefix(discordtest.Text(now), "\n0"))

	clear := discordgo.NewMessageEdit(channelID, old.ID)
	clear.Flags = discordgo.MessageFlagsSuppressEmbeds
	_, err = s.ChannelMessageEditComplex(clear)
	require.Error(t, err, "the flag cleared")
	status, code := restCode(t, err)
	assert.Equal(t, 400, status)
	assert.Equal(t, 50035, code)
	assert.Contains(t, strings.Join(srv.Failures(), "\n"), "cannot be removed")
	srv.ClearFailures()

	empty := ""
	withEmpty := discordgo.NewMessageEdit(channelID, old.ID)
	withEmpty.Flags = discordgo.MessageFlagsIsComponentsV2
	withEmpty.Content = &empty
	_, err = s.ChannelMessageEditComplex(withEmpty)
	require.Error(t, err, "an empty content beside the flag: Discord asks for null")
	assert.Contains(t, strings.Join(srv.Failures(), "\n"), "content field cannot be used")
	srv.ClearFailures()

	content := "back to text"
	legacy := discordgo.NewMessageEdit(channelID, old.ID)
	legacy.Content = &content
	_, err = s.ChannelMessageEditComplex(legacy)
	require.Error(t, err, "content on a V2 message")
	assert.Contains(t, strings.Join(srv.Failures(), "\n"), "content field cannot be used")
	srv.ClearFailures()

	after := srv.Message(channelID, old.ID)
	assert.True(t, discordtest.V2(after))
	assert.Empty(t, after.Content)
}

package discordapi_test

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/discordapi"
)

// gen makes random messages from every field the hand-written encoder writes, with
// strings that need escaping (quotes, controls, <>&, U+2028, invalid UTF-8, emoji).
type gen struct{ r *rand.Rand }

var pieces = []string{"", "a", "Twist", "Stick ", "\"", "\\", "\n", "\t", "\r", "\x01", "\x1f", "<t:1796040000:R>", "&", "♥♦♣♠", "ł", "🂡",
	"\u2028", "\u2029", "\xff", "\xe2\x82", "é", "\u007f", "pt:act:7:3:3:twist", "10 chips"}

func (g gen) str() string {
	if g.r.IntN(4) == 0 {
		return ""
	}
	var b strings.Builder
	for range g.r.IntN(6) {
		b.WriteString(pieces[g.r.IntN(len(pieces))])
	}
	return b.String()
}

func (g gen) maybe() bool { return g.r.IntN(2) == 0 }

func (g gen) num() int { return []int{0, 0, 1, 7, 1402304, 16777215}[g.r.IntN(6)] }

// v2 makes a Components V2 component: a container of text displays, media galleries,
// separators and rows, or one of those at the top.
func (g gen) v2(depth int) discordgo.MessageComponent {
	switch k := g.r.IntN(5); {
	case k == 0 && depth == 0:
		c := discordgo.Container{ID: g.num(), Spoiler: g.maybe()}
		if g.maybe() {
			a := g.num()
			c.AccentColor = &a
		}
		for range g.r.IntN(5) {
			c.Components = append(c.Components, g.v2(1))
		}
		if g.maybe() {
			return &c
		}
		return c
	case k <= 1:
		t := discordgo.TextDisplay{Content: g.str()}
		if g.maybe() {
			return &t
		}
		return t
	case k == 2:
		m := discordgo.MediaGallery{ID: g.num()}
		for range g.r.IntN(3) {
			it := discordgo.MediaGalleryItem{Media: discordgo.UnfurledMediaItem{URL: "attachment://" + g.str()}, Spoiler: g.maybe()}
			if g.maybe() {
				d := g.str()
				it.Description = &d
			}
			m.Items = append(m.Items, it)
		}
		if g.maybe() {
			return &m
		}
		return m
	case k == 3:
		s := discordgo.Separator{ID: g.num()}
		if g.maybe() {
			d := g.maybe()
			s.Divider = &d
		}
		if g.maybe() {
			sp := discordgo.SeparatorSpacingSize(1 + g.r.IntN(2))
			s.Spacing = &sp
		}
		if g.maybe() {
			return &s
		}
		return s
	default:
		return g.component(0)
	}
}

func (g gen) component(depth int) discordgo.MessageComponent {
	switch k := g.r.IntN(5); {
	case k == 0 && depth == 0:
		row := discordgo.ActionsRow{ID: g.num()}
		for range g.r.IntN(5) {
			row.Components = append(row.Components, g.component(1))
		}
		if g.maybe() {
			return &row
		}
		return row
	case k <= 1:
		b := discordgo.Button{Label: g.str(), Style: discordgo.ButtonStyle(g.r.IntN(5)), Disabled: g.maybe(), CustomID: g.str(), ID: g.num()}
		if g.r.IntN(5) == 0 {
			b.URL = "https://example.com/" + g.str()
		}
		if g.maybe() {
			return &b
		}
		return b
	case k <= 3:
		s := discordgo.SelectMenu{CustomID: g.str(), Placeholder: g.str(), MaxValues: g.num(), Disabled: g.maybe(), ID: g.num()}
		if g.maybe() {
			s.MenuType = discordgo.StringSelectMenu
		}
		if g.maybe() {
			n := g.r.IntN(3)
			s.MinValues = &n
		}
		for range g.r.IntN(4) {
			s.Options = append(s.Options, discordgo.SelectMenuOption{Label: g.str(), Value: g.str(), Description: g.str(), Default: g.maybe()})
		}
		if g.maybe() {
			return &s
		}
		return s
	default:
		t := discordgo.TextInput{CustomID: g.str(), Label: g.str(), Style: discordgo.TextInputStyle(1 + g.r.IntN(2)), Placeholder: g.str(),
			Value: g.str(), Required: g.maybe(), MinLength: g.num(), MaxLength: g.num(), ID: g.num()}
		if g.maybe() {
			return &t
		}
		return t
	}
}

func (g gen) components() []discordgo.MessageComponent {
	if g.r.IntN(5) == 0 {
		return nil
	}
	cs := []discordgo.MessageComponent{}
	v2 := g.r.IntN(3) == 0
	for range g.r.IntN(4) {
		if v2 {
			cs = append(cs, g.v2(0))
		} else {
			cs = append(cs, g.component(0))
		}
	}
	return cs
}

func (g gen) embeds() []*discordgo.MessageEmbed {
	if g.r.IntN(5) == 0 {
		return nil
	}
	es := []*discordgo.MessageEmbed{}
	for range g.r.IntN(3) {
		e := &discordgo.MessageEmbed{URL: g.str(), Title: g.str(), Description: g.str(), Timestamp: g.str(), Color: g.num()}
		if g.maybe() {
			e.Type = discordgo.EmbedTypeRich
		}
		if g.maybe() {
			e.Footer = &discordgo.MessageEmbedFooter{Text: g.str(), IconURL: g.str(), ProxyIconURL: g.str()}
		}
		if g.maybe() {
			e.Image = &discordgo.MessageEmbedImage{URL: g.str(), ProxyURL: g.str(), Width: g.num(), Height: g.num()}
		}
		if g.maybe() {
			e.Thumbnail = &discordgo.MessageEmbedThumbnail{URL: g.str(), Width: g.num()}
		}
		if g.maybe() {
			e.Author = &discordgo.MessageEmbedAuthor{Name: g.str(), URL: g.str(), IconURL: g.str()}
		}
		for range g.r.IntN(3) {
			e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: g.str(), Value: g.str(), Inline: g.maybe()})
		}
		es = append(es, e)
	}
	return es
}

func (g gen) mentions() *discordgo.MessageAllowedMentions {
	switch g.r.IntN(3) {
	case 0:
		return nil
	case 1:
		return &discordgo.MessageAllowedMentions{}
	}
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{discordgo.AllowedMentionTypeUsers},
		Roles: []string{g.str()}, Users: []string{"1", g.str()}, RepliedUser: g.maybe()}
}

func (g gen) response() *discordgo.InteractionResponse {
	r := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseType([]int{0, 4, 6, 7, 9}[g.r.IntN(5)])}
	if g.r.IntN(6) == 0 {
		return r
	}
	r.Data = &discordgo.InteractionResponseData{TTS: g.maybe(), Content: g.str(), Components: g.components(), Embeds: g.embeds(),
		AllowedMentions: g.mentions(), CustomID: g.str(), Title: g.str()}
	if g.maybe() {
		r.Data.Flags = discordgo.MessageFlagsEphemeral
	}
	if g.maybe() {
		r.Data.Flags |= discordgo.MessageFlagsIsComponentsV2
	}
	return r
}

func (g gen) edit() *discordgo.MessageEdit {
	e := discordgo.NewMessageEdit("900000000000000002", "900000000000000003")
	if g.maybe() {
		c := g.str()
		e.Content = &c
	}
	if g.maybe() {
		cs := g.components()
		e.Components = &cs
	}
	if g.maybe() {
		es := g.embeds()
		e.Embeds = &es
	}
	e.AllowedMentions = g.mentions()
	if g.r.IntN(4) == 0 {
		e.Flags = discordgo.MessageFlagsSuppressEmbeds
	}
	if g.maybe() {
		e.Flags |= discordgo.MessageFlagsIsComponentsV2
	}
	return e
}

// decoded is JSON as a tree, for comparing two encodings of one value.
func decoded(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(b, &v), "%s", b)
	return v
}

// TestWireMatchesDiscordgo: the hand-written encoder writes the same JSON as
// discordgo's encoding (through encoding/json and its MarshalJSON methods) for
// thousands of random responses and edits over every field it writes.
func TestWireMatchesDiscordgo(t *testing.T) {
	g := gen{rand.New(rand.NewPCG(1, 2))}
	for n := range 3000 {
		r := g.response()
		want, err := json.Marshal(r)
		require.NoError(t, err)
		got, ok := discordapi.AppendResponse(nil, r)
		require.True(t, ok, "response %d", n)
		require.True(t, json.Valid(got), "response %d: %s", n, got)
		wr := decoded(t, want)
		if r.Data != nil && r.Data.Content == "" && r.Data.Flags&discordgo.MessageFlagsIsComponentsV2 != 0 {
			// Discord refuses an empty content beside the V2 flag: the encoder leaves it out.
			delete(wr.(map[string]any)["data"].(map[string]any), "content")
		}
		require.Equal(t, wr, decoded(t, got), "response %d", n)

		e := g.edit()
		want, err = json.Marshal(e)
		require.NoError(t, err)
		w := decoded(t, want).(map[string]any)
		delete(w, "ID") // discordgo sends its untagged fields too; they mean nothing to Discord
		delete(w, "Channel")
		got, ok = discordapi.AppendEdit(nil, e)
		require.True(t, ok, "edit %d", n)
		require.Equal(t, w, decoded(t, got), "edit %d", n)
	}
}

// TestWireDeclinesWhatItDoesNotWrite: a file, a poll, autocomplete choices, an
// emoji, a component of another kind: the encoder declines (the caller then uses
// discordgo's encoding) and leaves the buffer as it was.
func TestWireDeclinesWhatItDoesNotWrite(t *testing.T) {
	row := func(c discordgo.MessageComponent) []discordgo.MessageComponent {
		return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{c}}}
	}
	cases := map[string]*discordgo.InteractionResponseData{
		"file":     {Files: []*discordgo.File{{Name: "a.png"}}},
		"poll":     {Poll: &discordgo.Poll{}},
		"choices":  {Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "a", Value: "a"}}},
		"emoji":    {Components: row(discordgo.Button{Label: "a", Emoji: &discordgo.ComponentEmoji{Name: "🂡"}})},
		"option":   {Components: row(discordgo.SelectMenu{Options: []discordgo.SelectMenuOption{{Value: "a", Emoji: &discordgo.ComponentEmoji{Name: "x"}}}})},
		"kind":     {Components: []discordgo.MessageComponent{discordgo.Section{Components: []discordgo.MessageComponent{discordgo.TextDisplay{Content: "a"}}}}},
		"nil":      {Components: row(nil)},
		"video":    {Embeds: []*discordgo.MessageEmbed{{Video: &discordgo.MessageEmbedVideo{URL: "a"}}}},
		"defaults": {Components: row(discordgo.SelectMenu{DefaultValues: []discordgo.SelectMenuDefaultValue{{ID: "1"}}})},
	}
	for name, d := range cases {
		prefix := []byte("kept")
		got, ok := discordapi.AppendResponse(prefix, &discordgo.InteractionResponse{Type: 4, Data: d})
		assert.False(t, ok, name)
		assert.Equal(t, "kept", string(got), name)
		// MarshalResponse then gives discordgo's encoding.
		r := &discordgo.InteractionResponse{Type: 4, Data: d}
		want, err := json.Marshal(r)
		require.NoError(t, err)
		body, err := discordapi.MarshalResponse(r)
		require.NoError(t, err)
		assert.JSONEq(t, string(want), string(body), name)
	}
	e := discordgo.NewMessageEdit("1", "2")
	e.Attachments = &[]*discordgo.MessageAttachment{}
	_, ok := discordapi.AppendEdit(nil, e)
	assert.False(t, ok, "attachments")
}

// BenchmarkWire compares the two encodings of a member's panel as the bot answers a
// click: a Components V2 container of the panel's text and two rows, one of four
// buttons and one a 25-option select.
func BenchmarkWire(b *testing.B) {
	opts := make([]discordgo.SelectMenuOption, 25)
	for i := range opts {
		opts[i] = discordgo.SelectMenuOption{Label: "10 chips", Value: "10"}
	}
	accent := 0x1565c0
	r := &discordgo.InteractionResponse{Type: 7, Data: &discordgo.InteractionResponseData{
		Components: []discordgo.MessageComponent{discordgo.Container{AccentColor: &accent, Components: []discordgo.MessageComponent{
			discordgo.TextDisplay{Content: "### Your hand\n## ▶ Hand 1: 8♥ 9♦ — 17\nstake 10 · shoot 20\nFree chips: 240\nYour decision (turn ends <t:1796040000:R>):"},
			discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{Label: "Twist", Style: 1, CustomID: "pt:act:7:3:3:twist"}, discordgo.Button{Label: "Stick", Style: 2, CustomID: "pt:act:7:3:3:stick"},
				discordgo.Button{Label: "Hint", Style: 2, CustomID: "pt:hint:7:3:0:"}, discordgo.Button{Label: "Refresh", Style: 2, CustomID: "pt:cards:7:3:0:"}}},
			discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{CustomID: "pt:amt:7:3:3:buy", Placeholder: "Buy", Options: opts}}},
		}}},
		Embeds:          []*discordgo.MessageEmbed{},
		AllowedMentions: &discordgo.MessageAllowedMentions{}, Flags: discordgo.MessageFlagsEphemeral | discordgo.MessageFlagsIsComponentsV2}}
	b.Run("discordgo", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("wire", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			buf, _ = discordapi.AppendResponse(buf[:0], r)
		}
	})
}

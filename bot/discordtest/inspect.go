package discordtest

import (
	"strings"

	"github.com/bwmarrin/discordgo"
)

// Text is everything a message shows a member: content, embed titles, descriptions,
// field names and values, and footers, and the text displays of a Components V2 message
// (in containers and sections too), one per line. Tests match on it.
func Text(m *discordgo.Message) string {
	if m == nil {
		return ""
	}
	parts := []string{m.Content}
	for _, e := range m.Embeds {
		parts = append(parts, e.Title, e.Description)
		for _, f := range e.Fields {
			parts = append(parts, f.Name, f.Value)
		}
		if e.Footer != nil {
			parts = append(parts, e.Footer.Text)
		}
	}
	var walk func(cs []discordgo.MessageComponent)
	walk = func(cs []discordgo.MessageComponent) {
		for _, c := range cs {
			switch v := c.(type) {
			case *discordgo.TextDisplay:
				parts = append(parts, v.Content)
			case *discordgo.Container:
				walk(v.Components)
			case *discordgo.Section:
				walk(v.Components)
			}
		}
	}
	walk(m.Components)
	return strings.Join(parts, "\n")
}

// Components lists a message's buttons and selects, out of their action rows, and out
// of the containers and sections of a Components V2 message; the V2 message's text,
// media and separators are not among them (Text reads the text).
func Components(m *discordgo.Message) []discordgo.MessageComponent {
	var out []discordgo.MessageComponent
	var walk func(cs []discordgo.MessageComponent)
	walk = func(cs []discordgo.MessageComponent) {
		for _, c := range cs {
			switch v := c.(type) {
			case *discordgo.ActionsRow:
				walk(v.Components)
			case discordgo.ActionsRow:
				walk(v.Components)
			case *discordgo.Container:
				walk(v.Components)
			case *discordgo.Section:
				walk(v.Components)
				if v.Accessory != nil {
					walk([]discordgo.MessageComponent{v.Accessory})
				}
			case *discordgo.TextDisplay, *discordgo.MediaGallery, *discordgo.Separator, *discordgo.FileComponent, *discordgo.Thumbnail:
			default:
				out = append(out, c)
			}
		}
	}
	if m != nil {
		walk(m.Components)
	}
	return out
}

// V2 reports whether m is a Components V2 message (IS_COMPONENTS_V2).
func V2(m *discordgo.Message) bool {
	return m != nil && m.Flags&discordgo.MessageFlagsIsComponentsV2 != 0
}

// CustomID finds the custom id of a button or select on m that starts with prefix and
// ends with suffix.
func CustomID(m *discordgo.Message, prefix, suffix string) (string, bool) {
	for _, c := range Components(m) {
		var id string
		switch v := c.(type) {
		case *discordgo.Button:
			id = v.CustomID
		case *discordgo.SelectMenu:
			id = v.CustomID
		}
		if strings.HasPrefix(id, prefix) && strings.HasSuffix(id, suffix) {
			return id, true
		}
	}
	return "", false
}

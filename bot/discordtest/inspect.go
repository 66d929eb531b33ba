package discordtest

import (
	"strings"

	"github.com/bwmarrin/discordgo"
)

// Text is everything a message shows a member: content, embed titles, descriptions,
// field names and values, and footers, one per line. Tests match on it.
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
	return strings.Join(parts, "\n")
}

// Components lists a message's buttons and selects, out of their action rows.
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

package discordapi

import (
	"context"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// The bodies the bot sends on every click, written by hand.
//
// An interaction's answer and a table message's edit are the bot's two calls per click.
// discordgo turns them into JSON with encoding/json, which reaches each component
// through its MarshalJSON method, and each of those marshals a wrapper struct again by
// reflection: under load that was about a twentieth of the bot's CPU for a few KB of
// JSON. The bot's messages use a small, fixed part of the schema (content, embeds,
// action rows of buttons, string selects and text inputs, the Components V2 container,
// text displays, media galleries and separators of the table and panels, allowed
// mentions, flags), so that part is written here directly, field for field as
// discordgo's tags write it. Anything outside it (files, polls, autocomplete choices,
// other components such as sections and thumbnails, an emoji)
// makes the encoder decline, and the caller falls back to discordgo's own encoding:
// the result on the wire is the same JSON either way (TestWireMatchesDiscordgo), but
// for the empty content of a Components V2 answer, which is left out here.

// wireFields lists, for each discordgo struct the encoder writes, every field of it
// the encoder accounts for: written as discordgo's tag writes it, or declined (the
// caller then falls back to discordgo's encoding) when set. A field discordgo adds in
// an upgrade would otherwise be dropped from the wire without a word;
// TestWireKnowsEveryFieldOfDiscordgosStructs compares this list with the structs.
var wireFields = map[string][]string{
	"InteractionResponse": {"Type", "Data"},
	"InteractionResponseData": {"TTS", "Content", "Components", "Embeds", "AllowedMentions", "Files", "Attachments",
		"Poll", "Flags", "Choices", "CustomID", "Title"},
	// ID and Channel name the message in the URL; Embed is the deprecated single embed.
	"MessageEdit":            {"Content", "Components", "Embeds", "AllowedMentions", "Flags", "Files", "Attachments", "ID", "Channel", "Embed"},
	"MessageAllowedMentions": {"Parse", "Roles", "Users", "RepliedUser"},
	"ActionsRow":             {"Components", "ID"},
	"Button":                 {"Label", "Style", "Disabled", "Emoji", "URL", "CustomID", "SKUID", "ID"},
	// MenuType is written as Type() reads it.
	"SelectMenu":            {"MenuType", "CustomID", "Placeholder", "MinValues", "MaxValues", "DefaultValues", "Options", "Disabled", "ChannelTypes", "ID"},
	"SelectMenuOption":      {"Label", "Value", "Description", "Emoji", "Default"},
	"TextInput":             {"CustomID", "Label", "Style", "Placeholder", "Value", "Required", "MinLength", "MaxLength", "ID"},
	"Container":             {"ID", "AccentColor", "Spoiler", "Components"},
	"TextDisplay":           {"Content"},
	"MediaGallery":          {"ID", "Items"},
	"MediaGalleryItem":      {"Media", "Description", "Spoiler"},
	"UnfurledMediaItem":     {"URL"},
	"Separator":             {"ID", "Divider", "Spacing"},
	"MessageEmbed":          {"URL", "Type", "Title", "Description", "Timestamp", "Color", "Footer", "Image", "Thumbnail", "Video", "Provider", "Author", "Fields"},
	"MessageEmbedFooter":    {"Text", "IconURL", "ProxyIconURL"},
	"MessageEmbedImage":     {"URL", "ProxyURL", "Width", "Height"},
	"MessageEmbedThumbnail": {"URL", "ProxyURL", "Width", "Height"},
	"MessageEmbedAuthor":    {"URL", "Name", "IconURL", "ProxyIconURL"},
	"MessageEmbedField":     {"Name", "Value", "Inline"},
}

// Answer posts an interaction's initial response as discordgo's InteractionRespond
// would, to the same endpoint in the same rate-limit bucket, with the body from
// MarshalResponse; an answer with files goes through discordgo (multipart).
func Answer(ctx context.Context, s *discordgo.Session, i *discordgo.Interaction, r *discordgo.InteractionResponse) error {
	if r.Data != nil && len(r.Data.Files) > 0 {
		return s.InteractionRespond(i, r, discordgo.WithContext(ctx)) // multipart
	}
	body, err := MarshalResponse(r)
	if err != nil {
		return err
	}
	ep := discordgo.EndpointInteractionResponse(i.ID, i.Token)
	_, err = s.RequestRaw("POST", ep, "application/json", body, ep, 0, discordgo.WithContext(ctx))
	return err
}

// MarshalResponse is r as the JSON body of an answer without files: written by
// AppendResponse when it can be, else by encoding/json as discordgo would.
func MarshalResponse(r *discordgo.InteractionResponse) ([]byte, error) {
	if b, ok := AppendResponse(nil, r); ok {
		return b, nil
	}
	return json.Marshal(r)
}

// Edit sends a message edit without files as discordgo's ChannelMessageEditComplex
// would, in the same bucket, but without decoding the message Discord sends back: the
// bot has no use for it, and decoding it was a large share of an edit's CPU.
func Edit(ctx context.Context, s *discordgo.Session, e *discordgo.MessageEdit) error {
	ep := discordgo.EndpointChannelMessage(e.Channel, e.ID)
	bucket := discordgo.EndpointChannelMessage(e.Channel, "")
	body, ok := AppendEdit(nil, e)
	if !ok {
		_, err := s.RequestWithBucketID("PATCH", ep, e, bucket, discordgo.WithContext(ctx))
		return err
	}
	_, err := s.RequestRaw("PATCH", ep, "application/json", body, bucket, 0, discordgo.WithContext(ctx))
	return err
}

// AppendResponse appends r as JSON to b. ok is false, and b is returned unchanged, when
// r holds something the hand-written encoder does not write; the caller then encodes it
// with encoding/json.
func AppendResponse(b []byte, r *discordgo.InteractionResponse) ([]byte, bool) {
	w := wire{b: b}
	w.b = append(w.b, '{')
	if r.Type != 0 {
		w.key("type")
		w.b = strconv.AppendInt(w.b, int64(r.Type), 10)
	}
	if d := r.Data; d != nil {
		if len(d.Files) > 0 || d.Attachments != nil || d.Poll != nil || len(d.Choices) > 0 {
			return b, false
		}
		w.key("data")
		w.b = append(w.b, '{')
		w.key("tts")
		w.bool(d.TTS)
		if d.Content != "" || d.Flags&discordgo.MessageFlagsIsComponentsV2 == 0 {
			// Beside IS_COMPONENTS_V2 Discord takes no content, not even an empty one
			// (it asks for null), so the empty content discordgo would write is left out.
			w.key("content")
			w.string(d.Content)
		}
		w.key("components")
		w.components(d.Components)
		w.key("embeds")
		w.embeds(d.Embeds)
		if d.AllowedMentions != nil {
			w.key("allowed_mentions")
			w.mentions(d.AllowedMentions)
		}
		if d.Flags != 0 {
			w.key("flags")
			w.b = strconv.AppendInt(w.b, int64(d.Flags), 10)
		}
		if d.CustomID != "" {
			w.key("custom_id")
			w.string(d.CustomID)
		}
		if d.Title != "" {
			w.key("title")
			w.string(d.Title)
		}
		w.b = append(w.b, '}')
	}
	w.b = append(w.b, '}')
	if w.bad {
		return b, false
	}
	return w.b, true
}

// AppendEdit appends the body of a message edit to b, as AppendResponse does. It
// leaves out discordgo's untagged ID and Channel fields, which name the message in the
// URL and mean nothing in the body.
func AppendEdit(b []byte, e *discordgo.MessageEdit) ([]byte, bool) {
	if len(e.Files) > 0 || e.Attachments != nil || e.Embed != nil {
		return b, false
	}
	w := wire{b: b}
	w.b = append(w.b, '{')
	if e.Content != nil {
		w.key("content")
		w.string(*e.Content)
	}
	if e.Components != nil {
		w.key("components")
		w.components(*e.Components)
	}
	if e.Embeds != nil {
		w.key("embeds")
		w.embeds(*e.Embeds)
	}
	if e.AllowedMentions != nil {
		w.key("allowed_mentions")
		w.mentions(e.AllowedMentions)
	}
	if e.Flags != 0 {
		w.key("flags")
		w.b = strconv.AppendInt(w.b, int64(e.Flags), 10)
	}
	w.b = append(w.b, '}')
	if w.bad {
		return b, false
	}
	return w.b, true
}

// wire writes one JSON value; bad records that something could not be written.
type wire struct {
	b   []byte
	bad bool
}

// key starts an object member: a comma unless it is the object's first.
func (w *wire) key(k string) {
	if n := len(w.b); n > 0 && w.b[n-1] != '{' && w.b[n-1] != '[' {
		w.b = append(w.b, ',')
	}
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, '"', ':')
}

// elem starts an array element.
func (w *wire) elem() {
	if n := len(w.b); n > 0 && w.b[n-1] != '[' {
		w.b = append(w.b, ',')
	}
}

func (w *wire) bool(v bool) {
	if v {
		w.b = append(w.b, "true"...)
	} else {
		w.b = append(w.b, "false"...)
	}
}

func (w *wire) int(v int) { w.b = strconv.AppendInt(w.b, int64(v), 10) }

const hexDigits = "0123456789abcdef"

// string writes s as a JSON string the way encoding/json does: ", \ and control
// characters escaped, <, > and & as \u escapes, U+2028 and U+2029 escaped, and each
// byte of invalid UTF-8 as U+FFFD.
func (w *wire) string(s string) {
	b := append(w.b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	w.b = append(b, '"')
}

// array writes xs as a JSON array, each element by each; a nil slice is null, as
// encoding/json writes it.
func array[T any](w *wire, xs []T, each func(T)) {
	if xs == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.b = append(w.b, '[')
	for _, x := range xs {
		w.elem()
		each(x)
	}
	w.b = append(w.b, ']')
}

func (w *wire) mentions(m *discordgo.MessageAllowedMentions) {
	w.b = append(w.b, '{')
	w.key("parse")
	array(w, m.Parse, func(p discordgo.AllowedMentionType) { w.string(string(p)) })
	if len(m.Roles) > 0 {
		w.key("roles")
		array(w, m.Roles, w.string)
	}
	if len(m.Users) > 0 {
		w.key("users")
		array(w, m.Users, w.string)
	}
	w.key("replied_user")
	w.bool(m.RepliedUser)
	w.b = append(w.b, '}')
}

func (w *wire) components(cs []discordgo.MessageComponent) { array(w, cs, w.component) }

func (w *wire) component(c discordgo.MessageComponent) {
	switch v := c.(type) {
	case discordgo.ActionsRow:
		w.row(&v)
	case *discordgo.ActionsRow:
		w.row(v)
	case discordgo.Button:
		w.button(&v)
	case *discordgo.Button:
		w.button(v)
	case discordgo.SelectMenu:
		w.selectMenu(&v)
	case *discordgo.SelectMenu:
		w.selectMenu(v)
	case discordgo.TextInput:
		w.textInput(&v)
	case *discordgo.TextInput:
		w.textInput(v)
	case discordgo.Container:
		w.container(&v)
	case *discordgo.Container:
		w.container(v)
	case discordgo.TextDisplay:
		w.textDisplay(&v)
	case *discordgo.TextDisplay:
		w.textDisplay(v)
	case discordgo.MediaGallery:
		w.mediaGallery(&v)
	case *discordgo.MediaGallery:
		w.mediaGallery(v)
	case discordgo.Separator:
		w.separator(&v)
	case *discordgo.Separator:
		w.separator(v)
	default:
		w.bad = true // a component this encoder does not know (or nil)
		w.b = append(w.b, "null"...)
	}
}

func (w *wire) row(r *discordgo.ActionsRow) {
	if r == nil {
		w.bad = true
		return
	}
	w.b = append(w.b, '{')
	w.key("components")
	w.components(r.Components)
	w.optInt("id", r.ID)
	w.key("type")
	w.int(int(discordgo.ActionsRowComponent))
	w.b = append(w.b, '}')
}

func (w *wire) button(b *discordgo.Button) {
	if b == nil || b.Emoji != nil {
		w.bad = true
		return
	}
	style := b.Style
	if style == 0 {
		style = discordgo.PrimaryButton // as Button.MarshalJSON does
	}
	w.b = append(w.b, '{')
	w.key("label")
	w.string(b.Label)
	w.key("style")
	w.int(int(style))
	w.key("disabled")
	w.bool(b.Disabled)
	w.optString("url", b.URL)
	w.optString("custom_id", b.CustomID)
	w.optString("sku_id", b.SKUID)
	w.optInt("id", b.ID)
	w.key("type")
	w.int(int(discordgo.ButtonComponent))
	w.b = append(w.b, '}')
}

func (w *wire) selectMenu(s *discordgo.SelectMenu) {
	if s == nil || len(s.DefaultValues) > 0 || len(s.ChannelTypes) > 0 {
		w.bad = true
		return
	}
	w.b = append(w.b, '{')
	// SelectMenu.MarshalJSON's outer "type" hides the struct's own: one type, Type()'s.
	w.optString("custom_id", s.CustomID)
	w.key("placeholder")
	w.string(s.Placeholder)
	if s.MinValues != nil {
		w.key("min_values")
		w.int(*s.MinValues)
	}
	w.optInt("max_values", s.MaxValues)
	if len(s.Options) > 0 {
		w.key("options")
		w.b = append(w.b, '[')
		for i := range s.Options {
			o := &s.Options[i]
			if o.Emoji != nil {
				w.bad = true
			}
			w.elem()
			w.b = append(w.b, '{')
			if o.Label != "" {
				w.key("label")
				w.string(o.Label)
			}
			w.key("value")
			w.string(o.Value)
			w.key("description")
			w.string(o.Description)
			w.key("default")
			w.bool(o.Default)
			w.b = append(w.b, '}')
		}
		w.b = append(w.b, ']')
	}
	w.key("disabled")
	w.bool(s.Disabled)
	w.optInt("id", s.ID)
	w.key("type")
	w.int(int(s.Type()))
	w.b = append(w.b, '}')
}

func (w *wire) textInput(t *discordgo.TextInput) {
	if t == nil {
		w.bad = true
		return
	}
	w.b = append(w.b, '{')
	w.key("custom_id")
	w.string(t.CustomID)
	w.key("label")
	w.string(t.Label)
	w.key("style")
	w.int(int(t.Style))
	w.optString("placeholder", t.Placeholder)
	w.optString("value", t.Value)
	w.key("required")
	w.bool(t.Required)
	w.optInt("min_length", t.MinLength)
	w.optInt("max_length", t.MaxLength)
	w.optInt("id", t.ID)
	w.key("type")
	w.int(int(discordgo.TextInputComponent))
	w.b = append(w.b, '}')
}

// container, textDisplay, mediaGallery and separator write the Components V2 layout
// the table and the panels use (see view.Message).
func (w *wire) container(c *discordgo.Container) {
	if c == nil {
		w.bad = true
		return
	}
	w.b = append(w.b, '{')
	w.optInt("id", c.ID)
	if c.AccentColor != nil {
		w.key("accent_color")
		w.int(*c.AccentColor)
	}
	w.key("spoiler")
	w.bool(c.Spoiler)
	w.key("components")
	w.components(c.Components)
	w.key("type")
	w.int(int(discordgo.ContainerComponent))
	w.b = append(w.b, '}')
}

func (w *wire) textDisplay(t *discordgo.TextDisplay) {
	if t == nil {
		w.bad = true
		return
	}
	w.b = append(w.b, '{')
	w.key("content")
	w.string(t.Content)
	w.key("type")
	w.int(int(discordgo.TextDisplayComponent))
	w.b = append(w.b, '}')
}

func (w *wire) mediaGallery(m *discordgo.MediaGallery) {
	if m == nil {
		w.bad = true
		return
	}
	w.b = append(w.b, '{')
	w.optInt("id", m.ID)
	w.key("items")
	array(w, m.Items, func(it discordgo.MediaGalleryItem) {
		w.b = append(w.b, '{')
		w.key("media")
		w.b = append(w.b, '{')
		w.key("url")
		w.string(it.Media.URL)
		w.b = append(w.b, '}')
		if it.Description != nil {
			w.key("description")
			w.string(*it.Description)
		}
		w.key("spoiler")
		w.bool(it.Spoiler)
		w.b = append(w.b, '}')
	})
	w.key("type")
	w.int(int(discordgo.MediaGalleryComponent))
	w.b = append(w.b, '}')
}

func (w *wire) separator(s *discordgo.Separator) {
	if s == nil {
		w.bad = true
		return
	}
	w.b = append(w.b, '{')
	w.optInt("id", s.ID)
	if s.Divider != nil {
		w.key("divider")
		w.bool(*s.Divider)
	}
	if s.Spacing != nil {
		w.key("spacing")
		w.int(int(*s.Spacing))
	}
	w.key("type")
	w.int(int(discordgo.SeparatorComponent))
	w.b = append(w.b, '}')
}

func (w *wire) embeds(es []*discordgo.MessageEmbed) { array(w, es, w.embed) }

func (w *wire) embed(e *discordgo.MessageEmbed) {
	if e == nil {
		w.b = append(w.b, "null"...)
		return
	}
	if e.Video != nil || e.Provider != nil {
		w.bad = true
	}
	w.b = append(w.b, '{')
	w.optString("url", e.URL)
	w.optString("type", string(e.Type))
	w.optString("title", e.Title)
	w.optString("description", e.Description)
	w.optString("timestamp", e.Timestamp)
	w.optInt("color", e.Color)
	if f := e.Footer; f != nil {
		w.key("footer")
		w.b = append(w.b, '{')
		w.optString("text", f.Text)
		w.optString("icon_url", f.IconURL)
		w.optString("proxy_icon_url", f.ProxyIconURL)
		w.b = append(w.b, '}')
	}
	if im := e.Image; im != nil {
		w.key("image")
		w.media(im.URL, im.ProxyURL, im.Width, im.Height)
	}
	if th := e.Thumbnail; th != nil {
		w.key("thumbnail")
		w.media(th.URL, th.ProxyURL, th.Width, th.Height)
	}
	if a := e.Author; a != nil {
		w.key("author")
		w.b = append(w.b, '{')
		w.optString("url", a.URL)
		w.key("name")
		w.string(a.Name)
		w.optString("icon_url", a.IconURL)
		w.optString("proxy_icon_url", a.ProxyIconURL)
		w.b = append(w.b, '}')
	}
	if len(e.Fields) > 0 {
		w.key("fields")
		w.b = append(w.b, '[')
		for _, f := range e.Fields {
			w.elem()
			if f == nil {
				w.b = append(w.b, "null"...)
				continue
			}
			w.b = append(w.b, '{')
			w.key("name")
			w.string(f.Name)
			w.key("value")
			w.string(f.Value)
			if f.Inline {
				w.key("inline")
				w.bool(true)
			}
			w.b = append(w.b, '}')
		}
		w.b = append(w.b, ']')
	}
	w.b = append(w.b, '}')
}

func (w *wire) media(url, proxy string, width, height int) {
	w.b = append(w.b, '{')
	w.key("url")
	w.string(url)
	w.optString("proxy_url", proxy)
	if width != 0 {
		w.key("width")
		w.int(width)
	}
	if height != 0 {
		w.key("height")
		w.int(height)
	}
	w.b = append(w.b, '}')
}

// optString and optInt write a member left out when empty, as omitempty does.
func (w *wire) optString(k, v string) {
	if v != "" {
		w.key(k)
		w.string(v)
	}
}

func (w *wire) optInt(k string, v int) {
	if v != 0 {
		w.key(k)
		w.int(v)
	}
}

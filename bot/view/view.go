package view

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/i18n"
	"github.com/pontoon-bot/pontoon/bot/table"
	"github.com/pontoon-bot/pontoon/game"
)

// Message is a rendered Discord message. It is always sent whole: discordgo serializes a
// type 7 update with "embeds": null, so a partial update would erase the embeds.
//
// V2 says Components is a Components V2 layout (one Container holding text displays, the
// picture and the buttons): the message goes with the IS_COMPONENTS_V2 flag and neither
// content nor embeds, which Discord refuses beside the flag. Once a message carries the
// flag every later version of it must too: Discord cannot clear it.
type Message struct {
	Content    string
	Embeds     []*discordgo.MessageEmbed
	Components []discordgo.MessageComponent
	V2         bool
}

// Flags are the message flags m needs besides any the caller adds (ephemeral).
func (m Message) Flags() discordgo.MessageFlags {
	if m.V2 {
		return discordgo.MessageFlagsIsComponentsV2
	}
	return 0
}

// Text is everything a V2 message says in its text displays, in order, one per line: what a
// reader sees without the picture (and what tests read).
func Text(comps []discordgo.MessageComponent) string {
	var out []string
	for _, c := range Leaves(comps) {
		switch v := c.(type) {
		case discordgo.TextDisplay:
			out = append(out, v.Content)
		case *discordgo.TextDisplay:
			out = append(out, v.Content)
		}
	}
	return strings.Join(out, "\n")
}

// Leaves lists, in reading order, the components inside comps that hold no others:
// containers, sections (their accessory after their texts) and action rows are opened,
// whether as values (as the bot builds them) or as pointers (as discordgo decodes
// Discord's messages). It is the one walk of a message's tree for whoever reads one.
func Leaves(comps []discordgo.MessageComponent) []discordgo.MessageComponent {
	var out []discordgo.MessageComponent
	var walk func(cs []discordgo.MessageComponent)
	walk = func(cs []discordgo.MessageComponent) {
		for _, c := range cs {
			switch v := c.(type) {
			case discordgo.Container:
				walk(v.Components)
			case *discordgo.Container:
				walk(v.Components)
			case discordgo.ActionsRow:
				walk(v.Components)
			case *discordgo.ActionsRow:
				walk(v.Components)
			case discordgo.Section:
				walk(v.Components)
				walk([]discordgo.MessageComponent{v.Accessory})
			case *discordgo.Section:
				walk(v.Components)
				walk([]discordgo.MessageComponent{v.Accessory})
			case nil:
			default:
				out = append(out, c)
			}
		}
	}
	walk(comps)
	return out
}

// card is a V2 message of one Container: its accent colour, then parts in order; empty
// text displays are left out (Discord refuses an empty one).
func card(accent int, parts ...discordgo.MessageComponent) Message {
	kept := make([]discordgo.MessageComponent, 0, len(parts))
	for _, p := range parts {
		if td, ok := p.(discordgo.TextDisplay); ok && td.Content == "" {
			continue
		}
		kept = append(kept, p)
	}
	return Message{V2: true, Components: []discordgo.MessageComponent{
		discordgo.Container{AccentColor: &accent, Components: kept}}}
}

// WithPicture shows the uploaded file url (attachment://…) in m's Container, right under
// its heading, with alt as the media item's description (what a screen reader says). A
// message that is not V2 is returned as it is.
func WithPicture(m Message, url, alt string) Message {
	if !m.V2 || len(m.Components) == 0 {
		return m
	}
	c, ok := m.Components[0].(discordgo.Container)
	if !ok {
		return m
	}
	item := discordgo.MediaGalleryItem{Media: discordgo.UnfurledMediaItem{URL: url}}
	if alt != "" {
		a := truncate(alt, maxMediaDescription)
		item.Description = &a
	}
	parts := make([]discordgo.MessageComponent, 0, len(c.Components)+1)
	at := min(1, len(c.Components))
	parts = append(parts, c.Components[:at]...)
	parts = append(parts, discordgo.MediaGallery{Items: []discordgo.MediaGalleryItem{item}})
	parts = append(parts, c.Components[at:]...)
	c.Components = parts
	out := m
	out.Components = append([]discordgo.MessageComponent{c}, m.Components[1:]...)
	return out
}

// maxMediaDescription is the longest description Discord takes for a media item.
const maxMediaDescription = 1024

// truncate cuts s to at most n runes, with an ellipsis when cut.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Renderer puts tables, panels and the rest into words from the catalog.
type Renderer struct {
	cat *i18n.Catalog
	// Open adds the Open table button to the table message: the table's web page, a
	// Discord Activity, is configured. Set before the first rendering.
	Open bool
}

// New returns a renderer over a catalog.
func New(cat *i18n.Catalog) *Renderer { return &Renderer{cat: cat} }

// T is the catalog's text for key in lang.
func (r *Renderer) T(lang, key string, kv ...any) string { return r.cat.T(lang, key, kv...) }

const faceDown = "🂠"

var suitSymbols = [...]string{"♠", "♥", "♦", "♣"}

// CardText shows a card as players write it: "10♥", "A♠".
func CardText(c game.Card) string {
	r := c.String()[:1]
	if c.Rank == game.Ten {
		r = "10"
	}
	return r + suitSymbols[c.Suit]
}

func cardsText(cs []game.Card) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = CardText(c)
	}
	return strings.Join(parts, " ")
}

// tableCards shows a hand as the table sees it: face-down cards hidden (R3.2, R5.1).
func tableCards(hc []game.HandCard, reveal bool) string {
	parts := make([]string, len(hc))
	for i, c := range hc {
		if c.FaceUp || reveal {
			parts[i] = CardText(c.Card)
		} else {
			parts[i] = faceDown
		}
	}
	return strings.Join(parts, " ")
}

// Mention is Discord's markup for a member.
func Mention(id string) string { return "<@" + id + ">" }

// Mentions is a list of members; passed to a text it is joined with the reader's
// conjunction ("<@1>, <@2> and <@3>", see i18n.List).
func Mentions(ids []string) i18n.List {
	out := make(i18n.List, len(ids))
	for i, id := range ids {
		out[i] = Mention(id)
	}
	return out
}

// RelTime is Discord's relative timestamp ("in 3 hours"), shown in each reader's locale.
func RelTime(t time.Time) string { return fmt.Sprintf("<t:%d:R>", t.Unix()) }

func (r *Renderer) button(lang, labelKey string, style discordgo.ButtonStyle, id string, kv ...any) discordgo.Button {
	return discordgo.Button{Label: r.cat.T(lang, labelKey, kv...), Style: style, CustomID: id}
}

func rows(buttons []discordgo.MessageComponent) []discordgo.MessageComponent {
	var out []discordgo.MessageComponent
	for i := 0; i < len(buttons); i += 5 {
		out = append(out, discordgo.ActionsRow{Components: buttons[i:min(i+5, len(buttons))]})
	}
	return out
}

func (r *Renderer) kindText(lang string, kind string, total int) string {
	return r.cat.T(lang, "kind."+kind, "Total", total)
}

// MentionOr is a member's mention, or the catalog's "nobody" for "".
func (r *Renderer) MentionOr(lang, id string) string {
	if id == "" {
		return r.cat.T(lang, "table.bank_nobody")
	}
	return Mention(id)
}

// notice puts a table's notice into words.
func (r *Renderer) notice(lang string, n *table.Notice) string {
	switch n.Kind {
	case table.NoticeTimedOut:
		return r.cat.T(lang, "table.timed_out", "Players", Mentions(n.Members), "Count", len(n.Members))
	case table.NoticeSold:
		return r.cat.T(lang, "offer.sold_notice", "Seller", Mention(n.Members[0]), "Buyer", Mention(n.Members[1]), "Count", n.Amount)
	case table.NoticeAuctionSold:
		return r.cat.T(lang, "auction.sold_notice", "Seller", Mention(n.Members[0]), "Buyer", Mention(n.Members[1]), "Count", n.Amount)
	}
	return ""
}

package discordtest

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

var (
	jsonMarshal   = json.Marshal
	jsonUnmarshal = json.Unmarshal
)

// Attachment is a file the bot attached to a message, with its bytes.
type Attachment struct {
	ID          string
	Filename    string
	ContentType string
	Data        []byte
	Description string // the alt text given in the payload's attachments array

	slot int // n of its files[n] part, -1 for another part name
}

// message is a message as the fake holds it. Embeds and components are kept
// as the bot sent them.
type message struct {
	id, channelID, guildID string
	content                string
	embeds                 json.RawMessage // JSON array, nil when none
	components             json.RawMessage // JSON array, nil when none
	flags                  int64
	attachments            []*Attachment
	hasPoll                bool
	created                time.Time
	edited                 *time.Time
	edits                  int
	deleted                bool
	ephemeralTo            string       // the only user who sees it, for ephemeral messages
	in                     *interaction // whose response or follow-up it is
	kind                   int          // Discord's message type
	// history: the components of each version the message has had, oldest first (at
	// most maxHistory), for tests of the order in which edits landed
	history []json.RawMessage
}

// maxHistory bounds the versions a message keeps in its history.
const maxHistory = 64

func (m *message) ephemeral() bool { return m.flags&flagEphemeral != 0 }

func emptyArray(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null" || string(t) == "[]"
}

func (m *message) empty() bool {
	return m.content == "" && emptyArray(m.embeds) && emptyArray(m.components) && len(m.attachments) == 0 && !m.hasPoll
}

// apply sets the fields of b on a copy of m: all of them for a new message,
// only those present for an edit (null clears). files are new uploads; see
// applyAttachments for how they and the attachments array combine.
func (m *message) apply(b *msgBody, files []*Attachment, edit bool) (*message, *apiError) {
	n := *m
	has := func(k string) bool { _, ok := b.raw[k]; return ok || !edit }
	if has("content") {
		n.content = ""
		if b.Content != nil {
			n.content = *b.Content
		}
	}
	if has("embeds") {
		n.embeds = nil
		if raw := b.raw["embeds"]; !emptyArray(raw) {
			n.embeds = normalizeEmbeds(raw)
		}
	}
	if has("components") {
		n.components = nil
		if raw := b.raw["components"]; !emptyArray(raw) {
			n.components = append(json.RawMessage(nil), raw...)
		}
	}
	if !edit {
		if b.Flags != nil {
			n.flags = *b.Flags
		}
		n.hasPoll = b.present["poll"]
	} else if b.Flags != nil {
		// An edit may toggle SUPPRESS_EMBEDS and set IS_COMPONENTS_V2; the other flags
		// stay, and IS_COMPONENTS_V2, once set, cannot be cleared.
		if m.flags&flagComponentsV2 != 0 && *b.Flags&flagComponentsV2 == 0 {
			return nil, errInvalidForm([]fieldError{errClearV2(joinPath(b.prefix, "flags"))})
		}
		n.flags = n.flags&^flagSuppressEmbeds | *b.Flags&(flagSuppressEmbeds|flagComponentsV2)
	}
	if errs := checkV2Merged(&n, b.prefix); len(errs) > 0 {
		return nil, errInvalidForm(errs)
	}
	if e := applyAttachments(&n, b, files, edit, b.prefix); e != nil {
		return nil, e
	}
	if e := checkAttachmentRefs(&n, b.prefix); e != nil {
		return nil, e
	}
	if e := checkMediaRefs(&n, b.prefix); e != nil {
		return nil, e
	}
	return &n, nil
}

// patch is apply for a PATCH of a message (channel or webhook route). Discord
// treats "components": null there as "leave them as they are", as it treats
// the field left out; only an empty list removes the components. (discordgo
// sends null for a nil slice behind MessageEdit.Components.)
func (m *message) patch(b *msgBody, files []*Attachment) (*message, *apiError) {
	n, e := m.apply(b, files, true)
	if e != nil {
		return nil, e
	}
	if raw, ok := b.raw["components"]; ok && strings.TrimSpace(string(raw)) == "null" {
		n.components = m.components
	}
	return n, nil
}

// normalizeEmbeds adds type "rich" where the bot left it out, as Discord does.
func normalizeEmbeds(raw json.RawMessage) json.RawMessage {
	var list []map[string]any
	if json.Unmarshal(raw, &list) != nil {
		return append(json.RawMessage(nil), raw...)
	}
	for _, e := range list {
		if e == nil {
			continue
		}
		if _, ok := e["type"]; !ok {
			e["type"] = "rich"
		}
	}
	out, err := json.Marshal(list)
	if err != nil {
		return append(json.RawMessage(nil), raw...)
	}
	return out
}

// msgJSONLocked renders m as Discord's message object.
func (s *Server) msgJSONLocked(m *message) map[string]any {
	atts := make([]any, 0, len(m.attachments))
	shown := shownInEmbeds(m)
	for _, a := range m.attachments {
		if !shown[a] {
			atts = append(atts, s.attachmentJSONLocked(m, a))
		}
	}
	embeds := json.RawMessage("[]")
	if m.embeds != nil {
		embeds = s.embedsJSONLocked(m)
	}
	comps := json.RawMessage("[]")
	if m.components != nil {
		comps = m.components
	}
	out := map[string]any{
		"id": m.id, "channel_id": m.channelID, "type": m.kind, "content": m.content,
		"author": s.botUserJSON(), "attachments": atts, "embeds": embeds, "components": comps,
		"mentions": []any{}, "mention_roles": []any{}, "mention_everyone": false, "pinned": false,
		"tts": false, "timestamp": m.created.Format(time.RFC3339Nano), "edited_timestamp": nil,
		"flags": m.flags,
	}
	if m.guildID != "" {
		out["guild_id"] = m.guildID
	}
	if m.edited != nil {
		out["edited_timestamp"] = m.edited.Format(time.RFC3339Nano)
	}
	if m.in != nil {
		out["webhook_id"] = s.AppID
		out["application_id"] = s.AppID
		meta := map[string]any{"id": m.in.id, "type": m.in.kind, "authorizing_integration_owners": map[string]any{}}
		if mem := s.memberLocked(m.in.guildID, m.in.userID); mem != nil {
			meta["user"] = userJSON(mem)
		}
		out["interaction_metadata"] = meta
	}
	return out
}

func (s *Server) toMessageLocked(m *message) *discordgo.Message {
	if m == nil {
		return nil
	}
	return toDiscordgo[discordgo.Message](s.msgJSONLocked(m))
}

func (s *Server) memberLocked(guildID, userID string) *member {
	g := s.guilds[guildID]
	if g == nil {
		return nil
	}
	return g.members[userID]
}

// newMessageLocked stores a new message.
func (s *Server) newMessageLocked(channelID string, in *interaction) *message {
	m := &message{id: s.newIDLocked(), channelID: channelID, created: time.Now(), in: in}
	if c := s.channels[channelID]; c != nil {
		m.guildID = c.guildID
	}
	return m
}

// commitLocked stores m (new, or a new version of a stored message).
func (s *Server) commitLocked(m *message, edit bool) {
	if len(m.history) == maxHistory {
		m.history = append(m.history[:0:0], m.history[1:]...)
	}
	m.history = append(m.history, m.components)
	if edit {
		now := time.Now()
		m.edited = &now
		m.edits++
		old := s.messages[m.id]
		*old = *m
	} else {
		s.messages[m.id] = m
		s.order = append(s.order, m)
	}
	s.notifyLocked()
}

// Messages returns the public messages of a channel as they now stand,
// oldest first. Deleted messages are left out.
func (s *Server) Messages(channelID string) []*discordgo.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*discordgo.Message
	for _, m := range s.order {
		if m.channelID == channelID && !m.deleted && !m.ephemeral() {
			out = append(out, s.toMessageLocked(m))
		}
	}
	return out
}

// Seen returns the messages of a channel that userID sees, as Discord's client shows
// them: the public ones and userID's own ephemeral replies there ("" sees only the
// public ones), in the order they were made.
func (s *Server) Seen(channelID, userID string) []*discordgo.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*discordgo.Message
	for _, m := range s.order {
		if m.channelID == channelID && !m.deleted && (!m.ephemeral() || userID != "" && m.ephemeralTo == userID) {
			out = append(out, s.toMessageLocked(m))
		}
	}
	return out
}

// Message returns one message of a channel, public or ephemeral, as it now
// stands, or nil if there is none (or it was deleted).
func (s *Server) Message(channelID, messageID string) *discordgo.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.messages[messageID]
	if m == nil || m.deleted || m.channelID != channelID {
		return nil
	}
	return s.toMessageLocked(m)
}

// Ephemerals returns the ephemeral messages a user has been shown (responses
// and follow-ups), oldest first, as they now stand.
func (s *Server) Ephemerals(userID string) []*discordgo.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*discordgo.Message
	for _, m := range s.order {
		if m.ephemeralTo == userID && !m.deleted {
			out = append(out, s.toMessageLocked(m))
		}
	}
	return out
}

// Attachments returns the files of a message with their bytes: all it
// holds, those its embeds show included (which Discord leaves out of the
// message's attachments array).
func (s *Server) Attachments(messageID string) []Attachment {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.messages[messageID]
	if m == nil {
		return nil
	}
	out := make([]Attachment, 0, len(m.attachments))
	for _, a := range m.attachments {
		c := *a
		c.Data = append([]byte(nil), a.Data...)
		out = append(out, c)
	}
	return out
}

// ComponentHistory returns, for each version a message has had (its last maxHistory,
// oldest first), the custom ids of its buttons and selects in order: what a member
// could press on it, in the order the edits landed, however they were made.
func (s *Server) ComponentHistory(messageID string) [][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.messages[messageID]
	if m == nil {
		return nil
	}
	out := make([][]string, 0, len(m.history))
	for _, raw := range m.history {
		var comps []compBody
		_ = json.Unmarshal(raw, &comps)
		ids := []string{}
		var walk func([]compBody)
		walk = func(cs []compBody) {
			for i := range cs {
				if c := &cs[i]; c.CustomID != nil && (c.Type == 2 || isSelect(c.Type)) {
					ids = append(ids, *c.CustomID)
				}
				walk(cs[i].Components)
			}
		}
		walk(comps)
		out = append(out, ids)
	}
	return out
}

// EditCount reports how many times a message has been edited, by any route
// (channel PATCH, webhook PATCH, type 7 update).
func (s *Server) EditCount(messageID string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m := s.messages[messageID]; m != nil {
		return m.edits
	}
	return 0
}

package discordapi

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// Upload is a file to attach to a message, with its alt text.
//
// discordgo v0.29.0 uploads files but cannot describe them: its
// MessageAttachment has no description field, and one without a filename
// breaks Discord's schema. The functions below write the payload's
// attachments array themselves (each file named by the n of its files[n]
// part, with its filename and description) and send it through the
// session's own multipart writer, request path and rate-limit buckets, the
// same ones discordgo's methods use.
type Upload struct {
	// Name is the file's name; an embed shows an image upload with
	// Image.URL = "attachment://" + Name.
	Name        string
	ContentType string
	Data        []byte
	// Description is the alt text screen readers speak (Discord allows
	// 1,024 characters).
	Description string
}

type attachmentEntry struct {
	ID          string `json:"id"`
	Filename    string `json:"filename"`
	Description string `json:"description,omitempty"`
}

func prepare(files []Upload) ([]attachmentEntry, []*discordgo.File) {
	entries := make([]attachmentEntry, len(files))
	parts := make([]*discordgo.File, len(files))
	for i, f := range files {
		entries[i] = attachmentEntry{ID: strconv.Itoa(i), Filename: f.Name, Description: f.Description}
		parts[i] = &discordgo.File{Name: f.Name, ContentType: f.ContentType, Reader: bytes.NewReader(f.Data)}
	}
	return entries, parts
}

func send(s *discordgo.Session, method, endpoint, bucket string, payload any, files []*discordgo.File, out any, opts ...discordgo.RequestOption) error {
	ctype, body, err := discordgo.MultipartBodyWithJSON(payload, files)
	if err != nil {
		return err
	}
	raw, err := s.RequestRaw(method, endpoint, ctype, body, bucket, 0, opts...)
	if err != nil || out == nil {
		return err
	}
	return json.Unmarshal(raw, out)
}

// SendMessage posts m to a channel with files attached and described.
func SendMessage(s *discordgo.Session, channelID string, m *discordgo.MessageSend, files []Upload) (*discordgo.Message, error) {
	entries, parts := prepare(files)
	payload := struct {
		*discordgo.MessageSend
		Attachments []attachmentEntry `json:"attachments"`
	}{m, entries}
	ep := discordgo.EndpointChannelMessages(channelID)
	var msg discordgo.Message
	if err := send(s, "POST", ep, ep, payload, parts, &msg); err != nil {
		return nil, err
	}
	return &msg, nil
}

// EditMessage edits a channel message; files replace all its attachments
// (Discord keeps only what the attachments array lists). To leave the
// attachments as they are, edit with ChannelMessageEditComplex and no files.
func EditMessage(s *discordgo.Session, e *discordgo.MessageEdit, files []Upload) (*discordgo.Message, error) {
	var msg discordgo.Message
	if err := editMessage(context.Background(), s, e, files, &msg); err != nil {
		return nil, err
	}
	return &msg, nil
}

// ReplaceMessage is EditMessage for a caller that has no use for the message Discord
// sends back: it is not decoded (a table message with its components is a few KB of
// JSON, decoded at every picture), and the call ends with ctx.
func ReplaceMessage(ctx context.Context, s *discordgo.Session, e *discordgo.MessageEdit, files []Upload) error {
	return editMessage(ctx, s, e, files, nil)
}

// editMessage is EditMessage's request, decoding the answer into out unless it is nil.
func editMessage(ctx context.Context, s *discordgo.Session, e *discordgo.MessageEdit, files []Upload, out any) error {
	entries, parts := prepare(files)
	payload := struct {
		*discordgo.MessageEdit
		Attachments []attachmentEntry `json:"attachments"`
	}{e, entries}
	return send(s, "PATCH", discordgo.EndpointChannelMessage(e.Channel, e.ID), discordgo.EndpointChannelMessage(e.Channel, ""),
		payload, parts, out, discordgo.WithContext(ctx))
}

// Respond answers an interaction with files: a new message (type 4) or an
// update of the component's message (type 7), whose attachments the files
// then replace.
func Respond(s *discordgo.Session, i *discordgo.Interaction, r *discordgo.InteractionResponse, files []Upload) error {
	entries, parts := prepare(files)
	data := r.Data
	if data == nil {
		data = &discordgo.InteractionResponseData{}
	}
	payload := struct {
		Type discordgo.InteractionResponseType `json:"type"`
		Data struct {
			*discordgo.InteractionResponseData
			Attachments []attachmentEntry `json:"attachments"`
		} `json:"data"`
	}{Type: r.Type}
	payload.Data.InteractionResponseData = data
	payload.Data.Attachments = entries
	ep := discordgo.EndpointInteractionResponse(i.ID, i.Token)
	return send(s, "POST", ep, ep, payload, parts, nil)
}

// EditResponse edits the interaction's original response; files replace
// its attachments.
func EditResponse(s *discordgo.Session, i *discordgo.Interaction, e *discordgo.WebhookEdit, files []Upload) (*discordgo.Message, error) {
	entries, parts := prepare(files)
	payload := struct {
		*discordgo.WebhookEdit
		Attachments []attachmentEntry `json:"attachments"`
	}{e, entries}
	ep := discordgo.EndpointWebhookMessage(i.AppID, i.Token, "@original")
	var msg discordgo.Message
	if err := send(s, "PATCH", ep, ep, payload, parts, &msg); err != nil {
		return nil, err
	}
	return &msg, nil
}

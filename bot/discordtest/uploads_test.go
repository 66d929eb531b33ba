package discordtest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/discordtest"
)

// pngBytes is a small real PNG of w x h pixels.
func pngBytes(t *testing.T, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h))))
	return buf.Bytes()
}

func pngFile(t *testing.T, name string, w, h int) *discordgo.File {
	return &discordgo.File{Name: name, ContentType: "image/png", Reader: bytes.NewReader(pngBytes(t, w, h))}
}

func imageEmbed(url string) []*discordgo.MessageEmbed {
	return []*discordgo.MessageEmbed{{Title: "Table", Image: &discordgo.MessageEmbedImage{URL: url}}}
}

// attachmentEntry is an entry of the attachments array that discordgo
// v0.29.0 cannot write itself: its MessageAttachment has no description.
type attachmentEntry struct {
	ID          string `json:"id"`
	Filename    string `json:"filename,omitempty"`
	Description string `json:"description,omitempty"`
}

// sendDescribed posts a channel message with files and an attachments array
// through the real client's multipart writer and request path.
func sendDescribed(s *discordgo.Session, channel string, msg *discordgo.MessageSend, atts []attachmentEntry, files []*discordgo.File) (*discordgo.Message, error) {
	payload := struct {
		*discordgo.MessageSend
		Attachments []attachmentEntry `json:"attachments"`
	}{msg, atts}
	ctype, body, err := discordgo.MultipartBodyWithJSON(payload, files)
	if err != nil {
		return nil, err
	}
	ep := discordgo.EndpointChannelMessages(channel)
	raw, err := s.RequestRaw("POST", ep, ctype, body, ep, 0)
	if err != nil {
		return nil, err
	}
	var m discordgo.Message
	return &m, json.Unmarshal(raw, &m)
}

// rawMultipart posts a hand-written multipart body, for what discordgo never
// sends (duplicate part names, a file without a filename).
func rawMultipart(s *discordgo.Session, channel string, parts func(w *multipart.Writer)) error {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	parts(w)
	if err := w.Close(); err != nil {
		return err
	}
	ep := discordgo.EndpointChannelMessages(channel)
	_, err := s.RequestRaw("POST", ep, w.FormDataContentType(), buf.Bytes(), ep, 0)
	return err
}

func filePart(w *multipart.Writer, name, filename string, data []byte) {
	h := textproto.MIMEHeader{}
	if filename != "" {
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, name, filename))
	} else {
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q`, name))
	}
	h.Set("Content-Type", "image/png")
	p, _ := w.CreatePart(h)
	_, _ = p.Write(data)
}

// rejected asserts err is Discord's answer status/code and that the one
// failure the fake recorded names want.
func rejected(t *testing.T, srv *discordtest.Server, err error, status, code int, want string) {
	t.Helper()
	require.Error(t, err)
	gotStatus, gotCode := restCode(t, err)
	assert.Equal(t, status, gotStatus)
	assert.Equal(t, code, gotCode)
	fails := srv.Failures()
	require.Len(t, fails, 1)
	assert.Contains(t, fails[0], want)
}

func get(t *testing.T, url string) []byte {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return b
}

// TestChannelUploads drives channel message create and edit with files
// through the real discordgo client: the embed's attachment:// image must
// name an uploaded image, the attachments array's ids are the n of
// files[n], an edit keeps or drops files as Discord's "Editing Message
// Attachments" says, and the file count and sizes are held to Discord's
// limits.
func TestChannelUploads(t *testing.T) {
	srv := discordtest.New(t)
	populate(srv)
	s := newSession(t, srv)

	t.Run("embed image from an upload", func(t *testing.T) {
		srv.ClearFailures()
		data := pngBytes(t, 40, 30)
		msg, err := s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{
			Embeds: imageEmbed("attachment://table.png"),
			Files:  []*discordgo.File{{Name: "table.png", ContentType: "image/png", Reader: bytes.NewReader(data)}},
		})
		require.NoError(t, err)
		// As on Discord, a file the embed shows is not in the message's
		// attachments array ("files that are not referenced in embeds"),
		// and the stored embed points at the file itself, with its size.
		assert.Empty(t, msg.Attachments)
		held := srv.Attachments(msg.ID)
		require.Len(t, held, 1)
		assert.Equal(t, "table.png", held[0].Filename)
		require.Len(t, msg.Embeds, 1)
		require.NotNil(t, msg.Embeds[0].Image)
		assert.Contains(t, msg.Embeds[0].Image.URL, "/"+held[0].ID+"/table.png")
		assert.Equal(t, 40, msg.Embeds[0].Image.Width)
		assert.Equal(t, 30, msg.Embeds[0].Image.Height)
		assert.Equal(t, data, get(t, msg.Embeds[0].Image.URL))
		assert.Empty(t, srv.Failures())
	})

	t.Run("thumbnail and image from two uploads", func(t *testing.T) {
		srv.ClearFailures()
		msg, err := s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{
			Embeds: []*discordgo.MessageEmbed{{Title: "t",
				Image:     &discordgo.MessageEmbedImage{URL: "attachment://table.png"},
				Thumbnail: &discordgo.MessageEmbedThumbnail{URL: "attachment://hand.png"}}},
			Files: []*discordgo.File{pngFile(t, "table.png", 8, 8), pngFile(t, "hand.png", 4, 4)},
		})
		require.NoError(t, err)
		assert.Empty(t, msg.Attachments)
		require.Len(t, srv.Attachments(msg.ID), 2)
		assert.Equal(t, 8, msg.Embeds[0].Image.Width)
		assert.Equal(t, 4, msg.Embeds[0].Thumbnail.Width)
		assert.Contains(t, msg.Embeds[0].Thumbnail.URL, "/hand.png")
		assert.Empty(t, srv.Failures())
	})

	t.Run("a file the embed does not show is listed", func(t *testing.T) {
		srv.ClearFailures()
		msg, err := s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{
			Embeds: imageEmbed("attachment://table.png"),
			Files: []*discordgo.File{pngFile(t, "table.png", 8, 8),
				{Name: "round-12.json", ContentType: "application/json", Reader: bytes.NewReader([]byte("{}"))}},
		})
		require.NoError(t, err)
		require.Len(t, msg.Attachments, 1)
		assert.Equal(t, "round-12.json", msg.Attachments[0].Filename)
		assert.Len(t, srv.Attachments(msg.ID), 2)
		assert.Empty(t, srv.Failures())
	})

	t.Run("attachment url naming no upload", func(t *testing.T) {
		srv.ClearFailures()
		_, err := s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{
			Embeds: imageEmbed("attachment://tabel.png"),
			Files:  []*discordgo.File{pngFile(t, "table.png", 4, 4)},
		})
		rejected(t, srv, err, 400, 50035, `embeds.0.image.url: No file named "tabel.png"`)
	})

	t.Run("attachment url without any upload", func(t *testing.T) {
		srv.ClearFailures()
		_, err := s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{Embeds: imageEmbed("attachment://table.png")})
		rejected(t, srv, err, 400, 50035, "embeds.0.image.url")
	})

	t.Run("attachment url naming a file that is not an image", func(t *testing.T) {
		srv.ClearFailures()
		_, err := s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{
			Embeds: imageEmbed("attachment://hand.json"),
			Files:  []*discordgo.File{{Name: "hand.json", ContentType: "application/json", Reader: bytes.NewReader([]byte("{}"))}},
		})
		rejected(t, srv, err, 400, 50035, "Only .jpg, .jpeg, .png, .webp and .gif")
	})

	t.Run("ten files, then eleven", func(t *testing.T) {
		files := func(n int) []*discordgo.File {
			var fs []*discordgo.File
			for i := 0; i < n; i++ {
				fs = append(fs, pngFile(t, fmt.Sprintf("f%d.png", i), 2, 2))
			}
			return fs
		}
		srv.ClearFailures()
		msg, err := s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{Files: files(10)})
		require.NoError(t, err)
		assert.Len(t, msg.Attachments, 10)
		_, err = s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{Files: files(11)})
		rejected(t, srv, err, 400, 50035, "files: Must be 10 or fewer")
	})

	t.Run("a file over 10 MiB", func(t *testing.T) {
		srv.ClearFailures()
		_, err := s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{Files: []*discordgo.File{
			{Name: "big.png", Reader: bytes.NewReader(make([]byte, 10<<20+1))}}})
		rejected(t, srv, err, 413, 40005, "Request entity too large")
	})

	t.Run("files over 25 MiB in all", func(t *testing.T) {
		srv.ClearFailures()
		nine := make([]byte, 9<<20)
		_, err := s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{Files: []*discordgo.File{
			{Name: "a.png", Reader: bytes.NewReader(nine)}, {Name: "b.png", Reader: bytes.NewReader(nine)},
			{Name: "c.png", Reader: bytes.NewReader(nine)}}})
		rejected(t, srv, err, 413, 40005, "the files add up to over")
	})

	t.Run("alt text through the attachments array", func(t *testing.T) {
		srv.ClearFailures()
		msg, err := sendDescribed(s, channelID, &discordgo.MessageSend{Embeds: imageEmbed("attachment://table.png")},
			[]attachmentEntry{{ID: "0", Filename: "table.png", Description: "Alice holds the bank; Bob to play"}},
			[]*discordgo.File{pngFile(t, "table.png", 4, 4)})
		require.NoError(t, err)
		atts := srv.Attachments(msg.ID)
		require.Len(t, atts, 1)
		assert.Equal(t, "Alice holds the bank; Bob to play", atts[0].Description)
		assert.Empty(t, srv.Failures())
	})

	t.Run("an attachments id that is no files[n]", func(t *testing.T) {
		srv.ClearFailures()
		_, err := sendDescribed(s, channelID, &discordgo.MessageSend{Content: "x"},
			[]attachmentEntry{{ID: "1", Description: "alt"}}, []*discordgo.File{pngFile(t, "table.png", 4, 4)})
		rejected(t, srv, err, 400, 50035, "attachments.0: Attachment data not found")
	})

	t.Run("alt text over 1024 characters", func(t *testing.T) {
		srv.ClearFailures()
		long := string(bytes.Repeat([]byte("ż"), 1025))
		_, err := sendDescribed(s, channelID, &discordgo.MessageSend{Content: "x"},
			[]attachmentEntry{{ID: "0", Description: long}}, []*discordgo.File{pngFile(t, "table.png", 4, 4)})
		rejected(t, srv, err, 400, 50035, "attachments.0.description: Must be 1024 or fewer")
	})

	t.Run("files[n] twice", func(t *testing.T) {
		srv.ClearFailures()
		err := rawMultipart(s, channelID, func(w *multipart.Writer) {
			_ = w.WriteField("payload_json", `{"content":"x"}`)
			filePart(w, "files[0]", "a.png", pngBytes(t, 2, 2))
			filePart(w, "files[0]", "b.png", pngBytes(t, 2, 2))
		})
		rejected(t, srv, err, 400, 50035, "files[0]")
	})

	t.Run("files[n] without a filename", func(t *testing.T) {
		srv.ClearFailures()
		err := rawMultipart(s, channelID, func(w *multipart.Writer) {
			_ = w.WriteField("payload_json", `{"content":"x"}`)
			filePart(w, "files[0]", "", pngBytes(t, 2, 2))
		})
		rejected(t, srv, err, 400, 50035, "files[0].filename: This field is required")
	})

	t.Run("edits", func(t *testing.T) {
		srv.ClearFailures()
		first := pngBytes(t, 10, 10)
		msg, err := s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{
			Embeds: imageEmbed("attachment://table.png"),
			Files:  []*discordgo.File{{Name: "table.png", ContentType: "image/png", Reader: bytes.NewReader(first)}},
		})
		require.NoError(t, err)
		oldID := srv.Attachments(msg.ID)[0].ID

		// Without an attachments array the old file stays and new ones are
		// appended.
		embeds := imageEmbed("attachment://table.png")
		edit := discordgo.NewMessageEdit(channelID, msg.ID)
		edit.Embeds = &embeds
		edit.Files = []*discordgo.File{pngFile(t, "log.png", 2, 2)}
		got, err := s.ChannelMessageEditComplex(edit)
		require.NoError(t, err)
		held := srv.Attachments(msg.ID)
		require.Len(t, held, 2)
		assert.Equal(t, oldID, held[0].ID)
		require.Len(t, got.Attachments, 1, "log.png, which no embed shows")
		assert.Equal(t, "log.png", got.Attachments[0].Filename)
		assert.Equal(t, first, get(t, got.Embeds[0].Image.URL), "attachment://table.png still names the first upload")

		// Listing the new file's placeholder (and not the old id) replaces
		// the picture: the way to change the table's image on an edit.
		second := pngBytes(t, 20, 20)
		edit = discordgo.NewMessageEdit(channelID, msg.ID)
		edit.Embeds = &embeds
		edit.Files = []*discordgo.File{{Name: "table.png", ContentType: "image/png", Reader: bytes.NewReader(second)}}
		edit.Attachments = &[]*discordgo.MessageAttachment{{ID: "0", Filename: "table.png"}}
		got, err = s.ChannelMessageEditComplex(edit)
		require.NoError(t, err)
		held = srv.Attachments(msg.ID)
		require.Len(t, held, 1, "the old picture and log.png are gone")
		assert.NotEqual(t, oldID, held[0].ID)
		assert.Empty(t, got.Attachments)
		assert.Equal(t, 20, got.Embeds[0].Image.Width)
		assert.Equal(t, second, get(t, got.Embeds[0].Image.URL))

		// An empty attachments array drops the old files and appends none
		// of the new ones, so the embed's picture has nothing to name.
		edit = discordgo.NewMessageEdit(channelID, msg.ID)
		edit.Embeds = &embeds
		edit.Files = []*discordgo.File{pngFile(t, "table.png", 4, 4)}
		edit.Attachments = &[]*discordgo.MessageAttachment{}
		_, err = s.ChannelMessageEditComplex(edit)
		rejected(t, srv, err, 400, 50035, "embeds.0.image.url")
		assert.Equal(t, held, srv.Attachments(msg.ID), "a rejected edit changes nothing")

		// Keeping an old attachment by its id: the embed, left as it was,
		// still shows it.
		srv.ClearFailures()
		keep := held[0].ID
		edit = discordgo.NewMessageEdit(channelID, msg.ID)
		content := "kept"
		edit.Content = &content
		edit.Attachments = &[]*discordgo.MessageAttachment{{ID: keep, Filename: "table.png"}}
		got, err = s.ChannelMessageEditComplex(edit)
		require.NoError(t, err)
		require.Len(t, srv.Attachments(msg.ID), 1)
		assert.Equal(t, keep, srv.Attachments(msg.ID)[0].ID)
		assert.Equal(t, second, get(t, got.Embeds[0].Image.URL))
		assert.Empty(t, srv.Failures())
	})
}

// TestInteractionUploads answers interactions with files through the real
// client: a type 4 response with the picture in its embed, a type 7 update
// that replaces it, a follow-up and an edit of the original response.
func TestInteractionUploads(t *testing.T) {
	h := newHarness(t, nil)
	srv := h.srv

	h.handle("picture", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
		return s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{
				Embeds: imageEmbed("attachment://table.png"),
				Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					discordgo.Button{Label: "Deal", CustomID: "deal"}}}},
				Files: []*discordgo.File{pngFile(t, "table.png", 30, 20)},
			},
		})
	})
	r, err := h.probe(bob, "picture")
	require.NoError(t, err)
	require.NoError(t, h.handlerErr(t))
	require.Len(t, srv.Attachments(r.Message.ID), 1)
	assert.Empty(t, r.Message.Attachments, "the embed shows it")
	assert.Equal(t, 30, r.Message.Embeds[0].Image.Width)
	h.noFailures(t)

	t.Run("type 7 replaces the picture", func(t *testing.T) {
		h.handle("deal", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
			return s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseUpdateMessage,
				Data: &discordgo.InteractionResponseData{
					Embeds:      imageEmbed("attachment://table.png"),
					Files:       []*discordgo.File{pngFile(t, "table.png", 60, 40)},
					Attachments: &[]*discordgo.MessageAttachment{{ID: "0", Filename: "table.png"}},
				},
			})
		})
		u, err := srv.Click(channelID, r.Message.ID, alice, "deal")
		require.NoError(t, err)
		require.NoError(t, h.handlerErr(t))
		m := srv.Message(channelID, r.Message.ID)
		require.Len(t, srv.Attachments(r.Message.ID), 1)
		assert.Equal(t, 60, m.Embeds[0].Image.Width)
		assert.Equal(t, 60, u.Message.Embeds[0].Image.Width)
		h.noFailures(t)
	})

	t.Run("type 4 naming a file it did not upload", func(t *testing.T) {
		h.handle("broken", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
			return s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Embeds: imageEmbed("attachment://table.png")},
			})
		})
		srv.ClearFailures()
		srv.SetResponseDeadline(500 * time.Millisecond) // the member sees the interaction fail sooner
		defer srv.SetResponseDeadline(3 * time.Second)
		_, err := srv.Command(guildID, channelID, bob, "probe", []*discordgo.ApplicationCommandInteractionDataOption{{Name: "case", Value: "broken"}})
		require.Error(t, err, "no accepted response")
		herr := h.handlerErr(t)
		require.Error(t, herr)
		status, code := restCode(t, herr)
		assert.Equal(t, 400, status)
		assert.Equal(t, 50035, code)
		var named bool
		for _, f := range srv.Failures() {
			named = named || bytes.Contains([]byte(f), []byte("data.embeds.0.image.url"))
		}
		assert.True(t, named, "the failure names the field: %v", srv.Failures())
		srv.ClearFailures()
	})

	t.Run("follow-up and edit of the original with files", func(t *testing.T) {
		h.handle("later", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
			if err := s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral},
			}); err != nil {
				return err
			}
			embeds := imageEmbed("attachment://hand.png")
			if _, err := s.InteractionResponseEdit(i.Interaction, &discordgo.WebhookEdit{
				Embeds: &embeds, Files: []*discordgo.File{pngFile(t, "hand.png", 12, 12)},
			}); err != nil {
				return err
			}
			_, err := s.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{
				Embeds: imageEmbed("attachment://table.png"),
				Files:  []*discordgo.File{pngFile(t, "table.png", 14, 14)},
				Flags:  discordgo.MessageFlagsEphemeral,
			})
			return err
		})
		r, err := h.probe(bob, "later")
		require.NoError(t, err)
		edited, err := r.WaitEdit(3 * time.Second)
		require.NoError(t, err)
		require.Len(t, srv.Attachments(edited.ID), 1)
		assert.Equal(t, 12, edited.Embeds[0].Image.Width)
		f, err := r.WaitFollowup(3 * time.Second)
		require.NoError(t, err)
		require.NoError(t, h.handlerErr(t))
		require.Len(t, srv.Attachments(f.ID), 1)
		assert.Equal(t, 14, f.Embeds[0].Image.Width)
		h.noFailures(t)
	})
}

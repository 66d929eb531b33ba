package discordtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif" // DecodeConfig reads the size of uploaded images, as Discord reports it
	_ "image/jpeg"
	_ "image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// Uploads, as Discord's "Uploading Files" reference describes them: a
// multipart/form-data body whose payload_json part is the JSON body and
// whose files[n] parts are the files. The n of files[n] is the placeholder
// id an entry of the payload's attachments array uses to give that file a
// description (its alt text) or a filename. An embed shows an uploaded image
// with the url attachment://<filename>.

const (
	// maxUploadBytes is Discord's limit on one message request, files
	// included (25 MiB); each file is also held to maxFileBytes.
	maxUploadBytes = 25 << 20
	// maxAttachmentDescription is the limit on an attachment's description.
	maxAttachmentDescription = 1024
)

var filesPartName = regexp.MustCompile(`^files\[(\d+)\]$`)

// readMultipart reads a multipart/form-data body into c.payload and c.files.
func (s *Server) readMultipart(c *call, raw []byte, boundary string) *apiError {
	malformed := func(err error) *apiError {
		return errInvalidForm([]fieldError{invalid("", "MULTIPART_INVALID", "Malformed multipart body: "+err.Error())})
	}
	mr := multipart.NewReader(bytes.NewReader(raw), boundary)
	slots := map[int]bool{}
	total := 0
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return malformed(err)
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return malformed(err)
		}
		name := part.FormName()
		if name == "payload_json" {
			c.payload = data
			continue
		}
		m := filesPartName.FindStringSubmatch(name)
		if m == nil && part.FileName() == "" {
			continue // a plain form field other than payload_json: not modelled, ignored
		}
		slot := -1 // a file under another name is attached but cannot be named in attachments
		if m != nil {
			n, err := strconv.Atoi(m[1])
			if err != nil {
				return errInvalidForm([]fieldError{invalid(name, "BASE_TYPE_INVALID", "The index of files[n] is not a number.")})
			}
			if slots[n] {
				return errInvalidForm([]fieldError{invalid(name, "FILE_NAME_DUPLICATE", fmt.Sprintf("files[%d] is sent twice; each files[n] must be unique.", n))})
			}
			slots[n], slot = true, n
		}
		if part.FileName() == "" {
			return errInvalidForm([]fieldError{required(name + ".filename")})
		}
		if len(data) > maxFileBytes {
			return &apiError{Status: http.StatusRequestEntityTooLarge, Code: 40005, Message: "Request entity too large",
				Note: fmt.Sprintf("file %q is %d bytes, over %d", part.FileName(), len(data), maxFileBytes)}
		}
		total += len(data)
		if total > maxUploadBytes {
			return &apiError{Status: http.StatusRequestEntityTooLarge, Code: 40005, Message: "Request entity too large",
				Note: fmt.Sprintf("the files add up to over %d bytes", maxUploadBytes)}
		}
		ctype := part.Header.Get("Content-Type")
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		c.files = append(c.files, &Attachment{Filename: part.FileName(), ContentType: ctype, Data: data, slot: slot})
	}
	if len(c.files) > maxAttachments {
		return errInvalidForm([]fieldError{maxLen("files", maxAttachments)})
	}
	s.mu.Lock()
	for _, f := range c.files {
		f.ID = s.newIDLocked()
	}
	s.mu.Unlock()
	return nil
}

// attachmentEntry is one entry of a payload's attachments array.
type attachmentEntry struct {
	id          string
	filename    *string
	description *string
}

func parseAttachmentEntries(raw json.RawMessage, p string) ([]attachmentEntry, *apiError) {
	var list []struct {
		ID          json.RawMessage `json:"id"`
		Filename    *string         `json:"filename"`
		Description *string         `json:"description"`
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, errInvalidForm([]fieldError{decodeError(p, err)})
	}
	out := make([]attachmentEntry, len(list))
	var errs []fieldError
	for i, a := range list {
		ep := joinPath(p, i)
		var id string
		if json.Unmarshal(a.ID, &id) != nil { // a number, as the files[n] placeholders usually are
			id = strings.TrimSpace(string(a.ID))
		}
		if id == "" || id == "null" {
			errs = append(errs, required(joinPath(ep, "id")))
		}
		if a.Description != nil && runeLen(*a.Description) > maxAttachmentDescription {
			errs = append(errs, maxLen(joinPath(ep, "description"), maxAttachmentDescription))
		}
		out[i] = attachmentEntry{id: id, filename: a.Filename, description: a.Description}
	}
	if len(errs) > 0 {
		return nil, errInvalidForm(errs)
	}
	return out, nil
}

// applyAttachments sets n's attachments from the payload and the uploaded
// files. A new message gets every uploaded file. An edit keeps its old
// attachments and appends the new files unless the payload has an
// attachments array: then only the listed attachments stay and only the
// listed new files are appended, as Discord's "Editing Message Attachments"
// says; "attachments": null removes them all. An entry whose id is neither
// a files[n] placeholder of this request nor, on an edit, an attachment of
// the message is 400 ATTACHMENT_NOT_FOUND, as Discord answers.
func applyAttachments(n *message, b *msgBody, files []*Attachment, edit bool, prefix string) *apiError {
	p := joinPath(prefix, "attachments")
	if prefix == "" {
		p = "attachments"
	}
	old := n.attachments
	if !edit {
		old = nil
	}
	raw, sent := b.raw["attachments"]
	if !b.present["attachments"] {
		if edit && sent {
			old = nil // "attachments": null
		}
		n.attachments = append(append([]*Attachment(nil), old...), files...)
		return checkAttachmentCount(n, p)
	}
	entries, e := parseAttachmentEntries(raw, p)
	if e != nil {
		return e
	}
	bySlot := map[string]*Attachment{}
	for _, f := range files {
		if f.slot >= 0 {
			bySlot[strconv.Itoa(f.slot)] = f
		}
	}
	byID := map[string]*Attachment{}
	for _, a := range old {
		byID[a.ID] = a
	}
	var kept, added []*Attachment
	listed := map[*Attachment]bool{}
	var errs []fieldError
	for i, en := range entries {
		a := bySlot[en.id]
		isNew := a != nil
		if a == nil {
			a = byID[en.id]
		}
		if a == nil {
			errs = append(errs, invalid(joinPath(p, i), "ATTACHMENT_NOT_FOUND", "Attachment data not found"))
			continue
		}
		if listed[a] {
			continue
		}
		listed[a] = true
		c := *a // entries change metadata on this message's copy only
		if en.filename != nil && *en.filename != "" {
			c.Filename = *en.filename
		}
		if en.description != nil {
			c.Description = *en.description
		}
		if isNew {
			added = append(added, &c)
		} else {
			kept = append(kept, &c)
		}
	}
	if len(errs) > 0 {
		return errInvalidForm(errs)
	}
	if !edit {
		// A new message gets every uploaded file, listed or not; the
		// unlisted ones keep their part's filename.
		for _, f := range files {
			if !listed[f] {
				added = append(added, f)
			}
		}
	}
	n.attachments = append(kept, added...)
	return checkAttachmentCount(n, p)
}

func checkAttachmentCount(n *message, p string) *apiError {
	if len(n.attachments) > maxAttachments {
		return errInvalidForm([]fieldError{maxLen(p, maxAttachments)})
	}
	return nil
}

// imageExt lists the files Discord shows through attachment:// in an embed.
var imageExt = map[string]bool{".jpg": true, ".jpeg": true, ".png": true, ".webp": true, ".gif": true}

// checkAttachmentRefs checks every attachment:// url in n's embeds: it must
// name a file of the message, and an image one. Discord would show no image
// for it; the fake refuses it, so the test that sent it sees why.
func checkAttachmentRefs(n *message, prefix string) *apiError {
	if emptyArray(n.embeds) {
		return nil
	}
	var embeds []map[string]json.RawMessage
	if json.Unmarshal(n.embeds, &embeds) != nil {
		return nil // validateEmbeds has already judged the shape
	}
	names := map[string]*Attachment{}
	for _, a := range n.attachments {
		if _, ok := names[a.Filename]; !ok {
			names[a.Filename] = a
		}
	}
	var errs []fieldError
	for i, e := range embeds {
		for _, f := range embedFields {
			field, key := f[0], f[1]
			var obj map[string]json.RawMessage
			if json.Unmarshal(e[field], &obj) != nil {
				continue
			}
			var u string
			if json.Unmarshal(obj[key], &u) != nil {
				continue
			}
			name, ok := attachmentName(u)
			if !ok {
				continue
			}
			fp := joinPath(joinPath(joinPath(prefixPath(prefix, "embeds"), i), field), key)
			switch a := names[name]; {
			case a == nil:
				errs = append(errs, invalid(fp, "ATTACHMENT_NOT_FOUND", fmt.Sprintf("No file named %q is attached to this message.", name)))
			case !imageExt[strings.ToLower(path.Ext(name))]:
				errs = append(errs, invalid(fp, "ATTACHMENT_INVALID_TYPE", "Only .jpg, .jpeg, .png, .webp and .gif files can be shown in an embed."))
			}
		}
	}
	if len(errs) > 0 {
		return errInvalidForm(errs)
	}
	return nil
}

func prefixPath(prefix, s string) string {
	if prefix == "" {
		return s
	}
	return joinPath(prefix, s)
}

// attachmentName is the filename of an attachment://name url.
func attachmentName(u string) (string, bool) {
	const scheme = "attachment://"
	if len(u) < len(scheme) || !strings.EqualFold(u[:len(scheme)], scheme) {
		return "", false
	}
	name, err := url.PathUnescape(u[len(scheme):])
	if err != nil {
		name = u[len(scheme):]
	}
	return name, true
}

// attachmentURLLocked is where the fake serves an attachment.
func (s *Server) attachmentURLLocked(m *message, a *Attachment) string {
	return s.ts.URL + "/attachments/" + m.channelID + "/" + a.ID + "/" + url.PathEscape(a.Filename)
}

// attachmentJSONLocked is Discord's attachment object, with the size of an
// image.
func (s *Server) attachmentJSONLocked(m *message, a *Attachment) map[string]any {
	u := s.attachmentURLLocked(m, a)
	out := map[string]any{
		"id": a.ID, "filename": a.Filename, "size": len(a.Data), "url": u, "proxy_url": u,
		"content_type": a.ContentType,
	}
	if a.Description != "" {
		out["description"] = a.Description
	}
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(a.Data)); err == nil {
		out["width"], out["height"] = cfg.Width, cfg.Height
	}
	return out
}

// embedFields are the embed fields that may show an attachment, with the key
// of their url.
var embedFields = [...][2]string{{"image", "url"}, {"thumbnail", "url"}, {"author", "icon_url"}, {"footer", "icon_url"}}

// shownInEmbeds lists the attachments m's embeds show through attachment://
// urls (the first of that filename, as the url resolves). Discord leaves
// them out of the message's attachments array, which lists "any attached
// files that are not referenced in embeds or components".
func shownInEmbeds(m *message) map[*Attachment]bool {
	if emptyArray(m.embeds) || !bytes.Contains(bytes.ToLower(m.embeds), []byte("attachment://")) {
		return nil
	}
	var embeds []map[string]map[string]any
	if json.Unmarshal(m.embeds, &embeds) != nil {
		// Some field is not an object; fall back to the loose shape.
		var loose []map[string]any
		if json.Unmarshal(m.embeds, &loose) != nil {
			return nil
		}
		embeds = make([]map[string]map[string]any, len(loose))
		for i, e := range loose {
			embeds[i] = map[string]map[string]any{}
			for _, f := range embedFields {
				if obj, ok := e[f[0]].(map[string]any); ok {
					embeds[i][f[0]] = obj
				}
			}
		}
	}
	out := map[*Attachment]bool{}
	for _, e := range embeds {
		for _, f := range embedFields {
			u, _ := e[f[0]][f[1]].(string)
			if name, ok := attachmentName(u); ok {
				for _, a := range m.attachments {
					if a.Filename == name {
						out[a] = true
						break
					}
				}
			}
		}
	}
	return out
}

// embedsJSONLocked returns m's embeds as Discord returns them: an
// attachment:// url becomes the attachment's own url, with proxy_url and,
// for an image, its width and height.
func (s *Server) embedsJSONLocked(m *message) json.RawMessage {
	if emptyArray(m.embeds) || !bytes.Contains(bytes.ToLower(m.embeds), []byte("attachment://")) {
		return m.embeds
	}
	var embeds []map[string]any
	if json.Unmarshal(m.embeds, &embeds) != nil {
		return m.embeds
	}
	for _, e := range embeds {
		for _, f := range embedFields {
			field, key := f[0], f[1]
			obj, _ := e[field].(map[string]any)
			u, _ := obj[key].(string)
			name, ok := attachmentName(u)
			if !ok {
				continue
			}
			for _, a := range m.attachments {
				if a.Filename != name {
					continue
				}
				j := s.attachmentJSONLocked(m, a)
				obj[key] = j["url"]
				obj["proxy_"+key] = j["proxy_url"]
				if w, ok := j["width"]; ok && (field == "image" || field == "thumbnail") {
					obj["width"], obj["height"] = w, j["height"]
				}
				break
			}
		}
	}
	out, err := json.Marshal(embeds)
	if err != nil {
		return m.embeds
	}
	return out
}

package demo

import (
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/bot/i18n"
)

// The /demo/ endpoints (docs in doc.go): the demo channel as the fake Discord holds it,
// and clicks in it as a member.

// Handler serves the /demo/ endpoints; mount it at "/demo/".
func (d *Demo) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /demo/channel", d.serveChannel)
	mux.HandleFunc("GET /demo/attachments/{message}/{name}", d.serveAttachment)
	mux.HandleFunc("POST /demo/click", d.serveClick)
	mux.HandleFunc("POST /demo/submit", d.serveSubmit)
	mux.HandleFunc("POST /demo/seats", d.serveSeats)
	return mux
}

// Message is one message of the channel view. Its buttons and selects, and the forms a
// click opens, take the page's own shapes (bot.WebControl, bot.WebModal), so that the
// page draws them as it draws the table's.
type Message struct {
	ID         string           `json:"id"`
	Author     string           `json:"author"`
	Text       []string         `json:"text"`
	Image      string           `json:"image"`
	Components []bot.WebControl `json:"components"`
	Private    bool             `json:"private"`
}

// maxEphemerals is how many of a member's latest ephemeral replies the channel view shows.
const maxEphemerals = 10

// serveChannel is GET /demo/channel?user=NAME: the channel's public messages and
// NAME's own ephemeral ones, oldest first.
func (d *Demo) serveChannel(w http.ResponseWriter, r *http.Request) {
	user := ""
	if name := r.URL.Query().Get("user"); name != "" {
		id, err := d.Member(r.Context(), name)
		if err != nil {
			d.refuseName(w, err)
			return
		}
		user = id
	}
	msgs := d.fake.Seen(d.cfg.Channel, user)
	// Discord's client forgets ephemeral replies on a reload; the view keeps the latest
	// few, so that a long game does not grow every poll.
	private, kept := map[string]bool{}, 0
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Flags&discordgo.MessageFlagsEphemeral == 0 {
			continue
		}
		if kept++; kept > maxEphemerals {
			msgs = slices.Delete(msgs, i, i+1)
			continue
		}
		private[msgs[i].ID] = true
	}
	out := struct {
		Messages []Message `json:"messages"`
	}{Messages: []Message{}}
	for _, m := range msgs {
		out.Messages = append(out.Messages, d.message(m, private[m.ID]))
	}
	writeJSON(w, http.StatusOK, out)
}

// message draws m plainly: its text a line at a time, its picture, its buttons and selects.
func (d *Demo) message(m *discordgo.Message, private bool) Message {
	out := Message{ID: m.ID, Author: "Pontoon", Text: []string{}, Components: []bot.WebControl{}, Private: private}
	if m.Author != nil && m.Author.Username != "" {
		out.Author = m.Author.Username
	}
	for _, line := range strings.Split(discordtest.Text(m), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			out.Text = append(out.Text, d.plain(line))
		}
	}
	for _, a := range d.fake.Attachments(m.ID) {
		if strings.HasPrefix(a.ContentType, "image/") || isPicture(a.Filename) {
			out.Image = "/demo/attachments/" + m.ID + "/" + a.Filename
			break
		}
	}
	for _, c := range discordtest.Components(m) {
		switch v := c.(type) {
		case *discordgo.Button:
			if v.CustomID == "" {
				continue // a link button sends nothing
			}
			b := bot.WebControl{Kind: "button", ID: v.CustomID, Label: v.Label, Style: int(v.Style), Disabled: v.Disabled}
			if v.Emoji != nil {
				b.Emoji = v.Emoji.Name
			}
			out.Components = append(out.Components, b)
		case *discordgo.SelectMenu:
			s := bot.WebControl{Kind: "select", ID: v.CustomID, Placeholder: v.Placeholder, Disabled: v.Disabled, Min: 1, Max: 1,
				Options: []bot.WebOption{}}
			if v.MinValues != nil {
				s.Min = *v.MinValues
			}
			if v.MaxValues > 0 {
				s.Max = v.MaxValues
			}
			for _, o := range v.Options {
				s.Options = append(s.Options, bot.WebOption{Label: o.Label, Value: o.Value, Description: o.Description})
			}
			out.Components = append(out.Components, s)
		}
	}
	return out
}

func isPicture(name string) bool {
	n := strings.ToLower(name)
	for _, ext := range []string{".png", ".jpg", ".jpeg", ".webp", ".gif"} {
		if strings.HasSuffix(n, ext) {
			return true
		}
	}
	return false
}

var mentionRE = regexp.MustCompile(`<@!?(\d+)>`)

// plain writes a mention as @name, which the page cannot resolve; the rest of Discord's
// markup (timestamps, command mentions) the page draws itself.
func (d *Demo) plain(line string) string {
	return mentionRE.ReplaceAllStringFunc(line, func(s string) string {
		if n := d.name(mentionRE.FindStringSubmatch(s)[1]); n != "" {
			return "@" + n
		}
		return s
	})
}

// serveAttachment is GET /demo/attachments/{message}/{name}: a picture of a public
// message of the demo channel.
func (d *Demo) serveAttachment(w http.ResponseWriter, r *http.Request) {
	id, name := r.PathValue("message"), r.PathValue("name")
	m := d.fake.Message(d.cfg.Channel, id)
	if m == nil || m.Flags&discordgo.MessageFlagsEphemeral != 0 {
		http.NotFound(w, r)
		return
	}
	for _, a := range d.fake.Attachments(id) {
		if a.Filename == name {
			ct := a.ContentType
			if ct == "" {
				ct = "application/octet-stream"
			}
			w.Header().Set("Content-Type", ct)
			w.Header().Set("Cache-Control", "private, max-age=3600") // an attachment never changes
			_, _ = w.Write(a.Data)
			return
		}
	}
	http.NotFound(w, r)
}

type clickBody struct {
	User    string    `json:"user"`
	Message string    `json:"message"`
	ID      string    `json:"id"`
	Values  *[]string `json:"values"`
}

// serveClick is POST /demo/click: a member presses a button or chooses in a select.
func (d *Demo) serveClick(w http.ResponseWriter, r *http.Request) {
	var b clickBody
	user, ok := d.actor(w, r, &b, &b.User)
	if !ok {
		return
	}
	var resp *discordtest.Response
	var err error
	if b.Values != nil {
		resp, err = d.fake.Select(d.cfg.Channel, b.Message, user, b.ID, *b.Values)
	} else {
		resp, err = d.fake.Click(d.cfg.Channel, b.Message, user, b.ID)
	}
	if err != nil {
		d.log.Info("demo: click not sent", "user", b.User, "id", b.ID, "err", err)
		d.refuse(w, http.StatusConflict, "demo.cannot_press")
		return
	}
	if resp.Modal != nil {
		// One form open per member, as in Discord's client: a new one replaces the last.
		d.mu.Lock()
		d.modals[user] = resp
		d.mu.Unlock()
		writeJSON(w, http.StatusOK, map[string]any{"modal": modalOf(resp.Modal)})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true})
}

func modalOf(m *discordtest.Modal) bot.WebModal {
	out := bot.WebModal{ID: m.CustomID, Title: m.Title, Inputs: []bot.WebInput{}}
	for _, in := range modalInputs(m) {
		out.Inputs = append(out.Inputs, bot.WebInput{ID: in.CustomID, Label: in.Label, Placeholder: in.Placeholder,
			MinLength: in.MinLength, MaxLength: in.MaxLength, Required: in.Required, Value: in.Value})
	}
	return out
}

type submitBody struct {
	User   string            `json:"user"`
	ID     string            `json:"id"`
	Fields map[string]string `json:"fields"`
}

// serveSubmit is POST /demo/submit: a member sends the form a click opened.
func (d *Demo) serveSubmit(w http.ResponseWriter, r *http.Request) {
	var b submitBody
	user, ok := d.actor(w, r, &b, &b.User)
	if !ok {
		return
	}
	d.mu.Lock()
	from := d.modals[user]
	if from != nil && from.Modal.CustomID == b.ID {
		delete(d.modals, user)
	} else {
		from = nil
	}
	d.mu.Unlock()
	if from == nil {
		d.refuse(w, http.StatusConflict, "demo.form_closed")
		return
	}
	if _, err := d.fake.SubmitModal(d.cfg.Channel, user, b.ID, b.Fields, from); err != nil {
		d.log.Info("demo: form not sent", "user", b.User, "id", b.ID, "err", err)
		d.refuse(w, http.StatusConflict, "demo.form_refused")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true})
}

// maxSeatsAtOnce bounds one /demo/seats request.
const maxSeatsAtOnce = 8

// serveSeats is POST /demo/seats {"count":N}: scripted players sit down.
func (d *Demo) serveSeats(w http.ResponseWriter, r *http.Request) {
	var b struct {
		Count int `json:"count"`
	}
	if !d.readJSON(w, r, &b) {
		return
	}
	n := min(max(b.Count, 1), maxSeatsAtOnce)
	seated, err := d.Seat(r.Context(), n)
	switch {
	case errors.Is(err, ErrNoSeat):
		d.refuse(w, http.StatusConflict, "demo.no_seat")
		return
	case errors.Is(err, errNoTable):
		d.refuse(w, http.StatusConflict, "err.no_table")
		return
	case err != nil && seated == 0:
		d.log.Warn("demo: seating scripted players", "err", err)
		d.refuse(w, http.StatusInternalServerError, "demo.no_seat")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "seated": seated})
}

// refuse answers {"error": words} in the demo members' language.
func (d *Demo) refuse(w http.ResponseWriter, status int, key string) {
	writeJSON(w, status, map[string]string{"error": d.cat.T(i18n.Choose("", "en-US"), key)})
}

// actor reads a request's JSON body into v and finds the member named by *name (a field
// of v) as it was read.
func (d *Demo) actor(w http.ResponseWriter, r *http.Request, v any, name *string) (string, bool) {
	if !d.readJSON(w, r, v) {
		return "", false
	}
	id, err := d.Member(r.Context(), *name)
	if err != nil {
		d.refuseName(w, err)
		return "", false
	}
	return id, true
}

// refuseName words Member's refusal of a name.
func (d *Demo) refuseName(w http.ResponseWriter, err error) {
	if errors.Is(err, ErrScriptedName) {
		d.refuse(w, http.StatusBadRequest, "demo.scripted_name")
		return
	}
	d.refuse(w, http.StatusBadRequest, "demo.bad_name")
}

// maxBody bounds a request body: the largest is a form's fields.
const maxBody = 64 << 10

func (d *Demo) readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		d.refuse(w, http.StatusBadRequest, "demo.bad_request")
		return false
	}
	return true
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

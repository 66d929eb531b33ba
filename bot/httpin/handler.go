package httpin

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/pontoon-bot/pontoon/bot/discordapi"
)

// Defaults of Options.
const (
	// DefaultDeferAfter leaves a second of Discord's three for the network
	// and the load balancer.
	DefaultDeferAfter = 2 * time.Second
	// DefaultMaxSkew bounds how old (or how far in the future) a signed
	// request may be. Discord signs each request as it sends it, so only a
	// replayed request, or a badly wrong clock, is further off.
	DefaultMaxSkew = 5 * time.Minute
	// MaxBodyBytes is the largest request body read. Interaction payloads
	// with resolved members and messages stay far below it.
	MaxBodyBytes = 4 << 20
)

// Header names Discord signs requests with.
const (
	HeaderSignature = "X-Signature-Ed25519"
	HeaderTimestamp = "X-Signature-Timestamp"
)

// ErrPublicKey is returned by ParsePublicKey for anything but 64 hex digits.
var ErrPublicKey = errors.New("httpin: the public key must be 64 hexadecimal digits (32 bytes), as the Developer Portal shows it")

// ParsePublicKey decodes an application's public key as the Developer
// Portal shows it: 64 hex digits.
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	b, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, ErrPublicKey
	}
	return ed25519.PublicKey(b), nil
}

// Router answers one interaction, as the bot's gateway handler does, but
// returns the response instead of posting it to the callback route. It is
// called concurrently. ctx is never cancelled (a commit in progress must not
// be cut short because Discord stopped waiting) but carries the request's
// values.
//
// A nil response or an error is answered 500, which the member sees as
// "This interaction failed"; the error is logged. The Router should
// therefore turn every expected problem into an ephemeral answer itself.
type Router func(ctx context.Context, i *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error)

// Webhooks is what the handler needs from Discord's REST API to deliver an
// answer that comes after a deferral. *discordgo.Session has both methods.
type Webhooks interface {
	InteractionResponseEdit(i *discordgo.Interaction, edit *discordgo.WebhookEdit, options ...discordgo.RequestOption) (*discordgo.Message, error)
	FollowupMessageCreate(i *discordgo.Interaction, wait bool, data *discordgo.WebhookParams, options ...discordgo.RequestOption) (*discordgo.Message, error)
}

// Options configure a Handler. PublicKey and Router are required.
type Options struct {
	PublicKey ed25519.PublicKey
	Router    Router
	// Webhooks delivers answers that come after a deferral. Nil: such
	// answers are logged and dropped (the member keeps the deferral).
	Webhooks Webhooks
	// DeferAfter is how long the router may take before the handler
	// answers with a deferral. 0 means DefaultDeferAfter; negative never
	// defers (the HTTP answer waits for the router however long it takes).
	DeferAfter time.Duration
	// Defer chooses the deferral for an interaction. Nil means type 6
	// (deferred update) for a component or a modal opened from one, and an
	// ephemeral type 5 (thinking) for everything else.
	Defer func(i *discordgo.Interaction) *discordgo.InteractionResponse
	// MaxSkew is how far the signed timestamp may be from now. 0 means
	// DefaultMaxSkew.
	MaxSkew time.Duration
	// Now is the clock for the timestamp check; nil means time.Now.
	Now func() time.Time
	// Logger receives one line per refused request and per failure; nil
	// means slog.Default(). No token is ever logged.
	Logger *slog.Logger
}

// Handler is the http.Handler of an application's interactions endpoint.
// It is safe for concurrent use.
type Handler struct {
	key        ed25519.PublicKey
	router     Router
	webhooks   Webhooks
	deferAfter time.Duration
	deferral   func(*discordgo.Interaction) *discordgo.InteractionResponse
	skew       time.Duration
	now        func() time.Time
	log        *slog.Logger
	late       sync.WaitGroup
}

// New returns a Handler, or an error when PublicKey or Router is missing.
func New(o Options) (*Handler, error) {
	if len(o.PublicKey) != ed25519.PublicKeySize {
		return nil, ErrPublicKey
	}
	if o.Router == nil {
		return nil, errors.New("httpin: Options.Router is nil")
	}
	h := &Handler{key: o.PublicKey, router: o.Router, webhooks: o.Webhooks, deferAfter: o.DeferAfter,
		deferral: o.Defer, skew: o.MaxSkew, now: o.Now, log: o.Logger}
	if h.deferAfter == 0 {
		h.deferAfter = DefaultDeferAfter
	}
	if h.deferral == nil {
		h.deferral = DefaultDeferral
	}
	if h.skew <= 0 {
		h.skew = DefaultMaxSkew
	}
	if h.now == nil {
		h.now = time.Now
	}
	if h.log == nil {
		h.log = slog.Default()
	}
	return h, nil
}

// DefaultDeferral is the deferral used when Options.Defer is nil: type 6
// for a component, or a modal submitted from a component's modal (both may
// update the component's message later), and an ephemeral type 5 for a
// command or any other modal, since a deferral cannot later become public
// or private.
func DefaultDeferral(i *discordgo.Interaction) *discordgo.InteractionResponse {
	if i.Type == discordgo.InteractionMessageComponent || (i.Type == discordgo.InteractionModalSubmit && i.Message != nil) {
		return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}
	}
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}}
}

// Wait blocks until every answer delivered after a deferral is sent. Call
// it on shutdown after the HTTP server stopped taking requests.
func (h *Handler) Wait() { h.late.Wait() }

// Verify reports whether sig (hex) is the application's signature of
// timestamp followed by body, and timestamp (Unix seconds) within MaxSkew of
// now. It is what ServeHTTP checks first; the reason is for the log.
func (h *Handler) Verify(sig, timestamp string, body []byte) (ok bool, reason string) {
	if sig == "" || timestamp == "" {
		return false, "missing " + HeaderSignature + " or " + HeaderTimestamp
	}
	raw, err := hex.DecodeString(sig)
	if err != nil || len(raw) != ed25519.SignatureSize {
		return false, "malformed signature"
	}
	msg := make([]byte, 0, len(timestamp)+len(body))
	msg = append(append(msg, timestamp...), body...)
	if !ed25519.Verify(h.key, msg, raw) {
		return false, "bad signature"
	}
	// The timestamp is checked after the signature, so that only Discord's
	// own requests reach this point: a stale one is a replay.
	secs, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return false, "malformed timestamp"
	}
	age := h.now().Sub(time.Unix(secs, 0))
	if age > h.skew || age < -h.skew {
		return false, fmt.Sprintf("timestamp %v away from now, more than %v", age.Round(time.Second), h.skew)
	}
	return true, ""
}

// ServeHTTP answers one POST from Discord.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		// Unsigned as far as we know: refuse without reading further.
		http.Error(w, "request body too large or unreadable", http.StatusRequestEntityTooLarge)
		return
	}
	if ok, reason := h.Verify(r.Header.Get(HeaderSignature), r.Header.Get(HeaderTimestamp), body); !ok {
		h.log.Warn("interactions endpoint: refused request", "reason", reason, "remote", r.RemoteAddr)
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	// Decoded without the message a component was on, which the router does not read
	// (DecodeInteraction).
	i, err := discordapi.DecodeInteraction(body)
	in := discordgo.InteractionCreate{Interaction: i}
	if err != nil {
		h.log.Error("interactions endpoint: signed body is not an interaction", "err", err)
		http.Error(w, "body is not an interaction", http.StatusBadRequest)
		return
	}
	if in.Type == discordgo.InteractionPing {
		writeJSON(w, []byte(`{"type":1}`))
		return
	}

	type result struct {
		resp *discordgo.InteractionResponse
		err  error
	}
	done := make(chan result, 1)
	then := &thenList{}
	ctx := context.WithValue(context.WithoutCancel(r.Context()), thenKey{}, then)
	// Work the router scheduled with Then runs once the answer is out:
	// after this handler returns, or after the late answer.
	returned := make(chan struct{})
	defer close(returned)
	go func() {
		var res result
		defer func() {
			if p := recover(); p != nil {
				res = result{err: fmt.Errorf("router panicked: %v", p)}
			}
			done <- res
		}()
		res.resp, res.err = h.router(ctx, &in)
	}()

	var timeout <-chan time.Time
	if h.deferAfter > 0 {
		t := time.NewTimer(h.deferAfter)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case res := <-done:
		if fns := then.take(); len(fns) > 0 {
			h.late.Add(1)
			go func() {
				defer h.late.Done()
				<-returned
				h.runThen(ctx, in.ID, fns)
			}()
		}
		if res.err != nil || res.resp == nil {
			h.fail(&in, res.err)
			http.Error(w, "the interaction could not be answered", http.StatusInternalServerError)
			return
		}
		if err := writeResponse(w, res.resp); err != nil {
			h.log.Error("interactions endpoint: cannot encode the response", "interaction", in.ID, "err", err)
			http.Error(w, "the interaction could not be answered", http.StatusInternalServerError)
		}
	case <-timeout:
		d := h.deferral(in.Interaction)
		if err := writeResponse(w, d); err != nil {
			h.log.Error("interactions endpoint: cannot encode the deferral", "interaction", in.ID, "err", err)
			http.Error(w, "the interaction could not be answered", http.StatusInternalServerError)
			return
		}
		h.log.Info("interactions endpoint: router slow, answered with a deferral", "interaction", in.ID,
			"after", h.deferAfter, "type", int(d.Type))
		h.late.Add(1)
		// The late answer goes out once this handler has returned, so that
		// the deferral is on its way to Discord before the webhook call.
		go func() {
			defer h.late.Done()
			res := <-done
			<-returned
			defer func() { h.runThen(ctx, in.ID, then.take()) }()
			if res.err != nil || res.resp == nil {
				h.fail(&in, res.err)
				return
			}
			if err := h.deliverLate(in.Interaction, d, res.resp); err != nil {
				h.log.Error("interactions endpoint: late answer not delivered", "interaction", in.ID, "err", redact(err, in.Token))
			}
		}()
	}
}

func (h *Handler) fail(in *discordgo.InteractionCreate, err error) {
	if err == nil {
		err = errors.New("router returned no response")
	}
	h.log.Error("interactions endpoint: interaction not answered", "interaction", in.ID, "guild", in.GuildID, "err", redact(err, in.Token))
}

// deliverLate sends the router's answer after deferral d went out.
func (h *Handler) deliverLate(i *discordgo.Interaction, d, resp *discordgo.InteractionResponse) error {
	switch resp.Type {
	case discordgo.InteractionResponseDeferredChannelMessageWithSource, discordgo.InteractionResponseDeferredMessageUpdate:
		return nil // the router itself promised a later answer; the deferral already said so
	case discordgo.InteractionResponseChannelMessageWithSource, discordgo.InteractionResponseUpdateMessage:
	default:
		return fmt.Errorf("a type %d answer cannot follow a deferral", resp.Type)
	}
	if h.webhooks == nil {
		return errors.New("no Webhooks configured")
	}
	data := resp.Data
	if data == nil {
		data = &discordgo.InteractionResponseData{}
	}
	// A new message (4) after a component's deferred update (6) is a
	// follow-up; every other pair edits what the deferral left: the
	// "thinking" message (5) or the component's message (6).
	if resp.Type == discordgo.InteractionResponseChannelMessageWithSource && d.Type == discordgo.InteractionResponseDeferredMessageUpdate {
		_, err := h.webhooks.FollowupMessageCreate(i, true, &discordgo.WebhookParams{
			Content: data.Content, Components: data.Components, Embeds: data.Embeds, Files: data.Files,
			AllowedMentions: data.AllowedMentions, Flags: data.Flags, TTS: data.TTS,
		})
		return err
	}
	// The whole message, as a type 7 would have set it: empty fields clear.
	content := data.Content
	components := data.Components
	if components == nil {
		components = []discordgo.MessageComponent{}
	}
	embeds := data.Embeds
	if embeds == nil {
		embeds = []*discordgo.MessageEmbed{}
	}
	_, err := h.webhooks.InteractionResponseEdit(i, &discordgo.WebhookEdit{
		Content: &content, Components: &components, Embeds: &embeds, Files: data.Files,
		Attachments: data.Attachments, AllowedMentions: data.AllowedMentions,
	})
	return err
}

// writeResponse writes an interaction response as JSON, or as
// multipart/form-data (payload_json and files[n]) when it carries files, as
// discordgo's InteractionRespond would post it.
func writeResponse(w http.ResponseWriter, resp *discordgo.InteractionResponse) error {
	if resp.Data != nil && len(resp.Data.Files) > 0 {
		ctype, body, err := discordgo.MultipartBodyWithJSON(resp, resp.Data.Files)
		if err != nil {
			return err
		}
		w.Header().Set("Content-Type", ctype)
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(body)
		flush(w)
		return nil
	}
	b, err := discordapi.MarshalResponse(resp)
	if err != nil {
		return err
	}
	writeJSON(w, b)
	return nil
}

func writeJSON(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
	flush(w)
}

// flush sends the answer before ServeHTTP returns, so that work scheduled
// with Then starts after Discord has it on the wire.
func flush(w http.ResponseWriter) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// redact removes the interaction token from an error's text: discordgo's
// errors quote the webhook URL, and the token is in its path.
func redact(err error, token string) string {
	s := err.Error()
	if token != "" {
		s = strings.ReplaceAll(s, token, "[token]")
	}
	return s
}

type thenKey struct{}

// thenList is the work a router scheduled with Then.
type thenList struct {
	mu  sync.Mutex
	fns []func(context.Context)
}

func (l *thenList) take() []func(context.Context) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fns := l.fns
	l.fns = nil
	return fns
}

// Then schedules f to run once the interaction's answer has been sent: after
// the HTTP response is written, or after the late answer that followed a
// deferral. It is for work that calls Discord and must neither delay the
// answer nor overtake it (a follow-up needs the initial response first):
// posting or editing the public table message, follow-ups. Functions run in
// order, in one goroutine; Handler.Wait waits for them. ctx must be the
// context the Router was given; Then reports false, and runs nothing, for
// any other.
func Then(ctx context.Context, f func(ctx context.Context)) bool {
	l, ok := ctx.Value(thenKey{}).(*thenList)
	if !ok {
		return false
	}
	l.mu.Lock()
	l.fns = append(l.fns, f)
	l.mu.Unlock()
	return true
}

func (h *Handler) runThen(ctx context.Context, id string, fns []func(context.Context)) {
	defer func() {
		if p := recover(); p != nil {
			h.log.Error("interactions endpoint: work after the answer panicked", "interaction", id, "panic", p)
		}
	}()
	for _, f := range fns {
		f(ctx)
	}
}

// Compile-time check that a discordgo session can deliver late answers.
var _ Webhooks = (*discordgo.Session)(nil)

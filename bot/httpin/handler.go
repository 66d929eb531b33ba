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
	// with resolved members and messages stay far below it; a larger one
	// is refused without being read whole.
	MaxBodyBytes = 1 << 20
)

// Reasons a request is refused, the values Recorder.EndpointRefused gets.
// They are a fixed set, so that a metric labelled with them stays small
// whatever clients send.
const (
	RefusedMethod             = "method"              // not a POST
	RefusedMissingSignature   = "missing_signature"   // no X-Signature-Ed25519
	RefusedMalformedSignature = "malformed_signature" // not 128 hex digits
	RefusedMissingTimestamp   = "missing_timestamp"   // no X-Signature-Timestamp
	RefusedMalformedTimestamp = "malformed_timestamp" // not Unix seconds in digits
	RefusedBodyTooLarge       = "body_too_large"      // over MaxBodyBytes
	RefusedBodyUnreadable     = "body_unreadable"     // cut off, or too slow for the read timeout
	RefusedBadSignature       = "bad_signature"       // not signed by the application's key
	RefusedStaleTimestamp     = "stale_timestamp"     // signed, but further than MaxSkew from now (a replay)
)

// RefusalReasons are all the Refused* values, for a metric that shows each
// at zero before the first refusal.
var RefusalReasons = []string{RefusedMethod, RefusedMissingSignature, RefusedMalformedSignature,
	RefusedMissingTimestamp, RefusedMalformedTimestamp, RefusedBodyTooLarge, RefusedBodyUnreadable,
	RefusedBadSignature, RefusedStaleTimestamp}

// Recorder counts refused requests by reason (one of the Refused*
// constants). *metrics.Metrics is one.
type Recorder interface {
	EndpointRefused(reason string)
}

// DefaultRefusalLogEvery is how often, at most, a refused request is logged
// after the first: anyone can send requests, and a line for each would let
// them flood the log.
const DefaultRefusalLogEvery = time.Minute

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

// ErrAnswered is what a Router returns for an interaction it answered before (a
// redelivery): the endpoint then writes no answer, only 409 Conflict, and logs no error.
var ErrAnswered = errors.New("httpin: interaction already answered")

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
	// Logger receives a sample of the refused requests (see RefusalLogEvery)
	// and one line per failure; nil means slog.Default(). No token is ever
	// logged.
	Logger *slog.Logger
	// Recorder counts every refused request by reason; nil counts nothing.
	Recorder Recorder
	// RefusalLogEvery is how often a refused request is logged: the first
	// one, then at most one per period with the number refused since the
	// last line. 0 means DefaultRefusalLogEvery.
	RefusalLogEvery time.Duration
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
	recorder   Recorder
	refusals   sampler
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
		deferral: o.Defer, skew: o.MaxSkew, now: o.Now, log: o.Logger, recorder: o.Recorder,
		refusals: sampler{every: o.RefusalLogEvery}}
	if h.refusals.every <= 0 {
		h.refusals.every = DefaultRefusalLogEvery
	}
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
// now. It is what ServeHTTP checks; the reason is one of the Refused*
// constants, for the log and the metric.
func (h *Handler) Verify(sig, timestamp string, body []byte) (ok bool, reason string) {
	if reason := checkHeaders(sig, timestamp); reason != "" {
		return false, reason
	}
	raw, _ := hex.DecodeString(sig) // checkHeaders made sure it decodes
	msg := make([]byte, 0, len(timestamp)+len(body))
	msg = append(append(msg, timestamp...), body...)
	if !ed25519.Verify(h.key, msg, raw) {
		return false, RefusedBadSignature
	}
	// The timestamp's age is checked after the signature, so that only
	// Discord's own requests reach this point: a stale one is a replay.
	secs, _ := strconv.ParseInt(timestamp, 10, 64) // checkHeaders made sure it parses
	age := h.now().Sub(time.Unix(secs, 0))
	if age > h.skew || age < -h.skew {
		return false, RefusedStaleTimestamp
	}
	return true, ""
}

// checkHeaders returns why the signature headers cannot be Discord's, or ""
// when they have the right form: 128 hex digits of signature, and a
// timestamp of Unix seconds in digits. It needs no body, so a request that
// fails it is refused before its body is read.
func checkHeaders(sig, timestamp string) (reason string) {
	switch {
	case sig == "":
		return RefusedMissingSignature
	case len(sig) != 2*ed25519.SignatureSize || !isHex(sig):
		return RefusedMalformedSignature
	case timestamp == "":
		return RefusedMissingTimestamp
	case len(timestamp) > 18 || !isDigits(timestamp): // 18 digits always fit an int64
		return RefusedMalformedTimestamp
	}
	return ""
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// ServeHTTP answers one POST from Discord. What costs nothing to check is
// checked before the body is read, so that a request that cannot be
// Discord's holds neither memory nor the connection for long: the method,
// the form of the signature headers, and the declared length.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		h.refuse(r, RefusedMethod)
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	sig, timestamp := r.Header.Get(HeaderSignature), r.Header.Get(HeaderTimestamp)
	if reason := checkHeaders(sig, timestamp); reason != "" {
		h.refuse(r, reason)
		closeAfter(w)
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	if r.ContentLength > MaxBodyBytes {
		h.refuse(r, RefusedBodyTooLarge)
		closeAfter(w)
		http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			h.refuse(r, RefusedBodyTooLarge)
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return
		}
		h.refuse(r, RefusedBodyUnreadable)
		closeAfter(w)
		http.Error(w, "request body unreadable", http.StatusBadRequest)
		return
	}
	if ok, reason := h.Verify(sig, timestamp, body); !ok {
		h.refuse(r, reason)
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
		if errors.Is(res.err, ErrAnswered) {
			// A redelivery of an interaction answered before: a second answer would be
			// refused by Discord, and nothing went wrong here, so no error line.
			h.log.Debug("interactions endpoint: already answered", "interaction", in.ID)
			w.WriteHeader(http.StatusConflict)
			return
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

// refuse counts a refused request and logs a sample of them.
func (h *Handler) refuse(r *http.Request, reason string) {
	if h.recorder != nil {
		h.recorder.EndpointRefused(reason)
	}
	if log, since := h.refusals.take(h.now()); log {
		h.log.Warn("interactions endpoint: refused request", "reason", reason, "remote", r.RemoteAddr,
			"refused_since_last_line", since)
	}
}

// closeAfter ends the connection once the answer is out: the body was not
// read, and reading it to reuse the connection would hand the client the
// time and memory that refusing it saved.
func closeAfter(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
}

// sampler lets through the first event and then at most one per period,
// counting those it held back.
type sampler struct {
	every time.Duration
	mu    sync.Mutex
	last  time.Time // when an event was last let through; zero before the first
	held  int64     // events held back since
}

// take reports whether the event at now is let through, and how many were
// held back since the last one that was.
func (s *sampler) take(now time.Time) (ok bool, heldBack int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.last.IsZero() && now.Sub(s.last) < s.every {
		s.held++
		return false, 0
	}
	heldBack, s.held, s.last = s.held, 0, now
	return true, heldBack
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

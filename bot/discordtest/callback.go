package discordtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"
)

// handleCallback is POST /interactions/{id}/{token}/callback: the bot's
// first response to an interaction.
func (s *Server) handleCallback(c *call) (int, any, *apiError) {
	var cb struct {
		Type *int            `json:"type"`
		Data json.RawMessage `json:"data"`
	}
	if len(c.payload) == 0 || json.Unmarshal(c.payload, &cb) != nil || cb.Type == nil {
		return 0, nil, errInvalidForm([]fieldError{required("type")})
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	in := s.interactions[c.params["interaction_id"]]
	if in == nil || in.token != c.params["interaction_token"] {
		return 0, nil, errUnknownInteraction()
	}
	if in.acked {
		return 0, nil, errAcknowledged()
	}
	late := c.arrival.Sub(in.dispatched)
	if in.failed || late > in.deadline {
		if !in.failed {
			in.failed = true
			in.timer.Stop()
			s.failLocked("%s failed: no response within %v", in.describe(), in.deadline)
		}
		e := errUnknownInteraction()
		e.Note = fmt.Sprintf("first response %v after dispatch, past the %v deadline", late.Round(time.Millisecond), in.deadline)
		return 0, nil, e
	}
	e := s.acceptCallbackLocked(c, in, *cb.Type, cb.Data)
	if e != nil {
		in.rejections = append(in.rejections, e.Error())
		return 0, nil, e
	}
	if c.query.Get("with_response") == "true" {
		out := map[string]any{"interaction": map[string]any{
			"id": in.id, "type": in.kind, "response_message_loading": in.deferred,
		}}
		res := map[string]any{"type": in.respType}
		if in.respType == 12 {
			res["activity_instance"] = map[string]any{"id": "i-" + in.id}
		}
		if m := in.original; m != nil && (in.respType == 4 || in.respType == 7) {
			res["message"] = s.msgJSONLocked(m)
			out["interaction"].(map[string]any)["response_message_id"] = m.id
			out["interaction"].(map[string]any)["response_message_ephemeral"] = m.ephemeral()
		}
		out["resource"] = res
		return http.StatusOK, out, nil
	}
	return http.StatusNoContent, nil, nil
}

func typeError(msg string) *apiError {
	return errInvalidForm([]fieldError{invalid("type", "INTERACTION_CALLBACK_TYPE_INVALID", msg)})
}

// acceptCallbackLocked validates a callback and, when Discord would take
// it, applies it.
func (s *Server) acceptCallbackLocked(c *call, in *interaction, typ int, data json.RawMessage) *apiError {
	componentLike := in.kind == kindComponent || (in.kind == kindModal && in.fromComponent)
	switch typ {
	case 4, 5:
	case 6, 7:
		if !componentLike {
			what := "a command"
			if in.kind == kindModal {
				what = "a modal submit whose modal was not opened from a component"
			}
			return typeError(fmt.Sprintf("Callback type %d is only valid for component interactions, not %s.", typ, what))
		}
	case 9:
		if in.kind != kindCommand && in.kind != kindComponent {
			return typeError("Callback type 9 (modal) is not available for modal submit interactions.")
		}
	case 12:
		// LAUNCH_ACTIVITY opens the app's Activity for the member: it answers a command
		// or a component, never a modal submit, and carries no message.
		if in.kind != kindCommand && in.kind != kindComponent {
			return typeError("Callback type 12 (launch activity) is not available for modal submit interactions.")
		}
		if d := bytes.TrimSpace(data); len(d) > 0 && !bytes.Equal(d, []byte("null")) {
			return errInvalidForm([]fieldError{invalid("data", "INTERACTION_CALLBACK_DATA_INVALID", "Callback type 12 (launch activity) takes no data.")})
		}
		in.acked = true
		in.timer.Stop()
		in.respType = typ
		latency := c.arrival.Sub(in.dispatched)
		s.latencies = append(s.latencies, latency)
		in.resp = &Response{InteractionID: in.id, Token: in.token, Latency: latency, srv: s, in: in,
			Type: discordgo.InteractionResponseType(typ)}
		s.notifyLocked()
		return nil
	case 1:
		return typeError("Callback type 1 (pong) only answers a ping.")
	case 8:
		return typeError("Callback type 8 only answers autocomplete interactions.")
	default:
		return typeError(fmt.Sprintf("Callback type %d is not supported.", typ))
	}
	b, e := parseMsgBody(data, "data")
	if e != nil {
		return e
	}
	var next *message // the message after an accepted type 4 or 7
	var inputs []modalInput
	switch typ {
	case 4:
		if e := s.checkMsg(c, b, rulesInteraction); e != nil {
			return e
		}
		if next, e = s.newMessageLocked(in.channelID, in).apply(b, c.files, false); e != nil {
			return e
		}
		if next.empty() {
			return errEmptyMessage()
		}
	case 5:
		if b.Flags != nil && *b.Flags&^(flagEphemeral|flagSuppressEmbeds|flagSuppressNotifications) != 0 {
			return errInvalidForm([]fieldError{invalid("data.flags", "MESSAGE_FLAGS_INVALID", "A deferred response may only set EPHEMERAL.")})
		}
		if e := s.checkSpec(c); e != nil {
			return e
		}
	case 6:
		if e := s.checkSpec(c); e != nil {
			return e
		}
	case 7:
		if e := s.checkMsg(c, b, rulesUpdate); e != nil {
			return e
		}
		if in.source == nil || in.source.deleted {
			return errUnknownMessage()
		}
		if next, e = in.source.apply(b, c.files, true); e != nil {
			return e
		}
		if next.empty() {
			return errEmptyMessage()
		}
	case 9:
		var errs []fieldError
		inputs, errs = validateModal(b, "data")
		if len(errs) > 0 {
			return errInvalidForm(errs)
		}
		if e := s.checkSpec(c); e != nil {
			return e
		}
	}

	// Accepted.
	in.acked = true
	in.timer.Stop()
	in.respType = typ
	latency := c.arrival.Sub(in.dispatched)
	s.latencies = append(s.latencies, latency)
	resp := &Response{InteractionID: in.id, Token: in.token, Latency: latency, srv: s, in: in}
	resp.Type = discordgo.InteractionResponseType(typ)
	switch typ {
	case 4:
		if in.kind == kindCommand {
			next.kind = 20
		}
		if next.ephemeral() {
			next.ephemeralTo = in.userID
		}
		s.commitLocked(next, false)
		in.original = next
	case 5:
		m := s.newMessageLocked(in.channelID, in)
		m.flags = flagLoading
		if b.Flags != nil {
			m.flags |= *b.Flags & flagEphemeral
		}
		if m.ephemeral() {
			m.ephemeralTo = in.userID
		}
		if in.kind == kindCommand {
			m.kind = 20
		}
		s.commitLocked(m, false)
		in.original = m
		in.deferred = true
	case 6:
		in.original = in.source
	case 7:
		s.commitLocked(next, true)
		in.original = in.source
	case 9:
		in.modal = &modalState{customID: *b.CustomID, title: *b.Title, inputs: inputs,
			components: append(json.RawMessage(nil), b.raw["components"]...)}
		resp.Modal = &Modal{CustomID: *b.CustomID, Title: *b.Title, Components: s.modalComponents(in.modal.components)}
	}
	if m := in.original; m != nil {
		resp.Message = s.toMessageLocked(m)
		resp.Ephemeral = m.ephemeral()
		resp.baseEdits = m.edits
	}
	in.resp = resp
	s.notifyLocked()
	return nil
}

// ---- webhooks: follow-ups and edits of interaction responses ----

// webhookLocked resolves the interaction behind /webhooks/{app}/{token}.
func (s *Server) webhookLocked(c *call) (*interaction, *apiError) {
	if c.params["webhook_id"] != s.AppID {
		e := errUnknownWebhook()
		e.Note = "webhook id is not the application id"
		return nil, e
	}
	in := s.byToken[c.params["webhook_token"]]
	if in == nil {
		return nil, errUnknownWebhook()
	}
	if !in.acked {
		e := errUnknownWebhook()
		e.Note = "the interaction token works only after the initial response"
		return nil, e
	}
	if age := c.arrival.Sub(in.dispatched); age > s.lifetime {
		return nil, &apiError{Status: http.StatusUnauthorized, Code: 50027, Message: "Invalid Webhook Token",
			Note: fmt.Sprintf("the interaction token expired %v after dispatch", s.lifetime)}
	}
	return in, nil
}

func (s *Server) webhookMessageLocked(c *call, in *interaction) (*message, *apiError) {
	id := c.params["message_id"]
	if id == "@original" {
		if in.original == nil || in.original.deleted {
			return nil, errUnknownMessage()
		}
		return in.original, nil
	}
	if in.original != nil && in.original.id == id && !in.original.deleted {
		return in.original, nil
	}
	for _, m := range in.followups {
		if m.id == id && !m.deleted {
			return m, nil
		}
	}
	return nil, errUnknownMessage()
}

// handleFollowup is POST /webhooks/{app}/{token}: a follow-up message. Right
// after a deferred response (5) it completes the "thinking" message instead,
// as Discord still does.
func (s *Server) handleFollowup(c *call) (int, any, *apiError) {
	b, e := parseMsgBody(c.payload, "")
	if e != nil {
		return 0, nil, e
	}
	if e := s.checkMsg(c, b, rulesFollowup); e != nil {
		return 0, nil, e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	in, e := s.webhookLocked(c)
	if e != nil {
		return 0, nil, e
	}
	if in.deferred && in.original != nil && !in.original.deleted {
		if b.Flags != nil && *b.Flags&flagComponentsV2 != 0 {
			// Discord makes a deferred answer a V2 message only by an edit of the
			// original response, not by the follow-up that completes it.
			return 0, nil, errInvalidForm([]fieldError{invalid("flags", "MESSAGE_FLAGS_INVALID", "A deferred response becomes a Components V2 message only by editing the original response.")})
		}
		old := in.original
		n, e := old.apply(b, c.files, false)
		if e != nil {
			return 0, nil, e
		}
		n.flags = old.flags &^ flagLoading // the ephemeral state of the deferral stays
		n.ephemeralTo = old.ephemeralTo
		if n.empty() {
			return 0, nil, errEmptyMessage()
		}
		s.commitLocked(n, true)
		in.deferred = false
		return 200, s.msgJSONLocked(old), nil
	}
	m, e := s.newMessageLocked(in.channelID, in).apply(b, c.files, false)
	if e != nil {
		return 0, nil, e
	}
	if m.empty() {
		return 0, nil, errEmptyMessage()
	}
	if m.ephemeral() {
		m.ephemeralTo = in.userID
	}
	s.commitLocked(m, false)
	in.followups = append(in.followups, m)
	return 200, s.msgJSONLocked(m), nil
}

func (s *Server) handleWebhookEdit(c *call) (int, any, *apiError) {
	b, e := parseMsgBody(c.payload, "")
	if e != nil {
		return 0, nil, e
	}
	if e := s.checkMsg(c, b, rulesWebhookEdit); e != nil {
		return 0, nil, e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	in, e := s.webhookLocked(c)
	if e != nil {
		return 0, nil, e
	}
	m, e := s.webhookMessageLocked(c, in)
	if e != nil {
		return 0, nil, e
	}
	n, e := m.patch(b, c.files)
	if e != nil {
		return 0, nil, e
	}
	completes := in.deferred && m == in.original
	if completes {
		n.flags &^= flagLoading
	}
	if n.empty() {
		return 0, nil, errEmptyMessage()
	}
	s.commitLocked(n, true)
	if completes {
		in.deferred = false
	}
	return 200, s.msgJSONLocked(m), nil
}

func (s *Server) handleWebhookGet(c *call) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in, e := s.webhookLocked(c)
	if e != nil {
		return 0, nil, e
	}
	m, e := s.webhookMessageLocked(c, in)
	if e != nil {
		return 0, nil, e
	}
	return 200, s.msgJSONLocked(m), nil
}

func (s *Server) handleWebhookDelete(c *call) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in, e := s.webhookLocked(c)
	if e != nil {
		return 0, nil, e
	}
	m, e := s.webhookMessageLocked(c, in)
	if e != nil {
		return 0, nil, e
	}
	m.deleted = true
	s.notifyLocked()
	return http.StatusNoContent, nil, nil
}

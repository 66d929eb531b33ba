package discordtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Interaction kinds (Discord's interaction types).
const (
	kindCommand   = 2
	kindComponent = 3
	kindModal     = 5
)

type interaction struct {
	id, token                  string
	kind                       int
	label                      string // "/pontoon start", "button pontoon:join", ...
	guildID, channelID, userID string
	source                     *message // the message a component is on (also for a modal opened from one)
	fromComponent              bool     // a modal submit whose modal was opened from a component
	dispatched                 time.Time
	deadline                   time.Duration
	timer                      *time.Timer
	acked, failed              bool
	rejections                 []string
	respType                   int
	original                   *message // what @original names
	deferred                   bool     // a type 5 message still "thinking"
	modal                      *modalState
	followups                  []*message
	resp                       *Response
	payload                    map[string]any // what was dispatched, for Redeliver
}

type modalState struct {
	customID, title string
	inputs          []modalInput
	components      json.RawMessage
	submitted       bool
}

// Response is the bot's first answer to an interaction the fake sent.
type Response struct {
	InteractionID string
	Token         string
	// Type is the callback type: 4 message, 5 deferred message, 6 deferred
	// update, 7 update message, 9 modal.
	Type discordgo.InteractionResponseType
	// Message is the message the response made or changed, as it stood right
	// after the callback: the new message (4), the "thinking" message (5),
	// the component's message (6, 7). Nil for a modal.
	Message *discordgo.Message
	// Ephemeral reports whether Message is seen by the member alone.
	Ephemeral bool
	// Modal is the modal the bot opened (type 9).
	Modal *Modal
	// Latency is the time from dispatch of the interaction to the arrival of
	// the callback.
	Latency time.Duration

	srv       *Server
	in        *interaction
	baseEdits int
}

// Modal is a modal the bot opened with a type 9 response.
type Modal struct {
	CustomID   string
	Title      string
	Components []discordgo.MessageComponent
}

// WaitEdit waits until the message of the response is edited after the
// callback (PATCH @original, a follow-up completing a deferred response, a
// channel edit of the component's message) and returns it as it then stands.
func (r *Response) WaitEdit(timeout time.Duration) (*discordgo.Message, error) {
	s := r.srv
	var m *message
	ok := s.waitFor(timeout, func() bool {
		m = r.in.original
		return m != nil && (m.edits > r.baseEdits || m.deleted)
	})
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.in.original == nil {
		return nil, fmt.Errorf("discordtest: %s has no message to edit (callback type %d)", r.in.describe(), r.Type)
	}
	if !ok {
		return nil, fmt.Errorf("discordtest: %s: no edit of the response within %v", r.in.describe(), timeout)
	}
	if m.deleted {
		return nil, fmt.Errorf("discordtest: %s: the response message was deleted", r.in.describe())
	}
	return s.toMessageLocked(m), nil
}

// WaitFollowup waits for the interaction's first follow-up message and
// returns it as it now stands.
func (r *Response) WaitFollowup(timeout time.Duration) (*discordgo.Message, error) {
	s := r.srv
	if !s.waitFor(timeout, func() bool { return len(r.in.followups) > 0 }) {
		return nil, fmt.Errorf("discordtest: %s: no follow-up within %v", r.in.describe(), timeout)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.toMessageLocked(r.in.followups[0]), nil
}

// Followups returns the interaction's follow-up messages as they now stand.
func (r *Response) Followups() []*discordgo.Message {
	s := r.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*discordgo.Message
	for _, m := range r.in.followups {
		if !m.deleted {
			out = append(out, s.toMessageLocked(m))
		}
	}
	return out
}

// Original returns the response's message as it now stands (nil for a modal
// or a deleted message).
func (r *Response) Original() *discordgo.Message {
	s := r.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	if m := r.in.original; m != nil && !m.deleted {
		return s.toMessageLocked(m)
	}
	return nil
}

func (s *Server) actorLocked(guildID, channelID, userID string) (*guild, *member, error) {
	g := s.guilds[guildID]
	if g == nil {
		return nil, nil, fmt.Errorf("discordtest: unknown guild %s (AddGuild first)", guildID)
	}
	c := s.channels[channelID]
	if c == nil || c.guildID != guildID {
		return nil, nil, fmt.Errorf("discordtest: unknown channel %s in guild %s (AddChannel first)", channelID, guildID)
	}
	m := g.members[userID]
	if m == nil {
		return nil, nil, fmt.Errorf("discordtest: user %s is not a member of guild %s (AddMember first)", userID, guildID)
	}
	return g, m, nil
}

// startLocked dispatches an interaction and arms its 3 second clock.
func (s *Server) startLocked(in *interaction, data map[string]any) error {
	if s.closed {
		return errors.New("discordtest: server closed")
	}
	var sess *gwSession // nil: the interaction goes to the HTTP endpoint (endpoint.go)
	if !s.overHTTPLocked() {
		if sess = s.sessionForLocked(in.guildID); sess == nil {
			return ErrNotConnected
		}
	}
	g := s.guilds[in.guildID]
	mem := g.members[in.userID]
	in.id = s.newIDLocked()
	in.token = randomToken("aW50ZXJhY3Rpb246")
	payload := map[string]any{
		"id": in.id, "application_id": s.AppID, "type": in.kind, "token": in.token, "version": 1,
		"guild_id": in.guildID, "channel_id": in.channelID, "channel": channelJSON(s.channels[in.channelID]),
		"guild":           map[string]any{"id": g.id, "locale": g.locale, "features": []string{}},
		"member":          memberJSON(mem),
		"app_permissions": fmt.Sprint(s.appPermsLocked(in.channelID)),
		"locale":          mem.locale, "guild_locale": g.locale,
		"entitlements": []any{}, "context": 0,
		"authorizing_integration_owners": map[string]any{"0": in.guildID},
		"data":                           data,
	}
	if in.source != nil {
		payload["message"] = s.msgJSONLocked(in.source)
	}
	in.payload = payload
	in.deadline = s.deadline
	in.dispatched = time.Now()
	s.interactions[in.id] = in
	s.byToken[in.token] = in
	if sess != nil {
		s.dispatchToLocked(sess, "INTERACTION_CREATE", payload)
	} else {
		s.postLocked(in, payload)
	}
	in.timer = time.AfterFunc(in.deadline, func() { s.expire(in) })
	return nil
}

// expire marks an interaction failed when its deadline passed unanswered:
// the member sees "This interaction failed".
func (s *Server) expire(in *interaction) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if in.acked || in.failed || s.closed {
		return
	}
	in.failed = true
	s.failLocked("%s failed: no response within %v%s", in.describe(), in.deadline, in.rejectionNote())
}

func (in *interaction) rejectionNote() string {
	if len(in.rejections) == 0 {
		return ""
	}
	return " (rejected response: " + in.rejections[len(in.rejections)-1] + ")"
}

// await waits for the interaction's first accepted response.
func (s *Server) await(in *interaction) (*Response, error) {
	s.waitFor(s.cfg.waitTimeout, func() bool { return in.resp != nil || in.failed })
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.forgedResultLocked(in); err != nil {
		return nil, err
	}
	switch {
	case in.resp != nil:
		return in.resp, nil
	case in.failed:
		return nil, fmt.Errorf("discordtest: %s failed: no response within %v%s", in.describe(), in.deadline, in.rejectionNote())
	default:
		return nil, fmt.Errorf("discordtest: %s: no response within %v%s", in.describe(), s.cfg.waitTimeout, in.rejectionNote())
	}
}

// Command acts as a member running a slash command in a channel and waits
// for the bot's first response. The command must be registered (in the
// guild, or globally). Options are checked against the registration as
// Discord's client would: a Type left 0 is taken from it, subcommands and
// groups nest through Options, values must fit type, choices and ranges.
func (s *Server) Command(guildID, channelID, userID, name string, options []*discordgo.ApplicationCommandInteractionDataOption) (*Response, error) {
	in, err := s.startCommand(guildID, channelID, userID, name, options)
	if err != nil {
		return nil, err
	}
	return s.await(in)
}

func (s *Server) startCommand(guildID, channelID, userID, name string, options []*discordgo.ApplicationCommandInteractionDataOption) (*interaction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, _, err := s.actorLocked(guildID, channelID, userID)
	if err != nil {
		return nil, err
	}
	cmd := s.findCommandLocked(guildID, name)
	if cmd == nil {
		return nil, fmt.Errorf("discordtest: no chat command /%s is registered for guild %s or globally", name, guildID)
	}
	res := newResolved()
	label := "/" + name
	opts, err := s.convertOptionsLocked(g, options, cmd.body.Options, res, &label)
	if err != nil {
		return nil, err
	}
	data := map[string]any{"id": cmd.id, "name": name, "type": 1}
	if len(opts) > 0 {
		data["options"] = opts
	}
	if cmd.guildID != "" {
		data["guild_id"] = cmd.guildID
	}
	if !res.empty() {
		data["resolved"] = res.json()
	}
	in := &interaction{kind: kindCommand, label: label, guildID: guildID, channelID: channelID, userID: userID}
	if err := s.startLocked(in, data); err != nil {
		return nil, err
	}
	return in, nil
}

type resolved struct {
	users, members, channels, roles map[string]any
}

func newResolved() *resolved {
	return &resolved{users: map[string]any{}, members: map[string]any{}, channels: map[string]any{}, roles: map[string]any{}}
}

func (r *resolved) empty() bool {
	return len(r.users)+len(r.members)+len(r.channels)+len(r.roles) == 0
}

func (r *resolved) json() map[string]any {
	out := map[string]any{}
	for k, v := range map[string]map[string]any{"users": r.users, "members": r.members, "channels": r.channels, "roles": r.roles} {
		if len(v) > 0 {
			out[k] = v
		}
	}
	return out
}

func (r *resolved) addMember(m *member) {
	r.users[m.userID] = userJSON(m)
	mj := memberJSON(m)
	delete(mj, "user")
	r.members[m.userID] = mj
}

// convertOptionsLocked turns the caller's options into interaction data,
// checking them against the registered option definitions.
func (s *Server) convertOptionsLocked(g *guild, in []*discordgo.ApplicationCommandInteractionDataOption, defs []optionBody, res *resolved, label *string) ([]any, error) {
	out := []any{}
	given := map[string]bool{}
	subs := 0
	for _, o := range in {
		if o == nil {
			continue
		}
		var def *optionBody
		for i := range defs {
			if defs[i].Name == o.Name {
				def = &defs[i]
				break
			}
		}
		if def == nil {
			return nil, fmt.Errorf("discordtest: %s has no option %q", *label, o.Name)
		}
		if given[o.Name] {
			return nil, fmt.Errorf("discordtest: %s: option %q given twice", *label, o.Name)
		}
		given[o.Name] = true
		t := int(o.Type)
		if t == 0 {
			t = def.Type
		}
		if t != def.Type {
			return nil, fmt.Errorf("discordtest: %s: option %q has type %d, registered as %d", *label, o.Name, t, def.Type)
		}
		item := map[string]any{"name": o.Name, "type": t}
		if t == 1 || t == 2 {
			subs++
			if o.Value != nil {
				return nil, fmt.Errorf("discordtest: %s: subcommand %q takes no value", *label, o.Name)
			}
			*label += " " + o.Name
			sub, err := s.convertOptionsLocked(g, o.Options, def.Options, res, label)
			if err != nil {
				return nil, err
			}
			if len(sub) > 0 {
				item["options"] = sub
			}
			out = append(out, item)
			continue
		}
		v, err := s.optionValueLocked(g, def, o.Value, res)
		if err != nil {
			return nil, fmt.Errorf("discordtest: %s: option %q: %w", *label, o.Name, err)
		}
		item["value"] = v
		out = append(out, item)
	}
	if subs > 1 || (subs == 1 && len(out) > 1) {
		return nil, fmt.Errorf("discordtest: %s: exactly one subcommand can be chosen", *label)
	}
	if subs == 0 {
		for _, d := range defs {
			if d.Type == 1 || d.Type == 2 {
				return nil, fmt.Errorf("discordtest: %s: a subcommand must be chosen", *label)
			}
			if d.Required && !given[d.Name] {
				return nil, fmt.Errorf("discordtest: %s: required option %q missing", *label, d.Name)
			}
		}
	}
	return out, nil
}

func (s *Server) optionValueLocked(g *guild, def *optionBody, v any, res *resolved) (any, error) {
	if v == nil {
		return nil, errors.New("no value")
	}
	var out any
	switch def.Type {
	case 3:
		str, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("want a string, got %T", v)
		}
		n := runeLen(str)
		if def.MinLength != nil && n < *def.MinLength || def.MaxLength != nil && n > *def.MaxLength || n > maxStringOptionLength {
			return nil, fmt.Errorf("length %d outside the registered bounds", n)
		}
		out = str
	case 4, 10:
		r, err := numberRat(v)
		if err != nil {
			return nil, err
		}
		if def.Type == 4 && !r.IsInt() {
			return nil, fmt.Errorf("%v is not an integer", v)
		}
		if new(big.Rat).Abs(r).Cmp(int53) > 0 {
			return nil, fmt.Errorf("%v is outside ±2^53", v)
		}
		if def.MinValue != nil {
			if lo, ok := new(big.Rat).SetString(def.MinValue.String()); ok && r.Cmp(lo) < 0 {
				return nil, fmt.Errorf("%v is below min_value %s", v, def.MinValue)
			}
		}
		if def.MaxValue != nil {
			if hi, ok := new(big.Rat).SetString(def.MaxValue.String()); ok && r.Cmp(hi) > 0 {
				return nil, fmt.Errorf("%v is above max_value %s", v, def.MaxValue)
			}
		}
		out = json.Number(r.FloatString(precision(r)))
	case 5:
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("want a bool, got %T", v)
		}
		out = b
	case 6, 7, 8, 9:
		id, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("want an id string, got %T", v)
		}
		switch {
		case (def.Type == 6 || def.Type == 9) && g.members[id] != nil:
			res.addMember(g.members[id])
		case def.Type == 6:
			return nil, fmt.Errorf("user %s is not a member of guild %s", id, g.id)
		case def.Type == 7:
			c := s.channels[id]
			if c == nil || c.guildID != g.id {
				return nil, fmt.Errorf("channel %s is not in guild %s", id, g.id)
			}
			cj := channelJSON(c)
			cj["permissions"] = fmt.Sprint(s.appPermsLocked(id))
			res.channels[id] = cj
		default:
			res.roles[id] = map[string]any{"id": id, "name": "role-" + id, "permissions": "0", "position": 0, "color": 0}
		}
		out = id
	default:
		return nil, fmt.Errorf("option type %d is not supported by the fake", def.Type)
	}
	if len(def.Choices) > 0 {
		enc, _ := json.Marshal(out)
		found := false
		for _, c := range def.Choices {
			var a, b any
			if json.Unmarshal(c.Value, &a) == nil && json.Unmarshal(enc, &b) == nil && fmt.Sprint(a) == fmt.Sprint(b) {
				found = true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("%v is not one of the registered choices", v)
		}
	}
	return out, nil
}

func precision(r *big.Rat) int {
	if r.IsInt() {
		return 0
	}
	return 10
}

func numberRat(v any) (*big.Rat, error) {
	switch x := v.(type) {
	case int:
		return new(big.Rat).SetInt64(int64(x)), nil
	case int32:
		return new(big.Rat).SetInt64(int64(x)), nil
	case int64:
		return new(big.Rat).SetInt64(x), nil
	case uint:
		return new(big.Rat).SetUint64(uint64(x)), nil
	case uint64:
		return new(big.Rat).SetUint64(x), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%v is not a number", x)
		}
		return new(big.Rat).SetFloat64(x), nil
	case json.Number:
		r, ok := new(big.Rat).SetString(x.String())
		if !ok {
			return nil, fmt.Errorf("%q is not a number", x)
		}
		return r, nil
	}
	return nil, fmt.Errorf("want a number, got %T", v)
}

// Click acts as a member pressing a button on a message (public, or
// ephemeral to that member) and waits for the bot's first response.
func (s *Server) Click(channelID, messageID, userID, customID string) (*Response, error) {
	in, err := s.startComponent(channelID, messageID, userID, customID, nil, false)
	if err != nil {
		return nil, err
	}
	return s.await(in)
}

// Select acts as a member choosing values in a select menu on a message and
// waits for the bot's first response.
func (s *Server) Select(channelID, messageID, userID, customID string, values []string) (*Response, error) {
	if values == nil {
		values = []string{}
	}
	in, err := s.startComponent(channelID, messageID, userID, customID, values, true)
	if err != nil {
		return nil, err
	}
	return s.await(in)
}

func (s *Server) startComponent(channelID, messageID, userID, customID string, values []string, isSel bool) (*interaction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.messages[messageID]
	if m == nil || m.deleted || m.channelID != channelID {
		return nil, fmt.Errorf("discordtest: no message %s in channel %s", messageID, channelID)
	}
	if m.ephemeral() && m.ephemeralTo != userID {
		return nil, fmt.Errorf("discordtest: user %s cannot see ephemeral message %s", userID, messageID)
	}
	if m.flags&flagLoading != 0 {
		return nil, fmt.Errorf("discordtest: message %s is still loading", messageID)
	}
	g, _, err := s.actorLocked(m.guildID, channelID, userID)
	if err != nil {
		return nil, err
	}
	c := findComponent(m.components, customID)
	if c == nil {
		return nil, fmt.Errorf("%w: message %s, custom_id %q", ErrNoSuchComponent, messageID, customID)
	}
	if c.Disabled {
		return nil, fmt.Errorf("discordtest: component %q on message %s is disabled", customID, messageID)
	}
	data := map[string]any{"custom_id": customID, "component_type": c.Type}
	label := ""
	switch {
	case !isSel && c.Type == 2:
		if c.Style == 5 || c.Style == 6 {
			return nil, fmt.Errorf("discordtest: link and premium buttons send no interaction")
		}
		label = "button " + customID
	case isSel && isSelect(c.Type):
		lo, hi := 1, 1
		if c.MinValues != nil {
			lo = *c.MinValues
		}
		if c.MaxValues != nil {
			hi = *c.MaxValues
		}
		if len(values) < lo || len(values) > hi {
			return nil, fmt.Errorf("discordtest: select %q takes %d to %d values, got %d", customID, lo, hi, len(values))
		}
		seen := map[string]bool{}
		res := newResolved()
		for _, v := range values {
			if seen[v] {
				return nil, fmt.Errorf("discordtest: select %q: value %q chosen twice", customID, v)
			}
			seen[v] = true
			switch c.Type {
			case 3:
				ok := false
				for _, o := range c.Options {
					if o.Value != nil && *o.Value == v {
						ok = true
					}
				}
				if !ok {
					return nil, fmt.Errorf("discordtest: select %q has no option %q", customID, v)
				}
			case 5:
				if mem := g.members[v]; mem != nil {
					res.addMember(mem)
				} else {
					return nil, fmt.Errorf("discordtest: user %s is not a member of guild %s", v, g.id)
				}
			}
		}
		data["values"] = values
		if !res.empty() {
			data["resolved"] = res.json()
		}
		label = "select " + customID
	default:
		return nil, fmt.Errorf("discordtest: component %q on message %s is type %d, not a %s", customID, messageID, c.Type, map[bool]string{true: "select menu", false: "button"}[isSel])
	}
	in := &interaction{kind: kindComponent, label: label, guildID: m.guildID, channelID: channelID, userID: userID, source: m}
	if err := s.startLocked(in, data); err != nil {
		return nil, err
	}
	return in, nil
}

// findComponent finds the interactive component with customID in a stored
// components array, through rows, sections and containers.
func findComponent(raw json.RawMessage, customID string) *compBody {
	var comps []compBody
	if json.Unmarshal(raw, &comps) != nil {
		return nil
	}
	var walk func([]compBody) *compBody
	walk = func(cs []compBody) *compBody {
		for i := range cs {
			c := &cs[i]
			if c.CustomID != nil && *c.CustomID == customID && (c.Type == 2 || isSelect(c.Type)) {
				return c
			}
			if f := walk(c.Components); f != nil {
				return f
			}
			if c.Accessory != nil {
				if f := walk([]compBody{*c.Accessory}); f != nil {
					return f
				}
			}
		}
		return nil
	}
	return walk(comps)
}

// SubmitModal acts as the member submitting the modal the bot opened in
// answer to from (a type 9 response), and waits for the bot's first
// response. values maps text input custom ids to what the member typed; the
// inputs are checked as Discord's client would (required, min and max
// length). A modal can be submitted once.
func (s *Server) SubmitModal(channelID, userID, customID string, values map[string]string, from *Response) (*Response, error) {
	in, err := s.startModal(channelID, userID, customID, values, from)
	if err != nil {
		return nil, err
	}
	return s.await(in)
}

func (s *Server) startModal(channelID, userID, customID string, values map[string]string, from *Response) (*interaction, error) {
	if from == nil || from.srv != s || from.in == nil {
		return nil, errors.New("discordtest: SubmitModal needs the Response that opened the modal")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	src := from.in
	md := src.modal
	switch {
	case md == nil:
		return nil, fmt.Errorf("discordtest: %s was not answered with a modal (type %d)", src.describe(), src.respType)
	case md.submitted:
		return nil, fmt.Errorf("discordtest: modal %q was already submitted", md.customID)
	case md.customID != customID:
		return nil, fmt.Errorf("discordtest: the open modal is %q, not %q", md.customID, customID)
	case src.userID != userID:
		return nil, fmt.Errorf("discordtest: the modal was opened for user %s, not %s", src.userID, userID)
	case src.channelID != channelID:
		return nil, fmt.Errorf("discordtest: the modal was opened in channel %s, not %s", src.channelID, channelID)
	}
	known := map[string]bool{}
	rows := []any{}
	for _, input := range md.inputs {
		known[input.CustomID] = true
		v := values[input.CustomID]
		n := runeLen(v)
		if input.Required && n == 0 {
			return nil, fmt.Errorf("discordtest: modal %q: input %q is required", customID, input.CustomID)
		}
		if n > 0 && (n < input.MinLength || n > input.MaxLength) {
			return nil, fmt.Errorf("discordtest: modal %q: input %q takes %d to %d characters, got %d", customID, input.CustomID, input.MinLength, input.MaxLength, n)
		}
		if input.Style == 1 && strings.ContainsAny(v, "\r\n") {
			return nil, fmt.Errorf("discordtest: modal %q: short input %q cannot hold a line break", customID, input.CustomID)
		}
		rows = append(rows, map[string]any{"type": 1, "components": []any{
			map[string]any{"type": 4, "custom_id": input.CustomID, "value": v},
		}})
	}
	for k := range values {
		if !known[k] {
			return nil, fmt.Errorf("discordtest: modal %q has no input %q", customID, k)
		}
	}
	if _, _, err := s.actorLocked(src.guildID, channelID, userID); err != nil {
		return nil, err
	}
	in := &interaction{kind: kindModal, label: "modal " + customID, guildID: src.guildID, channelID: channelID, userID: userID}
	if src.kind == kindComponent {
		in.source = src.source
		in.fromComponent = true
	}
	if err := s.startLocked(in, map[string]any{"custom_id": customID, "components": rows}); err != nil {
		return nil, err
	}
	md.submitted = true
	return in, nil
}

func (s *Server) modalComponents(raw json.RawMessage) []discordgo.MessageComponent {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return nil
	}
	var out []discordgo.MessageComponent
	for _, r := range list {
		if c, err := discordgo.MessageComponentFromJSON(r); err == nil {
			out = append(out, c)
		}
	}
	return out
}

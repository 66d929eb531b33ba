package discordapi

import (
	"bytes"
	"encoding/json"
	"encoding/json/jsontext"
	"errors"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// decodeFast is DecodeInteraction's quick path: it reads an interaction as it comes from
// Discord, field by field, into discordgo's types, with no reflection for the fields
// every click carries (the interaction's own, its member and user, the message's id and
// flags, a component's data). Reflection by encoding/json was three quarters of a
// click's decoding; jsontext still checks every byte, the skipped message too.
//
// It declines (ok false) anything it might read differently from encoding/json, which
// DecodeInteraction then decodes the slow way: a key repeated or matching a field only
// in another case (encoding/json matches names case-insensitively), an escaped key, a
// number that is not a plain integer of the field's range, a value of an unexpected
// kind, invalid UTF-8, invalid JSON. So the two paths agree on every input
// (TestDecodeFastAgrees); the slow path gives any error.
func decodeFast(raw []byte) (i *discordgo.Interaction, ok bool) {
	fd := getDecoder(raw)
	defer fd.put()
	var w withData
	if _, err := readObject(fd, &w, interactionFields, false); err != nil || !fd.end() {
		return nil, false
	}
	i = &w.Interaction
	if w.typedData(fd) != nil {
		return nil, false
	}
	return i, true
}

// errDecline stops the quick path; its text is never shown.
var errDecline = errors.New("discordapi: left to encoding/json")

type fastDecoder struct {
	d     *jsontext.Decoder
	raw   []byte       // what d reads
	empty bytes.Buffer // what a pooled decoder reads: it keeps no input alive
}

var fastDecoders = sync.Pool{New: func() any {
	fd := new(fastDecoder)
	// Names are checked for repeats where they are read (readObject); jsontext's own
	// check, of every object the message holds too, was a fifth of the decoding.
	fd.d = jsontext.NewDecoder(&fd.empty, jsontext.AllowDuplicateNames(true))
	return fd
}}

// getDecoder is a pooled decoder reading raw. jsontext reads a bytes.Buffer's bytes
// where they are, without copying them.
func getDecoder(raw []byte) *fastDecoder {
	fd := fastDecoders.Get().(*fastDecoder)
	fd.raw = raw
	fd.d.Reset(bytes.NewBuffer(raw), jsontext.AllowDuplicateNames(true))
	return fd
}

func (fd *fastDecoder) put() {
	fd.raw = nil
	fd.d.Reset(&fd.empty, jsontext.AllowDuplicateNames(true))
	fastDecoders.Put(fd)
}

// end reports whether the input has nothing after the value read, as json.Unmarshal
// requires.
func (fd *fastDecoder) end() bool {
	_, err := fd.d.ReadToken()
	return err == io.EOF
}

// field is one JSON name of a struct T and how its value is read into a T. A struct's
// fields are all the names readObject knows in it: a name that equals one of them only
// case-insensitively is declined, any other is skipped.
type field[T any] struct {
	name string
	read func(fd *fastDecoder, v *T) error
}

// readObject reads an object into v (or null, when nullOK: then v is left alone).
func readObject[T any](fd *fastDecoder, v *T, fields []field[T], nullOK bool) (null bool, err error) {
	switch fd.d.PeekKind() {
	case 'n':
		if !nullOK {
			return false, errDecline
		}
		_, err := fd.d.ReadValue()
		return true, err
	case '{':
	default:
		return false, errDecline
	}
	if _, err := fd.d.ReadToken(); err != nil {
		return false, err
	}
	var seen uint64 // fields read, by index: a repeated name is declined
	for fd.d.PeekKind() != '}' {
		kv, err := fd.d.ReadValue()
		if err != nil {
			return false, err
		}
		if bytes.IndexByte(kv, '\\') >= 0 {
			return false, errDecline
		}
		key := kv[1 : len(kv)-1]
		k := -1
		for j := range fields {
			n := fields[j].name
			if string(key) == n {
				k = j
				break
			}
			if len(key) == len(n) && strings.EqualFold(string(key), n) {
				return false, errDecline
			}
		}
		if k < 0 {
			if _, err := fd.d.ReadValue(); err != nil {
				return false, err
			}
			continue
		}
		if seen&(1<<k) != 0 {
			return false, errDecline
		}
		seen |= 1 << k
		if err := fields[k].read(fd, v); err != nil {
			return false, err
		}
	}
	_, err = fd.d.ReadToken()
	return false, err
}

// objectPtr reads an object into a new T, or null into nil.
func objectPtr[T any](fd *fastDecoder, p **T, fields []field[T]) error {
	v := new(T)
	null, err := readObject(fd, v, fields, true)
	if err != nil {
		return err
	}
	if null {
		*p = nil
	} else {
		*p = v
	}
	return nil
}

// str reads a string of any string type; null leaves it as it is, as encoding/json
// does.
func str[T ~string](fd *fastDecoder, s *T) error {
	v, err := fd.scalar("\"")
	if v == nil {
		return err
	}
	if bytes.IndexByte(v, '\\') < 0 {
		*s = T(v[1 : len(v)-1])
		return nil
	}
	b, err := jsontext.AppendUnquote(nil, v)
	if err != nil {
		return errDecline
	}
	*s = T(b)
	return nil
}

// scalar reads the next value, which must be null or of one of kinds (jsontext's
// Kind bytes: '"', '0', 't', 'f'). It returns the value, or nil for null and for an
// error (an unexpected kind is errDecline).
func (fd *fastDecoder) scalar(kinds string) (jsontext.Value, error) {
	v, err := fd.d.ReadValue()
	switch {
	case err != nil:
		return nil, err
	case v.Kind() == 'n':
		return nil, nil
	case strings.IndexByte(kinds, byte(v.Kind())) < 0:
		return nil, errDecline
	}
	return v, nil
}

// orNil reads a value into a new T with read, or null into nil.
func orNil[T any](fd *fastDecoder, p **T, read func(*T) error) error {
	if fd.d.PeekKind() == 'n' {
		*p = nil
		_, err := fd.d.ReadValue()
		return err
	}
	v := new(T)
	if err := read(v); err != nil {
		return err
	}
	*p = v
	return nil
}

// boolean reads true or false; null leaves b as it is.
func (fd *fastDecoder) boolean(b *bool) error {
	v, err := fd.scalar("tf")
	if v != nil {
		*b = v.Kind() == 't'
	}
	return err
}

// integer reads a number that is a plain integer of bits bits, signed or not; null
// leaves n as it is (ok false).
func (fd *fastDecoder) integer(bits int, signed bool) (n int64, ok bool, err error) {
	v, err := fd.scalar("0")
	if v == nil {
		return 0, false, err
	}
	if signed {
		n, err = strconv.ParseInt(string(v), 10, bits)
	} else {
		var u uint64
		u, err = strconv.ParseUint(string(v), 10, bits)
		n = int64(u)
		if bits == 64 && n < 0 {
			err = errDecline
		}
	}
	if err != nil {
		return 0, false, errDecline
	}
	return n, true, nil
}

// intAs reads an int of any int type; null leaves it.
func intAs[T ~int](fd *fastDecoder, p *T) error {
	n, ok, err := fd.integer(strconv.IntSize, true)
	if ok {
		*p = T(n)
	}
	return err
}

// uintAs reads an unsigned integer of bits bits into any unsigned type that holds them;
// null leaves it.
func uintAs[T ~uint8 | ~uint](fd *fastDecoder, p *T, bits int) error {
	n, ok, err := fd.integer(bits, false)
	if ok {
		*p = T(n)
	}
	return err
}

// quotedInt reads an int64 written as a string (`json:",string"`); null leaves it.
func (fd *fastDecoder) quotedInt(p *int64) error {
	v, err := fd.scalar("\"")
	if v == nil {
		return err
	}
	digits := v[1 : len(v)-1]
	if !isJSONInt(digits) {
		return errDecline // an escape, a sign, a leading zero, a fraction: encoding/json's to judge
	}
	n, err := strconv.ParseInt(string(digits), 10, 64)
	if err != nil {
		return errDecline
	}
	*p = n
	return nil
}

// isJSONInt reports whether b is an integer as JSON writes one: -?(0|[1-9][0-9]*).
func isJSONInt(b []byte) bool {
	if len(b) > 0 && b[0] == '-' {
		b = b[1:]
	}
	if len(b) == 0 || (b[0] == '0' && len(b) > 1) {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// timeField reads a time as time.Time's UnmarshalJSON does (null leaves it).
func (fd *fastDecoder) timeField(t *time.Time) error {
	v, err := fd.scalar("\"")
	if v == nil {
		return err
	}
	if t.UnmarshalJSON(v) != nil {
		return errDecline
	}
	return nil
}

// stringList reads an array of strings; null is nil, [] an empty slice.
func (fd *fastDecoder) stringList(p *[]string) error {
	switch fd.d.PeekKind() {
	case 'n':
		*p = nil
		_, err := fd.d.ReadValue()
		return err
	case '[':
	default:
		return errDecline
	}
	if _, err := fd.d.ReadToken(); err != nil {
		return err
	}
	out := []string{}
	for fd.d.PeekKind() != ']' {
		var s string
		if fd.d.PeekKind() != '"' {
			return errDecline // encoding/json leaves a null element "", but never mind
		}
		if err := str(fd, &s); err != nil {
			return err
		}
		out = append(out, s)
	}
	if _, err := fd.d.ReadToken(); err != nil {
		return err
	}
	*p = out
	return nil
}

// other decodes the next value into v with encoding/json: fields that are rare or
// small.
func (fd *fastDecoder) other(v any) error {
	raw, err := fd.d.ReadValue()
	if err != nil {
		return err
	}
	if json.Unmarshal(raw, v) != nil {
		return errDecline
	}
	return nil
}

// withData is an interaction with its data still raw: Data's type depends on the
// interaction's type, which may come after it.
type withData struct {
	discordgo.Interaction
	data jsontext.Value // nil: none
}

// typedData decodes w.data by the interaction's type, as discordgo does.
func (w *withData) typedData(fd *fastDecoder) error {
	switch w.Type {
	case discordgo.InteractionMessageComponent:
		if w.data.Kind() != '{' {
			return errDecline
		}
		fd2 := getDecoder(w.data)
		defer fd2.put()
		var v discordgo.MessageComponentInteractionData
		if _, err := readObject(fd2, &v, componentFields, false); err != nil || !fd2.end() {
			return errDecline
		}
		w.Data = v
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		return dataAs[discordgo.ApplicationCommandInteractionData](w)
	case discordgo.InteractionModalSubmit:
		return dataAs[discordgo.ModalSubmitInteractionData](w)
	}
	return nil
}

// dataAs decodes w.data as a T with encoding/json.
func dataAs[T discordgo.InteractionData](w *withData) error {
	var v T
	if w.data == nil || json.Unmarshal(w.data, &v) != nil {
		return errDecline
	}
	w.Data = v
	return nil
}

type (
	interactionField = field[withData]
	memberField      = field[discordgo.Member]
	userField        = field[discordgo.User]
	componentField   = field[discordgo.MessageComponentInteractionData]
	messageField     = field[discordgo.Message]
)

// The fields read of each struct: all of discordgo's but the message's, of which
// DecodeInteraction keeps four. A key matching another of the message's names in
// another case could only land in one of these four, so the four are enough to decline
// it.
var (
	interactionFields = []interactionField{
		{"id", func(fd *fastDecoder, i *withData) error { return str(fd, &i.ID) }},
		{"application_id", func(fd *fastDecoder, i *withData) error { return str(fd, &i.AppID) }},
		{"type", func(fd *fastDecoder, i *withData) error { return uintAs(fd, &i.Type, 8) }},
		{"data", func(fd *fastDecoder, i *withData) error {
			v, err := fd.d.ReadValue()
			if err != nil {
				return err
			}
			// The value's bytes are the decoder's until its next read: these are raw's.
			end := int(fd.d.InputOffset())
			i.data = jsontext.Value(fd.raw[end-len(v) : end])
			return nil
		}},
		{"guild_id", func(fd *fastDecoder, i *withData) error { return str(fd, &i.GuildID) }},
		{"channel_id", func(fd *fastDecoder, i *withData) error { return str(fd, &i.ChannelID) }},
		{"message", func(fd *fastDecoder, i *withData) error { return objectPtr(fd, &i.Message, messageFields) }},
		{"app_permissions", func(fd *fastDecoder, i *withData) error { return fd.quotedInt(&i.AppPermissions) }},
		{"member", func(fd *fastDecoder, i *withData) error { return objectPtr(fd, &i.Member, memberFields) }},
		{"user", func(fd *fastDecoder, i *withData) error { return objectPtr(fd, &i.User, userFields) }},
		{"locale", func(fd *fastDecoder, i *withData) error { return str(fd, &i.Locale) }},
		{"guild_locale", func(fd *fastDecoder, i *withData) error {
			return orNil(fd, &i.GuildLocale, func(l *discordgo.Locale) error { return str(fd, l) })
		}},
		{"context", func(fd *fastDecoder, i *withData) error { return uintAs(fd, &i.Context, 64) }},
		{"authorizing_integration_owners", func(fd *fastDecoder, i *withData) error { return fd.other(&i.AuthorizingIntegrationOwners) }},
		{"token", func(fd *fastDecoder, i *withData) error { return str(fd, &i.Token) }},
		{"version", func(fd *fastDecoder, i *withData) error { return intAs(fd, &i.Version) }},
		{"entitlements", func(fd *fastDecoder, i *withData) error { return fd.other(&i.Entitlements) }},
	}
	messageFields = []messageField{
		{"id", func(fd *fastDecoder, m *discordgo.Message) error { return str(fd, &m.ID) }},
		{"channel_id", func(fd *fastDecoder, m *discordgo.Message) error { return str(fd, &m.ChannelID) }},
		{"guild_id", func(fd *fastDecoder, m *discordgo.Message) error { return str(fd, &m.GuildID) }},
		{"flags", func(fd *fastDecoder, m *discordgo.Message) error { return intAs(fd, &m.Flags) }},
	}
	memberFields = []memberField{
		{"guild_id", func(fd *fastDecoder, m *discordgo.Member) error { return str(fd, &m.GuildID) }},
		{"joined_at", func(fd *fastDecoder, m *discordgo.Member) error { return fd.timeField(&m.JoinedAt) }},
		{"nick", func(fd *fastDecoder, m *discordgo.Member) error { return str(fd, &m.Nick) }},
		{"deaf", func(fd *fastDecoder, m *discordgo.Member) error { return fd.boolean(&m.Deaf) }},
		{"mute", func(fd *fastDecoder, m *discordgo.Member) error { return fd.boolean(&m.Mute) }},
		{"avatar", func(fd *fastDecoder, m *discordgo.Member) error { return str(fd, &m.Avatar) }},
		{"banner", func(fd *fastDecoder, m *discordgo.Member) error { return str(fd, &m.Banner) }},
		{"user", func(fd *fastDecoder, m *discordgo.Member) error { return objectPtr(fd, &m.User, userFields) }},
		{"roles", func(fd *fastDecoder, m *discordgo.Member) error { return fd.stringList(&m.Roles) }},
		{"premium_since", func(fd *fastDecoder, m *discordgo.Member) error { return orNil(fd, &m.PremiumSince, fd.timeField) }},
		{"flags", func(fd *fastDecoder, m *discordgo.Member) error { return intAs(fd, &m.Flags) }},
		{"pending", func(fd *fastDecoder, m *discordgo.Member) error { return fd.boolean(&m.Pending) }},
		{"permissions", func(fd *fastDecoder, m *discordgo.Member) error { return fd.quotedInt(&m.Permissions) }},
		{"communication_disabled_until", func(fd *fastDecoder, m *discordgo.Member) error {
			return orNil(fd, &m.CommunicationDisabledUntil, fd.timeField)
		}},
	}
	userFields = []userField{
		{"id", func(fd *fastDecoder, u *discordgo.User) error { return str(fd, &u.ID) }},
		{"email", func(fd *fastDecoder, u *discordgo.User) error { return str(fd, &u.Email) }},
		{"username", func(fd *fastDecoder, u *discordgo.User) error { return str(fd, &u.Username) }},
		{"avatar", func(fd *fastDecoder, u *discordgo.User) error { return str(fd, &u.Avatar) }},
		{"locale", func(fd *fastDecoder, u *discordgo.User) error { return str(fd, &u.Locale) }},
		{"discriminator", func(fd *fastDecoder, u *discordgo.User) error { return str(fd, &u.Discriminator) }},
		{"global_name", func(fd *fastDecoder, u *discordgo.User) error { return str(fd, &u.GlobalName) }},
		{"token", func(fd *fastDecoder, u *discordgo.User) error { return str(fd, &u.Token) }},
		{"verified", func(fd *fastDecoder, u *discordgo.User) error { return fd.boolean(&u.Verified) }},
		{"mfa_enabled", func(fd *fastDecoder, u *discordgo.User) error { return fd.boolean(&u.MFAEnabled) }},
		{"banner", func(fd *fastDecoder, u *discordgo.User) error { return str(fd, &u.Banner) }},
		{"accent_color", func(fd *fastDecoder, u *discordgo.User) error { return intAs(fd, &u.AccentColor) }},
		{"bot", func(fd *fastDecoder, u *discordgo.User) error { return fd.boolean(&u.Bot) }},
		{"public_flags", func(fd *fastDecoder, u *discordgo.User) error { return intAs(fd, &u.PublicFlags) }},
		{"premium_type", func(fd *fastDecoder, u *discordgo.User) error { return intAs(fd, &u.PremiumType) }},
		{"system", func(fd *fastDecoder, u *discordgo.User) error { return fd.boolean(&u.System) }},
		{"flags", func(fd *fastDecoder, u *discordgo.User) error { return intAs(fd, &u.Flags) }},
	}
	componentFields = []componentField{
		{"custom_id", func(fd *fastDecoder, v *discordgo.MessageComponentInteractionData) error { return str(fd, &v.CustomID) }},
		{"component_type", func(fd *fastDecoder, v *discordgo.MessageComponentInteractionData) error {
			return uintAs(fd, &v.ComponentType, 64)
		}},
		{"resolved", func(fd *fastDecoder, v *discordgo.MessageComponentInteractionData) error {
			return fd.other(&v.Resolved)
		}},
		{"values", func(fd *fastDecoder, v *discordgo.MessageComponentInteractionData) error {
			return fd.stringList(&v.Values)
		}},
	}
)

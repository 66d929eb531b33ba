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
	i = new(discordgo.Interaction)
	if fd.interaction(i, raw) != nil || !fd.end() {
		return nil, false
	}
	return i, true
}

// errDecline stops the quick path; its text is never shown.
var errDecline = errors.New("discordapi: left to encoding/json")

type fastDecoder struct {
	d     *jsontext.Decoder
	empty bytes.Buffer // what a pooled decoder reads: it keeps no input alive
}

var fastDecoders = sync.Pool{New: func() any {
	fd := new(fastDecoder)
	// Names are checked for repeats where they are read (object); jsontext's own
	// check, of every object the message holds too, was a fifth of the decoding.
	fd.d = jsontext.NewDecoder(&fd.empty, jsontext.AllowDuplicateNames(true))
	return fd
}}

// getDecoder is a pooled decoder reading raw. jsontext reads a bytes.Buffer's bytes
// where they are, without copying them.
func getDecoder(raw []byte) *fastDecoder {
	fd := fastDecoders.Get().(*fastDecoder)
	fd.d.Reset(bytes.NewBuffer(raw), jsontext.AllowDuplicateNames(true))
	return fd
}

func (fd *fastDecoder) put() {
	fd.d.Reset(&fd.empty, jsontext.AllowDuplicateNames(true))
	fastDecoders.Put(fd)
}

// end reports whether the input has nothing after the value read, as json.Unmarshal
// requires.
func (fd *fastDecoder) end() bool {
	_, err := fd.d.ReadToken()
	return err == io.EOF
}

// The JSON names of the structs read here, in the order of the bits that mark them
// seen. A name that equals one of them only case-insensitively is declined.
var (
	interactionNames = []string{"id", "application_id", "type", "data", "guild_id", "channel_id", "message",
		"app_permissions", "member", "user", "locale", "guild_locale", "context", "authorizing_integration_owners",
		"token", "version", "entitlements"}
	memberNames = []string{"guild_id", "joined_at", "nick", "deaf", "mute", "avatar", "banner", "user", "roles",
		"premium_since", "flags", "pending", "permissions", "communication_disabled_until"}
	userNames = []string{"id", "email", "username", "avatar", "locale", "discriminator", "global_name", "token",
		"verified", "mfa_enabled", "banner", "accent_color", "bot", "public_flags", "premium_type", "system", "flags"}
	componentNames = []string{"custom_id", "component_type", "resolved", "values"}
	// The Message struct's names: the lean message keeps four, but a key matching any of
	// them in another case could still land in one of the four.
	leanMessageNames = []string{"id", "channel_id", "guild_id", "flags"}
)

// object reads an object (or null, when nullOK: then f is never called), calling f for
// each key of names with its index (the key still to be read by f) and skipping the
// others.
func (fd *fastDecoder) object(names []string, nullOK bool, f func(k int) error) (null bool, err error) {
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
	var seen uint64
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
		for j, n := range names {
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
		if err := f(k); err != nil {
			return false, err
		}
	}
	_, err = fd.d.ReadToken()
	return false, err
}

// value reads the next value whole.
func (fd *fastDecoder) value() (jsontext.Value, error) { return fd.d.ReadValue() }

// str reads a string; null leaves s as it is, as encoding/json does.
func (fd *fastDecoder) str(s *string) error {
	v, err := fd.d.ReadValue()
	if err != nil {
		return err
	}
	return setString(v, s)
}

func setString(v jsontext.Value, s *string) error {
	switch v.Kind() {
	case 'n':
		return nil
	case '"':
	default:
		return errDecline
	}
	if bytes.IndexByte(v, '\\') < 0 {
		*s = string(v[1 : len(v)-1])
		return nil
	}
	b, err := jsontext.AppendUnquote(nil, v)
	if err != nil {
		return errDecline
	}
	*s = string(b)
	return nil
}

// boolean reads true or false; null leaves b as it is.
func (fd *fastDecoder) boolean(b *bool) error {
	v, err := fd.d.ReadValue()
	if err != nil {
		return err
	}
	switch v.Kind() {
	case 't':
		*b = true
	case 'f':
		*b = false
	case 'n':
	default:
		return errDecline
	}
	return nil
}

// integer reads a number that is a plain integer of bits bits, signed or not; null
// leaves n as it is (ok false).
func (fd *fastDecoder) integer(bits int, signed bool) (n int64, ok bool, err error) {
	v, err := fd.d.ReadValue()
	if err != nil {
		return 0, false, err
	}
	switch v.Kind() {
	case 'n':
		return 0, false, nil
	case '0':
	default:
		return 0, false, errDecline
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

// objectPtr reads an object into a new T, field by field (fields gets each
// known name with the value still to read), or null into nil.
func objectPtr[T any](fd *fastDecoder, p **T, names []string, fields func(v *T, name string) error) error {
	v := new(T)
	null, err := fd.object(names, true, func(k int) error { return fields(v, names[k]) })
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

// quotedInt reads an int64 written as a string (`json:",string"`); null leaves it.
func (fd *fastDecoder) quotedInt(p *int64) error {
	v, err := fd.d.ReadValue()
	if err != nil {
		return err
	}
	switch v.Kind() {
	case 'n':
		return nil
	case '"':
	default:
		return errDecline
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

// timeField reads a time as time.Time's UnmarshalJSON does; into a pointer, null is nil.
func (fd *fastDecoder) timeField(t *time.Time) error {
	v, err := fd.d.ReadValue()
	if err != nil {
		return err
	}
	if v.Kind() != '"' && v.Kind() != 'n' {
		return errDecline
	}
	if t.UnmarshalJSON(v) != nil {
		return errDecline
	}
	return nil
}

func (fd *fastDecoder) timePtr(p **time.Time) error {
	if fd.d.PeekKind() == 'n' {
		*p = nil
		_, err := fd.d.ReadValue()
		return err
	}
	t := new(time.Time)
	if err := fd.timeField(t); err != nil {
		return err
	}
	*p = t
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
		if err := fd.str(&s); err != nil {
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

func (fd *fastDecoder) interaction(i *discordgo.Interaction, raw []byte) error {
	var data jsontext.Value // decoded once the type is known
	var hasData bool
	_, err := fd.object(interactionNames, false, func(k int) error {
		switch interactionNames[k] {
		case "id":
			return fd.str(&i.ID)
		case "application_id":
			return fd.str(&i.AppID)
		case "type":
			n, ok, err := fd.integer(8, false)
			if ok {
				i.Type = discordgo.InteractionType(n)
			}
			return err
		case "data":
			v, err := fd.value()
			if err != nil {
				return err
			}
			// The value's bytes are the decoder's until its next read: these are raw's.
			end := int(fd.d.InputOffset())
			data, hasData = jsontext.Value(raw[end-len(v):end]), true
			return nil
		case "guild_id":
			return fd.str(&i.GuildID)
		case "channel_id":
			return fd.str(&i.ChannelID)
		case "message":
			return fd.message(&i.Message)
		case "app_permissions":
			return fd.quotedInt(&i.AppPermissions)
		case "member":
			return fd.memberPtr(&i.Member)
		case "user":
			return fd.userPtr(&i.User)
		case "locale":
			var s string
			err := fd.str(&s)
			i.Locale = discordgo.Locale(s)
			return err
		case "guild_locale":
			if fd.d.PeekKind() == 'n' {
				_, err := fd.value()
				return err
			}
			var s string
			if err := fd.str(&s); err != nil {
				return err
			}
			l := discordgo.Locale(s)
			i.GuildLocale = &l
			return nil
		case "context":
			n, ok, err := fd.integer(64, false)
			if ok {
				i.Context = discordgo.InteractionContextType(n)
			}
			return err
		case "authorizing_integration_owners":
			return fd.other(&i.AuthorizingIntegrationOwners)
		case "token":
			return fd.str(&i.Token)
		case "version":
			return intAs(fd, &i.Version)
		case "entitlements":
			return fd.other(&i.Entitlements)
		}
		return errDecline
	})
	if err != nil {
		return err
	}
	switch i.Type {
	case discordgo.InteractionMessageComponent:
		if !hasData || data.Kind() != '{' {
			return errDecline
		}
		fd2 := getDecoder(data)
		defer fd2.put()
		var v discordgo.MessageComponentInteractionData
		if err := fd2.component(&v); err != nil || !fd2.end() {
			return errDecline
		}
		i.Data = v
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		var v discordgo.ApplicationCommandInteractionData
		if !hasData || json.Unmarshal(data, &v) != nil {
			return errDecline
		}
		i.Data = v
	case discordgo.InteractionModalSubmit:
		var v discordgo.ModalSubmitInteractionData
		if !hasData || json.Unmarshal(data, &v) != nil {
			return errDecline
		}
		i.Data = v
	}
	return nil
}

func (fd *fastDecoder) component(v *discordgo.MessageComponentInteractionData) error {
	_, err := fd.object(componentNames, false, func(k int) error {
		switch componentNames[k] {
		case "custom_id":
			return fd.str(&v.CustomID)
		case "component_type":
			n, ok, err := fd.integer(64, false)
			if ok {
				v.ComponentType = discordgo.ComponentType(n)
			}
			return err
		case "resolved":
			return fd.other(&v.Resolved)
		case "values":
			return fd.stringList(&v.Values)
		}
		return errDecline
	})
	return err
}

// message keeps what DecodeInteraction keeps of the message a component was on.
func (fd *fastDecoder) message(p **discordgo.Message) error {
	return objectPtr(fd, p, leanMessageNames, func(m *discordgo.Message, name string) error {
		switch name {
		case "id":
			return fd.str(&m.ID)
		case "channel_id":
			return fd.str(&m.ChannelID)
		case "guild_id":
			return fd.str(&m.GuildID)
		case "flags":
			return intAs(fd, &m.Flags)
		}
		return errDecline
	})
}

func (fd *fastDecoder) memberPtr(p **discordgo.Member) error {
	return objectPtr(fd, p, memberNames, func(m *discordgo.Member, name string) error {
		switch name {
		case "guild_id":
			return fd.str(&m.GuildID)
		case "joined_at":
			return fd.timeField(&m.JoinedAt)
		case "nick":
			return fd.str(&m.Nick)
		case "deaf":
			return fd.boolean(&m.Deaf)
		case "mute":
			return fd.boolean(&m.Mute)
		case "avatar":
			return fd.str(&m.Avatar)
		case "banner":
			return fd.str(&m.Banner)
		case "user":
			return fd.userPtr(&m.User)
		case "roles":
			return fd.stringList(&m.Roles)
		case "premium_since":
			return fd.timePtr(&m.PremiumSince)
		case "flags":
			return intAs(fd, &m.Flags)
		case "pending":
			return fd.boolean(&m.Pending)
		case "permissions":
			return fd.quotedInt(&m.Permissions)
		case "communication_disabled_until":
			return fd.timePtr(&m.CommunicationDisabledUntil)
		}
		return errDecline
	})
}

func (fd *fastDecoder) userPtr(p **discordgo.User) error {
	return objectPtr(fd, p, userNames, func(u *discordgo.User, name string) error {
		switch name {
		case "id":
			return fd.str(&u.ID)
		case "email":
			return fd.str(&u.Email)
		case "username":
			return fd.str(&u.Username)
		case "avatar":
			return fd.str(&u.Avatar)
		case "locale":
			return fd.str(&u.Locale)
		case "discriminator":
			return fd.str(&u.Discriminator)
		case "global_name":
			return fd.str(&u.GlobalName)
		case "token":
			return fd.str(&u.Token)
		case "verified":
			return fd.boolean(&u.Verified)
		case "mfa_enabled":
			return fd.boolean(&u.MFAEnabled)
		case "banner":
			return fd.str(&u.Banner)
		case "accent_color":
			return intAs(fd, &u.AccentColor)
		case "bot":
			return fd.boolean(&u.Bot)
		case "public_flags":
			return intAs(fd, &u.PublicFlags)
		case "premium_type":
			return intAs(fd, &u.PremiumType)
		case "system":
			return fd.boolean(&u.System)
		case "flags":
			return intAs(fd, &u.Flags)
		}
		return errDecline
	})
}

package discordtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path"
	"strings"
	"time"
	"unicode/utf8"
)

// Message flags the fake understands.
const (
	flagSuppressEmbeds        = 1 << 2
	flagEphemeral             = 1 << 6
	flagLoading               = 1 << 7
	flagSuppressNotifications = 1 << 12
	flagVoiceMessage          = 1 << 13
	flagComponentsV2          = 1 << 15
)

// Discord's limits on message payloads (see /shared/discord/README.md) that the
// checks here apply. The lengths, counts and ranges a schema states (content,
// embeds and their fields, labels, placeholders, select values, a modal's title and
// rows) are Discord's OpenAPI schemas' to check (openapi.go); what is left here is
// what no schema can say: a field against another (min_values against max_values,
// a text input's value against its own lengths), uniqueness across a message
// (custom ids, option values), sizes summed over several fields (the 6,000
// characters of the embeds), what depends on the flags or the endpoint (ephemeral,
// Components V2), URL schemes, timestamps, and what a button of each style may
// carry.
const (
	maxContent       = 2000 // the spec allows 4,000, Discord 2,000 to a bot
	maxActionRows    = 5    // the spec allows 40 components: Components V2's
	maxModalRows     = 5    // the spec sets no maximum
	maxEmbedTotal    = 6000
	maxRowButtons    = 5
	maxCustomID      = 100
	maxSelectOptions = 25
	maxInputValue    = 4000
	maxAttachments   = 10
	maxV2Components  = 40
	maxV2Text        = 4000 // the text displays of one message together
	maxFileBytes     = 10 << 20
)

// msgBody is a message payload as sent to any of the message endpoints:
// callback data, follow-ups, webhook edits and channel messages.
type msgBody struct {
	Content     *string          `json:"content"`
	Embeds      []embedBody      `json:"embeds"`
	Components  []compBody       `json:"components"`
	Flags       *int64           `json:"flags"`
	Attachments []attachmentBody `json:"attachments"`
	StickerIDs  []string         `json:"sticker_ids"`
	Poll        json.RawMessage  `json:"poll"`
	TTS         *bool            `json:"tts"`

	// Modal fields, present in type 9 callback data only.
	CustomID *string `json:"custom_id"`
	Title    *string `json:"title"`

	// present lists the top-level keys of the payload; null ones map to false.
	present map[string]bool
	// raw holds the top-level values as sent.
	raw map[string]json.RawMessage
	// prefix is where the payload sits in the request ("data" for callbacks).
	prefix string
}

type embedBody struct {
	Title       string `json:"title"`
	Description string `json:"description"`
	URL         string `json:"url"`
	Timestamp   string `json:"timestamp"`
	Color       *int64 `json:"color"`
	Footer      *struct {
		Text    string `json:"text"`
		IconURL string `json:"icon_url"`
	} `json:"footer"`
	Author *struct {
		Name    string `json:"name"`
		URL     string `json:"url"`
		IconURL string `json:"icon_url"`
	} `json:"author"`
	Image *struct {
		URL string `json:"url"`
	} `json:"image"`
	Thumbnail *struct {
		URL string `json:"url"`
	} `json:"thumbnail"`
	Fields []struct {
		Name   *string `json:"name"`
		Value  *string `json:"value"`
		Inline bool    `json:"inline"`
	} `json:"fields"`
}

type compBody struct {
	Type          int             `json:"type"`
	CustomID      *string         `json:"custom_id"`
	Style         int             `json:"style"`
	Label         *string         `json:"label"`
	Emoji         json.RawMessage `json:"emoji"`
	URL           *string         `json:"url"`
	SKUID         *string         `json:"sku_id"`
	Disabled      bool            `json:"disabled"`
	Components    []compBody      `json:"components"`
	Options       []selectOption  `json:"options"`
	Placeholder   *string         `json:"placeholder"`
	MinValues     *int            `json:"min_values"`
	MaxValues     *int            `json:"max_values"`
	DefaultValues []struct {
		ID   string `json:"id"`
		Type string `json:"type"`
	} `json:"default_values"`
	Value     *string   `json:"value"`
	MinLength *int      `json:"min_length"`
	MaxLength *int      `json:"max_length"`
	Required  *bool     `json:"required"`
	Content   *string   `json:"content"`
	Accessory *compBody `json:"accessory"`
	Component *compBody `json:"component"`
	// A media gallery's items, a thumbnail's media and a file component's file: what
	// they show, by URL.
	Items []struct {
		Media mediaBody `json:"media"`
	} `json:"items"`
	Media *mediaBody `json:"media"`
	File  *mediaBody `json:"file"`
}

type mediaBody struct {
	URL string `json:"url"`
}

type selectOption struct {
	Label       *string         `json:"label"`
	Value       *string         `json:"value"`
	Description *string         `json:"description"`
	Emoji       json.RawMessage `json:"emoji"`
	Default     bool            `json:"default"`
}

type attachmentBody struct {
	ID       json.RawMessage `json:"id"`
	Filename string          `json:"filename"`
}

// parseMsgBody decodes a message payload. A body of the wrong shape is a
// 50035 naming the field, as Discord answers.
func parseMsgBody(raw []byte, prefix string) (*msgBody, *apiError) {
	b := msgBody{prefix: prefix}
	if len(raw) == 0 || string(raw) == "null" {
		b.present = map[string]bool{}
		b.raw = map[string]json.RawMessage{}
		return &b, nil
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		return nil, errInvalidForm([]fieldError{invalid(prefix, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")})
	}
	if err := json.Unmarshal(raw, &b); err != nil {
		return nil, errInvalidForm([]fieldError{decodeError(prefix, err)})
	}
	b.present = map[string]bool{}
	b.raw = keys
	for k, v := range keys {
		b.present[k] = string(v) != "null"
	}
	return &b, nil
}

func decodeError(prefix string, err error) fieldError {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return invalid(joinPath(prefix, te.Field), "BASE_TYPE_INVALID", fmt.Sprintf("Value of type %s is not valid here.", te.Value))
	}
	return invalid(prefix, "BASE_TYPE_INVALID", "Invalid value: "+err.Error())
}

func runeLen(s string) int { return utf8.RuneCountInString(s) }

func strPtrLen(p *string) int {
	if p == nil {
		return 0
	}
	return runeLen(*p)
}

// msgRules says which context a message payload arrives in.
type msgRules struct {
	prefix       string // "data" for callback data
	allowedFlags int64
}

var (
	rulesChannelCreate = msgRules{allowedFlags: flagSuppressEmbeds | flagSuppressNotifications | flagVoiceMessage | flagComponentsV2}
	rulesChannelEdit   = msgRules{allowedFlags: flagSuppressEmbeds | flagComponentsV2}
	rulesInteraction   = msgRules{prefix: "data", allowedFlags: flagSuppressEmbeds | flagEphemeral | flagSuppressNotifications | flagVoiceMessage | flagComponentsV2}
	rulesUpdate        = msgRules{prefix: "data", allowedFlags: flagSuppressEmbeds | flagEphemeral | flagComponentsV2}
	rulesFollowup      = msgRules{allowedFlags: flagSuppressEmbeds | flagEphemeral | flagSuppressNotifications | flagVoiceMessage | flagComponentsV2}
	rulesWebhookEdit   = msgRules{allowedFlags: flagSuppressEmbeds | flagEphemeral | flagComponentsV2}
)

// validateMsg checks the hand-coded limits on one message payload. It does
// not check for an empty message: edits can only be judged once merged.
func validateMsg(b *msgBody, r msgRules) []fieldError {
	var errs []fieldError
	p := func(s string) string { return joinPath(r.prefix, s) }
	if r.prefix == "" {
		p = func(s string) string { return s }
	}
	if b.Content != nil && runeLen(*b.Content) > maxContent {
		errs = append(errs, maxLen(p("content"), maxContent))
	}
	var flags int64
	if b.Flags != nil {
		flags = *b.Flags
		if flags&flagEphemeral != 0 && r.allowedFlags&flagEphemeral == 0 {
			errs = append(errs, invalid(p("flags"), "MESSAGE_FLAGS_INVALID", "Ephemeral messages can only be sent as interaction responses or follow-ups."))
		} else if bad := flags &^ r.allowedFlags; bad != 0 {
			errs = append(errs, invalid(p("flags"), "MESSAGE_FLAGS_INVALID", fmt.Sprintf("Flags %d cannot be set here.", bad)))
		}
	}
	errs = append(errs, validateEmbeds(b.Embeds, p("embeds"))...)
	if flags&flagComponentsV2 != 0 {
		// Discord asks for content left out or null beside the flag: even an empty one
		// is refused.
		if b.Content != nil {
			errs = append(errs, invalid(p("content"), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", "The content field cannot be used when using IS_COMPONENTS_V2."))
		}
		if len(b.Embeds) > 0 {
			errs = append(errs, invalid(p("embeds"), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", "The embeds field cannot be used when using IS_COMPONENTS_V2."))
		}
		errs = append(errs, validateV2Components(b.Components, p("components"))...)
	} else {
		errs = append(errs, validateComponents(b.Components, p("components"))...)
	}
	return errs
}

func validateEmbeds(embeds []embedBody, path string) []fieldError {
	var errs []fieldError
	total := 0
	for i, e := range embeds {
		ep := joinPath(path, i)
		total += runeLen(e.Title) + runeLen(e.Description)
		if e.Timestamp != "" {
			if _, err := time.Parse(time.RFC3339, e.Timestamp); err != nil {
				errs = append(errs, invalid(joinPath(ep, "timestamp"), "DATE_TIME_TYPE_PARSE", "Could not parse "+e.Timestamp+". Should be ISO8601."))
			}
		}
		errs = append(errs, checkURL(joinPath(ep, "url"), e.URL, "http", "https")...)
		for j, f := range e.Fields {
			// The spec lets a field's name and value be empty; Discord does not, nor
			// spaces only.
			fp := joinPath(joinPath(ep, "fields"), j)
			switch {
			case f.Name == nil:
				errs = append(errs, required(joinPath(fp, "name")))
			case strings.TrimSpace(*f.Name) == "":
				errs = append(errs, minLen(joinPath(fp, "name"), 1))
			}
			switch {
			case f.Value == nil:
				errs = append(errs, required(joinPath(fp, "value")))
			case strings.TrimSpace(*f.Value) == "":
				errs = append(errs, minLen(joinPath(fp, "value"), 1))
			}
			total += strPtrLen(f.Name) + strPtrLen(f.Value)
		}
		// The spec lets a footer's text and an author's name be left out or empty.
		if e.Footer != nil {
			total += runeLen(e.Footer.Text)
			if e.Footer.Text == "" {
				errs = append(errs, required(joinPath(ep, "footer.text")))
			}
			errs = append(errs, checkURL(joinPath(ep, "footer.icon_url"), e.Footer.IconURL, "http", "https", "attachment")...)
		}
		if e.Author != nil {
			total += runeLen(e.Author.Name)
			if e.Author.Name == "" {
				errs = append(errs, required(joinPath(ep, "author.name")))
			}
			errs = append(errs, checkURL(joinPath(ep, "author.url"), e.Author.URL, "http", "https")...)
			errs = append(errs, checkURL(joinPath(ep, "author.icon_url"), e.Author.IconURL, "http", "https", "attachment")...)
		}
		if e.Image != nil {
			errs = append(errs, checkURL(joinPath(ep, "image.url"), e.Image.URL, "http", "https", "attachment")...)
		}
		if e.Thumbnail != nil {
			errs = append(errs, checkURL(joinPath(ep, "thumbnail.url"), e.Thumbnail.URL, "http", "https", "attachment")...)
		}
	}
	if total > maxEmbedTotal {
		errs = append(errs, invalid(path, "MAX_EMBED_SIZE_EXCEEDED", fmt.Sprintf("Embed size exceeds maximum size of %d", maxEmbedTotal)))
	}
	return errs
}

func checkURL(path, raw string, schemes ...string) []fieldError {
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	if err == nil {
		for _, s := range schemes {
			if strings.EqualFold(u.Scheme, s) && (u.Host != "" || s == "attachment" || s == "discord") {
				return nil
			}
		}
	}
	return []fieldError{invalid(path, "URL_TYPE_INVALID_URL", fmt.Sprintf("Not a well formed URL (scheme must be one of %s).", strings.Join(schemes, ", ")))}
}

func isSelect(t int) bool { return t == 3 || (t >= 5 && t <= 8) }

// validateComponents checks classic message components: up to five action
// rows, each with up to five buttons or exactly one select menu.
func validateComponents(rows []compBody, path string) []fieldError {
	var errs []fieldError
	if len(rows) > maxActionRows {
		errs = append(errs, maxLen(path, maxActionRows))
	}
	ids := map[string]string{}
	for i, row := range rows {
		rp := joinPath(path, i)
		if row.Type != 1 {
			errs = append(errs, invalid(joinPath(rp, "type"), "COMPONENT_LAYOUT_INVALID", fmt.Sprintf("Component type %d must be placed inside an action row (or send flag IS_COMPONENTS_V2).", row.Type)))
			continue
		}
		errs = append(errs, validateRow(row, rp, ids)...)
	}
	return errs
}

func validateRow(row compBody, rp string, ids map[string]string) []fieldError {
	var errs []fieldError
	cp := joinPath(rp, "components")
	if len(row.Components) == 0 {
		return append(errs, badLen(cp, 1, maxRowButtons))
	}
	buttons, selects := 0, 0
	for j, c := range row.Components {
		p := joinPath(cp, j)
		switch {
		case c.Type == 2:
			buttons++
			errs = append(errs, validateButton(c, p, ids)...)
		case isSelect(c.Type):
			selects++
			errs = append(errs, validateSelect(c, p, ids)...)
		case c.Type == 4:
			errs = append(errs, invalid(joinPath(p, "type"), "COMPONENT_TYPE_INVALID", "Text inputs can only be used in modals."))
		default:
			errs = append(errs, invalid(joinPath(p, "type"), "COMPONENT_TYPE_INVALID", fmt.Sprintf("Component type %d is not allowed in an action row.", c.Type)))
		}
	}
	switch {
	case selects > 0 && len(row.Components) > 1:
		errs = append(errs, invalid(cp, "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "An action row with a select menu can hold nothing else."))
	case len(row.Components) > maxRowButtons:
		errs = append(errs, badLen(cp, 1, maxRowButtons))
	}
	return errs
}

func checkCustomID(p string, id *string, ids map[string]string) []fieldError {
	if id == nil || *id == "" {
		return []fieldError{required(joinPath(p, "custom_id"))}
	}
	if n := runeLen(*id); n > maxCustomID {
		return []fieldError{badLen(joinPath(p, "custom_id"), 1, maxCustomID)}
	}
	if prev, dup := ids[*id]; dup {
		return []fieldError{invalid(joinPath(p, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", fmt.Sprintf("Component custom id cannot be duplicated (also used at %s).", prev))}
	}
	ids[*id] = p
	return nil
}

func hasEmoji(raw json.RawMessage) bool {
	if len(raw) == 0 || string(raw) == "null" {
		return false
	}
	var e struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	}
	return json.Unmarshal(raw, &e) == nil && (e.ID != "" || e.Name != "")
}

func validateButton(c compBody, p string, ids map[string]string) []fieldError {
	var errs []fieldError
	label := strPtrLen(c.Label)
	hasID := c.CustomID != nil && *c.CustomID != ""
	hasURL := c.URL != nil && *c.URL != ""
	hasSKU := c.SKUID != nil && *c.SKUID != ""
	switch c.Style {
	case 1, 2, 3, 4:
		errs = append(errs, checkCustomID(p, c.CustomID, ids)...)
		if hasURL {
			errs = append(errs, invalid(joinPath(p, "url"), "BUTTON_COMPONENT_URL_NOT_ALLOWED", "A button with a custom id cannot have a url."))
		}
		if hasSKU {
			errs = append(errs, invalid(joinPath(p, "sku_id"), "BUTTON_COMPONENT_SKU_ID_NOT_ALLOWED", "Only premium buttons can have a sku_id."))
		}
		if label == 0 && !hasEmoji(c.Emoji) {
			errs = append(errs, invalid(joinPath(p, "label"), "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A button needs a label or an emoji."))
		}
	case 5:
		if hasID {
			errs = append(errs, invalid(joinPath(p, "custom_id"), "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED", "A link button cannot have a custom id."))
		}
		if !hasURL {
			errs = append(errs, required(joinPath(p, "url")))
		} else {
			errs = append(errs, checkURL(joinPath(p, "url"), *c.URL, "http", "https", "discord")...)
		}
		if label == 0 && !hasEmoji(c.Emoji) {
			errs = append(errs, invalid(joinPath(p, "label"), "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A button needs a label or an emoji."))
		}
	case 6:
		if !hasSKU {
			errs = append(errs, required(joinPath(p, "sku_id")))
		}
		if hasID || hasURL || label > 0 || hasEmoji(c.Emoji) {
			errs = append(errs, invalid(p, "BUTTON_COMPONENT_PREMIUM_INVALID", "A premium button cannot have a custom id, label, url or emoji."))
		}
	}
	return errs
}

func validateSelect(c compBody, p string, ids map[string]string) []fieldError {
	var errs []fieldError
	errs = append(errs, checkCustomID(p, c.CustomID, ids)...)
	minV, maxV := 1, 1
	if c.MinValues != nil {
		minV = *c.MinValues
	}
	if c.MaxValues != nil {
		maxV = *c.MaxValues
	}
	if minV > maxV {
		errs = append(errs, invalid(joinPath(p, "min_values"), "SELECT_COMPONENT_MIN_VALUES_TOO_LARGE", "min_values must be less than or equal to max_values."))
	}
	if c.Type != 3 {
		if len(c.Options) > 0 {
			errs = append(errs, invalid(joinPath(p, "options"), "SELECT_COMPONENT_OPTIONS_NOT_ALLOWED", "Only string selects have options."))
		}
		if n := len(c.DefaultValues); n > 0 && (n < minV || n > maxV) {
			errs = append(errs, invalid(joinPath(p, "default_values"), "SELECT_COMPONENT_DEFAULT_VALUES_COUNT", "The number of default values must lie between min_values and max_values."))
		}
		return errs
	}
	op := joinPath(p, "options")
	if len(c.Options) < 1 || len(c.Options) > maxSelectOptions {
		errs = append(errs, badLen(op, 1, maxSelectOptions))
	}
	if minV > len(c.Options) && len(c.Options) > 0 {
		errs = append(errs, invalid(joinPath(p, "min_values"), "SELECT_COMPONENT_MIN_VALUES_TOO_LARGE", "min_values cannot exceed the number of options."))
	}
	values := map[string]bool{}
	defaults := 0
	for k, o := range c.Options {
		ip := joinPath(op, k)
		if o.Value != nil && values[*o.Value] {
			errs = append(errs, invalid(joinPath(ip, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Select menu option values must be unique."))
		} else if o.Value != nil {
			values[*o.Value] = true
		}
		if o.Default {
			defaults++
		}
	}
	if defaults > maxV {
		errs = append(errs, invalid(op, "SELECT_COMPONENT_TOO_MANY_DEFAULTS", "More options are marked default than max_values allows."))
	}
	return errs
}

// validateV2Components checks what the fake knows of the IS_COMPONENTS_V2
// layout: at most 40 components in all, custom ids valid and unique, and the
// action rows inside by the classic rules. The OpenAPI check covers the rest.
func validateV2Components(comps []compBody, path string) []fieldError {
	var errs []fieldError
	ids := map[string]string{}
	count := 0
	var walk func(cs []compBody, p string)
	text := 0
	walk = func(cs []compBody, p string) {
		for i, c := range cs {
			cp := joinPath(p, i)
			count++
			if c.Type == 10 {
				text += strPtrLen(c.Content)
			}
			switch {
			case c.Type == 1:
				count += len(c.Components)
				errs = append(errs, validateRow(c, cp, ids)...)
			case c.Type == 2:
				errs = append(errs, validateButton(c, cp, ids)...)
			case isSelect(c.Type):
				errs = append(errs, validateSelect(c, cp, ids)...)
			default:
				walk(c.Components, joinPath(cp, "components"))
				if c.Accessory != nil {
					walk([]compBody{*c.Accessory}, joinPath(cp, "accessory"))
				}
			}
		}
	}
	walk(comps, path)
	if count > maxV2Components {
		errs = append(errs, invalid(path, "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED", fmt.Sprintf("A message can hold at most %d components.", maxV2Components)))
	}
	if text > maxV2Text {
		errs = append(errs, invalid(path, "COMPONENT_MAX_TOTAL_TEXT_EXCEEDED", fmt.Sprintf("The text displays of a message can hold at most %d characters in all.", maxV2Text)))
	}
	return errs
}

// checkMediaRefs checks every attachment:// url of a V2 message's media galleries,
// thumbnails and file components, as checkAttachmentRefs does for embeds: it must name
// a file of the message (an image one, but for a file component). Discord would show
// nothing for it; the fake refuses it, so the test that sent it sees why.
func checkMediaRefs(n *message, prefix string) *apiError {
	if n.flags&flagComponentsV2 == 0 || emptyArray(n.components) {
		return nil
	}
	var comps []compBody
	if json.Unmarshal(n.components, &comps) != nil {
		return nil // the components' shape has been judged already
	}
	names := map[string]*Attachment{}
	for _, a := range n.attachments {
		names[a.Filename] = a
	}
	var errs []fieldError
	ref := func(p, u string, image bool) {
		name, ok := attachmentName(u)
		if !ok {
			return
		}
		switch a := names[name]; {
		case a == nil:
			errs = append(errs, invalid(p, "ATTACHMENT_NOT_FOUND", fmt.Sprintf("No file named %q is attached to this message.", name)))
		case image && !imageExt[strings.ToLower(path.Ext(name))]:
			errs = append(errs, invalid(p, "ATTACHMENT_INVALID_TYPE", "Only .jpg, .jpeg, .png, .webp and .gif files can be shown as media."))
		}
	}
	var walk func(cs []compBody, p string)
	walk = func(cs []compBody, p string) {
		for i, c := range cs {
			cp := joinPath(p, i)
			for k, it := range c.Items {
				ref(joinPath(joinPath(joinPath(cp, "items"), k), "media.url"), it.Media.URL, true)
			}
			if c.Media != nil {
				ref(joinPath(cp, "media.url"), c.Media.URL, true)
			}
			if c.File != nil {
				ref(joinPath(cp, "file.url"), c.File.URL, false)
			}
			walk(c.Components, joinPath(cp, "components"))
			if c.Accessory != nil {
				walk([]compBody{*c.Accessory}, joinPath(cp, "accessory"))
			}
		}
	}
	walk(comps, prefixPath(prefix, "components"))
	if len(errs) > 0 {
		return errInvalidForm(errs)
	}
	return nil
}

// errClearV2 is Discord's refusal of an edit that would take IS_COMPONENTS_V2 off a
// message: the flag can only be set.
func errClearV2(path string) fieldError {
	return invalid(path, "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG", "The IS_COMPONENTS_V2 flag cannot be removed from a message.")
}

// checkV2Merged judges a message as an edit leaves it: a Components V2 message holds
// neither content nor embeds. A payload that sets the flag is checked field by field
// already (validateMsg); this catches the edit that sets it on a message whose content
// or embeds it leaves in place (Discord wants them reset with the same edit), and the
// edit of a V2 message that sends content or embeds without the flag.
func checkV2Merged(n *message, prefix string) []fieldError {
	if n.flags&flagComponentsV2 == 0 {
		return nil
	}
	var errs []fieldError
	if n.content != "" {
		errs = append(errs, invalid(joinPath(prefix, "content"), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", "The content field cannot be used when using IS_COMPONENTS_V2."))
	}
	if !emptyArray(n.embeds) {
		errs = append(errs, invalid(joinPath(prefix, "embeds"), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", "The embeds field cannot be used when using IS_COMPONENTS_V2."))
	}
	return errs
}

// modalInput is one text input of a modal the bot opened.
type modalInput struct {
	CustomID  string
	Label     string
	Style     int
	Required  bool
	MinLength int
	MaxLength int
}

// validateModal reads type 9 callback data into the modal's inputs and checks what
// the schema does not: at most five rows, each an action row holding one text input,
// custom ids unique, and a value within the input's own lengths. The title, the
// custom id and each input's lengths and style are the schema's.
func validateModal(b *msgBody, path string) ([]modalInput, []fieldError) {
	var errs []fieldError
	var inputs []modalInput
	cp := joinPath(path, "components")
	if len(b.Components) > maxModalRows {
		errs = append(errs, badLen(cp, 1, maxModalRows))
	}
	ids := map[string]string{}
	for i, row := range b.Components {
		rp := joinPath(cp, i)
		if row.Type != 1 {
			errs = append(errs, invalid(joinPath(rp, "type"), "COMPONENT_TYPE_INVALID", "The fake accepts modals of action rows holding one text input each."))
			continue
		}
		if len(row.Components) != 1 {
			errs = append(errs, badLen(joinPath(rp, "components"), 1, 1))
			continue
		}
		in := row.Components[0]
		ip := joinPath(joinPath(rp, "components"), 0)
		if in.Type != 4 {
			errs = append(errs, invalid(joinPath(ip, "type"), "COMPONENT_TYPE_INVALID", "A modal row must hold a text input (type 4)."))
			continue
		}
		errs = append(errs, checkCustomID(ip, in.CustomID, ids)...)
		lo, hi := 0, maxInputValue
		if in.MinLength != nil {
			lo = *in.MinLength
		}
		if in.MaxLength != nil {
			hi = *in.MaxLength
		}
		if lo > hi {
			errs = append(errs, invalid(joinPath(ip, "min_length"), "TEXT_INPUT_MIN_LENGTH_TOO_LARGE", "min_length must be less than or equal to max_length."))
		}
		if in.Value != nil && *in.Value != "" {
			if n := runeLen(*in.Value); n > maxInputValue || n > hi || n < lo {
				errs = append(errs, invalid(joinPath(ip, "value"), "BASE_TYPE_BAD_LENGTH", fmt.Sprintf("Must be between %d and %d in length.", lo, hi)))
			}
		}
		req := true // Discord's default; discordgo always sends the field
		if in.Required != nil {
			req = *in.Required
		}
		label := ""
		if in.Label != nil {
			label = *in.Label
		}
		id := ""
		if in.CustomID != nil {
			id = *in.CustomID
		}
		inputs = append(inputs, modalInput{CustomID: id, Label: label, Style: in.Style, Required: req, MinLength: lo, MaxLength: hi})
	}
	return inputs, errs
}

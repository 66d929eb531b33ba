package discordtest

import (
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"unicode"
)

// Locales are the locale keys Discord accepts in name_localizations and
// description_localizations, and in an interaction's locale.
var Locales = []string{
	"id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl",
	"pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja",
	"zh-TW", "ko",
}

var validLocale = func() map[string]bool {
	m := map[string]bool{}
	for _, l := range Locales {
		m[l] = true
	}
	return m
}()

// IsLocale reports whether Discord knows locale.
func IsLocale(locale string) bool { return validLocale[locale] }

var chatNameRE = regexp.MustCompile(`^[-_'\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

const (
	maxCommandName        = 32
	maxCommandDescription = 100
	maxCommandOptions     = 25
	maxChoices            = 25
	maxChoiceName         = 100
	maxChoiceString       = 100
	maxStringOptionLength = 6000
	maxCommandSize        = 8000
	maxChatCommands       = 100
	maxContextCommands    = 15
)

// int53 bounds integer and number options: Discord's ±2^53.
var int53 = new(big.Rat).SetInt64(1 << 53)

type commandBody struct {
	ID                       *string           `json:"id"`
	Type                     *int              `json:"type"`
	Name                     string            `json:"name"`
	NameLocalizations        map[string]string `json:"name_localizations"`
	Description              *string           `json:"description"`
	DescriptionLocalizations map[string]string `json:"description_localizations"`
	Options                  []optionBody      `json:"options"`
	DefaultMemberPermissions json.RawMessage   `json:"default_member_permissions"`
	DMPermission             *bool             `json:"dm_permission"`
	Contexts                 []int             `json:"contexts"`
	IntegrationTypes         []int             `json:"integration_types"`
	NSFW                     *bool             `json:"nsfw"`
	Handler                  *int              `json:"handler"` // an Entry Point command's: 1 the app answers, 2 Discord launches
}

type optionBody struct {
	Type                     int               `json:"type"`
	Name                     string            `json:"name"`
	NameLocalizations        map[string]string `json:"name_localizations"`
	Description              string            `json:"description"`
	DescriptionLocalizations map[string]string `json:"description_localizations"`
	Required                 bool              `json:"required"`
	Choices                  []choiceBody      `json:"choices"`
	Options                  []optionBody      `json:"options"`
	ChannelTypes             []int             `json:"channel_types"`
	MinValue                 *json.Number      `json:"min_value"`
	MaxValue                 *json.Number      `json:"max_value"`
	MinLength                *int              `json:"min_length"`
	MaxLength                *int              `json:"max_length"`
	Autocomplete             bool              `json:"autocomplete"`
}

type choiceBody struct {
	Name              string            `json:"name"`
	NameLocalizations map[string]string `json:"name_localizations"`
	Value             json.RawMessage   `json:"value"`
}

func (c *commandBody) kind() int {
	if c.Type == nil || *c.Type == 0 {
		return 1
	}
	return *c.Type
}

// validateCommandList checks a bulk overwrite: each command, and the per
// scope limits (100 chat commands, 15 user and 15 message commands, names
// unique per type).
func validateCommandList(cmds []commandBody) []fieldError {
	var errs []fieldError
	count := map[int]int{}
	names := map[string]int{}
	for i, c := range cmds {
		p := fmt.Sprint(i)
		errs = append(errs, validateCommand(&c, p)...)
		count[c.kind()]++
		key := fmt.Sprintf("%d/%s", c.kind(), c.Name)
		if prev, dup := names[key]; dup {
			errs = append(errs, invalid(joinPath(p, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", fmt.Sprintf("Application command names must be unique (same as command %d).", prev)))
		}
		names[key] = i
	}
	if count[1] > maxChatCommands {
		errs = append(errs, invalid("", "APPLICATION_COMMANDS_TOO_MANY", fmt.Sprintf("An application can have at most %d chat input commands per scope.", maxChatCommands)))
	}
	if count[4] > 1 {
		errs = append(errs, invalid("", "APPLICATION_COMMANDS_TOO_MANY", "An application can have only one Entry Point command."))
	}
	if count[2] > maxContextCommands || count[3] > maxContextCommands {
		errs = append(errs, invalid("", "APPLICATION_COMMANDS_TOO_MANY", fmt.Sprintf("An application can have at most %d user and %d message commands per scope.", maxContextCommands, maxContextCommands)))
	}
	return errs
}

func validateCommand(c *commandBody, p string) []fieldError {
	var errs []fieldError
	kind := c.kind()
	switch kind {
	case 1:
		errs = append(errs, checkChatName(joinPath(p, "name"), c.Name)...)
		desc := ""
		if c.Description != nil {
			desc = *c.Description
		}
		errs = append(errs, checkDescription(joinPath(p, "description"), desc)...)
	case 2, 3:
		if n := runeLen(c.Name); n < 1 || n > maxCommandName {
			errs = append(errs, badLen(joinPath(p, "name"), 1, maxCommandName))
		}
		if c.Description != nil && *c.Description != "" {
			errs = append(errs, invalid(joinPath(p, "description"), "APPLICATION_COMMAND_DESCRIPTION_NOT_ALLOWED", "User and message commands cannot have a description."))
		}
		if len(c.Options) > 0 {
			errs = append(errs, invalid(joinPath(p, "options"), "APPLICATION_COMMAND_OPTIONS_NOT_ALLOWED", "User and message commands cannot have options."))
		}
	case 4:
		// PRIMARY_ENTRY_POINT: launches the app's Activity from the App Launcher.
		errs = append(errs, checkChatName(joinPath(p, "name"), c.Name)...)
		desc := ""
		if c.Description != nil {
			desc = *c.Description
		}
		errs = append(errs, checkDescription(joinPath(p, "description"), desc)...)
		if c.Handler == nil || *c.Handler != 1 && *c.Handler != 2 {
			errs = append(errs, invalid(joinPath(p, "handler"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2)."))
		}
		if len(c.Options) > 0 {
			errs = append(errs, invalid(joinPath(p, "options"), "APPLICATION_COMMAND_OPTIONS_NOT_ALLOWED", "Entry Point commands cannot have options."))
		}
	default:
		errs = append(errs, invalid(joinPath(p, "type"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2, 3, 4)."))
	}
	errs = append(errs, checkLocalizations(joinPath(p, "name_localizations"), c.NameLocalizations, kind == 1, true)...)
	errs = append(errs, checkLocalizations(joinPath(p, "description_localizations"), c.DescriptionLocalizations, false, false)...)
	if kind == 1 {
		errs = append(errs, validateOptions(c.Options, joinPath(p, "options"), 0)...)
		if size := commandSize(c); size > maxCommandSize {
			errs = append(errs, invalid(p, "APPLICATION_COMMAND_TOO_LARGE", fmt.Sprintf("Command exceeds maximum size (%d > %d).", size, maxCommandSize)))
		}
	}
	if len(c.DefaultMemberPermissions) > 0 && string(c.DefaultMemberPermissions) != "null" {
		var s string
		var n json.Number
		if json.Unmarshal(c.DefaultMemberPermissions, &s) == nil {
			n = json.Number(s)
		} else if json.Unmarshal(c.DefaultMemberPermissions, &n) != nil {
			n = ""
		}
		if r, ok := new(big.Rat).SetString(string(n)); !ok || !r.IsInt() || r.Sign() < 0 {
			errs = append(errs, invalid(joinPath(p, "default_member_permissions"), "NUMBER_TYPE_COERCE", "Value is not a valid permission bit set."))
		}
	}
	return errs
}

func checkChatName(p, name string) []fieldError {
	if !chatNameRE.MatchString(name) {
		return []fieldError{invalid(p, "APPLICATION_COMMAND_INVALID_NAME", fmt.Sprintf("Command name is invalid: %q must match ^[-_'\\p{L}\\p{N}]{1,32}$.", name))}
	}
	for _, r := range name {
		if unicode.ToLower(r) != r {
			return []fieldError{invalid(p, "APPLICATION_COMMAND_INVALID_NAME", fmt.Sprintf("Command name is invalid: %q must be lower case.", name))}
		}
	}
	return nil
}

func checkDescription(p, d string) []fieldError {
	if n := runeLen(d); n < 1 || n > maxCommandDescription {
		return []fieldError{badLen(p, 1, maxCommandDescription)}
	}
	return nil
}

// checkLocalizations checks the keys are Discord locales and the values follow
// the rules of the field they translate.
func checkLocalizations(p string, m map[string]string, chatName, isName bool) []fieldError {
	var errs []fieldError
	if len(m) > len(Locales) {
		errs = append(errs, maxLen(p, len(Locales)))
	}
	for _, loc := range sortedKeys(m) {
		v := m[loc]
		lp := joinPath(p, loc)
		if !validLocale[loc] {
			errs = append(errs, invalid(lp, "LOCALE_INVALID", fmt.Sprintf("Invalid locale %q.", loc)))
			continue
		}
		switch {
		case chatName:
			errs = append(errs, checkChatName(lp, v)...)
		case isName:
			if n := runeLen(v); n < 1 || n > maxCommandName {
				errs = append(errs, badLen(lp, 1, maxCommandName))
			}
		default:
			errs = append(errs, checkDescription(lp, v)...)
		}
	}
	return errs
}

// validateOptions checks one level of options. level 0 is the command,
// 1 a subcommand group, 2 a subcommand.
func validateOptions(opts []optionBody, p string, level int) []fieldError {
	var errs []fieldError
	if len(opts) > maxCommandOptions {
		errs = append(errs, maxLen(p, maxCommandOptions))
	}
	names := map[string]bool{}
	subs, plain := 0, 0
	seenOptional := false
	for i, o := range opts {
		op := joinPath(p, i)
		errs = append(errs, checkChatName(joinPath(op, "name"), o.Name)...)
		if names[o.Name] {
			errs = append(errs, invalid(joinPath(op, "name"), "APPLICATION_COMMAND_OPTION_NAME_NOT_UNIQUE", "Option names must be unique."))
		}
		names[o.Name] = true
		errs = append(errs, checkDescription(joinPath(op, "description"), o.Description)...)
		errs = append(errs, checkLocalizations(joinPath(op, "name_localizations"), o.NameLocalizations, true, true)...)
		errs = append(errs, checkLocalizations(joinPath(op, "description_localizations"), o.DescriptionLocalizations, false, false)...)
		switch o.Type {
		case 1, 2:
			subs++
			if o.Type == 2 && level != 0 {
				errs = append(errs, invalid(joinPath(op, "type"), "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Subcommand groups can only be top-level options."))
			}
			if o.Type == 1 && level == 2 {
				errs = append(errs, invalid(joinPath(op, "type"), "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Subcommands cannot be nested in subcommands."))
			}
			if o.Type == 2 {
				if len(o.Options) == 0 {
					errs = append(errs, badLen(joinPath(op, "options"), 1, maxCommandOptions))
				}
				for j, sub := range o.Options {
					if sub.Type != 1 {
						errs = append(errs, invalid(joinPath(joinPath(joinPath(op, "options"), j), "type"), "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "A subcommand group holds subcommands only."))
					}
				}
				errs = append(errs, validateOptions(o.Options, joinPath(op, "options"), 1)...)
			} else {
				errs = append(errs, validateOptions(o.Options, joinPath(op, "options"), 2)...)
			}
			if o.Required {
				errs = append(errs, invalid(joinPath(op, "required"), "APPLICATION_COMMAND_OPTION_REQUIRED_INVALID", "Subcommands cannot be required."))
			}
		case 3, 4, 5, 6, 7, 8, 9, 10, 11:
			plain++
			if level == 1 {
				errs = append(errs, invalid(joinPath(op, "type"), "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "A subcommand group holds subcommands only."))
			}
			if len(o.Options) > 0 {
				errs = append(errs, invalid(joinPath(op, "options"), "APPLICATION_COMMAND_OPTIONS_NOT_ALLOWED", "Only subcommands and groups have nested options."))
			}
			if o.Required && seenOptional {
				errs = append(errs, invalid(joinPath(op, "required"), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Required options must be placed before non-required options."))
			}
			if !o.Required {
				seenOptional = true
			}
			errs = append(errs, validateOptionValues(o, op)...)
		default:
			errs = append(errs, invalid(joinPath(op, "type"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)."))
		}
	}
	if subs > 0 && plain > 0 {
		errs = append(errs, invalid(p, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Subcommands and groups cannot be mixed with other options."))
	}
	return errs
}

func validateOptionValues(o optionBody, op string) []fieldError {
	var errs []fieldError
	if len(o.Choices) > 0 {
		if o.Type != 3 && o.Type != 4 && o.Type != 10 {
			errs = append(errs, invalid(joinPath(op, "choices"), "APPLICATION_COMMAND_OPTION_CHOICES_NOT_ALLOWED", "Only string, integer and number options have choices."))
		}
		if o.Autocomplete {
			errs = append(errs, invalid(joinPath(op, "autocomplete"), "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID", "Autocomplete cannot be used with choices."))
		}
	}
	if len(o.Choices) > maxChoices {
		errs = append(errs, maxLen(joinPath(op, "choices"), maxChoices))
	}
	for k, c := range o.Choices {
		cp := joinPath(joinPath(op, "choices"), k)
		if n := runeLen(c.Name); n < 1 || n > maxChoiceName {
			errs = append(errs, badLen(joinPath(cp, "name"), 1, maxChoiceName))
		}
		for _, loc := range sortedKeys(c.NameLocalizations) {
			lp := joinPath(joinPath(cp, "name_localizations"), loc)
			if !validLocale[loc] {
				errs = append(errs, invalid(lp, "LOCALE_INVALID", fmt.Sprintf("Invalid locale %q.", loc)))
			} else if n := runeLen(c.NameLocalizations[loc]); n < 1 || n > maxChoiceName {
				errs = append(errs, badLen(lp, 1, maxChoiceName))
			}
		}
		vp := joinPath(cp, "value")
		switch o.Type {
		case 3:
			var s string
			if json.Unmarshal(c.Value, &s) != nil {
				errs = append(errs, invalid(vp, "BASE_TYPE_STRING", "Must be of type string."))
			} else if runeLen(s) > maxChoiceString {
				errs = append(errs, maxLen(vp, maxChoiceString))
			}
		case 4, 10:
			var n json.Number
			if json.Unmarshal(c.Value, &n) != nil {
				errs = append(errs, invalid(vp, "NUMBER_TYPE_COERCE", "Must be a number."))
			} else {
				errs = append(errs, checkInt53(vp, n, o.Type == 4)...)
			}
		}
	}
	if o.MinValue != nil || o.MaxValue != nil {
		if o.Type != 4 && o.Type != 10 {
			errs = append(errs, invalid(op, "APPLICATION_COMMAND_OPTION_MIN_MAX_NOT_ALLOWED", "Only integer and number options have min_value and max_value."))
		}
		if o.MinValue != nil {
			errs = append(errs, checkInt53(joinPath(op, "min_value"), *o.MinValue, o.Type == 4)...)
		}
		if o.MaxValue != nil {
			errs = append(errs, checkInt53(joinPath(op, "max_value"), *o.MaxValue, o.Type == 4)...)
		}
		if o.MinValue != nil && o.MaxValue != nil {
			lo, ok1 := new(big.Rat).SetString(o.MinValue.String())
			hi, ok2 := new(big.Rat).SetString(o.MaxValue.String())
			if ok1 && ok2 && lo.Cmp(hi) > 0 {
				errs = append(errs, invalid(joinPath(op, "min_value"), "APPLICATION_COMMAND_OPTION_MIN_MAX_INVALID", "min_value must be less than or equal to max_value."))
			}
		}
	}
	if o.MinLength != nil || o.MaxLength != nil {
		if o.Type != 3 {
			errs = append(errs, invalid(op, "APPLICATION_COMMAND_OPTION_LENGTH_NOT_ALLOWED", "Only string options have min_length and max_length."))
		}
		if o.MinLength != nil && (*o.MinLength < 0 || *o.MinLength > maxStringOptionLength) {
			errs = append(errs, invalid(joinPath(op, "min_length"), "NUMBER_TYPE_MAX", "Value should be between 0 and 6000."))
		}
		if o.MaxLength != nil && (*o.MaxLength < 1 || *o.MaxLength > maxStringOptionLength) {
			errs = append(errs, invalid(joinPath(op, "max_length"), "NUMBER_TYPE_MAX", "Value should be between 1 and 6000."))
		}
		if o.MinLength != nil && o.MaxLength != nil && *o.MinLength > *o.MaxLength {
			errs = append(errs, invalid(joinPath(op, "min_length"), "APPLICATION_COMMAND_OPTION_LENGTH_INVALID", "min_length must be less than or equal to max_length."))
		}
	}
	if len(o.ChannelTypes) > 0 && o.Type != 7 {
		errs = append(errs, invalid(joinPath(op, "channel_types"), "APPLICATION_COMMAND_OPTION_CHANNEL_TYPES_NOT_ALLOWED", "Only channel options have channel_types."))
	}
	return errs
}

func checkInt53(p string, n json.Number, integer bool) []fieldError {
	r, ok := new(big.Rat).SetString(n.String())
	if !ok {
		return []fieldError{invalid(p, "NUMBER_TYPE_COERCE", "Must be a number.")}
	}
	if integer && !r.IsInt() {
		return []fieldError{invalid(p, "NUMBER_TYPE_COERCE", "Must be an integer.")}
	}
	if new(big.Rat).Abs(r).Cmp(int53) > 0 {
		return []fieldError{invalid(p, "NUMBER_TYPE_MAX", "Value must lie between -2^53 and 2^53.")}
	}
	return nil
}

// commandSize is the character count Discord limits to 8000: names,
// descriptions and choice names and values of the command and every option,
// each counted in its longest localization.
func commandSize(c *commandBody) int {
	desc := ""
	if c.Description != nil {
		desc = *c.Description
	}
	size := longest(c.Name, c.NameLocalizations) + longest(desc, c.DescriptionLocalizations)
	var walk func([]optionBody)
	walk = func(opts []optionBody) {
		for _, o := range opts {
			size += longest(o.Name, o.NameLocalizations) + longest(o.Description, o.DescriptionLocalizations)
			for _, ch := range o.Choices {
				size += longest(ch.Name, ch.NameLocalizations)
				var s string
				if json.Unmarshal(ch.Value, &s) == nil {
					size += runeLen(s)
				} else {
					size += len(ch.Value)
				}
			}
			walk(o.Options)
		}
	}
	walk(c.Options)
	return size
}

func longest(def string, loc map[string]string) int {
	n := runeLen(def)
	for _, v := range loc {
		if m := runeLen(v); m > n {
			n = m
		}
	}
	return n
}

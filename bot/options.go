package bot

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/i18n"
)

// Every slash-command option is checked here, against the command tree the bot
// registers (commands.go), before its handler reads it. Discord's client keeps to the
// registered types, ranges, lengths and choices, but it is not the only sender: a
// client whose command list is out of date, or anything else that can send an
// interaction, may send a word where a number belongs, a number out of range or a page
// of text. The handlers then read values they can trust (IntValue on a string would
// panic), and the member is told what the option takes, in words.

// maxStringOption is the longest text Discord lets a string option carry, the bound of
// an option that declares none.
const maxStringOption = 6000

// maxSafeInteger bounds an integer option that declares no range: Discord's integers
// are JSON numbers, exact up to 2^53.
const maxSafeInteger = 1<<53 - 1

// commandSpecs are the declared subcommands by their route name ("start", "bank sell").
var commandSpecs = specsByRoute(commandTree())

func specsByRoute(tree []subSpec) map[string]subSpec {
	out := map[string]subSpec{}
	for _, s := range tree {
		if len(s.subs) == 0 {
			out[s.name] = s
		}
		for _, g := range s.subs {
			out[s.name+" "+g.name] = g
		}
	}
	return out
}

// checkOptions checks a subcommand's options against its declaration and returns them
// by name, or refuses the first that does not fit.
func (b *Bot) checkOptions(c *ictx, route string, opts []*discordgo.ApplicationCommandInteractionDataOption) (options, error) {
	spec := commandSpecs[route]
	o := options{}
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		var decl *optSpec
		for i := range spec.opts {
			if spec.opts[i].name == opt.Name {
				decl = &spec.opts[i]
			}
		}
		if decl == nil {
			return nil, refuse("err.option_unknown", "Option", truncate(opt.Name, 32))
		}
		if _, twice := o[opt.Name]; twice {
			return nil, refuse("err.option_twice", "Option", b.optionName(c, decl))
		}
		if err := b.checkOption(c, decl, opt.Value); err != nil {
			return nil, err
		}
		o[opt.Name] = opt
	}
	for i := range spec.opts {
		if d := &spec.opts[i]; d.required && o[d.name] == nil {
			return nil, refuse("err.option_missing", "Option", b.optionName(c, d))
		}
	}
	return o, nil
}

// checkOption refuses a value that is not of the option's type, range, length or
// choices, naming what it takes.
func (b *Bot) checkOption(c *ictx, d *optSpec, v any) error {
	name := b.optionName(c, d)
	switch d.typ {
	case discordgo.ApplicationCommandOptionInteger:
		f, isNum := v.(float64)
		whole := isNum && f == math.Trunc(f) && math.Abs(f) <= maxSafeInteger
		if d.hasChoices() {
			if !whole {
				return b.notAChoice(c, d, name)
			}
			return b.checkChoice(c, d, name, fmt.Sprint(int64(f)))
		}
		lo, hi := d.min, d.max
		if hi <= 0 {
			lo, hi = -maxSafeInteger, maxSafeInteger
		}
		if !whole || f < lo || f > hi {
			return refuse("err.option_whole", "Option", name, "Min", int64(lo), "Max", int64(hi))
		}
	case discordgo.ApplicationCommandOptionString:
		s, isText := v.(string)
		if d.hasChoices() {
			if !isText {
				return b.notAChoice(c, d, name)
			}
			return b.checkChoice(c, d, name, s)
		}
		hi := d.maxLen
		if hi <= 0 {
			hi = maxStringOption
		}
		if n := utf8.RuneCountInString(s); !isText || n < d.minLen || n > hi {
			return refuse("err.option_text", "Option", name, "Min", d.minLen, "Max", hi)
		}
	case discordgo.ApplicationCommandOptionBoolean:
		if _, ok := v.(bool); !ok {
			return refuse("err.option_yes_no", "Option", name)
		}
	case discordgo.ApplicationCommandOptionUser:
		// Discord resolves every user an option names; an id it did not resolve is no
		// member of this server, and would get a wallet here.
		s, ok := v.(string)
		if !ok || !snowflake(s) || !resolvedUser(c, s) {
			return refuse("err.option_member", "Option", name)
		}
	default:
		return refuse("err.option_unknown", "Option", name) // a type the tree does not declare
	}
	return nil
}

// hasChoices reports whether the option takes one of a list of values.
func (d *optSpec) hasChoices() bool { return d.selfNamed || len(d.choices) > 0 }

// checkChoice refuses a value of the right type that is none of the option's choices.
func (b *Bot) checkChoice(c *ictx, d *optSpec, name, v string) error {
	if d.selfNamed && i18n.Supported(v) {
		return nil
	}
	for _, ch := range d.choices {
		if v == fmt.Sprint(ch.value) {
			return nil
		}
	}
	return b.notAChoice(c, d, name)
}

// notAChoice is the refusal listing an option's choices by the names the client shows.
func (b *Bot) notAChoice(c *ictx, d *optSpec, name string) error {
	var names []string
	if d.selfNamed {
		for _, l := range i18n.Languages {
			names = append(names, b.cat.T(l, "language.self"))
		}
	}
	for _, ch := range d.choices {
		names = append(names, b.cat.T(c.lang, "choice."+ch.key))
	}
	return refuse("err.option_choice", "Option", name, "Choices", strings.Join(names, ", "))
}

// snowflake reports whether s can be a Discord id: 1 to 20 decimal digits.
func snowflake(s string) bool {
	if len(s) == 0 || len(s) > 20 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// resolvedUser reports whether the interaction's resolved data carries the user id.
func resolvedUser(c *ictx, id string) bool {
	r := c.i.ApplicationCommandData().Resolved
	if r == nil {
		return false
	}
	_, ok := r.Users[id]
	return ok
}

// optionName is the option's name as the member's client shows it.
func (b *Bot) optionName(c *ictx, d *optSpec) string {
	return b.cat.T(c.lang, "cmd."+d.key+".name")
}

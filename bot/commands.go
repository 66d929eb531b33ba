package bot

import (
	"encoding/json"
	"strconv"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/i18n"
	"github.com/pontoon-bot/pontoon/bot/table"
	"github.com/pontoon-bot/pontoon/config"
)

// optSpec describes one slash-command option. Names are Discord's canonical (English)
// identifiers that interactions carry back; everything a member reads — descriptions,
// choice names and the localized names — comes from the catalog under cmd.<key>.
type optSpec struct {
	key      string // catalog key below cmd., e.g. "start.variant"
	name     string
	typ      discordgo.ApplicationCommandOptionType
	required bool
	min, max float64 // an integer's range; none when max is 0
	// minLen and maxLen bound a string's length in characters; maxLen 0 is Discord's
	// own bound (maxStringOption).
	minLen, maxLen int
	choices        []choiceSpec
	// selfNamed options choose a language: one choice per catalog file, each named in
	// its own language, so adding a file adds the choice.
	selfNamed bool
}

type choiceSpec struct {
	key   string // catalog key below choice.
	value any
}

var variantChoices = []choiceSpec{{"variant.classic", "classic"}, {"variant.shoot", "shoot"}}

// ruleOptions are the house-rule options /pontoon start and /pontoon settings share.
func ruleOptions(prefix string) []optSpec {
	n := func(k, name string, t discordgo.ApplicationCommandOptionType) optSpec {
		return optSpec{key: prefix + "." + k, name: name, typ: t}
	}
	num := func(k, name string, lo, hi float64) optSpec {
		o := n(k, name, discordgo.ApplicationCommandOptionInteger)
		o.min, o.max = lo, hi
		return o
	}
	ch := func(k, name string, t discordgo.ApplicationCommandOptionType, cs ...choiceSpec) optSpec {
		o := n(k, name, t)
		o.choices = cs
		return o
	}
	const big = 1e12
	return []optSpec{
		ch("variant", "variant", discordgo.ApplicationCommandOptionString, variantChoices...),
		num("min_stake", "min_stake", 1, big),
		num("max_stake", "max_stake", 1, big),
		num("kitty_min", "kitty_min", 1, big),
		num("kitty_max", "kitty_max", 1, big),
		ch("stick_min", "stick_min", discordgo.ApplicationCommandOptionInteger, choiceSpec{"stick.15", 15}, choiceSpec{"stick.16", 16}),
		ch("split", "split", discordgo.ApplicationCommandOptionString, choiceSpec{"split.any", "any"}, choiceSpec{"split.aces", "aces"}, choiceSpec{"split.none", "none"}),
		n("banker_may_double", "banker_may_double", discordgo.ApplicationCommandOptionBoolean),
		ch("pontoon_pays", "pontoon_pays", discordgo.ApplicationCommandOptionInteger, choiceSpec{"pays.1", 1}, choiceSpec{"pays.2", 2}, choiceSpec{"pays.3", 3}),
		ch("banker_pontoon_collects", "banker_pontoon_collects", discordgo.ApplicationCommandOptionInteger, choiceSpec{"pays.1", 1}, choiceSpec{"pays.2", 2}),
		n("four_low_twist_only", "four_low_twist_only", discordgo.ApplicationCommandOptionBoolean),
		n("royal_pontoon", "royal_pontoon", discordgo.ApplicationCommandOptionBoolean),
		ch("pontoon_tiers", "pontoon_tiers", discordgo.ApplicationCommandOptionString, choiceSpec{"tiers.equal", "equal"},
			choiceSpec{"tiers.picture_beats_ten", "picture_beats_ten"}, choiceSpec{"tiers.ten_not_pontoon", "ten_not_pontoon"}, choiceSpec{"tiers.naturals", "naturals"}),
		ch("burn", "burn", discordgo.ApplicationCommandOptionInteger, choiceSpec{"burn.0", 0}, choiceSpec{"burn.13", 13}, choiceSpec{"burn.14", 14}),
		ch("decks", "decks", discordgo.ApplicationCommandOptionString, choiceSpec{"decks.auto", "auto"}, choiceSpec{"decks.1", "1"}, choiceSpec{"decks.2", "2"}),
		num("turn_timer", "turn_timer", 10, 600),
	}
}

// giveOptions are /pontoon settings' give rules (GiveRules); 0 turns a rule off.
var giveOptions = []optSpec{
	{key: "settings.give_min_rounds", name: "give_min_rounds", typ: discordgo.ApplicationCommandOptionInteger, min: 0, max: config.MaxGiveMinRounds},
	{key: "settings.give_account_days", name: "give_account_days", typ: discordgo.ApplicationCommandOptionInteger, min: 0, max: config.MaxGiveMinAccountDays},
	{key: "settings.give_daily_cap", name: "give_daily_cap", typ: discordgo.ApplicationCommandOptionInteger, min: 0, max: 1e12},
}

type subSpec struct {
	key  string
	name string
	opts []optSpec
	subs []subSpec // a group
}

func commandTree() []subSpec {
	user := func(k string) optSpec {
		return optSpec{key: k, name: "member", typ: discordgo.ApplicationCommandOptionUser, required: true}
	}
	amount := func(k string) optSpec {
		return optSpec{key: k, name: "amount", typ: discordgo.ApplicationCommandOptionInteger, required: true, min: 1, max: 1e12}
	}
	settings := append([]optSpec{{key: "settings.language", name: "language", typ: discordgo.ApplicationCommandOptionString,
		selfNamed: true}}, ruleOptions("settings")...)
	settings = append(settings, giveOptions...)
	return []subSpec{
		{key: "start", name: "start", opts: ruleOptions("start")},
		{key: "stop", name: "stop"},
		{key: "hand", name: "hand"},
		{key: "balance", name: "balance", opts: []optSpec{{key: "balance.member", name: "member", typ: discordgo.ApplicationCommandOptionUser}}},
		{key: "leaderboard", name: "leaderboard", opts: []optSpec{{key: "leaderboard.page", name: "page", typ: discordgo.ApplicationCommandOptionInteger, min: 1, max: 100000},
			{key: "leaderboard.by", name: "by", typ: discordgo.ApplicationCommandOptionString, choices: leaderboardChoices}}},
		{key: "daily", name: "daily"},
		{key: "give", name: "give", opts: []optSpec{user("give.member"), amount("give.amount")}},
		{key: "grant", name: "grant", opts: []optSpec{user("grant.member"), amount("grant.amount")}},
		{key: "rules", name: "rules"},
		{key: "history", name: "history", opts: []optSpec{{key: "history.round", name: "round", typ: discordgo.ApplicationCommandOptionInteger, min: 1, max: 1e9}}},
		{key: "settings", name: "settings", opts: settings},
		{key: "language", name: "language", opts: []optSpec{{key: "language.language", name: "language", typ: discordgo.ApplicationCommandOptionString, selfNamed: true}}},
		{key: "stats", name: "stats", opts: []optSpec{{key: "stats.member", name: "member", typ: discordgo.ApplicationCommandOptionUser}}},
		{key: "bank", name: "bank", subs: []subSpec{
			{key: "bank.sell", name: "sell", opts: []optSpec{user("bank.sell.member"), {key: "bank.sell.price", name: "price", typ: discordgo.ApplicationCommandOptionInteger, required: true, min: 0, max: 1e12}}},
			{key: "bank.kitty", name: "kitty", opts: []optSpec{amount("bank.kitty.amount")}},
			{key: "bank.auction", name: "auction"},
			{key: "bank.bid", name: "bid", opts: []optSpec{amount("bank.bid.amount")}},
		}},
		{key: "seed", name: "seed", opts: []optSpec{{key: "seed.text", name: "text", typ: discordgo.ApplicationCommandOptionString, required: true,
			minLen: 1, maxLen: table.MaxSeedLen}}},
		{key: "odds", name: "odds"},
	}
}

// localized returns the English text of a catalog key and its translations by Discord locale.
func (b *Bot) localized(key string) (string, *map[discordgo.Locale]string) {
	en := b.cat.T("en", key)
	loc := map[discordgo.Locale]string{}
	for _, dl := range i18n.DiscordLocales() {
		if lang := i18n.FromDiscord(dl); lang != "en" {
			if s := b.cat.T(lang, key); s != en {
				loc[discordgo.Locale(dl)] = s
			}
		}
	}
	return en, &loc
}

func (b *Bot) buildOption(o optSpec) *discordgo.ApplicationCommandOption {
	desc, descLoc := b.localized("cmd." + o.key + ".desc")
	_, nameLoc := b.localized("cmd." + o.key + ".name")
	opt := &discordgo.ApplicationCommandOption{Type: o.typ, Name: o.name, NameLocalizations: *nameLoc,
		Description: desc, DescriptionLocalizations: *descLoc, Required: o.required}
	if o.typ == discordgo.ApplicationCommandOptionInteger && o.max > 0 {
		lo := o.min
		opt.MinValue = &lo
		opt.MaxValue = o.max
	}
	if o.typ == discordgo.ApplicationCommandOptionString && o.maxLen > 0 {
		lo := o.minLen
		opt.MinLength, opt.MaxLength = &lo, o.maxLen
	}
	if o.selfNamed {
		for _, lang := range i18n.Languages {
			opt.Choices = append(opt.Choices, &discordgo.ApplicationCommandOptionChoice{Name: b.cat.T(lang, "language.self"), Value: lang})
		}
	}
	for _, c := range o.choices {
		name, loc := b.localized("choice." + c.key)
		opt.Choices = append(opt.Choices, &discordgo.ApplicationCommandOptionChoice{Name: name, NameLocalizations: *loc, Value: c.value})
	}
	return opt
}

func (b *Bot) buildSub(s subSpec) *discordgo.ApplicationCommandOption {
	desc, descLoc := b.localized("cmd." + s.key + ".desc")
	_, nameLoc := b.localized("cmd." + s.key + ".name")
	o := &discordgo.ApplicationCommandOption{Name: s.name, NameLocalizations: *nameLoc, Description: desc, DescriptionLocalizations: *descLoc,
		Type: discordgo.ApplicationCommandOptionSubCommand}
	if len(s.subs) > 0 {
		o.Type = discordgo.ApplicationCommandOptionSubCommandGroup
		for _, sub := range s.subs {
			o.Options = append(o.Options, b.buildSub(sub))
		}
		return o
	}
	for _, opt := range s.opts {
		o.Options = append(o.Options, b.buildOption(opt))
	}
	return o
}

// commands is the /pontoon command with its subcommands, localized.
func (b *Bot) commands() []*discordgo.ApplicationCommand {
	desc, descLoc := b.localized("cmd.pontoon.desc")
	_, nameLoc := b.localized("cmd.pontoon.name")
	// Servers only: tables, chips and the bank belong to a server (Contexts replaces the
	// deprecated dm_permission).
	cmd := &discordgo.ApplicationCommand{Name: "pontoon", NameLocalizations: nameLoc, Description: desc,
		DescriptionLocalizations: descLoc, Contexts: &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild}}
	for _, s := range commandTree() {
		cmd.Options = append(cmd.Options, b.buildSub(s))
	}
	return []*discordgo.ApplicationCommand{cmd}
}

// registerCommands overwrites the application's commands with /pontoon: in the
// development server (Options.GuildID), or globally. Globally, an application with
// Activities enabled has an Entry Point command (PRIMARY_ENTRY_POINT, type 4, Discord's
// "Launch" by default), which opens its Activity from the App Launcher; Discord refuses
// a bulk overwrite that would remove it, so the overwrite carries it on as Discord has
// it. discordgo knows neither the type nor its handler, so it travels as JSON.
func (b *Bot) registerCommands() ([]*discordgo.ApplicationCommand, error) {
	cmds := b.commands()
	if b.opt.GuildID != "" {
		return b.s.ApplicationCommandBulkOverwrite(b.appID, b.opt.GuildID, cmds)
	}
	ep := discordgo.EndpointApplicationGlobalCommands(b.appID)
	raw, err := b.s.RequestWithBucketID("GET", ep, nil, ep)
	if err != nil {
		return nil, err
	}
	var existing []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &existing); err != nil {
		return nil, err
	}
	payload := make([]any, 0, len(cmds)+1)
	for _, c := range cmds {
		payload = append(payload, c)
	}
	for _, c := range existing {
		if string(c["type"]) != strconv.Itoa(entryPointCommand) {
			continue
		}
		for _, k := range []string{"id", "application_id", "version", "guild_id"} {
			delete(c, k) // Discord's own fields, not the command's
		}
		payload = append(payload, c)
	}
	if len(payload) == len(cmds) {
		return b.s.ApplicationCommandBulkOverwrite(b.appID, "", cmds)
	}
	raw, err = b.s.RequestWithBucketID("PUT", ep, payload, ep)
	if err != nil {
		return nil, err
	}
	var out []*discordgo.ApplicationCommand
	err = json.Unmarshal(raw, &out)
	return out, err
}

// entryPointCommand is the application command type PRIMARY_ENTRY_POINT.
const entryPointCommand = 4

package i18n

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

const nbsp = "\u00a0"

func TestNumbersTheReadersWay(t *testing.T) {
	cases := []struct {
		lang          string
		thousand, big string
	}{
		{"en", "1,000", "1,234,567"},
		{"id", "1.000", "1.234.567"},
		{"su", "1.000", "1.234.567"}, // x/text has no su data; written as in Indonesia (numberLanguage)
		{"pl", "1" + nbsp + "000", "1" + nbsp + "234" + nbsp + "567"},
		{"pt-BR", "1.000", "1.234.567"},
	}
	c := MustLoad()
	for _, tc := range cases {
		t.Run(tc.lang, func(t *testing.T) {
			assert.Equal(t, tc.thousand, Number(tc.lang, 1000))
			assert.Equal(t, tc.big, Number(tc.lang, 1234567))
			assert.Equal(t, "999", Number(tc.lang, 999))
			// Every integer value of a text is grouped, Count and the others alike.
			s := c.T(tc.lang, "err.store_insufficient", "Need", 1234567, "Have", int64(1000))
			assert.Contains(t, s, tc.big, s)
			assert.Contains(t, s, tc.thousand, s)
			s = c.T(tc.lang, "balance.text", "Player", "<@1>", "Count", int64(1234567), "Rank", 1000)
			assert.Contains(t, s, tc.big, s)
			assert.Contains(t, s, tc.thousand, s)
			// A round number is typed back as round:N, so it stays as digits.
			s = c.T(tc.lang, "table.title.classic", "Round", 1234)
			assert.Contains(t, s, "1234", s)
			// A result keeps its sign.
			assert.Equal(t, "+"+tc.thousand, c.T(tc.lang, "table.net", "Net", Signed(1000)))
			assert.Equal(t, "−"+tc.thousand, c.T(tc.lang, "table.net", "Net", Signed(-1000)))
			assert.Equal(t, "0", c.T(tc.lang, "table.net", "Net", Signed(0)))
		})
	}
	assert.Equal(t, "1,000", Number("xx", 1000), "an unknown language is written as English")
}

func TestEveryAmountTakesItsPluralForm(t *testing.T) {
	c := MustLoad()
	cases := []struct {
		lang, key string
		kv        []any
		want      string
	}{
		// Amounts other than Count choose their own form, through {{chips}} and {{plural}}.
		{"en", "err.store_insufficient", []any{"Need", 1, "Have", 0}, "You need 1 free chip and have 0."},
		{"en", "err.store_insufficient", []any{"Need", 5, "Have", 2}, "You need 5 free chips and have 2."},
		{"en", "err.insufficient_chips.sale", []any{"Player", "<@1>", "Have", 1, "Need", 1}, "<@1> has 1 free chip and cannot pay 1 chip for the bank."},
		{"en", "err.over_kitty", []any{"Kitty", 1, "Max", 0}, "Shoot bets together may not exceed the kitty of 1 chip; at most 0 chips more."},
		{"en", "err.already_staked", []any{"Stake", 1}, "You have already staked 1 chip this round."},
		{"en", "kitty.done", []any{"Count", 5, "Kitty", 1}, "You put 5 chips into the kitty; it now holds 1 chip."},
		{"en", "panel.range", []any{"Verb", "Buy", "Min", 1, "Max", 1}, "Buy: 1 to 1 chip"},

		{"pt-BR", "err.store_insufficient", []any{"Need", 1, "Have", 0}, "Você precisa de 1 ficha livre e tem 0."},
		{"pt-BR", "err.store_insufficient", []any{"Need", 2, "Have", 1}, "Você precisa de 2 fichas livres e tem 1."},
		{"pt-BR", "err.store_insufficient", []any{"Need", 1000000, "Have", 1}, "Você precisa de 1.000.000 de fichas livres e tem 1."},
		// CLDR pt: 0 takes the singular, like 1.
		{"pt-BR", "err.insufficient_chips.sale", []any{"Player", "<@1>", "Have", 0, "Need", 10}, "<@1> tem 0 fichas livres e não pode pagar 10 fichas pela banca."},
		{"pt-BR", "err.over_kitty", []any{"Kitty", 50, "Max", 0}, "As apostas de tiro somadas não podem passar do pote de 50 fichas; no máximo mais 0 fichas."},
		{"pt-BR", "amount.chips", []any{"Count", 0}, "0 fichas"},
		{"pt-BR", "done.stake", []any{"Count", 0}, "Você apostou 0 fichas."},
		// An empty kitty is a state, not an amount: table.kitty.zero.
		{"pt-BR", "table.kitty", []any{"Count", 0}, "Pote: vazio"},
		{"pt-BR", "table.kitty", []any{"Count", 1}, "Pote: 1 ficha"},
		{"en", "table.kitty", []any{"Count", 0}, "Kitty: empty"},
		{"pl", "table.kitty", []any{"Count", 0}, "Pula: pusta"},
		{"pl", "table.kitty", []any{"Count", 22}, "Pula: 22 żetony"},

		// Polish: the number stands after a colon where the noun's case would follow the verb.
		{"pl", "err.store_insufficient", []any{"Need", 1, "Have", 0}, "Potrzebujesz wolnych żetonów: 1, a masz 0."},
		{"pl", "amount.free_chips", []any{"Count", 1}, "1 wolny żeton"},
		{"pl", "amount.free_chips", []any{"Count", 3}, "3 wolne żetony"},
		{"pl", "amount.free_chips", []any{"Count", 12}, "12 wolnych żetonów"},
		{"pl", "done.buy", []any{"Count", 24}, "Kupiono kartę za 24 żetony."},
		{"pl", "done.buy", []any{"Count", 1005}, "Kupiono kartę za 1" + nbsp + "005 żetonów."},
		{"pl", "err.table_full", []any{"Count", 1000}, "Stół jest pełny (1" + nbsp + "000 miejsc)."},

		{"id", "err.store_insufficient", []any{"Need", 1000, "Have", 1}, "Kamu perlu 1.000 chip bebas, tapi cuma punya 1."},
		{"su", "amount.chips", []any{"Count", 1000}, "1.000 chip"},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s/%s/%v", tc.lang, tc.key, tc.kv), func(t *testing.T) {
			assert.Equal(t, tc.want, c.T(tc.lang, tc.key, tc.kv...))
		})
	}
}

// CLDR's Portuguese rule (x/text's and go-i18n's alike) calls zero "one"; Brazilian
// readers write "0 fichas", so the catalog reads pt-BR's zero as plural.
func TestBrazilianZeroTakesThePlural(t *testing.T) {
	pt := language.MustParse("pt-BR")
	assert.Equal(t, plural.One, plural.Cardinal.MatchPlural(pt, 0, 0, 0, 0, 0))
	assert.Equal(t, plural.One, plural.Cardinal.MatchPlural(pt, 1, 0, 0, 0, 0))
	assert.Equal(t, plural.Other, plural.Cardinal.MatchPlural(pt, 2, 0, 0, 0, 0))
	assert.Equal(t, plural.Other, plural.Cardinal.MatchPlural(language.English, 0, 0, 0, 0, 0), "unlike English")
	assert.Equal(t, "0 chips", MustLoad().T("en", "amount.chips", "Count", 0))
	assert.Equal(t, "0 fichas", MustLoad().T("pt-BR", "amount.chips", "Count", 0))
}

// chipNoun matches a language's word for chip(s), free or not, right after a value: the
// place where a bare {{.Need}} would give "1 free chips" or "3 wolnych żetonów".
var chipNoun = regexp.MustCompile(`\{\{\.(\w+)\}\}\s+(?:de\s+)?(?:free\s+|wolny\w*\s+|wolne\s+)?(chips?\b|żeton\w*|fichas?\b)`)

func TestNoBareAmountBeforeItsNoun(t *testing.T) {
	all := raw(t)
	for _, lang := range Languages {
		if lang == "id" || lang == "su" {
			continue // "chip" never changes: no plural forms (CLDR: other only)
		}
		for key, forms := range all[lang] {
			for form, text := range forms {
				for _, m := range chipNoun.FindAllStringSubmatch(text, -1) {
					_, counted := forms["one"]
					if m[1] == "Count" && counted {
						continue // Count chooses this very form
					}
					assert.Fail(t, "amount without its plural form", "%s %s [%s]: %q: use {{chips .%s}} or {{plural …}}", lang, key, form, text, m[1])
				}
			}
		}
	}
}

// ruleCode is what RULES.md numbers look like; players never see them.
var ruleCode = regexp.MustCompile(`\(R\d|\bR\d+\.\d+|\{\{\.Rule\}\}`)

func TestNoRuleCodesInWords(t *testing.T) {
	all := raw(t)
	c := MustLoad()
	n := 0
	for _, lang := range Languages {
		for key, forms := range all[lang] {
			for form, text := range forms {
				assert.NotRegexp(t, ruleCode, text, "%s %s [%s]", lang, key, form)
				n++
			}
		}
		// The bot still passes Rule (a refusal knows its rule for the logs); it is not shown.
		s := c.T(lang, "err.no_doubling", "Rule", "R8.3")
		assert.NotContains(t, s, "R8.3", "%s: %q", lang, s)
	}
	assert.Greater(t, n, 2000)
}

// Every action has its own refusal and its own notice: no sentence is built from a
// button label ("You cannot Don't double now").
func TestEachActionHasItsOwnWords(t *testing.T) {
	c := MustLoad()
	all := raw(t)
	verbs := []game.Verb{game.VerbStake, game.VerbShoot, game.VerbDouble, game.VerbNoDouble, game.VerbSplit, game.VerbBurn,
		game.VerbBuy, game.VerbTwist, game.VerbStick, game.VerbDraw, game.VerbStay, game.VerbKitty, game.VerbSell, game.VerbTimeout}
	var enVerbs []string
	for key := range all["en"] {
		if v, ok := strings.CutPrefix(key, "verb."); ok {
			enVerbs = append(enVerbs, v)
		}
	}
	require.Len(t, enVerbs, len(verbs), "one verb.* label per game verb")
	for _, lang := range Languages {
		phase := c.T(lang, "phase.banker")
		seen := map[string]game.Verb{}
		for _, v := range verbs {
			s := c.T(lang, "err.cannot_now."+string(v), "Phase", phase)
			assert.NotContains(t, s, "⟦", "%s %s", lang, v)
			assert.Contains(t, s, phase, "%s %s", lang, v)
			label := c.T(lang, "verb."+string(v))
			assert.NotContains(t, s, "“"+label, "%s %s: quotes the label", lang, v)
			assert.NotContains(t, s, "„"+label, "%s %s: quotes the label", lang, v)
			if other, dup := seen[s]; dup && !sameWords(lang, v, other) {
				assert.Fail(t, "two actions, one refusal", "%s: %s and %s both say %q", lang, v, other, s)
			}
			seen[s] = v
		}
		// The generic refusal no longer takes a label.
		assert.NotContains(t, all[lang]["err.wrong_phase"]["other"], "Verb", lang)
	}
	en := c.T("en", "err.cannot_now.nodouble", "Phase", "it is the banker's turn")
	assert.Equal(t, "You cannot decline to double now: it is the banker's turn.", en)
	assert.Equal(t, "You placed no shoot bet.", c.T("en", "done.shoot", "Count", 0))
	assert.Equal(t, "You placed a shoot bet of 30 chips.", c.T("en", "done.shoot", "Count", 30))
	assert.Equal(t, "Você não fez aposta de tiro.", c.T("pt-BR", "done.shoot", "Count", 0))
	for _, v := range []game.Verb{game.VerbStake, game.VerbShoot, game.VerbDouble, game.VerbNoDouble, game.VerbSplit,
		game.VerbBurn, game.VerbBuy, game.VerbTwist, game.VerbStick, game.VerbDraw, game.VerbStay} {
		for _, lang := range Languages {
			s := c.T(lang, "done."+string(v), "Count", 10)
			assert.NotContains(t, s, "⟦", "%s done.%s", lang, v)
		}
	}
}

// sameWords lists the verbs a language says the same way on purpose: the player's stick
// and the banker's stay are one word in id, su, pl and pt-BR, and so is twist/draw in pl.
func sameWords(lang string, a, b game.Verb) bool {
	pair := func(x, y game.Verb) bool { return (a == x && b == y) || (a == y && b == x) }
	switch {
	case pair(game.VerbStick, game.VerbStay):
		return lang != "en"
	case pair(game.VerbTwist, game.VerbDraw):
		return lang == "pl"
	}
	return false
}

// The words the review changed, per language: each differs from what it was and from
// the other languages.
func TestLanguageWords(t *testing.T) {
	c := MustLoad()
	all := raw(t)
	cases := []struct{ lang, key, want string }{
		{"en", "button.deal", "Deal"},
		{"id", "button.deal", "Bagi kartu"}, // "Bagikan" is every app's Share button
		{"su", "button.deal", "Bagi kartu"},
		{"pl", "button.deal", "Rozdaj"},
		{"pt-BR", "button.deal", "Distribuir"},
		{"pl", "button.leave", "Wyjdź"}, // not "Odejdź", go away
		{"pl", "verb.shoot", "Strzel"},
		{"su", "rules.decks.1", "Hiji dek"},
		{"su", "button.refresh", "Anyarkeun"},
		{"pt-BR", "cmd.daily.name", "diária"},
		{"pl", "cmd.give.member.name", "gracz"},
		{"pt-BR", "table.doubled", "O banqueiro dobrou as apostas."},
		{"pl", "table.doubled", "Bankier podwoił stawki."},
		{"id", "panel.title", "Tanganmu"},
		{"id", "web.your_actions", "Aksimu"},               // the catalog's "aksi", as in "Aksi meja"
		{"su", "web.demo.add_player", "Tambahkeun pamaén"}, // not the formal "tambihan"
		{"pt-BR", "web.demo.channel", "Canal demo"},        // beside "Adicionar jogador" on one line
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, c.T(tc.lang, tc.key), "%s %s", tc.lang, tc.key)
	}
	assert.Equal(t, "Kamu melewatkan ronde ini.", c.T("id", "panel.sat_out"))
	assert.NotEqual(t, c.T("id", "panel.sat_out"), c.T("id", "panel.not_playing"), "sat out is not 'not in this round'")
	assert.Equal(t, "O corte escolheu o banqueiro: <@1> (K, 3).", c.T("pt-BR", "table.cut", "Winner", "<@1>", "Draws", "K, 3"))
	assert.Equal(t, "Teraz ruch gracza <@2>, nie twój.", c.T("pl", "err.not_your_turn", "Turn", "<@2>"))
	for key, forms := range all["id"] {
		for _, text := range forms {
			assert.NotRegexp(t, `\bAnda\b`, text, "id %s: Indonesian Discord says kamu", key)
		}
	}
	for key, forms := range all["pt-BR"] {
		for _, text := range forms {
			assert.NotContains(t, text, "acertad", "pt-BR %s: 'acertada' reads as 'guessed right'", key)
		}
	}
	for key, forms := range all["pl"] {
		if strings.HasPrefix(key, "cmd.") {
			assert.NotContains(t, forms["other"], "członk", "pl %s", key)
		}
	}
	for key, forms := range all["su"] {
		for _, text := range forms {
			assert.NotContains(t, text, "dék", "su %s: the seed's 'dek'", key)
			assert.NotContains(t, text, "escrow", "su %s", key)
		}
	}
}

// A face-down card has one word per language: the page's screen-reader names of a
// hidden card use the word the table picture prints under one.
func TestFaceDownIsOneWordPerLanguage(t *testing.T) {
	c := MustLoad()
	norm := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "-", " ")) }
	for _, lang := range Languages {
		word := norm(c.T(lang, "picture.face_down"))
		for _, key := range []string{"web.card.down", "web.card.hidden"} {
			assert.Contains(t, norm(c.T(lang, key)), word, "%s %s", lang, key)
		}
	}
}

var cmdRef = regexp.MustCompile(`\{\{cmd "([^"]*)"\}\}`)

// commandPaths are the registered subcommand paths ("history", "bank kitty") from the
// English cmd.*.name keys: the paths a mention may name.
func commandPaths(t *testing.T) map[string]bool {
	t.Helper()
	en, err := Raw("en")
	require.NoError(t, err)
	children := map[string][]string{}
	for key, forms := range en {
		if !strings.HasPrefix(key, "cmd.") || !strings.HasSuffix(key, ".name") || key == "cmd.pontoon.name" {
			continue
		}
		path := strings.TrimSuffix(strings.TrimPrefix(key, "cmd."), ".name")
		parts := strings.Split(path, ".")
		require.Equal(t, parts[len(parts)-1], forms["other"], "the registered name is the key's last part: %s", key)
		parent := strings.Join(parts[:len(parts)-1], ".")
		children[parent] = append(children[parent], path)
	}
	// A top-level name is a group (bank) when one of its children has children of its
	// own (bank bid amount); every child of a group is a subcommand. Any other top-level
	// name is a subcommand whose children are options.
	out := map[string]bool{}
	for _, top := range children[""] {
		group := false
		for _, child := range children[top] {
			group = group || len(children[child]) > 0
		}
		if !group {
			out[top] = true
			continue
		}
		for _, child := range children[top] {
			out[strings.ReplaceAll(child, ".", " ")] = true
		}
	}
	return out
}

func TestCommandMentions(t *testing.T) {
	paths := commandPaths(t)
	require.True(t, paths["history"], "%v", paths)
	require.True(t, paths["bank kitty"], "%v", paths)
	require.True(t, paths["bank bid"], "%v", paths)
	all := raw(t)
	// Every text names a registered subcommand, and each language names the same ones.
	found := 0
	for key, forms := range all["en"] {
		want := cmdRefs(forms["other"])
		for _, p := range want {
			assert.True(t, paths[p], "en %s: {{cmd %q}} is no subcommand", key, p)
			found++
		}
		for _, lang := range Languages {
			for form, text := range all[lang][key] {
				assert.Equal(t, want, cmdRefs(text), "%s %s [%s]: %q", lang, key, form, text)
				if !strings.HasPrefix(key, "cmd.") {
					assert.NotContains(t, strings.ReplaceAll(text, "pontoon replay", ""), "/pontoon", "%s %s: write {{cmd …}}", lang, key)
				}
			}
		}
	}
	assert.GreaterOrEqual(t, found, 7)

	// Before the command id is known: plain text in the names the reader's picker shows.
	c := MustLoad()
	assert.Equal(t, "There is no open table in this channel. Open one with /pontoon start.", c.T("en", "err.no_table"))
	assert.Contains(t, c.T("id", "err.no_table"), "/pontoon mulai")
	assert.Contains(t, c.T("pl", "table.salt", "Salt", "s"), "/pontoon historia")
	assert.Contains(t, c.T("pt-BR", "err.kitty_required", "Banker", "<@1>", "Min", 10, "Max", 200), "/pontoon banca pote")
	assert.Contains(t, c.T("su", "auction.open", "Seller", "<@1>", "When", "<t:1:R>", "Best", ""), "/pontoon bank bid",
		"Discord has no su locale: the registered names")

	// Once it is known: Discord's clickable mention, with the registered names.
	c.SetCommandID("1100000000000000001")
	assert.Equal(t, "1100000000000000001", c.CommandID())
	for _, lang := range Languages {
		s := c.T(lang, "err.kitty_required", "Banker", "<@1>", "Min", 10, "Max", 200)
		assert.Contains(t, s, "</pontoon bank kitty:1100000000000000001>", "%s: %q", lang, s)
		s = c.T(lang, "history.how")
		assert.Contains(t, s, "</pontoon history:1100000000000000001>", "%s: %q", lang, s)
		assert.NotContains(t, s, "\x00", lang)
	}
	assert.Equal(t, "</pontoon start:1100000000000000001>", c.For("pl").Mention("start"))
	assert.Equal(t, "/pontoon otwórz", MustLoad().For("pl").Mention("start"), "another catalog has no id yet")
}

func cmdRefs(s string) []string {
	var out []string
	for _, m := range cmdRef.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	sort.Strings(out)
	return out
}

func TestMemberLanguage(t *testing.T) {
	for in, want := range map[string]string{
		"su": "su", "SU": "su", "su-ID": "su", "su_ID": "su", "id": "id", "id-ID": "id",
		"pl": "pl", "pt-BR": "pt-BR", "pt-br": "pt-BR", "pt_BR": "pt-BR", "pt": "pt-BR", "en": "en", "en-GB": "en",
		"pt-PT": "", "de": "", "": "", "not a tag": "",
	} {
		assert.Equal(t, want, Match(in), "Match(%q)", in)
	}
	// The member's own choice wins over the client's locale.
	assert.Equal(t, "su", Choose("su", "id"), "a Sundanese speaker whose Discord says Indonesian")
	assert.Equal(t, "su", Choose("su", "en-US"))
	assert.Equal(t, "id", Choose("", "id"), "no choice: the client's locale")
	assert.Equal(t, "pl", Choose("de", "pl"), "a choice the catalog lacks does not count")
	assert.Equal(t, "en", Choose("", "en-GB"))
	assert.Equal(t, "", Choose("", "de"), "neither: the caller falls back")

	c := MustLoad()
	su := c.For("su")
	assert.Equal(t, "su", su.Tag())
	assert.Equal(t, c.T("su", "panel.title"), su.T("panel.title"))
	assert.NotEqual(t, c.T("id", "panel.title"), su.T("panel.title"), "a Sundanese panel, not an Indonesian one")
	assert.Equal(t, "1.000 chip", su.T("amount.chips", "Count", 1000))
	assert.Equal(t, "1.000", su.Number(1000))
	assert.Equal(t, "en", c.For("klingon").Tag())
	assert.Equal(t, "en", c.For("").Tag())
}

// Discord's limits hold with the longest values the bot can pass: 13-digit amounts,
// grouped, in every language.
func TestLengthsWithGroupedNumbers(t *testing.T) {
	c := MustLoad()
	const big = int64(1000000000000)
	for _, lang := range Languages {
		label := c.T(lang, "modal.label", "Min", big, "Max", big)
		assert.LessOrEqual(t, utf8.RuneCountInString(label), 45, "%s modal label %q", lang, label)
		for _, v := range []string{"stake", "shoot", "buy"} {
			s := c.T(lang, "done."+v, "Count", big)
			assert.LessOrEqual(t, utf8.RuneCountInString(s), 2000, lang)
		}
		opt := c.T(lang, "amount.chips", "Count", big)
		assert.LessOrEqual(t, utf8.RuneCountInString(opt), 100, "%s select option %q", lang, opt)
		rng := c.T(lang, "panel.range", "Verb", c.T(lang, "verb.stake"), "Min", big, "Max", big)
		assert.LessOrEqual(t, utf8.RuneCountInString(rng), 1024, "%s panel range %q", lang, rng)
	}
}

// Every message renders in every language with numbers for every value: no template
// error, no marker left, no missing value.
func TestEveryMessageRendersWithNumbers(t *testing.T) {
	c := MustLoad()
	all := raw(t)
	for key, forms := range all["en"] {
		var kv []any
		for _, p := range Placeholders(forms["other"]) {
			kv = append(kv, p, 1234)
		}
		for _, lang := range Languages {
			for _, n := range []int64{0, 1, 2, 5, 22, 1000000} {
				s := c.T(lang, key, append(kv, "Count", n)...)
				assert.NotContains(t, s, "⟦", "%s %s", lang, key)
				assert.NotContains(t, s, "<no value>", "%s %s", lang, key)
				assert.NotContains(t, s, "\x00", "%s %s", lang, key)
				assert.NotContains(t, s, "%!", "%s %s", lang, key)
			}
		}
	}
}

// BenchmarkT renders a status line with a grouped amount and a nested plural, as a table
// edit does dozens of times: the templates are parsed once (parser is cacheable).
func BenchmarkT(b *testing.B) {
	c := MustLoad()
	for b.Loop() {
		_ = c.T("pl", "err.over_kitty", "Kitty", 1500, "Max", 22)
		_ = c.T("pt-BR", "table.status.waiting", "Count", 3)
	}
}

// The new words really are in each language: no file copied another's (or English's)
// text for the per-action messages, the kitty's empty state or the language choice.
func TestNewWordsDifferBetweenLanguages(t *testing.T) {
	c := MustLoad()
	for _, key := range []string{"err.cannot_now.double", "err.cannot_now.kitty", "done.stake", "done.split",
		"done.shoot.zero", "amount.free_chips", "language.saved", "cmd.language.desc", "table.status.closed"} {
		seen := map[string]string{}
		for _, lang := range Languages {
			s := c.T(lang, key, "Phase", "X", "Count", 5, "Language", "X")
			if other, dup := seen[s]; dup {
				assert.Fail(t, "same words", "%s: %s and %s both say %q", key, other, lang, s)
			}
			seen[s] = lang
		}
	}
}

// Every text fits the tightest place it can land, an embed field value (1,024
// characters), with the longest values the bot passes: 13-digit grouped amounts, mentions
// and the command mention with its id.
func TestEveryTextFitsDiscord(t *testing.T) {
	c := MustLoad()
	c.SetCommandID("1100000000000000001")
	all := raw(t)
	long := "<@" + strings.Repeat("9", 19) + ">"
	for key, forms := range all["en"] {
		var kv []any
		for _, p := range Placeholders(forms["other"]) {
			switch p {
			case "Cards", "Players", "Draws", "Best", "Rules":
				kv = append(kv, p, strings.Repeat(long+", ", 4)+long)
			case "Verb", "Phase", "Language", "Kind", "OnOff", "Timer", "Commitment", "Salt", "File", "When", "Deadline", "Value":
				kv = append(kv, p, strings.Repeat("x", 64))
			default:
				kv = append(kv, p, int64(1000000000000))
			}
		}
		for _, lang := range Languages {
			s := c.T(lang, key, kv...)
			n := utf8.RuneCountInString(s)
			switch {
			case key == "start.opened" || key == "auction.open" || key == "auction.closed":
				assert.LessOrEqual(t, n, 2000, "%s %s: message content", lang, key)
			case strings.HasSuffix(key, ".title") || strings.HasPrefix(key, "table.title."):
				assert.LessOrEqual(t, n, 256, "%s %s: embed title", lang, key)
			default:
				assert.LessOrEqual(t, n, 1024, "%s %s: %d characters", lang, key, n)
			}
		}
	}
}

package discordtest_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/discordtest"
)

func buttons(n int, prefix string) []discordgo.MessageComponent {
	var out []discordgo.MessageComponent
	for i := 0; i < n; i++ {
		out = append(out, discordgo.Button{Label: "b", CustomID: prefix + strconv.Itoa(i)})
	}
	return out
}

func row(cs ...discordgo.MessageComponent) discordgo.ActionsRow {
	return discordgo.ActionsRow{Components: cs}
}

func fields(n int, value string) []*discordgo.MessageEmbedField {
	var out []*discordgo.MessageEmbedField
	for i := 0; i < n; i++ {
		out = append(out, &discordgo.MessageEmbedField{Name: "f" + strconv.Itoa(i), Value: value})
	}
	return out
}

func selectOptions(n int) []discordgo.SelectMenuOption {
	var out []discordgo.SelectMenuOption
	for i := 0; i < n; i++ {
		out = append(out, discordgo.SelectMenuOption{Label: "o" + strconv.Itoa(i), Value: strconv.Itoa(i)})
	}
	return out
}

// TestChannelMessageLimits sends real discordgo payloads over REST only: no
// gateway is needed to post channel messages.
func TestChannelMessageLimits(t *testing.T) {
	srv := discordtest.New(t)
	populate(srv)
	s := newSession(t, srv)

	x := func(n int) string { return strings.Repeat("x", n) }
	cases := []struct {
		name string
		msg  *discordgo.MessageSend
		want string // text the failure must name; "" means accepted
	}{
		{"content 2000", &discordgo.MessageSend{Content: x(2000)}, ""},
		{"content 2001", &discordgo.MessageSend{Content: x(2001)}, "content: Must be 2000 or fewer in length"},
		{"content counts characters, not bytes", &discordgo.MessageSend{Content: strings.Repeat("ż", 2000)}, ""},
		{"title 256", &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Title: x(256)}}}, ""},
		{"title 257", &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Title: x(257)}}}, "embeds.0.title"},
		{"description 4097", &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Description: x(4097)}}}, "embeds.0.description"},
		{"11 embeds", &discordgo.MessageSend{Embeds: func() []*discordgo.MessageEmbed {
			var es []*discordgo.MessageEmbed
			for i := 0; i < 11; i++ {
				es = append(es, &discordgo.MessageEmbed{Title: "e"})
			}
			return es
		}()}, "embeds: Must be 10 or fewer"},
		{"25 fields", &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Fields: fields(25, "v")}}}, ""},
		{"26 fields", &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Fields: fields(26, "v")}}}, "embeds.0.fields"},
		{"field value 1025", &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Fields: fields(1, x(1025))}}}, "embeds.0.fields.0.value"},
		{"empty field value", &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Fields: fields(1, "")}}}, "embeds.0.fields.0.value"},
		{"footer 2049", &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Footer: &discordgo.MessageEmbedFooter{Text: x(2049)}}}}, "embeds.0.footer.text"},
		{"author 257", &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Author: &discordgo.MessageEmbedAuthor{Name: x(257)}}}}, "embeds.0.author.name"},
		{"6000 in all", &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{
			{Description: x(4000)}, {Description: x(1744), Title: x(256)},
		}}, ""},
		{"6001 in all", &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{
			{Description: x(4000)}, {Description: x(1745), Title: x(256)},
		}}, "Embed size exceeds maximum size of 6000"},
		{"5 rows of 5 buttons", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{
			row(buttons(5, "a")...), row(buttons(5, "b")...), row(buttons(5, "c")...), row(buttons(5, "d")...), row(buttons(5, "e")...),
		}}, ""},
		{"6 rows", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{
			row(buttons(1, "a")...), row(buttons(1, "b")...), row(buttons(1, "c")...), row(buttons(1, "d")...), row(buttons(1, "e")...), row(buttons(1, "f")...),
		}}, "components: Must be 5 or fewer"},
		{"6 buttons in a row", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(buttons(6, "a")...)}}, "components.0.components: Must be between 1 and 5"},
		{"empty row", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row()}}, "components.0.components"},
		{"button outside a row", &discordgo.MessageSend{Content: "x", Components: buttons(1, "a")}, "components.0.type"},
		{"custom_id 100", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(discordgo.Button{Label: "b", CustomID: x(100)})}}, ""},
		{"custom_id 101", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(discordgo.Button{Label: "b", CustomID: x(101)})}}, "custom_id: Must be between 1 and 100"},
		{"duplicate custom_id", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{
			row(discordgo.Button{Label: "a", CustomID: "same"}), row(discordgo.Button{Label: "b", CustomID: "same"}),
		}}, "cannot be duplicated"},
		{"label 81", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(discordgo.Button{Label: x(81), CustomID: "a"})}}, "label: Must be 80 or fewer"},
		{"button without label or emoji", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(discordgo.Button{CustomID: "a"})}}, "label or an emoji"},
		{"button with emoji only", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(discordgo.Button{CustomID: "a", Emoji: &discordgo.ComponentEmoji{Name: "🂡"}})}}, ""},
		{"button without custom_id", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(discordgo.Button{Label: "a"})}}, "custom_id: This field is required"},
		{"link button with custom_id", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(discordgo.Button{Label: "a", Style: discordgo.LinkButton, URL: "https://example.org", CustomID: "a"})}}, "link button cannot have a custom id"},
		{"link button without url", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(discordgo.Button{Label: "a", Style: discordgo.LinkButton})}}, "url: This field is required"},
		{"select and button in a row", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(
			discordgo.SelectMenu{CustomID: "s", Options: selectOptions(2)}, discordgo.Button{Label: "b", CustomID: "b"},
		)}}, "select menu can hold nothing else"},
		{"25 select options", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(discordgo.SelectMenu{CustomID: "s", Options: selectOptions(25)})}}, ""},
		{"26 select options", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(discordgo.SelectMenu{CustomID: "s", Options: selectOptions(26)})}}, "options: Must be between 1 and 25"},
		{"select option label 101", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(discordgo.SelectMenu{CustomID: "s", Options: []discordgo.SelectMenuOption{{Label: x(101), Value: "v"}}})}}, "options.0.label"},
		{"select option description 101", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(discordgo.SelectMenu{CustomID: "s", Options: []discordgo.SelectMenuOption{{Label: "l", Value: "v", Description: x(101)}}})}}, "options.0.description"},
		{"select max_values 26", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(discordgo.SelectMenu{CustomID: "s", MaxValues: 26, Options: selectOptions(3)})}}, "max_values"},
		{"select min above max", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(discordgo.SelectMenu{CustomID: "s", MinValues: func() *int { v := 3; return &v }(), MaxValues: 2, Options: selectOptions(3)})}}, "min_values"},
		{"text input in a message", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(discordgo.TextInput{CustomID: "t", Label: "l", Style: 1})}}, "only be used in modals"},
		{"ephemeral channel message", &discordgo.MessageSend{Content: "secret", Flags: discordgo.MessageFlagsEphemeral}, "flags: Ephemeral messages can only be sent"},
		{"empty message", &discordgo.MessageSend{}, "Cannot send an empty message"},
		{"bad embed timestamp", &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Title: "t", Timestamp: "yesterday"}}}, "embeds.0.timestamp"},
		{"bad embed url", &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Title: "t", URL: "javascript:alert(1)"}}}, "embeds.0.url"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv.ClearFailures()
			msg, err := s.ChannelMessageSendComplex(channelID, tc.msg)
			if tc.want == "" {
				require.NoError(t, err)
				require.NotNil(t, msg)
				assert.Empty(t, srv.Failures())
				return
			}
			require.Error(t, err)
			status, code := restCode(t, err)
			assert.Equal(t, 400, status)
			assert.Contains(t, []int{50035, 50006}, code)
			fails := srv.Failures()
			require.Len(t, fails, 1)
			assert.Contains(t, fails[0], tc.want)
		})
	}
}

func TestChannelRoutes(t *testing.T) {
	srv := discordtest.New(t)
	populate(srv)
	s := newSession(t, srv)

	_, err := s.ChannelMessageSend("12345", "hello")
	status, code := restCode(t, err)
	assert.Equal(t, 404, status)
	assert.Equal(t, 10003, code)

	m, err := s.ChannelMessageSend(channelID, "v1")
	require.NoError(t, err)
	got, err := s.ChannelMessage(channelID, m.ID)
	require.NoError(t, err)
	assert.Equal(t, "v1", got.Content)
	assert.Equal(t, srv.BotUserID, got.Author.ID)

	empty := ""
	_, err = s.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: m.ID, Channel: channelID, Content: &empty})
	_, code = restCode(t, err)
	assert.Equal(t, 50006, code, "an edit may not leave the message empty")

	m2, err := s.ChannelMessageSend(channelID, "second")
	require.NoError(t, err)
	list, err := s.ChannelMessages(channelID, 10, "", "", "")
	require.NoError(t, err)
	require.Len(t, list, 2)
	assert.Equal(t, m2.ID, list[0].ID, "newest first")

	require.NoError(t, s.ChannelMessageDelete(channelID, m.ID))
	_, err = s.ChannelMessage(channelID, m.ID)
	_, code = restCode(t, err)
	assert.Equal(t, 10008, code)
	assert.Len(t, srv.Messages(channelID), 1)

	me, err := s.User("@me")
	require.NoError(t, err)
	assert.Equal(t, srv.BotUserID, me.ID)
	mem, err := s.GuildMember(guildID, alice)
	require.NoError(t, err)
	assert.Equal(t, "alice", mem.User.Username)

	// A wrong token is a 401.
	bad := newSession(t, srv)
	bad.Token = "Bot sekrit-bad-token"
	_, err = bad.ChannelMessageSend(channelID, "x")
	status, _ = restCode(t, err)
	assert.Equal(t, 401, status)

	// An unknown route is a 404.
	resp, err := s.Client.Get("https://discord.com/api/v9/nothing/here")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)

	fails := srv.Failures()
	require.Len(t, fails, 5)
	assert.Contains(t, fails[0], "Unknown Channel")
	assert.Contains(t, fails[3], "401")
	assert.NotContains(t, strings.Join(fails, "\n"), "sekrit", "the token never appears in failures")
	assert.Contains(t, fails[4], "no such route")
}

func TestCommandRegistration(t *testing.T) {
	srv := discordtest.New(t)
	populate(srv)
	s := newSession(t, srv)

	valid := func() *discordgo.ApplicationCommand {
		return &discordgo.ApplicationCommand{Name: "pontoon", Description: "Play", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "stake", Description: "Chips", Required: true},
			{Type: discordgo.ApplicationCommandOptionString, Name: "note", Description: "Note"},
		}}
	}
	got, err := s.ApplicationCommandBulkOverwrite(srv.AppID, "", []*discordgo.ApplicationCommand{valid()})
	require.NoError(t, err)
	require.Len(t, got, 1)
	id := got[0].ID
	assert.NotEmpty(t, id)
	got, err = s.ApplicationCommandBulkOverwrite(srv.AppID, "", []*discordgo.ApplicationCommand{valid()})
	require.NoError(t, err)
	assert.Equal(t, id, got[0].ID, "overwriting by name keeps the id")
	assert.Len(t, srv.Commands(""), 1)
	assert.Empty(t, srv.Commands(guildID))
	require.Empty(t, srv.Failures())

	loc := func(m map[discordgo.Locale]string) *map[discordgo.Locale]string { return &m }
	big := float64(1<<53) + 4096
	manyOptions := func() []*discordgo.ApplicationCommandOption {
		var out []*discordgo.ApplicationCommandOption
		for i := 0; i < 26; i++ {
			out = append(out, &discordgo.ApplicationCommandOption{Type: 3, Name: "o" + strconv.Itoa(i), Description: "d"})
		}
		return out
	}
	manyChoices := func() []*discordgo.ApplicationCommandOptionChoice {
		var out []*discordgo.ApplicationCommandOptionChoice
		for i := 0; i < 26; i++ {
			out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: "c" + strconv.Itoa(i), Value: "v"})
		}
		return out
	}
	cases := []struct {
		name   string
		mutate func(c *discordgo.ApplicationCommand)
		want   string
	}{
		{"upper case name", func(c *discordgo.ApplicationCommand) { c.Name = "Pontoon" }, "lower case"},
		{"space in name", func(c *discordgo.ApplicationCommand) { c.Name = "pon toon" }, "name"},
		{"name 33", func(c *discordgo.ApplicationCommand) { c.Name = strings.Repeat("p", 33) }, "name"},
		{"empty description", func(c *discordgo.ApplicationCommand) { c.Description = "" }, "0.description"},
		{"description 101", func(c *discordgo.ApplicationCommand) { c.Description = strings.Repeat("d", 101) }, "0.description"},
		{"unknown locale", func(c *discordgo.ApplicationCommand) {
			c.NameLocalizations = loc(map[discordgo.Locale]string{"su": "pontoon"})
		}, `Invalid locale "su"`},
		{"upper case localized name", func(c *discordgo.ApplicationCommand) {
			c.NameLocalizations = loc(map[discordgo.Locale]string{discordgo.Polish: "Oczko"})
		}, "name_localizations.pl"},
		{"localized description 101", func(c *discordgo.ApplicationCommand) {
			c.DescriptionLocalizations = loc(map[discordgo.Locale]string{"id": strings.Repeat("d", 101)})
		}, "description_localizations.id"},
		{"26 options", func(c *discordgo.ApplicationCommand) { c.Options = manyOptions() }, "0.options: Must be 25 or fewer"},
		{"26 choices", func(c *discordgo.ApplicationCommand) { c.Options[1].Choices = manyChoices() }, "choices: Must be 25 or fewer"},
		{"integer max above 2^53", func(c *discordgo.ApplicationCommand) { c.Options[0].MaxValue = big }, "max_value"},
		{"required after optional", func(c *discordgo.ApplicationCommand) { c.Options[0].Required, c.Options[1].Required = false, true }, "Required options must be placed before"},
		{"option name upper case", func(c *discordgo.ApplicationCommand) { c.Options[0].Name = "Stake" }, "options.0.name"},
		{"subcommand mixed with options", func(c *discordgo.ApplicationCommand) {
			c.Options = append(c.Options, &discordgo.ApplicationCommandOption{Type: 1, Name: "start", Description: "Start"})
		}, "cannot be mixed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv.ClearFailures()
			c := valid()
			tc.mutate(c)
			_, err := s.ApplicationCommandBulkOverwrite(srv.AppID, guildID, []*discordgo.ApplicationCommand{c})
			require.Error(t, err)
			status, code := restCode(t, err)
			assert.Equal(t, 400, status)
			assert.Equal(t, 50035, code)
			fails := srv.Failures()
			require.Len(t, fails, 1)
			assert.Contains(t, fails[0], tc.want)
			assert.Empty(t, srv.Commands(guildID), "a rejected overwrite changes nothing")
		})
	}

	t.Run("duplicate names", func(t *testing.T) {
		srv.ClearFailures()
		_, err := s.ApplicationCommandBulkOverwrite(srv.AppID, guildID, []*discordgo.ApplicationCommand{valid(), valid()})
		require.Error(t, err)
		assert.Contains(t, srv.Failures()[0], "must be unique")
	})
	t.Run("guild the app is not in", func(t *testing.T) {
		srv.ClearFailures()
		_, err := s.ApplicationCommandBulkOverwrite(srv.AppID, "777", []*discordgo.ApplicationCommand{valid()})
		status, code := restCode(t, err)
		assert.Equal(t, 403, status)
		assert.Equal(t, 50001, code)
	})
}

// TestOpenAPIChecksWhatTheHandCodedLimitsDoNot shows the spec check at work
// on a field the hand-coded limits leave alone.
func TestOpenAPIChecksWhatTheHandCodedLimitsDoNot(t *testing.T) {
	srv := discordtest.New(t)
	if ok, _ := srv.OpenAPI(); !ok {
		skipUnlessCI(t, "no shared/discord/openapi.json found")
	}
	populate(srv)
	s := newSession(t, srv)
	_, err := s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{
		Content:         "hi",
		AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{"everybody"}},
	})
	_, code := restCode(t, err)
	assert.Equal(t, 50035, code)
	fails := srv.Failures()
	require.Len(t, fails, 1)
	assert.Contains(t, fails[0], "allowed_mentions.parse.0")
	assert.Contains(t, fails[0], "OpenAPI")

	off := discordtest.New(t, discordtest.WithoutOpenAPI())
	populate(off)
	_, err = newSession(t, off).ChannelMessageSendComplex(channelID, &discordgo.MessageSend{
		Content:         "hi",
		AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{"everybody"}},
	})
	assert.NoError(t, err)
}

package discordtest_test

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/discordtest"
)

func tableMessage() *discordgo.MessageSend {
	return &discordgo.MessageSend{
		Embeds: []*discordgo.MessageEmbed{{Title: "Table", Description: "Waiting for players"}},
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Join", CustomID: "join", Style: discordgo.PrimaryButton},
			discordgo.Button{Label: "Stake", CustomID: "stake", Style: discordgo.SecondaryButton},
			discordgo.Button{Label: "Rules", URL: "https://example.org/rules", Style: discordgo.LinkButton},
		}}},
	}
}

func amountModal(id string) *discordgo.InteractionResponse {
	return &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseModal,
		Data: &discordgo.InteractionResponseData{
			CustomID: id,
			Title:    "Stake",
			Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.TextInput{CustomID: "amount", Label: "Amount", Style: discordgo.TextInputShort, Required: true, MaxLength: 6},
			}}},
		},
	}
}

// TestWithBot drives one real discordgo session through the fake.
func TestWithBot(t *testing.T) {
	h := newHarness(t, nil)
	srv := h.srv

	t.Run("handshake", func(t *testing.T) {
		h.s.RLock()
		user := h.s.State.User
		h.s.RUnlock()
		require.NotNil(t, user)
		assert.Equal(t, srv.BotUserID, user.ID)
		assert.True(t, user.Bot)
		_, err := h.s.State.Guild(guildID)
		assert.NoError(t, err, "GUILD_CREATE fills the state")
		require.Eventually(t, func() bool { return srv.GatewayState().Heartbeats >= 1 }, 3*time.Second, 10*time.Millisecond)
		st := srv.GatewayState()
		assert.True(t, st.Connected)
		assert.Equal(t, 1, st.Identifies)
		assert.NotEmpty(t, st.SessionID)
		assert.GreaterOrEqual(t, st.Sequence, int64(2), "READY and GUILD_CREATE")
		assert.Len(t, srv.Commands(guildID), 2)
		h.noFailures(t)
	})

	t.Run("command answered ephemerally", func(t *testing.T) {
		var got *discordgo.Interaction
		h.handle("hello", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
			got = i.Interaction
			return s.InteractionRespond(i.Interaction, ephemeral("Cześć "+i.Member.User.Username))
		})
		r, err := h.probe(alice, "hello")
		require.NoError(t, err)
		require.NoError(t, h.handlerErr(t))
		assert.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, r.Type)
		assert.True(t, r.Ephemeral)
		require.NotNil(t, r.Message)
		assert.Equal(t, "Cześć alice", r.Message.Content)
		assert.NotZero(t, r.Message.Flags&discordgo.MessageFlagsEphemeral)
		assert.Greater(t, r.Latency, time.Duration(0))
		assert.Less(t, r.Latency, time.Second)
		// What the bot saw.
		require.NotNil(t, got)
		assert.Equal(t, srv.AppID, got.AppID)
		assert.Equal(t, "pl", string(got.Locale))
		require.NotNil(t, got.GuildLocale)
		assert.Equal(t, "id", string(*got.GuildLocale))
		require.NotNil(t, got.Member)
		assert.Equal(t, int64(discordgo.PermissionManageGuild|discordgo.PermissionSendMessages), got.Member.Permissions)
		assert.NotZero(t, got.AppPermissions)
		// Where it went.
		eph := srv.Ephemerals(alice)
		require.Len(t, eph, 1)
		assert.Equal(t, "Cześć alice", eph[0].Content)
		assert.Empty(t, srv.Messages(channelID))
		assert.Empty(t, srv.Ephemerals(bob))
		assert.NotEmpty(t, srv.Latencies())
		h.noFailures(t)
	})

	t.Run("subcommand group with user and integer", func(t *testing.T) {
		h.handle("/pontoon", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
			d := i.ApplicationCommandData()
			bank := d.GetOption("bank")
			sell := bank.GetOption("sell")
			buyer := sell.GetOption("member").UserValue(nil)
			price := sell.GetOption("price").IntValue()
			_, resolved := d.Resolved.Users[buyer.ID]
			return s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "sell to " + buyer.ID + " for " + strconv.FormatInt(price, 10) + " resolved=" + strconv.FormatBool(resolved)},
			})
		})
		r, err := srv.Command(guildID, channelID, alice, "pontoon", []*discordgo.ApplicationCommandInteractionDataOption{
			{Name: "bank", Options: []*discordgo.ApplicationCommandInteractionDataOption{
				{Name: "sell", Options: []*discordgo.ApplicationCommandInteractionDataOption{
					{Name: "member", Value: bob},
					{Name: "price", Value: 250},
				}},
			}},
		})
		require.NoError(t, err)
		require.NoError(t, h.handlerErr(t))
		assert.False(t, r.Ephemeral)
		assert.Equal(t, "sell to "+bob+" for 250 resolved=true", r.Message.Content)
		assert.Len(t, srv.Messages(channelID), 1)

		// What Discord's client would not let a member send.
		_, err = srv.Command(guildID, channelID, alice, "pontoon", []*discordgo.ApplicationCommandInteractionDataOption{
			{Name: "bank", Options: []*discordgo.ApplicationCommandInteractionDataOption{
				{Name: "sell", Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: "member", Value: bob}, {Name: "price", Value: 0}}},
			}},
		})
		assert.ErrorContains(t, err, "below min_value")
		_, err = srv.Command(guildID, channelID, alice, "nosuch", nil)
		assert.ErrorContains(t, err, "registered")
		_, err = srv.Command(guildID, channelID, "42", "pontoon", nil)
		assert.ErrorContains(t, err, "not a member")
		h.noFailures(t)
	})

	t.Run("button answered with update", func(t *testing.T) {
		msg, err := h.s.ChannelMessageSendComplex(channelID, tableMessage())
		require.NoError(t, err)
		var clicked *discordgo.Message
		h.handle("join", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
			clicked = i.Message
			return s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseUpdateMessage,
				Data: &discordgo.InteractionResponseData{
					Embeds:     []*discordgo.MessageEmbed{{Title: "Table", Description: "Seats: " + i.Member.User.Username}},
					Components: tableMessage().Components,
				},
			})
		})
		r, err := srv.Click(channelID, msg.ID, bob, "join")
		require.NoError(t, err)
		require.NoError(t, h.handlerErr(t))
		require.NotNil(t, clicked, "component interactions carry their message")
		assert.Equal(t, msg.ID, clicked.ID)
		require.Len(t, clicked.Components, 1)
		assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type)
		now := srv.Message(channelID, msg.ID)
		require.NotNil(t, now)
		require.Len(t, now.Embeds, 1)
		assert.Equal(t, "Seats: bob", now.Embeds[0].Description)
		assert.Equal(t, 1, srv.EditCount(msg.ID))
		assert.Len(t, now.Components, 1)

		_, err = srv.Click(channelID, msg.ID, bob, "nosuch")
		assert.Error(t, err)
		_, err = srv.Click(channelID, msg.ID, bob, "Rules")
		assert.Error(t, err, "link buttons send nothing")
		h.noFailures(t)
	})

	t.Run("modal from a button, submitted, answered with update", func(t *testing.T) {
		msg, err := h.s.ChannelMessageSendComplex(channelID, tableMessage())
		require.NoError(t, err)
		h.handle("stake", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
			return s.InteractionRespond(i.Interaction, amountModal("stake-modal"))
		})
		var typed string
		h.handle("stake-modal", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
			row := i.ModalSubmitData().Components[0].(*discordgo.ActionsRow)
			typed = row.Components[0].(*discordgo.TextInput).Value
			return s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseUpdateMessage,
				Data: &discordgo.InteractionResponseData{Content: "staked " + typed, Components: tableMessage().Components},
			})
		})
		open, err := srv.Click(channelID, msg.ID, alice, "stake")
		require.NoError(t, err)
		require.NoError(t, h.handlerErr(t))
		assert.Equal(t, discordgo.InteractionResponseModal, open.Type)
		require.NotNil(t, open.Modal)
		assert.Equal(t, "Stake", open.Modal.Title)
		assert.Len(t, open.Modal.Components, 1)

		_, err = srv.SubmitModal(channelID, alice, "stake-modal", map[string]string{}, open)
		assert.ErrorContains(t, err, "required")
		_, err = srv.SubmitModal(channelID, alice, "stake-modal", map[string]string{"amount": "1234567"}, open)
		assert.ErrorContains(t, err, "characters")
		_, err = srv.SubmitModal(channelID, bob, "stake-modal", map[string]string{"amount": "5"}, open)
		assert.ErrorContains(t, err, "opened for user")

		r, err := srv.SubmitModal(channelID, alice, "stake-modal", map[string]string{"amount": "25"}, open)
		require.NoError(t, err)
		require.NoError(t, h.handlerErr(t))
		assert.Equal(t, "25", typed)
		assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type)
		assert.Equal(t, "staked 25", srv.Message(channelID, msg.ID).Content)
		assert.Len(t, srv.Message(channelID, msg.ID).Embeds, 0, "a type 7 from discordgo sends embeds: null and clears them")

		_, err = srv.SubmitModal(channelID, alice, "stake-modal", map[string]string{"amount": "25"}, open)
		assert.ErrorContains(t, err, "already submitted")
		h.noFailures(t)
	})

	t.Run("modal from a command cannot be answered with update", func(t *testing.T) {
		h.handle("modal-cmd", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
			return s.InteractionRespond(i.Interaction, amountModal("cmd-modal"))
		})
		h.handle("cmd-modal", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
			bad := s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseUpdateMessage,
				Data: &discordgo.InteractionResponseData{Content: "nope"},
			})
			if err := s.InteractionRespond(i.Interaction, ephemeral("ok")); err != nil {
				return err
			}
			return bad
		})
		open, err := h.probe(alice, "modal-cmd")
		require.NoError(t, err)
		require.NoError(t, h.handlerErr(t))
		r, err := srv.SubmitModal(channelID, alice, "cmd-modal", map[string]string{"amount": "3"}, open)
		require.NoError(t, err)
		status, code := restCode(t, h.handlerErr(t))
		assert.Equal(t, 400, status)
		assert.Equal(t, 50035, code)
		assert.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, r.Type)
		require.Len(t, srv.Failures(), 1)
		assert.Contains(t, srv.Failures()[0], "only valid for component interactions")
		srv.ClearFailures()
	})

	t.Run("select, deferred update, then edit of the original", func(t *testing.T) {
		one := 1
		msg, err := h.s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{
			Content: "Pick a stake",
			Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.SelectMenu{CustomID: "amount", MinValues: &one, MaxValues: 1, Options: []discordgo.SelectMenuOption{
					{Label: "5", Value: "5"}, {Label: "10", Value: "10"},
				}},
			}}},
		})
		require.NoError(t, err)
		h.handle("amount", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
			v := i.MessageComponentData().Values
			if err := s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}); err != nil {
				return err
			}
			content := "stake " + strings.Join(v, ",")
			_, err := s.InteractionResponseEdit(i.Interaction, &discordgo.WebhookEdit{Content: &content})
			return err
		})
		r, err := srv.Select(channelID, msg.ID, bob, "amount", []string{"10"})
		require.NoError(t, err)
		assert.Equal(t, discordgo.InteractionResponseDeferredMessageUpdate, r.Type)
		edited, err := r.WaitEdit(3 * time.Second)
		require.NoError(t, err)
		require.NoError(t, h.handlerErr(t))
		assert.Equal(t, "stake 10", edited.Content)
		assert.Equal(t, msg.ID, edited.ID)

		_, err = srv.Select(channelID, msg.ID, bob, "amount", []string{"7"})
		assert.ErrorContains(t, err, "no option")
		_, err = srv.Select(channelID, msg.ID, bob, "amount", []string{"5", "10"})
		assert.ErrorContains(t, err, "values")
		h.noFailures(t)
	})

	t.Run("deferred message, edit and ephemeral follow-up with a file", func(t *testing.T) {
		h.handle("defer", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
			if err := s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}); err != nil {
				return err
			}
			content := "done"
			if _, err := s.InteractionResponseEdit(i.Interaction, &discordgo.WebhookEdit{Content: &content}); err != nil {
				return err
			}
			_, err := s.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{
				Content: "your history",
				Flags:   discordgo.MessageFlagsEphemeral,
				Files:   []*discordgo.File{{Name: "hand.json", ContentType: "application/json", Reader: strings.NewReader(`{"pack":[1,2]}`)}},
			})
			return err
		})
		r, err := h.probe(bob, "defer")
		require.NoError(t, err)
		assert.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, r.Type)
		assert.NotZero(t, r.Message.Flags&discordgo.MessageFlagsLoading)
		edited, err := r.WaitEdit(3 * time.Second)
		require.NoError(t, err)
		assert.Equal(t, "done", edited.Content)
		assert.Zero(t, edited.Flags&discordgo.MessageFlagsLoading)
		f, err := r.WaitFollowup(3 * time.Second)
		require.NoError(t, err)
		require.NoError(t, h.handlerErr(t))
		assert.NotZero(t, f.Flags&discordgo.MessageFlagsEphemeral)
		require.Len(t, f.Attachments, 1)
		assert.Equal(t, "hand.json", f.Attachments[0].Filename)
		atts := srv.Attachments(f.ID)
		require.Len(t, atts, 1)
		assert.Equal(t, `{"pack":[1,2]}`, string(atts[0].Data))
		assert.Equal(t, "application/json", atts[0].ContentType)
		eph := srv.Ephemerals(bob)
		require.NotEmpty(t, eph)
		assert.Equal(t, f.ID, eph[len(eph)-1].ID)

		resp, err := http.Get(f.Attachments[0].URL)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, `{"pack":[1,2]}`, string(body))
		h.noFailures(t)
	})

	t.Run("follow-up right after a deferral completes it", func(t *testing.T) {
		h.handle("defer-followup", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
			if err := s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral},
			}); err != nil {
				return err
			}
			_, err := s.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: "thought about it"})
			return err
		})
		r, err := h.probe(alice, "defer-followup")
		require.NoError(t, err)
		assert.True(t, r.Ephemeral)
		m, err := r.WaitEdit(3 * time.Second)
		require.NoError(t, err)
		require.NoError(t, h.handlerErr(t))
		assert.Equal(t, "thought about it", m.Content)
		assert.NotZero(t, m.Flags&discordgo.MessageFlagsEphemeral, "the deferral's ephemeral state stays")
		assert.Empty(t, r.Followups())
		h.noFailures(t)
	})

	t.Run("interaction token expires", func(t *testing.T) {
		srv.SetTokenLifetime(100 * time.Millisecond)
		defer srv.SetTokenLifetime(discordtest.DefaultTokenLifetime)
		h.handle("expire", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
			if err := s.InteractionRespond(i.Interaction, ephemeral("soon")); err != nil {
				return err
			}
			time.Sleep(150 * time.Millisecond)
			_, err := s.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: "late"})
			return err
		})
		_, err := h.probe(alice, "expire")
		require.NoError(t, err)
		status, code := restCode(t, h.handlerErr(t))
		assert.Equal(t, 401, status)
		assert.Equal(t, 50027, code)
		require.Len(t, srv.Failures(), 1)
		srv.ClearFailures()
	})

	t.Run("callback limits", func(t *testing.T) {
		long := strings.Repeat("x", 2001)
		sixRows := make([]discordgo.MessageComponent, 6)
		for i := range sixRows {
			sixRows[i] = discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{Label: "b", CustomID: "row" + strconv.Itoa(i)},
			}}
		}
		longModal := amountModal("m")
		longModal.Data.Title = strings.Repeat("t", 46)
		cases := []struct {
			name  string
			resp  *discordgo.InteractionResponse
			field string
		}{
			{"content 2001", ephemeral(long), "data.content"},
			{"six rows", &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Content: "x", Components: sixRows}}, "data.components"},
			{"modal title 46", longModal, "data.title"},
			{"empty message", &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{}}, "Cannot send an empty message"},
			{"update on a command", &discordgo.InteractionResponse{Type: 7, Data: &discordgo.InteractionResponseData{Content: "x"}}, "only valid for component"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				h.handle("limit", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
					bad := s.InteractionRespond(i.Interaction, tc.resp)
					if err := s.InteractionRespond(i.Interaction, ephemeral("fallback")); err != nil {
						return err
					}
					return bad
				})
				r, err := h.probe(alice, "limit")
				require.NoError(t, err)
				status, _ := restCode(t, h.handlerErr(t))
				assert.Equal(t, 400, status)
				assert.Equal(t, "fallback", r.Message.Content)
				fails := srv.Failures()
				require.Len(t, fails, 1)
				assert.Contains(t, fails[0], tc.field)
				srv.ClearFailures()
			})
		}
	})

	t.Run("second initial response", func(t *testing.T) {
		h.handle("twice", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
			if err := s.InteractionRespond(i.Interaction, ephemeral("one")); err != nil {
				return err
			}
			return s.InteractionRespond(i.Interaction, ephemeral("two"))
		})
		_, err := h.probe(alice, "twice")
		require.NoError(t, err)
		status, code := restCode(t, h.handlerErr(t))
		assert.Equal(t, 400, status)
		assert.Equal(t, 40060, code)
		require.Len(t, srv.Failures(), 1)
		assert.Contains(t, srv.Failures()[0], "already been acknowledged")
		srv.ClearFailures()
	})

	t.Run("unknown interaction token", func(t *testing.T) {
		h.handle("badtoken", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
			forged := *i.Interaction
			forged.Token = "forged"
			bad := s.InteractionRespond(&forged, ephemeral("x"))
			if err := s.InteractionRespond(i.Interaction, ephemeral("ok")); err != nil {
				return err
			}
			return bad
		})
		_, err := h.probe(alice, "badtoken")
		require.NoError(t, err)
		status, code := restCode(t, h.handlerErr(t))
		assert.Equal(t, 404, status)
		assert.Equal(t, 10062, code)
		srv.ClearFailures()
	})

	t.Run("late first response", func(t *testing.T) {
		srv.SetResponseDeadline(200 * time.Millisecond)
		defer srv.SetResponseDeadline(discordtest.DefaultResponseDeadline)
		h.handle("slow", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
			time.Sleep(350 * time.Millisecond)
			return s.InteractionRespond(i.Interaction, ephemeral("too late"))
		})
		_, err := h.probe(alice, "slow")
		require.ErrorContains(t, err, "no response within 200ms")
		status, code := restCode(t, h.handlerErr(t))
		assert.Equal(t, 404, status)
		assert.Equal(t, 10062, code)
		fails := srv.Failures()
		require.Len(t, fails, 2)
		assert.Contains(t, fails[0], "failed: no response within 200ms")
		assert.Contains(t, fails[1], "Unknown interaction")
		srv.ClearFailures()
	})

	t.Run("webhook token needs an initial response", func(t *testing.T) {
		h.handle("early-followup", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
			_, bad := s.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: "too early"})
			if err := s.InteractionRespond(i.Interaction, ephemeral("ok")); err != nil {
				return err
			}
			return bad
		})
		_, err := h.probe(alice, "early-followup")
		require.NoError(t, err)
		status, code := restCode(t, h.handlerErr(t))
		assert.Equal(t, 404, status)
		assert.Equal(t, 10015, code)
		srv.ClearFailures()
	})

	t.Run("public edit bucket followed by discordgo", func(t *testing.T) {
		srv.SetRateLimit(discordtest.RouteChannelMessageEdit, 2, 300*time.Millisecond)
		defer srv.SetRateLimit(discordtest.RouteChannelMessageEdit, 0, 0)
		msg, err := h.s.ChannelMessageSend(channelID, "table v0")
		require.NoError(t, err)
		start := time.Now()
		for v := 1; v <= 3; v++ {
			_, err := h.s.ChannelMessageEdit(channelID, msg.ID, "table v"+strconv.Itoa(v))
			require.NoError(t, err)
		}
		assert.GreaterOrEqual(t, time.Since(start), 150*time.Millisecond, "the third edit waits for the bucket")
		assert.Equal(t, "table v3", srv.Message(channelID, msg.ID).Content)
		assert.Equal(t, 3, srv.EditCount(msg.ID))
		h.noFailures(t)
	})

	t.Run("429 injected and retried", func(t *testing.T) {
		srv.Inject429("POST /channels/"+channelID+"/messages", 2, 50*time.Millisecond)
		before := len(srv.Requests())
		_, err := h.s.ChannelMessageSend(channelID, "after the storm")
		require.NoError(t, err)
		var statuses []int
		for _, r := range srv.Requests()[before:] {
			statuses = append(statuses, r.Status)
		}
		assert.Equal(t, []int{429, 429, 200}, statuses)
		h.noFailures(t)
	})

	t.Run("concurrent members", func(t *testing.T) {
		h.handle("busy", func(s *discordgo.Session, i *discordgo.InteractionCreate) error {
			return s.InteractionRespond(i.Interaction, ephemeral("ok "+i.ID))
		})
		before := len(srv.Latencies())
		const n = 20
		errs := make(chan error, n)
		for k := 0; k < n; k++ {
			user := alice
			if k%2 == 1 {
				user = bob
			}
			go func() {
				r, err := h.probe(user, "busy")
				if err == nil && r.Message.Content != "ok "+r.InteractionID {
					err = errors.New("answer for the wrong interaction: " + r.Message.Content)
				}
				errs <- err
			}()
		}
		for k := 0; k < n; k++ {
			require.NoError(t, <-errs)
			require.NoError(t, h.handlerErr(t))
		}
		assert.Len(t, srv.Latencies(), before+n)
		h.noFailures(t)
	})

	t.Run("multipart channel message", func(t *testing.T) {
		msg, err := h.s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{
			Files: []*discordgo.File{
				{Name: "round-1.json", ContentType: "application/json", Reader: bytes.NewReader([]byte(`{"round":1}`))},
				{Name: "round-2.json", Reader: bytes.NewReader([]byte(`{"round":2}`))},
			},
		})
		require.NoError(t, err)
		require.Len(t, msg.Attachments, 2)
		atts := srv.Attachments(msg.ID)
		require.Len(t, atts, 2)
		assert.Equal(t, "round-1.json", atts[0].Filename)
		assert.Equal(t, `{"round":2}`, string(atts[1].Data))
		h.noFailures(t)
	})
}

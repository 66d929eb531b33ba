package discordtest_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/discordapi"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
)

const (
	guildID   = "900000000000000001"
	channelID = "900000000000000002"
	alice     = "900000000000000011" // Polish client, can manage the server
	bob       = "900000000000000012" // Indonesian client
)

type handlerFunc func(s *discordgo.Session, i *discordgo.InteractionCreate) error

// harness is one real discordgo session connected to one fake, shared by
// the subtests of a test so that the one-second Close is paid once.
// Handlers are chosen by the interaction's key: the "case" option of
// /probe, or the custom id of a component or modal.
type harness struct {
	srv  *discordtest.Server
	s    *discordgo.Session
	mu   sync.Mutex
	on   map[string]handlerFunc
	errs chan error
}

func newSession(t *testing.T, srv *discordtest.Server) *discordgo.Session {
	t.Helper()
	s, err := discordapi.NewSession(srv.Token, srv.URL(), nil)
	require.NoError(t, err)
	s.ShouldReconnectOnError = false
	s.LogLevel = -1 // discordgo logs rejected requests itself; the tests look at errors
	return s
}

func populate(srv *discordtest.Server) {
	srv.AddGuild(guildID, "id")
	srv.AddChannel(guildID, channelID)
	srv.AddMember(guildID, alice, "alice", discordgo.PermissionManageGuild|discordgo.PermissionSendMessages, "pl")
	srv.AddMember(guildID, bob, "bob", discordgo.PermissionSendMessages, "id")
}

// newHarness starts a fake and a bot session on it; setup (may be nil)
// adjusts the session before Open.
func newHarness(t *testing.T, setup func(*discordgo.Session), opts ...discordtest.Option) *harness {
	t.Helper()
	srv := discordtest.New(t, opts...)
	populate(srv)
	h := &harness{srv: srv, on: map[string]handlerFunc{}, errs: make(chan error, 64)}
	h.s = newSession(t, srv)
	if setup != nil {
		setup(h.s)
	}
	h.s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		k := interactionKey(i)
		h.mu.Lock()
		f := h.on[k]
		h.mu.Unlock()
		if f == nil {
			h.errs <- errors.New("no handler for " + k)
			return
		}
		h.errs <- f(s, i)
	})
	_, err := h.s.ApplicationCommandBulkOverwrite(srv.AppID, guildID, probeCommands)
	require.NoError(t, err)
	require.NoError(t, h.s.Open())
	t.Cleanup(func() { _ = h.s.Close() })
	require.True(t, srv.WaitReady(5*time.Second))
	return h
}

func interactionKey(i *discordgo.InteractionCreate) string {
	switch i.Type {
	case discordgo.InteractionApplicationCommand:
		d := i.ApplicationCommandData()
		if o := d.GetOption("case"); o != nil {
			return o.StringValue()
		}
		return "/" + d.Name
	case discordgo.InteractionMessageComponent:
		return i.MessageComponentData().CustomID
	case discordgo.InteractionModalSubmit:
		return i.ModalSubmitData().CustomID
	}
	return "?"
}

func (h *harness) handle(key string, f handlerFunc) {
	h.mu.Lock()
	h.on[key] = f
	h.mu.Unlock()
}

// handlerErr returns what the handler of the last interaction returned.
func (h *harness) handlerErr(t *testing.T) error {
	t.Helper()
	select {
	case err := <-h.errs:
		return err
	case <-time.After(5 * time.Second):
		t.Fatal("handler did not finish")
		return nil
	}
}

// probe runs /probe case:<key>.
func (h *harness) probe(user, key string) (*discordtest.Response, error) {
	return h.srv.Command(guildID, channelID, user, "probe", []*discordgo.ApplicationCommandInteractionDataOption{
		{Name: "case", Value: key},
	})
}

// noFailures asserts the fake recorded nothing.
func (h *harness) noFailures(t *testing.T) {
	t.Helper()
	require.Empty(t, h.srv.Failures())
}

var minBet = 1.0

var probeCommands = []*discordgo.ApplicationCommand{
	{
		Name:        "probe",
		Description: "Test hook",
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "case", Description: "which case", Required: true},
		},
	},
	{
		Name:              "pontoon",
		Description:       "Play Pontoon",
		NameLocalizations: &map[discordgo.Locale]string{discordgo.Polish: "oczko", discordgo.Locale("id"): "pontoon"},
		DescriptionLocalizations: &map[discordgo.Locale]string{
			discordgo.Polish: "Zagraj w oczko", discordgo.PortugueseBR: "Jogue Pontoon",
		},
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "start", Description: "Open a table"},
			{
				Type: discordgo.ApplicationCommandOptionSubCommandGroup, Name: "bank", Description: "The bank",
				Options: []*discordgo.ApplicationCommandOption{{
					Type: discordgo.ApplicationCommandOptionSubCommand, Name: "sell", Description: "Sell the bank",
					Options: []*discordgo.ApplicationCommandOption{
						{Type: discordgo.ApplicationCommandOptionUser, Name: "member", Description: "Buyer", Required: true},
						{Type: discordgo.ApplicationCommandOptionInteger, Name: "price", Description: "Price", Required: true, MinValue: &minBet, MaxValue: 1e9},
					},
				}},
			},
		},
	},
}

func ephemeral(content string) *discordgo.InteractionResponse {
	return &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: content, Flags: discordgo.MessageFlagsEphemeral},
	}
}

// restCode returns the HTTP status and Discord error code of a REST error.
func restCode(t *testing.T, err error) (int, int) {
	t.Helper()
	var re *discordgo.RESTError
	require.ErrorAs(t, err, &re)
	code := 0
	if re.Message != nil {
		code = re.Message.Code
	}
	return re.Response.StatusCode, code
}

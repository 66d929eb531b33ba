package activity_test

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/bot/activity"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/bot/httpin"
	"github.com/pontoon-bot/pontoon/store"
	"github.com/pontoon-bot/pontoon/store/storetest"
	"github.com/stretchr/testify/require"
)

// startReplica starts one HTTP-interaction process of the bot on a shared PostgreSQL,
// with its interactions endpoint.
func startReplica(t *testing.T, fake *discordtest.Server, url string) (*bot.Bot, *httptest.Server) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, url)
	require.NoError(t, err)
	b, err := bot.New(st, bot.Options{Token: "test-token", APIURL: fake.URL(), AppID: fake.AppID, EditDelay: 10 * time.Millisecond,
		EditWait: 5 * time.Second, StartingChips: 1000, Activity: true, Scale: bot.Scale{HTTP: true}, Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	require.NoError(t, b.Start(ctx))
	key, err := httpin.ParsePublicKey(fake.PublicKey())
	require.NoError(t, err)
	h, err := httpin.New(httpin.Options{PublicKey: key, Router: b.Route, Webhooks: b.REST(), Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		srv.Close()
		_ = b.Close()
		_ = st.Close()
	})
	return b, srv
}

// With replicas sharing one PostgreSQL, a page served by one replica hears of a click
// that Discord sent to the other: each replica looks at the tables its pages watch.
func TestAPageOnOneReplicaHearsOfAClickOnAnother(t *testing.T) {
	url := storetest.PostgresURL(t)
	fake := discordtest.New(t)
	fake.AddGuild(guildID, "en-US")
	fake.AddChannel(guildID, channelID)
	for id, name := range map[string]string{alice: "alice", bob: "bob", carol: "carol"} {
		fake.AddMember(guildID, id, name, 0, "en-US")
	}
	fake.AddActivityInstance(instance, guildID, channelID, alice, bob, carol)
	_, a := startReplica(t, fake, url)
	b, _ := startReplica(t, fake, url)
	require.NoError(t, fake.SetInteractionsEndpoint(a.URL)) // Discord's clicks go to A
	srv, err := activity.New(activity.Config{ClientID: fake.AppID, ClientSecret: fake.ClientSecret(), APIURL: fake.URL(),
		BotToken: fake.Token}, b) // the page is B's
	require.NoError(t, err)
	web := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { srv.Close(); web.Close() })
	h := &harness{t: t, fake: fake, http: web}

	h.command(alice, "start")
	h.tableMessage()
	p := h.open(h.session(bob))
	p.waitState("the table", func(st *state) bool { return st.Table != nil && !st.Me.Seated })
	r, err := fake.Click(channelID, h.tableMessage().ID, bob, mustID(t, h, "join"))
	require.NoError(t, err)
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type)
	p.waitState("bob seated, from the other replica", seated)
	require.Empty(t, fake.Failures())
}

func mustID(t *testing.T, h *harness, kind string) string {
	t.Helper()
	id, ok := discordtest.CustomID(h.tableMessage(), "pt:"+kind+":", "")
	require.True(t, ok)
	return id
}

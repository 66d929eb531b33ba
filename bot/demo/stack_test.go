package demo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/bot/demo"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/bot/view"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/game/sim"
	"github.com/pontoon-bot/pontoon/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// openStack runs the whole demo, as `pontoon demo` does, on a fresh SQLite file, with
// scripted players quick to move. The fake Discord checks every request the bot makes.
func openStack(t testing.TB, mod func(*demo.StackConfig)) *demo.Stack {
	t.Helper()
	cfg := demo.StackConfig{Dir: t.TempDir(), Listen: "127.0.0.1:0", Think: 20 * time.Millisecond, Bankroll: 9000,
		Bot: func(o *bot.Options) {
			o.EditDelay = 10 * time.Millisecond
			// A click on the table waits for an edit already on its way; long here so that
			// a slow machine never turns an answer into an acknowledgement.
			o.EditWait = 5 * time.Second
		}}
	if mod != nil {
		mod(&cfg)
	}
	s, err := demo.OpenStack(context.Background(), cfg)
	require.NoError(t, err)
	t.Cleanup(func() {
		s.Close()
		assert.Empty(t, s.Fake.Failures(), "requests the fake Discord refused")
	})
	return s
}

// tableOf is the demo channel's open table in the store.
func tableOf(t testing.TB, s *demo.Stack) store.Table {
	t.Helper()
	tb, err := s.Store().TableByChannel(context.Background(), s.Demo.Guild(), s.Demo.Channel())
	require.NoError(t, err)
	return tb
}

// tableMessage is the channel's table message: the last public message with a Join button.
func tableMessage(t testing.TB, s *demo.Stack) *discordgo.Message {
	t.Helper()
	msgs := s.Fake.Messages(s.Demo.Channel())
	for i := len(msgs) - 1; i >= 0; i-- {
		if _, ok := discordtest.CustomID(msgs[i], "pt:"+view.KindJoin+":", ""); ok {
			return msgs[i]
		}
	}
	require.FailNow(t, "no table message")
	return nil
}

// press clicks a button of the table message, found by its kind, as member.
func press(t testing.TB, s *demo.Stack, member, kind string) *discordtest.Response {
	t.Helper()
	m := tableMessage(t, s)
	id, ok := discordtest.CustomID(m, "pt:"+kind+":", "")
	require.True(t, ok, "no %s button on the table", kind)
	r, err := s.Fake.Click(s.Demo.Channel(), m.ID, member, id)
	require.NoError(t, err)
	return r
}

// lastRound waits until the table's round number n has finished and returns it.
func finishedRound(t testing.TB, s *demo.Stack, n int) store.Round {
	t.Helper()
	tb := tableOf(t, s)
	var r store.Round
	require.Eventually(t, func() bool {
		var err error
		r, err = s.Store().Round(context.Background(), tb.ID, n)
		return err == nil && r.Finished()
	}, 30*time.Second, 20*time.Millisecond, "round %d never finished", n)
	return r
}

func TestTheDemoOpensATableWhoseBankTheDealerHolds(t *testing.T) {
	s := openStack(t, nil)
	dealer := demo.MemberID(demo.DealerName)
	tb := tableOf(t, s)
	assert.Equal(t, dealer, tb.Host, "the Dealer opened the table")
	assert.Equal(t, dealer, tb.BankOwner, "the Dealer holds the bank")
	w, err := s.Store().Wallet(context.Background(), s.Demo.Guild(), dealer)
	require.NoError(t, err)
	assert.Equal(t, int64(1000+9000), w.Balance, "starting chips and the bankroll")
	assert.Contains(t, discordtest.Text(tableMessage(t, s)), "<@"+dealer+">", "the Dealer sits at the table")
}

// Every move a scripted player makes is the documented strategy's move at that moment,
// as the Hint button gives it: the round's stored actions, replayed through the
// engine, each equal to sim.Advise for its player just before it. The Dealer is the
// round's banker and plays the banker's part the same way; nobody times out.
func TestScriptedPlayersMakeTheHintsMoves(t *testing.T) {
	s := openStack(t, nil)
	n, err := s.Demo.Seat(context.Background(), 3)
	require.NoError(t, err)
	require.Equal(t, 3, n)
	for round := 1; round <= 3; round++ {
		press(t, s, demo.MemberID(demo.ScriptedNames[0]), view.KindDeal)
		r := finishedRound(t, s, round)
		h, err := game.ParseHistory([]byte(r.History))
		require.NoError(t, err)
		if round == 1 {
			require.Equal(t, demo.MemberID(demo.DealerName), h.Table.Banker, "the Dealer is the first banker")
		}
		g, err := game.NewGame(h.Rules, h.Table.Seats, h.Table.Banker, h.Table.Balances, h.Table.Kitty)
		require.NoError(t, err)
		pack, err := game.ParseCards(h.Rounds[0].Pack)
		require.NoError(t, err)
		require.NoError(t, g.Deal(pack))
		actions, err := s.Store().Actions(context.Background(), r.ID)
		require.NoError(t, err)
		require.NotEmpty(t, actions)
		for _, a := range actions {
			assert.NotEmpty(t, a.InteractionID, "%s %s was the bot's timeout, not a move", a.Member, a.Verb)
			act, err := game.ParseAction(strings.TrimSpace(a.Member + " " + a.Verb + " " + a.Args))
			require.NoError(t, err)
			adv, ok := sim.Advise(g, act.Player)
			require.True(t, ok, "round %d: %s moved with nothing to decide", round, act)
			assert.Equal(t, adv.Verb, act.Verb, "round %d: %s", round, act)
			if view.AmountVerbs[adv.Verb] {
				assert.Equal(t, adv.Amount, act.Amount, "round %d: %s", round, act)
			}
			_, err = g.Apply(act)
			require.NoError(t, err)
		}
		assert.False(t, g.InRound(), "round %d settled", round)
	}
}

func TestMemberIDsAreTheSameForTheSameNameInAnyCase(t *testing.T) {
	assert.Equal(t, demo.MemberID("Alice"), demo.MemberID("alice"))
	assert.NotEqual(t, demo.MemberID("alice"), demo.MemberID("bob"))
	assert.Len(t, demo.MemberID("alice"), 18, "snowflake-shaped")
}

// postJSON posts v to the stack's path and decodes the answer into out.
func postJSON(t testing.TB, s *demo.Stack, path string, v, out any) int {
	t.Helper()
	body, err := json.Marshal(v)
	require.NoError(t, err)
	resp, err := http.Post(s.URL+strings.TrimPrefix(path, "/"), "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	require.NoError(t, json.NewDecoder(resp.Body).Decode(out))
	return resp.StatusCode
}

type channelView struct {
	Messages []struct {
		ID         string   `json:"id"`
		Author     string   `json:"author"`
		Text       []string `json:"text"`
		Image      string   `json:"image"`
		Private    bool     `json:"private"`
		Components []struct {
			Kind, ID, Label string
			Options         []struct{ Label, Value string }
		} `json:"components"`
	} `json:"messages"`
}

func getChannel(t testing.TB, s *demo.Stack, user string) channelView {
	t.Helper()
	resp, err := http.Get(s.URL + "demo/channel?user=" + user)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var v channelView
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&v))
	return v
}

// The channel view is the fake's channel: the table message drawn plainly (names for
// mentions, its buttons, its picture once dealt) and the asking member's own
// ephemeral replies, nobody else's.
func TestChannelViewShowsTheTableAndOnlyTheMembersOwnReplies(t *testing.T) {
	s := openStack(t, nil)
	v := getChannel(t, s, "alice")
	require.Len(t, v.Messages, 1, "the table message alone")
	table := v.Messages[0]
	assert.False(t, table.Private)
	assert.Contains(t, strings.Join(table.Text, "\n"), "@Dealer", "mentions read as names")
	var join string
	for _, c := range table.Components {
		if strings.HasPrefix(c.ID, "pt:join:") {
			join = c.ID
		}
	}
	require.NotEmpty(t, join, "the Join button is drawn")

	var ok map[string]any
	require.Equal(t, http.StatusOK, postJSON(t, s, "/demo/click", map[string]any{"user": "alice", "message": table.ID, "id": join}, &ok))
	require.Equal(t, true, ok["ok"])
	require.Equal(t, http.StatusOK, postJSON(t, s, "/demo/click", map[string]any{"user": "alice", "message": table.ID, "id": join}, &ok))
	// The second Join is refused with a reply only alice sees.
	mine := getChannel(t, s, "alice")
	require.Len(t, mine.Messages, 2)
	assert.True(t, mine.Messages[1].Private)
	assert.Contains(t, strings.Join(mine.Messages[1].Text, "\n"), "⛔")
	assert.Len(t, getChannel(t, s, "bob").Messages, 1, "bob does not see alice's reply")
	assert.Contains(t, strings.Join(getChannel(t, s, "bob").Messages[0].Text, "\n"), "@alice", "alice sits at the table")

	press(t, s, demo.MemberID("alice"), view.KindDeal)
	require.Eventually(t, func() bool { return getChannel(t, s, "bob").Messages[0].Image != "" }, 10*time.Second, 20*time.Millisecond,
		"the dealt table shows its picture")
	resp, err := http.Get(s.URL + strings.TrimPrefix(getChannel(t, s, "bob").Messages[0].Image, "/"))
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	png, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(png, []byte("\x89PNG")), "a picture, %s", resp.Header.Get("Content-Type"))
}

// An "other amount" click answers with the bot's form; submitting it through the demo
// places the stake.
func TestAnAmountFormOpensAndIsSubmitted(t *testing.T) {
	s := openStack(t, nil)
	alice := demo.MemberID("alice")
	_, err := s.Demo.Member(context.Background(), "alice")
	require.NoError(t, err)
	press(t, s, alice, view.KindJoin)
	press(t, s, alice, view.KindDeal)
	panel := press(t, s, alice, view.KindCards).Message
	ask, ok := discordtest.CustomID(panel, "pt:"+view.KindAsk+":", ":stake")
	require.True(t, ok, "the panel offers another amount")

	var opened struct {
		Modal struct {
			ID     string `json:"id"`
			Title  string `json:"title"`
			Inputs []struct {
				ID       string `json:"id"`
				Required bool   `json:"required"`
			} `json:"inputs"`
		} `json:"modal"`
	}
	require.Equal(t, http.StatusOK, postJSON(t, s, "/demo/click", map[string]any{"user": "alice", "message": panel.ID, "id": ask}, &opened))
	require.NotEmpty(t, opened.Modal.ID)
	require.Len(t, opened.Modal.Inputs, 1)
	var ok2 map[string]any
	require.Equal(t, http.StatusOK, postJSON(t, s, "/demo/submit", map[string]any{"user": "alice", "id": opened.Modal.ID,
		"fields": map[string]string{opened.Modal.Inputs[0].ID: "25"}}, &ok2), "%v", ok2)
	assert.Contains(t, discordtest.Text(s.Fake.Message(s.Demo.Channel(), panel.ID)), "25", "the panel shows the stake")
	var again map[string]string
	assert.Equal(t, http.StatusConflict, postJSON(t, s, "/demo/submit", map[string]any{"user": "alice", "id": opened.Modal.ID,
		"fields": map[string]string{opened.Modal.Inputs[0].ID: "25"}}, &again), "a form is sent once")
	assert.NotEmpty(t, again["error"])
}

func TestSeatsEndpointSeatsScriptedPlayersUntilNoneIsLeft(t *testing.T) {
	s := openStack(t, nil)
	var got struct {
		OK     bool   `json:"ok"`
		Seated int    `json:"seated"`
		Error  string `json:"error"`
	}
	require.Equal(t, http.StatusOK, postJSON(t, s, "/demo/seats", map[string]int{"count": 2}, &got))
	assert.Equal(t, 2, got.Seated)
	text := discordtest.Text(tableMessage(t, s))
	for _, name := range demo.ScriptedNames[:2] {
		assert.Contains(t, text, "<@"+demo.MemberID(name)+">", "%s sits at the table", name)
	}
	require.Equal(t, http.StatusOK, postJSON(t, s, "/demo/seats", map[string]int{"count": 8}, &got))
	assert.Equal(t, len(demo.ScriptedNames)-2, got.Seated, "the rest sit down")
	got.Error = ""
	assert.Equal(t, http.StatusConflict, postJSON(t, s, "/demo/seats", map[string]int{"count": 1}, &got))
	assert.NotEmpty(t, got.Error, "nobody is left to seat, in words")
}

func TestABadNameIsRefusedInWords(t *testing.T) {
	s := openStack(t, nil)
	resp, err := http.Get(s.URL + "demo/channel?user=%3Cscript%3E")
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	var e map[string]string
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&e))
	assert.NotEmpty(t, e["error"])
}

// The view keeps a member's latest ephemeral replies only, as Discord's client drops
// them on a reload: the table message stays, however many replies came.
func TestChannelViewKeepsOnlyTheLatestReplies(t *testing.T) {
	s := openStack(t, nil)
	_, err := s.Demo.Member(context.Background(), "alice")
	require.NoError(t, err)
	for range 12 {
		press(t, s, demo.MemberID("alice"), view.KindRules)
	}
	v := getChannel(t, s, "alice")
	require.Len(t, v.Messages, 1+10)
	assert.False(t, v.Messages[0].Private, "the table message first")
	for _, m := range v.Messages[1:] {
		assert.True(t, m.Private)
	}
}

// A page address already taken is an error from OpenStack, not a stack without a page.
func TestATakenAddressIsRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	s, err := demo.OpenStack(context.Background(), demo.StackConfig{Dir: t.TempDir(), Listen: ln.Addr().String()})
	require.Error(t, err)
	assert.Nil(t, s)
	assert.Contains(t, err.Error(), "address already in use")
}

// A person cannot take a scripted player's name: they would play the script's seat.
func TestAScriptedPlayersNameIsNotAPersons(t *testing.T) {
	s := openStack(t, nil)
	for _, name := range []string{"Dealer", "ada"} {
		_, err := s.Demo.Member(context.Background(), name)
		assert.ErrorIs(t, err, demo.ErrScriptedName, name)
		resp, err := http.Get(s.URL + "demo/channel?user=" + name)
		require.NoError(t, err)
		var e map[string]string
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&e))
		resp.Body.Close()
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
		assert.Contains(t, e["error"], "scripted players", name)
	}
}

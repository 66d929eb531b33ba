package activity_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const dave = "300000000000000004" // sits down, then leaves the server

// seatNames are the names a state shows on the seats, in order.
func seatNames(st *state) []string {
	var out []string
	if st.Table != nil {
		for _, s := range st.Table.Seats {
			out = append(out, s.Name)
		}
	}
	return out
}

// showsNames is true once a state names these members on its seats, in any order.
func showsNames(names ...string) func(*state) bool {
	return func(st *state) bool {
		got := seatNames(st)
		for _, n := range names {
			if !slices.Contains(got, n) {
				return false
			}
		}
		return true
	}
}

// memberLookups counts the fake's GET /guilds/{guild}/members/{user} requests for user.
func (h *harness) memberLookups(user string) int {
	n := 0
	for _, r := range h.fake.Requests() {
		if r.Method == http.MethodGet && strings.HasSuffix(r.Path, "/guilds/"+guildID+"/members/"+user) {
			n++
		}
	}
	return n
}

// After a restart over the same SQLite file nobody has clicked, so the bot has heard no
// member's name: a page's state still names every seated member, on the seats and in
// the table's text, as Discord answers for them.
func TestAfterARestartThePageNamesEverySeatedMemberWithNobodyClicking(t *testing.T) {
	h := newHarness(t, nil)
	h.openTable()
	h.clickTable(carol, "join")
	h.clickTable(alice, "deal")
	h.waitTable("<@" + carol + ">")
	h.restart()

	p := h.open(h.session(carol))
	st := p.waitState("every seat named", showsNames("alice", "bob", "carol"))
	assert.Len(t, st.Table.Seats, 3)
	text := strings.Join(st.Table.Text, "\n")
	assert.NotContains(t, text, st.Words["web.someone"], "every mention read as a name")
	assert.Contains(t, text, "@bob")
	for _, m := range []string{alice, bob, carol} {
		assert.Equal(t, 1, h.memberLookups(m), "member %s asked of Discord once", m)
	}
	assert.Empty(t, h.fake.Failures())
}

// A seated member who has left the server is one Discord does not know: their seat
// stays "Seat N", and they are asked about once, not on every state of every page.
func TestAMemberWhoLeftStaysSeatNAndIsAskedAboutOnce(t *testing.T) {
	h := newHarness(t, nil)
	h.fake.AddMember(guildID, dave, "dave", 0, "en-US")
	h.openTable()
	h.clickTable(dave, "join")
	h.waitTable("<@" + dave + ">")
	h.fake.RemoveMember(guildID, dave)
	h.restart()

	// alice opened the table, bob and dave joined: dave sits third.
	seatN := "Seat 3"
	pa := h.open(h.session(alice))
	pa.waitState("alice and bob named, dave a seat number", showsNames("alice", "bob", seatN))
	// More states of more pages, each drawing dave's seat: carol's page, bob's, and
	// every page's after carol joins in Discord.
	pc := h.open(h.session(carol))
	pc.waitState("alice and bob named", showsNames("alice", "bob", seatN))
	pb := h.open(h.session(bob))
	pb.waitState("alice and bob named", showsNames("alice", "bob", seatN))
	h.clickTable(carol, "join")
	for _, p := range []*page{pa, pb, pc} {
		st := p.waitState("carol at the table", showsNames("alice", "bob", "carol"))
		assert.Contains(t, seatNames(st), seatN, "dave's seat keeps its number")
		assert.NotContains(t, seatNames(st), "dave")
	}
	assert.Equal(t, 1, h.memberLookups(dave), "dave asked about once")
	fails := h.fake.Failures()
	require.Len(t, fails, 1, "only dave's lookup was refused: %v", fails)
	assert.Contains(t, fails[0], "/members/"+dave)
	assert.Contains(t, fails[0], "Unknown Member")
}

// A lookup Discord has not answered holds up nothing: the page's first state comes with
// a seat number, a click from the page is answered and the round starts; when Discord
// answers, the page shows the name. (discordgo sends one request of a rate-limit bucket
// at a time, so alice's lookup may wait behind bob's: the states only look at bob's seat
// until then.)
func TestALookupDiscordHasNotAnsweredHoldsUpNoClick(t *testing.T) {
	h := newHarness(t, nil)
	h.openTable()
	h.restart()
	hold := h.fake.HoldNext("GET /guilds/" + guildID + "/members/" + bob)

	p := h.open(h.session(alice))
	st := p.waitState("bob a seat number", showsNames("Seat 2"))
	<-hold.Arrived()
	deal, ok := control(st, "pt:deal:", "")
	require.True(t, ok, "the table's Deal button")
	res := p.answer(p.send("click", deal.ID, nil, nil))
	require.Equal(t, "result", res.Type, "%s", res.raw)
	assert.True(t, res.OK, res.Text)
	p.waitState("the round, bob still a seat number", func(st *state) bool { return inRound(st) && showsNames("Seat 2")(st) })

	hold.Release()
	p.waitState("bob named in the round", func(st *state) bool { return inRound(st) && showsNames("alice", "bob")(st) })
	assert.Empty(t, h.fake.Failures())
}

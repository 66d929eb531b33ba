package bot_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
	"github.com/stretchr/testify/require"
)

const (
	guildID   = "100000000000000001"
	channelID = "200000000000000001"
	alice     = "300000000000000001"
	bob       = "300000000000000002"
	carol     = "300000000000000003"
	dave      = "300000000000000004"
	admin     = "300000000000000009"
)

// deck hands out scripted packs in order, then plain unshuffled ones.
type deck struct {
	mu    sync.Mutex
	packs [][]game.Card
}

func (d *deck) next(decks int) []game.Card {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.packs) == 0 {
		return game.NewPack(decks)
	}
	p := d.packs[0]
	d.packs = d.packs[1:]
	return p
}

func (d *deck) push(p []game.Card) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.packs = append(d.packs, p)
}

// stack is a full pack with the given cards on top, the rest in pack order.
func stack(t testing.TB, top string) []game.Card {
	t.Helper()
	cs, err := game.ParseCards(strings.Fields(top))
	require.NoError(t, err)
	seen := map[game.Card]bool{}
	for _, c := range cs {
		require.False(t, seen[c], "card %s twice", c)
		seen[c] = true
	}
	for _, c := range game.NewPack(1) {
		if !seen[c] {
			cs = append(cs, c)
		}
	}
	return cs
}

// cutFor is a pack whose first cards make the i-th of n seated players win the cut (R1.4).
func cutFor(t testing.TB, i, n int) []game.Card {
	low := []string{"2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH"}
	var top []string
	for k := 0; k < n; k++ {
		if k == i {
			top = append(top, "AS")
		} else {
			top = append(top, low[k])
		}
	}
	return stack(t, strings.Join(top, " "))
}

type harness struct {
	t      *testing.T
	fake   *discordtest.Server
	st     *store.Store
	bot    *bot.Bot
	deck   *deck
	dbPath string
	opt    bot.Options
	seats  []string     // as seat() seated them, for cuts
	writes atomic.Int64 // write transactions the store committed (WithCommitObserver)
}

// writesDuring counts the write transactions the store commits while f runs: each
// method's transaction, even where SQLite groups several into one commit.
func (h *harness) writesDuring(f func()) int {
	h.t.Helper()
	before := h.writes.Load()
	f()
	return int(h.writes.Load() - before)
}

func newHarness(t *testing.T, mod func(*bot.Options)) *harness {
	t.Helper()
	return newHarnessIn(t, "en-US", mod)
}

// newHarnessIn is newHarness for a guild whose Discord locale is guildLocale.
func newHarnessIn(t *testing.T, guildLocale string, mod func(*bot.Options)) *harness {
	t.Helper()
	fake := discordtest.New(t, discordtest.WithToken("test-token"))
	fake.AddGuild(guildID, guildLocale)
	fake.AddChannel(guildID, channelID)
	for _, m := range []string{alice, bob, carol, dave} {
		fake.AddMember(guildID, m, "player"+m[len(m)-1:], 0, "en-US")
	}
	fake.AddMember(guildID, admin, "admin", discordgo.PermissionManageGuild, "en-US")
	h := &harness{t: t, fake: fake, deck: &deck{}, dbPath: filepath.Join(t.TempDir(), "pontoon.db")}
	h.opt = bot.Options{Token: "test-token", APIURL: fake.URL(), TurnTimer: time.Minute, EditDelay: 10 * time.Millisecond,
		// A click on the table waits for an edit already on its way (publisher.claim);
		// long here so that a slow machine never turns an answer into an acknowledgement.
		EditWait: 5 * time.Second,
		Deck:     h.deck.next, StartingChips: 1000, DailyAmount: 200}
	if mod != nil {
		mod(&h.opt)
	}
	h.start()
	return h
}

// start opens the store and starts a bot on it, as pontoon serve does.
func (h *harness) start() {
	h.t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, h.dbPath, store.WithCommitObserver(func(op string) func(error) {
		return func(err error) {
			// The publisher's periodic record of what the table messages show is no
			// click's write.
			if err == nil && op != "SetTablesDrawn" {
				h.writes.Add(1)
			}
		}
	}))
	require.NoError(h.t, err)
	b, err := bot.New(st, h.opt)
	require.NoError(h.t, err)
	require.NoError(h.t, b.Start(ctx))
	h.st, h.bot = st, b
	h.t.Cleanup(h.stop)
}

func (h *harness) stop() {
	if h.bot != nil {
		_ = h.bot.Close()
		h.bot = nil
	}
	if h.st != nil {
		_ = h.st.Close()
		h.st = nil
	}
}

// stopLosingTableEdits runs change, then stops the bot, with Discord losing every
// edit of the table message from before change until the bot has stopped: whatever
// the publisher sends meanwhile, in whatever order (an edit of an earlier state still
// on its way too), and what it sends as it stops. It checks that an edit was sent and
// that the message does not show lost, so that the restart after has to draw it.
func (h *harness) stopLosingTableEdits(lost string, change func()) {
	h.t.Helper()
	failed, serve := h.fake.FailEvery("PATCH /channels/"+channelID+"/messages/"+h.tableMessage().ID, 500, 0, "500: Internal Server Error")
	change()
	h.stop() // the publisher's last edits are made, and lost, by the time it returns
	serve()
	require.Positive(h.t, failed(), "the table's edit was sent")
	require.NotContains(h.t, text(h.tableMessage()), lost, "the edit was lost")
}

func sub(name string, opts ...*discordgo.ApplicationCommandInteractionDataOption) []*discordgo.ApplicationCommandInteractionDataOption {
	return []*discordgo.ApplicationCommandInteractionDataOption{{Name: name, Type: discordgo.ApplicationCommandOptionSubCommand, Options: opts}}
}

func group(g, name string, opts ...*discordgo.ApplicationCommandInteractionDataOption) []*discordgo.ApplicationCommandInteractionDataOption {
	return []*discordgo.ApplicationCommandInteractionDataOption{{Name: g, Type: discordgo.ApplicationCommandOptionSubCommandGroup,
		Options: sub(name, opts...)}}
}

func intOpt(name string, v int64) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionInteger, Value: float64(v)}
}

func strOpt(name, v string) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionString, Value: v}
}

func userOpt(name, id string) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionUser, Value: id}
}

func (h *harness) cmd(user string, opts []*discordgo.ApplicationCommandInteractionDataOption) *discordtest.Response {
	h.t.Helper()
	r, err := h.fake.Command(guildID, channelID, user, "pontoon", opts)
	require.NoError(h.t, err)
	return r
}

// The message helpers of the fake, under short names.
var (
	text       = discordtest.Text
	components = discordtest.Components
	customID   = discordtest.CustomID
	isV2       = discordtest.V2
)

// tableFields reads the table message's seats the way its embed once listed them: one
// field per "**Name** · value" line of its text displays (the bank, each seat, the
// result), the lines under one (a split player's hands, the kitty's notes) joined to its
// value. The heading (the first text display) and the small print are not fields.
func tableFields(m *discordgo.Message) []*discordgo.MessageEmbedField {
	var out []*discordgo.MessageEmbedField
	var walk func(cs []discordgo.MessageComponent)
	first := true
	walk = func(cs []discordgo.MessageComponent) {
		for _, c := range cs {
			switch v := c.(type) {
			case *discordgo.Container:
				walk(v.Components)
			case *discordgo.TextDisplay:
				if first {
					first = false
					continue
				}
				var f *discordgo.MessageEmbedField
				for _, line := range strings.Split(v.Content, "\n") {
					if rest, ok := strings.CutPrefix(line, "**"); ok {
						if name, value, ok := strings.Cut(rest, "** · "); ok {
							f = &discordgo.MessageEmbedField{Name: name, Value: value}
							out = append(out, f)
							continue
						}
					}
					if f != nil && !strings.HasPrefix(line, "-# ") {
						f.Value += "\n" + strings.TrimPrefix(line, "> ")
					}
				}
			}
		}
	}
	if m != nil {
		walk(m.Components)
	}
	return out
}

// galleryItem is the first media item of the table message's container (its picture), or
// nil.
func galleryItem(m *discordgo.Message) *discordgo.MediaGalleryItem {
	if m == nil {
		return nil
	}
	for _, c := range m.Components {
		if box, ok := c.(*discordgo.Container); ok {
			for _, p := range box.Components {
				if g, ok := p.(*discordgo.MediaGallery); ok && len(g.Items) > 0 {
					return &g.Items[0]
				}
			}
		}
	}
	return nil
}

// smallPrint is the table message's small print (its "-# " lines: the commitments and
// the salt), one per line, as the embed's footer held it.
func smallPrint(m *discordgo.Message) string {
	var out []string
	for _, line := range strings.Split(text(m), "\n") {
		if rest, ok := strings.CutPrefix(line, "-# "); ok {
			out = append(out, rest)
		}
	}
	return strings.Join(out, "\n")
}

// findTable is the channel's table message as it now stands, or nil: the one public
// Components V2 message (offers and auctions are plain text).
func (h *harness) findTable() *discordgo.Message {
	var last *discordgo.Message
	for _, m := range h.fake.Messages(channelID) {
		if isV2(m) {
			last = m
		}
	}
	return last
}

// tableMessage is the channel's table message; the table is posted just after the reply
// to /pontoon start, so it waits a moment for it.
func (h *harness) tableMessage() *discordgo.Message {
	h.t.Helper()
	var m *discordgo.Message
	require.Eventually(h.t, func() bool { m = h.findTable(); return m != nil }, 5*time.Second, 5*time.Millisecond, "no table message in the channel")
	return m
}

// bankersTurn seats alice, who banks, and bob, deals bob 9C 8D = 17 and alice 7S 9S = 16
// with 4S next in the pack, has bob stake 10 and stick, and returns the table message's
// id once it shows the banker's turn (R5.1).
func (h *harness) bankersTurn() string {
	h.t.Helper()
	h.seat(alice, nil, bob)
	msg := h.tableMessage().ID
	h.deal(bob, 0, "9C 7S 8D 9S 4S")
	h.amount(bob, game.VerbStake, 10)
	h.do(bob, game.VerbStick)
	h.waitTable("The bank, <@" + alice + ">, plays")
	return msg
}

// waitTable waits until the table message shows want (edits are coalesced and async).
func (h *harness) waitTable(want string) *discordgo.Message {
	h.t.Helper()
	var m *discordgo.Message
	require.Eventually(h.t, func() bool {
		m = h.findTable()
		return m != nil && strings.Contains(text(m), want)
	}, 5*time.Second, 10*time.Millisecond, "table never showed %q; it shows:\n%s", want, text(m))
	return m
}

// clickTable has user press the table's kind button as the message shows it. An edit
// that lands between reading the message and the click (the publisher's, after an
// answer that already updated it) can replace the button; the member then presses the
// one now shown, so the click is made again on the message as it is.
func (h *harness) clickTable(user, kind string) *discordtest.Response {
	h.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		m := h.tableMessage()
		id, ok := customID(m, "pt:"+kind+":", "")
		require.True(h.t, ok, "no %s button on the table", kind)
		r, err := h.fake.Click(channelID, m.ID, user, id)
		if errors.Is(err, discordtest.ErrNoSuchComponent) && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
			continue
		}
		require.NoError(h.t, err)
		return r
	}
}

// panel opens the member's private panel with My cards.
func (h *harness) panel(user string) *discordgo.Message {
	h.t.Helper()
	r := h.clickTable(user, "cards")
	require.True(h.t, r.Ephemeral, "My cards answers privately")
	require.Equal(h.t, discordgo.InteractionResponseChannelMessageWithSource, r.Type)
	return r.Message
}

// do presses an action button on a fresh panel and returns the updated panel.
func (h *harness) do(user string, verb game.Verb) *discordgo.Message {
	h.t.Helper()
	p := h.panel(user)
	id, ok := customID(p, "pt:act:", ":"+string(verb))
	require.True(h.t, ok, "no %s button for %s; panel:\n%s", verb, user, text(p))
	r, err := h.fake.Click(channelID, p.ID, user, id)
	require.NoError(h.t, err)
	require.Equal(h.t, discordgo.InteractionResponseUpdateMessage, r.Type, "a panel action updates the panel")
	require.Contains(h.t, text(r.Message), "✅", "action %s by %s: %s", verb, user, text(r.Message))
	return r.Message
}

// amount chooses an amount on a fresh panel: from the select menu when it offers n,
// else typed into the "other amount" modal, as a member would.
func (h *harness) amount(user string, verb game.Verb, n int64) *discordgo.Message {
	h.t.Helper()
	p := h.panel(user)
	id, ok := customID(p, "pt:amt:", ":"+string(verb))
	require.True(h.t, ok, "no %s select for %s; panel:\n%s", verb, user, text(p))
	var r *discordtest.Response
	var err error
	if offers(p, id, n) {
		r, err = h.fake.Select(channelID, p.ID, user, id, []string{fmt.Sprint(n)})
	} else {
		ask, ok := customID(p, "pt:ask:", ":"+string(verb))
		require.True(h.t, ok, "no other-amount button for %s; panel:\n%s", verb, text(p))
		var modal *discordtest.Response
		modal, err = h.fake.Click(channelID, p.ID, user, ask)
		require.NoError(h.t, err)
		require.NotNil(h.t, modal.Modal, "other amount opens a modal")
		r, err = h.fake.SubmitModal(channelID, user, modal.Modal.CustomID, map[string]string{"amount": fmt.Sprint(n)}, modal)
	}
	require.NoError(h.t, err)
	require.Equal(h.t, discordgo.InteractionResponseUpdateMessage, r.Type)
	require.Contains(h.t, text(r.Message), "✅", "%s %d by %s: %s", verb, n, user, text(r.Message))
	return r.Message
}

// offers reports whether the select with custom id id offers the amount n.
func offers(m *discordgo.Message, id string, n int64) bool {
	for _, c := range components(m) {
		if s, ok := c.(*discordgo.SelectMenu); ok && s.CustomID == id {
			for _, o := range s.Options {
				if o.Value == fmt.Sprint(n) {
					return true
				}
			}
		}
	}
	return false
}

// nextRound makes pack the one the table's next round is dealt from: the test's stand-in
// for the shuffle, recorded with its commitment as the bot records its own.
func (h *harness) nextRound(pack []game.Card) {
	h.t.Helper()
	ctx := context.Background()
	tb, err := h.st.TableByChannel(ctx, guildID, channelID)
	require.NoError(h.t, err)
	cards := game.CardStrings(pack)
	const salt = "5eed5eed"
	require.NoError(h.t, h.st.SetPendingPack(ctx, tb.ID, store.PendingPack{ForRound: tb.RoundNumber + 1, Pack: cards, Salt: salt,
		Commitment: game.Commitment(pack, salt)}))
}

func (h *harness) balance(member string) int64 {
	h.t.Helper()
	w, err := h.st.Wallet(context.Background(), guildID, member)
	require.NoError(h.t, err)
	return w.Balance
}

func (h *harness) audit() {
	h.t.Helper()
	rep, err := h.st.Audit(context.Background())
	require.NoError(h.t, err)
	require.True(h.t, rep.OK(), rep.String())
}

func (h *harness) noFailures() {
	h.t.Helper()
	require.Empty(h.t, h.fake.Failures(), "the fake Discord rejected requests")
}

// deal has member press Deal with the seats cutting for banker (R1.4) and the round dealt
// from a pack with top on top.
func (h *harness) deal(by string, banker int, top string) *discordtest.Response {
	h.t.Helper()
	h.deck.push(cutFor(h.t, banker, len(h.seats)))
	h.nextRound(stack(h.t, top))
	return h.clickTable(by, "deal")
}

// seat opens a table by host and seats the others with Join.
func (h *harness) seat(host string, opts []*discordgo.ApplicationCommandInteractionDataOption, others ...string) {
	h.t.Helper()
	r := h.cmd(host, sub("start", opts...))
	require.True(h.t, r.Ephemeral, "start answers the host privately: %s", text(r.Message))
	h.waitTable("Pontoon")
	h.seats = append([]string{host}, others...)
	for _, m := range others {
		r := h.clickTable(m, "join")
		require.Equal(h.t, discordgo.InteractionResponseUpdateMessage, r.Type, "Join updates the table: %s", text(r.Message))
	}
}

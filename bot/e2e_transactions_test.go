package bot_test

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const internalError = "Something went wrong on our side"

// rawDB is a connection of the test's own to the bot's database file.
func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=5000")
	require.NoError(t, err)
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { _ = db.Close() })
	return db
}

func sumEscrow(t *testing.T, db *sql.DB) int64 {
	t.Helper()
	var n sql.NullInt64
	require.NoError(t, db.QueryRow(`SELECT SUM(balance) FROM accounts WHERE account LIKE 'escrow:%'`).Scan(&n))
	return n.Int64
}

// A table whose round cannot be recovered after a restart (its recorded
// actions no longer replay) is not stuck: its host is told plainly that an admin must
// resolve it, never "Something went wrong"; a member with Manage Server stops it, every
// escrow of the void round goes back to its owner per the ledger with its own reason,
// the table closes, the audit balances, and a new table can be opened.
func TestBrokenRecoveryCanBeResolvedByAnAdmin(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	h.deal(alice, 0, "9H 7S 8D 9S")
	h.amount(bob, game.VerbStake, 10)
	require.Equal(t, int64(980), h.balance(bob), "stake and reserve in escrow (R7.1)")
	h.stop()
	db := rawDB(t, h.dbPath)
	_, err := db.Exec(`UPDATE actions SET verb = 'twist', args = '' WHERE member_id = ?`, bob) // no longer replays
	require.NoError(t, err)
	var ledgerBefore int
	require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM ledger`).Scan(&ledgerBefore))
	h.start()
	h.waitTable("could not be restored")

	r := h.cmd(alice, sub("stop"))
	require.True(t, r.Ephemeral)
	assert.NotContains(t, text(r.Message), internalError, "the host is told what to do, not 'internal error'")
	r = h.cmd(bob, sub("start"))
	assert.NotContains(t, text(r.Message), internalError)

	r = h.cmd(admin, sub("stop"))
	require.True(t, r.Ephemeral)
	assert.NotContains(t, text(r.Message), internalError, "Manage Server resolves the table")
	_, err = h.st.TableByChannel(context.Background(), guildID, channelID)
	assert.ErrorIs(t, err, store.ErrNotFound, "the broken table is closed")
	assert.Zero(t, sumEscrow(t, db), "every escrow of the void round went back")
	assert.Equal(t, int64(1000), h.balance(bob))
	assert.Equal(t, int64(1000), h.balance(alice))
	var reasons []string
	rows, err := db.Query(`SELECT reason FROM ledger WHERE id > (SELECT id FROM ledger ORDER BY id LIMIT 1 OFFSET ?) AND from_account LIKE 'escrow:%'`, ledgerBefore-1)
	require.NoError(t, err)
	for rows.Next() {
		var s string
		require.NoError(t, rows.Scan(&s))
		reasons = append(reasons, s)
	}
	require.NoError(t, rows.Err())
	assert.NotEmpty(t, reasons, "the refund is in the ledger")
	for _, s := range reasons {
		assert.NotEmpty(t, s, "each refund has its own ledger reason")
	}
	h.audit()

	r = h.cmd(bob, sub("start"))
	require.Contains(t, text(r.Message), "Your table is open", "the channel is free again")
	h.noFailures()
}

// Deal is one transaction. When the round cannot be started (here SQLite
// refuses the round's row), nothing of the deal is left behind: no bank owner from the
// cut, no cut on the table, no chips moved; the next Deal works.
func TestDealIsOneTransaction(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	db := rawDB(t, h.dbPath)
	_, err := db.Exec(`CREATE TRIGGER test_no_rounds BEFORE INSERT ON rounds BEGIN SELECT RAISE(ABORT, 'injected failure'); END`)
	require.NoError(t, err)
	var ledgerBefore int
	require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM ledger`).Scan(&ledgerBefore))

	h.deck.push(cutFor(t, 1, 2)) // bob would win the cut
	r := h.clickTable(alice, "deal")
	require.True(t, r.Ephemeral, "the failed deal is answered privately: %s", text(r.Message))
	tb, err := h.st.TableByChannel(context.Background(), guildID, channelID)
	require.NoError(t, err)
	assert.Empty(t, tb.BankOwner, "the cut's bank owner was committed without the round")
	assert.Zero(t, tb.RoundNumber)
	var ledgerAfter int
	require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM ledger`).Scan(&ledgerAfter))
	assert.Equal(t, ledgerBefore, ledgerAfter, "no chips moved")
	quiet(h, 300e6, 5e9)
	assert.NotContains(t, text(h.findTable()), "The cut chose the bank", "the table shows no cut of a deal that did not happen")
	assert.False(t, bankHolder(h.findTable(), bob), "the table shows bob as banker of a deal that did not happen")

	_, err = db.Exec(`DROP TRIGGER test_no_rounds`)
	require.NoError(t, err)
	h.deck.push(cutFor(t, 0, 2))
	r = h.clickTable(alice, "deal")
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type, text(r.Message))
	h.waitBanker(alice)
	h.audit()
}

// dataVersion is SQLite's data_version as the test's connection sees it: it changes
// whenever another connection (the bot's) commits a write.
func dataVersion(t *testing.T, db *sql.DB) int64 {
	t.Helper()
	var v int64
	require.NoError(t, db.QueryRow(`PRAGMA data_version`).Scan(&v))
	return v
}

// Looking writes nothing: My cards, the panel's Refresh, Rules and the
// leaderboard commit no transaction. An action records its interaction id with it.
func TestLookingWritesNothing(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	h.deal(alice, 0, "9H 7S 8D 9S")
	db := rawDB(t, h.dbPath)
	look := func(what string, f func()) {
		t.Helper()
		before := dataVersion(t, db)
		f()
		assert.Equal(t, before, dataVersion(t, db), "%s wrote to the database", what)
	}
	var p *discordgo.Message
	look("My cards", func() { p = h.panel(bob) })
	look("Refresh", func() {
		id, ok := customID(p, "pt:cards:", "")
		require.True(t, ok, "no Refresh on the panel")
		r, err := h.fake.Click(channelID, p.ID, bob, id)
		require.NoError(t, err)
		require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type)
	})
	look("Rules", func() {
		r := h.clickTable(bob, "rules")
		require.True(t, r.Ephemeral)
	})
	look("leaderboard", func() {
		r := h.cmd(bob, sub("leaderboard"))
		require.True(t, r.Ephemeral)
	})

	p = h.panel(bob)
	id, ok := customID(p, "pt:amt:", ":stake")
	require.True(t, ok)
	r, err := h.fake.Select(channelID, p.ID, bob, id, []string{"10"})
	require.NoError(t, err)
	tb, err := h.st.TableByChannel(context.Background(), guildID, channelID)
	require.NoError(t, err)
	round, err := h.st.Round(context.Background(), tb.ID, 1)
	require.NoError(t, err)
	acts, err := h.st.Actions(context.Background(), round.ID)
	require.NoError(t, err)
	require.Len(t, acts, 1)
	assert.Equal(t, r.InteractionID, acts[0].InteractionID, "the stake carries its interaction id")
	h.noFailures()
}

// One write transaction per click: a stake records its interaction id with
// the action in the one transaction that moves the chips.
func TestOneWriteTransactionPerClick(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	h.deal(alice, 0, "9H 7S 8D 9S")
	p := h.panel(bob)
	id, ok := customID(p, "pt:amt:", ":stake")
	require.True(t, ok)
	n := h.writesDuring(func() {
		r, err := h.fake.Select(channelID, p.ID, bob, id, []string{"10"})
		require.NoError(t, err)
		require.Contains(t, text(r.Message), "✅")
	})
	assert.Equal(t, 1, n, "a stake commits %d write transactions", n)
	assert.Equal(t, int64(980), h.balance(bob))
}

// Deal, with its cut for the bank (R1.4), the wallets and the round's start,
// is one write transaction.
func TestDealCommitsOnce(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	h.deck.push(cutFor(t, 0, 2))
	h.nextRound(stack(t, "9H 7S 8D 9S"))
	n := h.writesDuring(func() {
		r := h.clickTable(alice, "deal")
		require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type, text(r.Message))
	})
	assert.Equal(t, 1, n, "Deal commits %d write transactions", n)
}

// The click that ends a round is one write transaction too: the action, the
// settlement, the next round's pack and its commitment (the harness scripts packs, so
// there is one to record) and the seeds revealed all commit together.
func TestRoundEndingClickCommitsOnce(t *testing.T) {
	h := newHarness(t, nil)
	h.bankersTurn()
	p := h.panel(alice)
	id, ok := customID(p, "pt:act:", ":"+string(game.VerbStay))
	require.True(t, ok, "alice may stay:\n%s", text(p))
	n := h.writesDuring(func() {
		r, err := h.fake.Click(channelID, p.ID, alice, id)
		require.NoError(t, err)
		require.Contains(t, text(r.Message), "✅")
	})
	assert.Equal(t, 1, n, "the round-ending stay commits %d write transactions", n)
	m := h.waitTable("The round is settled")
	got := nextCommitmentRE.FindStringSubmatch(text(m))
	require.NotNil(t, got, "the next round's commitment is shown:\n%s", text(m))
	pending, ok, err := h.st.Pending(context.Background(), h.tableID())
	require.NoError(t, err)
	require.True(t, ok, "the next pack was recorded with the settlement")
	assert.Equal(t, got[2], pending.Commitment)
	h.audit()
	h.noFailures()
}

// With a stop asked for, the click that ends the round also closes the table
// in the same transaction, and a stop between rounds is one transaction as well.
func TestStopsCommitOnce(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	h.deal(bob, 0, "9C 7S 8D 9S 4S")
	h.amount(bob, game.VerbStake, 10)
	r := h.cmd(alice, sub("stop"))
	require.Contains(t, text(r.Message), "close when this round is settled")
	h.do(bob, game.VerbStick)
	p := h.panel(alice)
	id, ok := customID(p, "pt:act:", ":"+string(game.VerbStay))
	require.True(t, ok, "alice may stay:\n%s", text(p))
	n := h.writesDuring(func() {
		_, err := h.fake.Click(channelID, p.ID, alice, id)
		require.NoError(t, err)
	})
	assert.Equal(t, 1, n, "the stay that settles and closes commits %d write transactions", n)
	_, err := h.st.TableByChannel(context.Background(), guildID, channelID)
	require.Error(t, err, "the table closed with the settlement")
	h.audit()

	old := h.findTable().ID
	r = h.cmd(carol, sub("start"))
	require.True(t, r.Ephemeral, text(r.Message))
	require.Eventually(t, func() bool { m := h.findTable(); return m != nil && m.ID != old }, 5*time.Second, 5*time.Millisecond, "no new table message")
	// and wait for the bot to record it, a write of its own after the post
	require.Eventually(t, func() bool {
		tb, err := h.st.TableByChannel(context.Background(), guildID, channelID)
		if err != nil {
			return false
		}
		id, err := h.st.TableMessage(context.Background(), tb.ID)
		return err == nil && id == h.findTable().ID
	}, 5*time.Second, 5*time.Millisecond, "the new table's message is never recorded")
	n = h.writesDuring(func() {
		r := h.cmd(carol, sub("stop"))
		require.True(t, r.Ephemeral)
	})
	assert.Equal(t, 1, n, "a stop between rounds commits %d write transactions", n)
	h.audit()
	h.noFailures()
}

// A Join that brings the table to eight seats, so that the next round needs
// two packs (DecksFor), records the seat and the new pack in one transaction.
func TestJoinThatRedrawsThePackCommitsOnce(t *testing.T) {
	h := newHarness(t, nil)
	extra := []string{"300000000000000005", "300000000000000006", "300000000000000007", "300000000000000008"}
	for i, m := range extra {
		h.fake.AddMember(guildID, m, fmt.Sprintf("extra%d", i), 0, "en-US")
	}
	h.seat(alice, nil, append([]string{bob, carol, dave}, extra[:3]...)...)
	last := extra[3]
	// The member's wallet exists already: their first Join would also create it.
	_, _, err := h.st.EnsureWallet(context.Background(), guildID, last, 1000, time.Now().UTC().Truncate(time.Millisecond))
	require.NoError(t, err)
	before, ok, err := h.st.Pending(context.Background(), h.tableID())
	require.NoError(t, err)
	require.True(t, ok)
	require.Len(t, before.Pack, 52, "seven seats: one pack")
	n := h.writesDuring(func() {
		r := h.clickTable(last, "join")
		require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type, text(r.Message))
	})
	assert.Equal(t, 1, n, "the Join commits %d write transactions", n)
	after, ok, err := h.st.Pending(context.Background(), h.tableID())
	require.NoError(t, err)
	require.True(t, ok)
	assert.Len(t, after.Pack, 104, "eight seats: two packs, drawn with the Join")
	h.noFailures()
}

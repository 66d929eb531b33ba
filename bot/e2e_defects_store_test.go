package bot_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"os"
	"testing"

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

// Defect 9: a table whose round cannot be recovered after a restart (its recorded
// actions no longer replay) is not stuck: its host is told plainly that an admin must
// resolve it, never "Something went wrong"; a member with Manage Server stops it, every
// escrow of the void round goes back to its owner per the ledger with its own reason,
// the table closes, the audit balances, and a new table can be opened.
func TestDefect09BrokenRecoveryCanBeResolvedByAnAdmin(t *testing.T) {
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

// Defect 10: Deal is one transaction. When the round cannot be started (here SQLite
// refuses the round's row), nothing of the deal is left behind: no bank owner from the
// cut, no cut on the table, no chips moved; the next Deal works.
func TestDefect10DealIsOneTransaction(t *testing.T) {
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

// Defect 11: looking writes nothing: My cards, the panel's Refresh, Rules and the
// leaderboard commit no transaction. An action records its interaction id with it.
func TestDefect11LookingWritesNothing(t *testing.T) {
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

// walCommits counts the write transactions committed to the database's write-ahead log
// since its last reset: every commit ends with a frame whose header records the
// database size (https://www.sqlite.org/fileformat2.html#walformat). reset is the WAL
// header's salt, which changes when a checkpoint restarts the log.
func walCommits(t *testing.T, dbPath string) (commits int, reset uint64) {
	t.Helper()
	raw, err := os.ReadFile(dbPath + "-wal")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(raw), 32, "no WAL header")
	pageSize := int(binary.BigEndian.Uint32(raw[8:12]))
	salt := raw[16:24]
	for off := 32; off+24+pageSize <= len(raw); off += 24 + pageSize {
		fh := raw[off : off+24]
		if !bytes.Equal(fh[8:16], salt) {
			break // a frame of an earlier generation of the log
		}
		if binary.BigEndian.Uint32(fh[4:8]) != 0 {
			commits++
		}
	}
	return commits, binary.BigEndian.Uint64(salt)
}

// commitsDuring counts the write transactions the bot commits while f runs.
func commitsDuring(t *testing.T, dbPath string, f func()) int {
	t.Helper()
	before, salt := walCommits(t, dbPath)
	f()
	after, salt2 := walCommits(t, dbPath)
	require.Equal(t, salt, salt2, "a checkpoint restarted the WAL during the count; the test cannot count")
	return after - before
}

// Defect 11: one write transaction per click: a stake records its interaction id with
// the action in the one transaction that moves the chips.
func TestDefect11OneWriteTransactionPerClick(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	h.deal(alice, 0, "9H 7S 8D 9S")
	p := h.panel(bob)
	id, ok := customID(p, "pt:amt:", ":stake")
	require.True(t, ok)
	n := commitsDuring(t, h.dbPath, func() {
		r, err := h.fake.Select(channelID, p.ID, bob, id, []string{"10"})
		require.NoError(t, err)
		require.Contains(t, text(r.Message), "✅")
	})
	assert.Equal(t, 1, n, "a stake commits %d write transactions", n)
	assert.Equal(t, int64(980), h.balance(bob))
}

// Defect 10: Deal, with its cut for the bank (R1.4), the wallets and the round's start,
// is one write transaction.
func TestDefect10DealCommitsOnce(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	h.deck.push(cutFor(t, 0, 2))
	h.nextRound(stack(t, "9H 7S 8D 9S"))
	n := commitsDuring(t, h.dbPath, func() {
		r := h.clickTable(alice, "deal")
		require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type, text(r.Message))
	})
	assert.Equal(t, 1, n, "Deal commits %d write transactions", n)
}

package store

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCopy moves a SQLite database with played rounds, an unfinished round,
// settings, a table message and a pending pack into an empty database of each
// engine: every balance, ledger row, round and setting arrives, both ends
// audit the same, and the destination goes on issuing new ids after the
// copied ones.
func TestCopy(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		src := sqliteBackend.open(t)
		d := newDriver(src, rand.New(rand.NewPCG(5, 6)), nil)
		for range 15 {
			require.NoError(t, d.round(ctx))
		}
		wallets(t, src, "g2", 500, "ann", "ben")
		tb, r := openTableWithRound(t, src, "g2", "c2", "ann", "ben")
		require.NoError(t, src.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 1, Member: "ben", Verb: "stake", Args: "7",
			InteractionID: "i-1", Now: t0, Transfers: []Transfer{{From: WalletAccount("ben"), To: EscrowAccount(tb.ID, "ben"), Amount: 7}}}))
		require.NoError(t, src.SetGuildSettings(WithInteraction(ctx, "seen-1", t0), "g2", `{"language":"pl"}`, t0))
		require.NoError(t, src.SetTableMessage(ctx, tb.ID, "m-1"))
		require.NoError(t, src.SetPendingPack(ctx, tb.ID, PendingPack{ForRound: 2, Pack: []string{"AS", "2H"}, Salt: "s", Commitment: "c"}))

		dst := bk.open(t)
		rep, err := Copy(ctx, dst, src)
		require.NoError(t, err)
		require.True(t, rep.OK(), "%s", rep)
		assert.Equal(t, int64(count(t, src, "ledger")), rep.Rows["ledger"])
		for _, ct := range copyTables {
			assert.Equal(t, count(t, src, ct.name), count(t, dst, ct.name), ct.name)
		}
		assert.Len(t, rep.Source.Guilds, 2)

		// Everything a member or the bot can read is the same at both ends.
		for _, g := range []string{"g", "g2"} {
			a, na, err := src.Leaderboard(ctx, g, 0, 100)
			require.NoError(t, err)
			b, nb, err := dst.Leaderboard(ctx, g, 0, 100)
			require.NoError(t, err)
			assert.Equal(t, a, b, g)
			assert.Equal(t, na, nb, g)
		}
		ua, err := src.UnfinishedRounds(ctx)
		require.NoError(t, err)
		ub, err := dst.UnfinishedRounds(ctx)
		require.NoError(t, err)
		assert.Equal(t, ua, ub)
		ta, err := src.OpenTables(ctx)
		require.NoError(t, err)
		tbs, err := dst.OpenTables(ctx)
		require.NoError(t, err)
		assert.Equal(t, ta, tbs)
		for _, x := range ta {
			sa, err := src.TableState(ctx, x.ID)
			require.NoError(t, err)
			sb, err := dst.TableState(ctx, x.ID)
			require.NoError(t, err)
			assert.Equal(t, sa, sb)
			ra, err := src.Rounds(ctx, x.ID, 0)
			require.NoError(t, err)
			rb, err := dst.Rounds(ctx, x.ID, 0)
			require.NoError(t, err)
			assert.Equal(t, ra, rb)
		}
		doc, err := dst.GuildSettings(ctx, "g2")
		require.NoError(t, err)
		assert.JSONEq(t, `{"language":"pl"}`, doc)
		msg, err := dst.TableMessage(ctx, tb.ID)
		require.NoError(t, err)
		assert.Equal(t, "m-1", msg)
		pp, ok, err := dst.Pending(ctx, tb.ID)
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, []string{"AS", "2H"}, pp.Pack)
		applied, err := dst.InteractionApplied(ctx, "seen-1", 0, 0)
		require.NoError(t, err)
		assert.True(t, applied, "recent interactions came along")

		// The round in play goes on at the destination, and new rows get new ids.
		require.NoError(t, dst.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 2, Member: "ben", Verb: "stick",
			Now: t0, Transfers: []Transfer{{From: EscrowAccount(tb.ID, "ben"), To: WalletAccount("ben"), Amount: 7}},
			Finish: &RoundFinish{Result: `{}`, BankOwner: "ann"}}))
		maxID := slices.MaxFunc(ta, func(a, b Table) int { return int(a.ID - b.ID) }).ID
		nt, err := dst.OpenTable(ctx, OpenTableParams{Guild: "g2", Channel: "c3", Host: "ann", Now: t0.Add(time.Hour)})
		require.NoError(t, err)
		assert.Greater(t, nt.ID, maxID)
		_, err = dst.Grant(ctx, "g2", "admin", "ann", 5, t0)
		require.NoError(t, err, "a new ledger row after the copied ones")
		requireAudit(t, dst)

		// A destination that holds anything is refused, and left as it was.
		before := count(t, dst, "ledger")
		_, err = Copy(ctx, dst, src)
		assert.ErrorIs(t, err, ErrInvalid)
		assert.ErrorContains(t, err, "not empty")
		assert.Equal(t, before, count(t, dst, "ledger"))
	})
}

// TestCopyCoversSchema: Copy knows every table the migrations create, with
// every column that is not generated, so a new table cannot be left behind.
func TestCopyCoversSchema(t *testing.T) {
	s := openTest(t)
	rows, err := s.r.Query(`SELECT m.name, p.name, p.hidden FROM sqlite_schema m, pragma_table_xinfo(m.name) p
		WHERE m.type = 'table' AND m.name NOT LIKE 'goose%' AND m.name NOT LIKE 'sqlite%' ORDER BY m.name, p.cid`)
	require.NoError(t, err)
	schema := map[string][]string{}
	for rows.Next() {
		var table, col string
		var hidden int
		require.NoError(t, rows.Scan(&table, &col, &hidden))
		if hidden == 0 { // 2 and 3 are generated columns
			schema[table] = append(schema[table], col)
		}
	}
	require.NoError(t, rows.Close())
	known := map[string][]string{}
	for _, ct := range copyTables {
		c := slices.Clone(ct.columns)
		known[ct.name] = c
	}
	for table, cols := range schema {
		require.Contains(t, known, table, "store.copyTables lacks table %s: `pontoon copy` would leave it behind", table)
		assert.ElementsMatch(t, cols, known[table], "columns of %s", table)
	}
	assert.Len(t, known, len(schema), "copyTables names a table the schema lacks")
}

package store

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStartRound(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		wallets(t, s, "g", 1000, "alice", "bob")
		tb, err := s.OpenTable(ctx, OpenTableParams{Guild: "g", Channel: "c", Host: "alice", BankOwner: "alice", Now: t0})
		require.NoError(t, err)

		p := StartRoundParams{TableID: tb.ID, Number: 1, History: `{"format":"pontoon-history/1"}`, Commitment: "abc", Salt: "s",
			Now: t0, Transfers: []Transfer{{From: WalletAccount("alice"), To: KittyAccount(tb.ID), Amount: 40}}}
		r, err := s.StartRound(ctx, p)
		require.NoError(t, err)
		assert.Equal(t, Round{ID: r.ID, TableID: tb.ID, Number: 1, History: p.History, Commitment: "abc", Salt: "s", StartedAt: t0}, r)
		assert.False(t, r.Finished())
		var seq, leg int
		var reason string
		require.NoError(t, s.r.QueryRow(`SELECT action_seq, leg, reason FROM ledger WHERE round_id = ?`, r.ID).Scan(&seq, &leg, &reason))
		assert.Equal(t, 0, seq, "a round's opening transfers are action 0")
		assert.Equal(t, "round start", reason)

		_, err = s.StartRound(ctx, p)
		assert.ErrorIs(t, err, ErrDuplicateRound)
		p.Number = 2
		_, err = s.StartRound(ctx, p)
		assert.ErrorIs(t, err, ErrRoundInProgress)

		require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 1, Member: "alice", Verb: "stay", Now: t0,
			Finish: &RoundFinish{BankOwner: "alice"}}))
		p.Number = 3
		_, err = s.StartRound(ctx, p)
		var se *SequenceError
		require.ErrorAs(t, err, &se)
		assert.ErrorIs(t, err, ErrStaleRound)
		assert.Equal(t, 3, se.Got)
		assert.Equal(t, 2, se.Want)

		// Bad inputs.
		for name, q := range map[string]StartRoundParams{
			"no history":  {TableID: tb.ID, Number: 2, Now: t0},
			"bad history": {TableID: tb.ID, Number: 2, History: "nope", Now: t0},
			"no time":     {TableID: tb.ID, Number: 2, History: "{}"},
		} {
			_, err := s.StartRound(ctx, q)
			assert.ErrorIs(t, err, ErrInvalid, name)
		}
		_, err = s.StartRound(ctx, StartRoundParams{TableID: tb.ID, Number: 2, History: "{}", Now: t0,
			Transfers: []Transfer{{From: MintAccount, To: KittyAccount(tb.ID), Amount: 1}}})
		assert.ErrorIs(t, err, ErrBadAccount, "a round cannot mint")
		_, err = s.StartRound(ctx, StartRoundParams{TableID: 999, Number: 1, History: "{}", Now: t0})
		assert.ErrorIs(t, err, ErrNotFound)

		// A failing opening transfer leaves no round behind.
		_, err = s.StartRound(ctx, StartRoundParams{TableID: tb.ID, Number: 2, History: "{}", Now: t0,
			Transfers: []Transfer{{From: WalletAccount("bob"), To: KittyAccount(tb.ID), Amount: 5000}}})
		assert.ErrorIs(t, err, ErrInsufficientChips)
		got, err := s.TableByID(ctx, tb.ID)
		require.NoError(t, err)
		assert.Equal(t, 1, got.RoundNumber)
		_, err = s.Round(ctx, tb.ID, 2)
		assert.ErrorIs(t, err, ErrNotFound)

		r2, err := s.StartRound(ctx, StartRoundParams{TableID: tb.ID, Number: 2, History: "{}", Now: t0})
		require.NoError(t, err)
		assert.Equal(t, 2, r2.Number)

		assert.ErrorIs(t, s.CloseTable(ctx, tb.ID, t0), ErrRoundInProgress, "closing is refused mid-round")
	})
}

func TestApplyAction(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		wallets(t, s, "g", 1000, "alice", "bob")
		tb, r := openTableWithRound(t, s, "g", "c", "alice", "bob")
		stake := ApplyParams{RoundID: r.ID, Seq: 1, Member: "bob", Verb: "stake", Args: "10", InteractionID: "i1", Now: t0,
			Transfers: []Transfer{
				{From: WalletAccount("bob"), To: EscrowAccount(tb.ID, "bob"), Amount: 10},
				{From: WalletAccount("bob"), To: EscrowAccount(tb.ID, "bob"), Amount: 10, Reason: "reserve"},
			}}
		require.NoError(t, s.ApplyAction(ctx, stake))
		assert.EqualValues(t, 980, balanceOf(t, s, "g", WalletAccount("bob")))

		// Idempotence: the same action again, by seq or by interaction, moves nothing.
		assert.ErrorIs(t, s.ApplyAction(ctx, stake), ErrDuplicateInteraction)
		again := stake
		again.InteractionID = "i2"
		assert.ErrorIs(t, s.ApplyAction(ctx, again), ErrDuplicateAction)
		again = stake
		again.Seq = 2
		assert.ErrorIs(t, s.ApplyAction(ctx, again), ErrDuplicateInteraction, "a redelivery with a new seq")
		again.InteractionID = ""
		again.Seq = 5
		var se *SequenceError
		require.ErrorAs(t, s.ApplyAction(ctx, again), &se)
		assert.Equal(t, SequenceError{Err: ErrStaleSeq, Got: 5, Want: 2}, *se)
		assert.EqualValues(t, 980, balanceOf(t, s, "g", WalletAccount("bob")))
		assert.Equal(t, 1, count(t, s, "actions"))
		// The ledger's entries carry the action: its legs, in its row (migration 00090).
		rows, err := s.r.Query(`SELECT table_id, round_id, action_seq, leg, reason FROM ledger_entries
			WHERE round_id IS NOT NULL ORDER BY action_seq, leg`)
		require.NoError(t, err)
		var legs []string
		for rows.Next() {
			var table, round int64
			var seq, leg int
			var reason string
			require.NoError(t, rows.Scan(&table, &round, &seq, &leg, &reason))
			assert.Equal(t, tb.ID, table)
			assert.Equal(t, r.ID, round)
			legs = append(legs, reason+"/"+itoa(int64(seq))+"/"+itoa(int64(leg)))
		}
		require.NoError(t, rows.Err())
		assert.Equal(t, []string{"stake/1/0", "reserve/1/1"}, legs)

		// The unique key itself: the legs of (round, 1) are in its action's row, and a
		// second row for (round, 1), legs and all, is refused by the database whatever
		// the code above it does.
		_, err = s.w.Exec(`INSERT INTO actions (round_id, seq, member_id, verb, created_at, legs)
			VALUES (?, 1, 'bob', 'stake', 'x', ?)`, r.ID, `[["wallet:bob","`+EscrowAccount(tb.ID, "bob")+`",1,"stake"]]`)
		assert.True(t, isUnique(err), "%v", err)

		// An action without transfers, then one that ends the round.
		require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 2, Member: "bob", Verb: "stick", Now: t0}))
		finish := ApplyParams{RoundID: r.ID, Seq: 3, Member: "alice", Verb: "stay", InteractionID: "i3", Now: t0.Add(time.Minute),
			Transfers: []Transfer{{From: EscrowAccount(tb.ID, "bob"), To: WalletAccount("bob"), Amount: 20},
				{From: WalletAccount("alice"), To: WalletAccount("bob"), Amount: 10}},
			Finish: &RoundFinish{Result: `{"net":{"bob":10}}`, BankOwner: "bob", NextPack: []string{"AS", "KD"}}}
		require.NoError(t, s.ApplyAction(ctx, finish))
		got, err := s.Round(ctx, tb.ID, 1)
		require.NoError(t, err)
		assert.True(t, got.Finished())
		assert.Equal(t, t0.Add(time.Minute), got.FinishedAt)
		assert.JSONEq(t, `{"net":{"bob":10}}`, got.Result)
		after := finish
		after.Seq, after.InteractionID, after.Finish = 4, "", nil
		assert.ErrorIs(t, s.ApplyAction(ctx, after), ErrRoundFinished)
		assert.ErrorIs(t, s.ApplyAction(ctx, finish), ErrDuplicateInteraction)

		as, err := s.Actions(ctx, r.ID)
		require.NoError(t, err)
		assert.Equal(t, []Action{
			{RoundID: r.ID, Seq: 1, Member: "bob", Verb: "stake", Args: "10", InteractionID: "i1", CreatedAt: t0},
			{RoundID: r.ID, Seq: 2, Member: "bob", Verb: "stick", CreatedAt: t0},
			{RoundID: r.ID, Seq: 3, Member: "alice", Verb: "stay", InteractionID: "i3", CreatedAt: t0.Add(time.Minute)},
		}, as)

		// Bad inputs.
		for name, p := range map[string]ApplyParams{
			"seq 0":      {RoundID: r.ID, Seq: 0, Member: "a", Verb: "v", Now: t0},
			"no member":  {RoundID: r.ID, Seq: 4, Verb: "v", Now: t0},
			"no verb":    {RoundID: r.ID, Seq: 4, Member: "a", Now: t0},
			"no time":    {RoundID: r.ID, Seq: 4, Member: "a", Verb: "v"},
			"bad result": {RoundID: r.ID, Seq: 4, Member: "a", Verb: "v", Now: t0, Finish: &RoundFinish{Result: "{"}},
		} {
			assert.ErrorIs(t, s.ApplyAction(ctx, p), ErrInvalid, name)
		}
		assert.ErrorIs(t, s.ApplyAction(ctx, ApplyParams{RoundID: 999, Seq: 1, Member: "a", Verb: "v", Now: t0}), ErrNotFound)
		_, err = s.Actions(ctx, 999)
		assert.ErrorIs(t, err, ErrNotFound)
	})
}

// TestApplyActionAtomic: a transfer list whose last element fails leaves
// nothing changed: balances, ledger, action row, round end, bank.
// TestApplyActionManyLegs: an action with more legs than one ledger INSERT
// carries (ledgerChunk) records every leg, numbered on across the INSERTs,
// each with its own accounts, amount and reason, and the balances they add up to.
func TestApplyActionManyLegs(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		wallets(t, s, "g", 1000, "alice", "bob")
		tb, r := openTableWithRound(t, s, "g", "c", "alice", "bob")
		w, e := WalletAccount("bob"), EscrowAccount(tb.ID, "bob")
		n := ledgerChunk + 6
		var ts []Transfer
		for i := range n {
			if i%2 == 0 {
				ts = append(ts, Transfer{From: w, To: e, Amount: int64(i%5 + 2), Reason: "in" + itoa(int64(i))})
			} else {
				ts = append(ts, Transfer{From: e, To: w, Amount: 1, Reason: "out" + itoa(int64(i))})
			}
		}
		require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 1, Member: "bob", Verb: "twist", Now: t0, Transfers: ts}))

		rows, err := s.r.Query(`SELECT from_account, to_account, amount, reason, action_seq, leg FROM ledger_entries
			WHERE round_id = ? AND action_seq = 1 ORDER BY leg`, r.ID)
		require.NoError(t, err)
		defer rows.Close()
		var got []Transfer
		for rows.Next() {
			var tr Transfer
			var seq, leg int
			require.NoError(t, rows.Scan(&tr.From, &tr.To, &tr.Amount, &tr.Reason, &seq, &leg))
			assert.Equal(t, 1, seq)
			assert.Equal(t, len(got), leg)
			got = append(got, tr)
		}
		require.NoError(t, rows.Err())
		assert.Equal(t, ts, got)
		var in int64
		for _, tr := range ts {
			if tr.To == e {
				in += tr.Amount
			} else {
				in -= tr.Amount
			}
		}
		assert.Equal(t, in, balanceOf(t, s, "g", e))
		assert.Equal(t, 1000-in, balanceOf(t, s, "g", w))
		requireAudit(t, s)
	})
}

func TestApplyActionAtomic(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		wallets(t, s, "g", 100, "alice", "bob")
		tb, r := openTableWithRound(t, s, "g", "c", "alice", "bob")
		_, err := s.Grant(ctx, "g", "admin", "alice", MaxChips-100, t0)
		require.NoError(t, err)

		snapshot := func() map[string]any {
			st, err := s.TableState(ctx, tb.ID)
			require.NoError(t, err)
			rd, err := s.Round(ctx, tb.ID, 1)
			require.NoError(t, err)
			return map[string]any{
				"alice": balanceOf(t, s, "g", WalletAccount("alice")), "bob": balanceOf(t, s, "g", WalletAccount("bob")),
				"ledger": count(t, s, "ledger"), "actions": count(t, s, "actions"), "accounts": count(t, s, "accounts"),
				"interactions": count(t, s, "interactions"), "state": st, "round": rd,
			}
		}
		before := snapshot()
		ok := []Transfer{
			{From: WalletAccount("bob"), To: EscrowAccount(tb.ID, "bob"), Amount: 30},
			{From: EscrowAccount(tb.ID, "bob"), To: KittyAccount(tb.ID), Amount: 10},
		}
		for name, c := range map[string]struct {
			last Transfer
			want error
		}{
			"insufficient":        {Transfer{From: WalletAccount("bob"), To: WalletAccount("alice"), Amount: 71}, ErrInsufficientChips},
			"overflow":            {Transfer{From: KittyAccount(tb.ID), To: WalletAccount("alice"), Amount: 1}, ErrOverflow},
			"zero":                {Transfer{From: WalletAccount("bob"), To: WalletAccount("alice"), Amount: 0}, ErrBadAmount},
			"negative":            {Transfer{From: WalletAccount("alice"), To: WalletAccount("bob"), Amount: -5}, ErrBadAmount},
			"self":                {Transfer{From: WalletAccount("bob"), To: WalletAccount("bob"), Amount: 1}, ErrSelfTransfer},
			"no wallet":           {Transfer{From: WalletAccount("bob"), To: WalletAccount("zed"), Amount: 1}, ErrNotFound},
			"escrow of no wallet": {Transfer{From: WalletAccount("bob"), To: EscrowAccount(tb.ID, "zed"), Amount: 1}, ErrNotFound},
			"no source":           {Transfer{From: EscrowAccount(tb.ID, "zed"), To: WalletAccount("bob"), Amount: 1}, ErrInsufficientChips},
			"mint":                {Transfer{From: MintAccount, To: WalletAccount("bob"), Amount: 1}, ErrBadAccount},
			"bad name":            {Transfer{From: "escrow:x:bob", To: WalletAccount("bob"), Amount: 1}, ErrBadAccount},
		} {
			err := s.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 1, Member: "bob", Verb: "stake", InteractionID: "i-" + name,
				Now: t0, Transfers: append(append([]Transfer{}, ok...), c.last),
				Finish: &RoundFinish{BankOwner: "bob", NextPack: []string{"2C"}}})
			require.ErrorIs(t, err, c.want, name)
			assert.Equal(t, before, snapshot(), name)
		}
		// The same action without the bad leg goes through.
		require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 1, Member: "bob", Verb: "stake", Now: t0, Transfers: ok}))
		assert.EqualValues(t, 70, balanceOf(t, s, "g", WalletAccount("bob")))
	})
}

func TestMoveLimits(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		wallets(t, s, "g", 0, "alice")

		// The mint may go as low as int64 allows, no lower.
		_, err := s.w.Exec(`UPDATE accounts SET balance = ? WHERE guild_id = 'g' AND account = 'mint'`, int64(math.MinInt64)+5)
		require.NoError(t, err)
		_, err = s.Grant(ctx, "g", "admin", "alice", 6, t0)
		var of *OverflowError
		require.ErrorAs(t, err, &of)
		assert.Equal(t, MintAccount, of.Account)
		_, err = s.w.Exec(`UPDATE accounts SET balance = 0 WHERE guild_id = 'g' AND account = 'mint'`)
		require.NoError(t, err)

		// A transfer larger than any account can hold.
		_, err = s.Grant(ctx, "g", "admin", "alice", math.MaxInt64, t0)
		assert.ErrorIs(t, err, ErrOverflow)

		// The database refuses what the code would never write.
		_, err = s.w.Exec(`UPDATE accounts SET balance = -1 WHERE account = 'wallet:alice'`)
		assert.Error(t, err, "CHECK balance >= 0")
		_, err = s.w.Exec(`UPDATE accounts SET balance = ? WHERE account = 'wallet:alice'`, MaxChips+1)
		assert.Error(t, err, "CHECK balance <= MaxChips")
		fraction := map[string]string{"sqlite": `1.5`, "postgres": `'1.5'`}[bk.name] // PostgreSQL would round a numeric 1.5
		_, err = s.w.Exec(`UPDATE accounts SET balance = ` + fraction + ` WHERE account = 'wallet:alice'`)
		assert.Error(t, err, "STRICT (SQLite), BIGINT (PostgreSQL): no fractional balance")
		_, err = s.w.Exec(`INSERT INTO ledger (guild_id, from_account, to_account, amount, created_at) VALUES ('g', 'mint', 'wallet:alice', 0, 'x')`)
		assert.Error(t, err, "CHECK amount > 0")
		_, err = s.w.Exec(`INSERT INTO ledger (guild_id, from_account, to_account, amount, created_at) VALUES ('g', 'mint', 'wallet:nobody', 1, 'x')`)
		assert.Error(t, err, "foreign key to accounts")
	})
}

func TestParseAccount(t *testing.T) {
	good := map[string]account{
		"mint":                {kind: kindMint},
		"wallet:123":          {kind: kindWallet, member: "123"},
		"wallet:a:b":          {kind: kindWallet, member: "a:b"},
		"escrow:7:123":        {kind: kindEscrow, table: 7, member: "123"},
		"escrow:7:a:b":        {kind: kindEscrow, table: 7, member: "a:b"},
		"kitty:42":            {kind: kindKitty, table: 42},
		WalletAccount("x"):    {kind: kindWallet, member: "x"},
		EscrowAccount(9, "y"): {kind: kindEscrow, table: 9, member: "y"},
		KittyAccount(1 << 40): {kind: kindKitty, table: 1 << 40},
	}
	for name, want := range good {
		got, err := parseAccount(name)
		require.NoError(t, err, name)
		assert.Equal(t, want, got, name)
	}
	for _, name := range []string{"", "mint:", "Mint", "wallet", "wallet:", "escrow:7", "escrow:7:", "escrow::a",
		"escrow:-1:a", "escrow:07:a", "kitty:", "kitty:0", "kitty:+5", "kitty:5:x", "purse:1", "wallet:\xff", "escrow:7:a\xfe"} {
		_, err := parseAccount(name)
		assert.ErrorIs(t, err, ErrBadAccount, "%q", name)
	}
}

func TestEscrowPrefixes(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		for _, name := range []string{"escrow:1:a", "escrow:1:b:c", "escrow:10:d", "escrow:11:e", "escrow:2:f", "kitty:1"} {
			_, err := s.w.Exec(`INSERT INTO accounts (guild_id, account, balance) VALUES ('g', ?, 5)`, name)
			require.NoError(t, err)
		}
		tx, err := s.beginRead(ctx)
		require.NoError(t, err)
		defer tx.Rollback()
		es, err := escrowBalances(ctx, tx, "g", 1)
		require.NoError(t, err)
		assert.Equal(t, []escrowBalance{{"a", 5}, {"b:c", 5}}, es)
		es, err = escrowBalances(ctx, tx, "g", 10)
		require.NoError(t, err)
		assert.Equal(t, []escrowBalance{{"d", 5}}, es)
		_, err = s.w.Exec(`DELETE FROM accounts`) // keep the closing audit happy
		require.NoError(t, err)
	})
}

func TestRoundsAndRecovery(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		wallets(t, s, "g", 1000, "alice", "bob")
		tb, r1 := openTableWithRound(t, s, "g", "c", "alice", "bob")
		require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r1.ID, Seq: 1, Member: "bob", Verb: "stake", Args: "5", Now: t0,
			Transfers: []Transfer{{From: WalletAccount("bob"), To: EscrowAccount(tb.ID, "bob"), Amount: 10}}}))
		require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r1.ID, Seq: 2, Member: "alice", Verb: "stay", Now: t0,
			Transfers: []Transfer{{From: EscrowAccount(tb.ID, "bob"), To: WalletAccount("bob"), Amount: 10}},
			Finish:    &RoundFinish{BankOwner: "alice"}}))
		r2, err := s.StartRound(ctx, StartRoundParams{TableID: tb.ID, Number: 2, History: `{"round":2}`, Now: t0.Add(time.Minute)})
		require.NoError(t, err)
		require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r2.ID, Seq: 1, Member: "bob", Verb: "stake", Args: "7", Now: t0,
			Transfers: []Transfer{{From: WalletAccount("bob"), To: EscrowAccount(tb.ID, "bob"), Amount: 14}}}))
		// A second table with an unfinished round and no actions.
		tb2, r3 := openTableWithRound(t, s, "g", "d", "bob", "alice")

		rs, err := s.Rounds(ctx, tb.ID, 0)
		require.NoError(t, err)
		require.Len(t, rs, 2)
		assert.Equal(t, []int{2, 1}, []int{rs[0].Number, rs[1].Number}, "newest first")
		rs, err = s.Rounds(ctx, tb.ID, 1)
		require.NoError(t, err)
		assert.Equal(t, []Round{r2}, rs)
		_, err = s.Rounds(ctx, 999, 1)
		assert.ErrorIs(t, err, ErrNotFound)

		got, err := s.Round(ctx, tb.ID, 2)
		require.NoError(t, err)
		assert.Equal(t, r2, got)
		_, err = s.Round(ctx, tb.ID, 3)
		var nf *NotFoundError
		require.ErrorAs(t, err, &nf)
		assert.Equal(t, "3 of table "+itoa(tb.ID), nf.Key)

		// Start-up recovery: every unfinished round with its table and actions.
		un, err := s.UnfinishedRounds(ctx)
		require.NoError(t, err)
		require.Len(t, un, 2)
		assert.Equal(t, r2, un[0].Round)
		assert.Equal(t, tb.ID, un[0].Table.ID)
		assert.Len(t, un[0].Table.Seats, 2)
		require.Len(t, un[0].Actions, 1)
		assert.Equal(t, "7", un[0].Actions[0].Args)
		assert.Equal(t, r3, un[1].Round)
		assert.Equal(t, tb2.ID, un[1].Table.ID)
		assert.Empty(t, un[1].Actions)
	})
}

func TestGuildSettings(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		doc, err := s.GuildSettings(ctx, "g")
		require.NoError(t, err)
		assert.Equal(t, "{}", doc)
		require.NoError(t, s.SetGuildSettings(ctx, "g", `{"language":"pl","turn_timer":"90s"}`, t0))
		require.NoError(t, s.SetGuildSettings(ctx, "h", `{"language":"id"}`, t0))
		require.NoError(t, s.SetGuildSettings(ctx, "g", `{"language":"pt-BR"}`, t0))
		doc, err = s.GuildSettings(ctx, "g")
		require.NoError(t, err)
		assert.JSONEq(t, `{"language":"pt-BR"}`, doc)
		assert.ErrorIs(t, s.SetGuildSettings(ctx, "g", `{"language":`, t0), ErrInvalid)
		assert.ErrorIs(t, s.SetGuildSettings(ctx, "", `{}`, t0), ErrInvalid)
	})
}

// TestAuditFindsTampering: the audit catches each kind of broken book.
func TestAuditFindsTampering(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		wallets(t, s, "g", 100, "alice", "bob")
		wallets(t, s, "h", 50, "carol")
		rep, err := s.Audit(ctx)
		require.NoError(t, err)
		require.True(t, rep.OK(), "%s", rep)
		assert.Equal(t, []GuildAudit{
			{Guild: "g", Accounts: 3, Circulating: 200, Minted: 200, LedgerRows: 2},
			{Guild: "h", Accounts: 2, Circulating: 50, Minted: 50, LedgerRows: 1},
		}, rep.Guilds)
		assert.Contains(t, rep.String(), "audit OK")

		// A balance changed behind the ledger's back.
		_, err = s.w.Exec(`UPDATE accounts SET balance = balance + 5 WHERE guild_id = 'g' AND account = 'wallet:bob'`)
		require.NoError(t, err)
		// A ledger row whose balances were never applied, in the other guild.
		_, err = s.w.Exec(`INSERT INTO ledger (guild_id, from_account, to_account, amount, created_at) VALUES ('h', 'mint', 'wallet:carol', 7, 'x')`)
		require.NoError(t, err)
		rep, err = s.Audit(ctx)
		require.NoError(t, err)
		assert.False(t, rep.OK())
		out := rep.String()
		assert.Contains(t, out, "audit FAILED")
		assert.Contains(t, out, "guild g: 205 chips in accounts but 200 minted")
		assert.Contains(t, out, "guild g: wallet:bob holds 105 but its ledger sums to 100")
		assert.Contains(t, out, "guild h: wallet:carol holds 50 but its ledger sums to 57")
		assert.Contains(t, out, "guild h: mint holds -50 but its ledger sums to -57")

		// Undo, so the closing audit passes.
		_, err = s.w.Exec(`UPDATE accounts SET balance = balance - 5 WHERE guild_id = 'g' AND account = 'wallet:bob'`)
		require.NoError(t, err)
		_, err = s.w.Exec(`DELETE FROM ledger WHERE amount = 7`)
		require.NoError(t, err)
		requireAudit(t, s)
	})
}

// TestAuditPlansWithoutParallelWorkers: the audit's ledger query, run after the
// dialect's audit setup as Audit runs it, plans no parallel workers (a Gather node),
// whose start cost PostgreSQL 80-90 ms an audit on a ledger of a few hundred entries.
// SQLite has no such planner and no setup.
func TestAuditPlansWithoutParallelWorkers(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		if s.d.name == "sqlite" {
			assert.Empty(t, s.d.auditSetup)
			return
		}
		wallets(t, s, "g", 100, "alice", "bob")
		plan := func(setup bool) string {
			tx, err := s.beginRead(ctx)
			require.NoError(t, err)
			defer tx.Rollback()
			if setup {
				_, err = tx.ExecContext(ctx, s.d.auditSetup)
				require.NoError(t, err)
			}
			rows, err := tx.QueryContext(ctx, "EXPLAIN "+auditLedgerSQL)
			require.NoError(t, err)
			defer rows.Close()
			var b strings.Builder
			for rows.Next() {
				var line string
				require.NoError(t, rows.Scan(&line))
				b.WriteString(line + "\n")
			}
			require.NoError(t, rows.Err())
			return b.String()
		}
		t.Logf("without the setup the plan has a Gather: %v", strings.Contains(plan(false), "Gather"))
		assert.NotContains(t, plan(true), "Gather")
	})
}

package store

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOpenTable(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)

		tb, err := s.OpenTable(ctx, OpenTableParams{Guild: "g", Channel: "c", Host: "alice", Now: t0})
		require.NoError(t, err)
		assert.Equal(t, Table{ID: tb.ID, Guild: "g", Channel: "c", Host: "alice", Rules: "{}", Status: StatusOpen, CreatedAt: t0}, tb)
		assert.Equal(t, "kitty:"+itoa(tb.ID), tb.Kitty())

		_, err = s.OpenTable(ctx, OpenTableParams{Guild: "g", Channel: "c", Host: "bob", Now: t0})
		assert.ErrorIs(t, err, ErrTableOpen)

		// Another channel, and the same channel id in another guild, are free.
		_, err = s.OpenTable(ctx, OpenTableParams{Guild: "g", Channel: "d", Host: "bob", Rules: `{"variant":"shoot"}`, Now: t0})
		require.NoError(t, err)
		_, err = s.OpenTable(ctx, OpenTableParams{Guild: "h", Channel: "c", Host: "bob", Now: t0})
		require.NoError(t, err)

		for _, p := range []OpenTableParams{
			{Guild: "", Channel: "x", Host: "a", Now: t0},
			{Guild: "g", Channel: "", Host: "a", Now: t0},
			{Guild: "g", Channel: "x", Host: "", Now: t0},
			{Guild: "g", Channel: "x", Host: "a"},
			{Guild: "g", Channel: "x", Host: "a", Rules: "{not json", Now: t0},
		} {
			_, err := s.OpenTable(ctx, p)
			assert.ErrorIs(t, err, ErrInvalid, "%+v", p)
		}

		got, err := s.TableByChannel(ctx, "g", "c")
		require.NoError(t, err)
		assert.Equal(t, tb, got)
		got, err = s.TableByID(ctx, tb.ID)
		require.NoError(t, err)
		assert.Equal(t, tb, got)
		_, err = s.TableByChannel(ctx, "g", "nope")
		assert.ErrorIs(t, err, ErrNotFound)
		_, err = s.TableByID(ctx, 999)
		assert.ErrorIs(t, err, ErrNotFound)

		open, err := s.OpenTables(ctx)
		require.NoError(t, err)
		assert.Len(t, open, 3)
	})
}

// TestBankAndKittySurviveSessions: R6.4, the bank's owner and the kitty belong
// to the channel and pass to its next table.
func TestBankAndKittySurviveSessions(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		wallets(t, s, "g", 1000, "alice", "bob")

		tb, err := s.OpenTable(ctx, OpenTableParams{Guild: "g", Channel: "c", Host: "alice", BankOwner: "alice", Now: t0})
		require.NoError(t, err)
		assert.Equal(t, "alice", tb.BankOwner)
		require.NoError(t, s.UpdateBank(ctx, BankParams{TableID: tb.ID, Reason: "kitty",
			Transfers: []Transfer{{From: WalletAccount("alice"), To: KittyAccount(tb.ID), Amount: 150}}, Now: t0}))
		bob := "bob"
		require.NoError(t, s.UpdateBank(ctx, BankParams{TableID: tb.ID, BankOwner: &bob, Now: t0}))
		require.NoError(t, s.SetSeats(ctx, tb.ID, []string{"alice", "bob"}, t0))
		require.NoError(t, s.CloseTable(ctx, tb.ID, t0.Add(time.Hour)))

		closed, err := s.TableByID(ctx, tb.ID)
		require.NoError(t, err)
		assert.Equal(t, StatusClosed, closed.Status)
		assert.Equal(t, t0.Add(time.Hour), closed.ClosedAt)
		assert.Len(t, closed.Seats, 2, "the closed table keeps its record")
		_, err = s.TableByChannel(ctx, "g", "c")
		assert.ErrorIs(t, err, ErrNotFound)
		assert.ErrorIs(t, s.CloseTable(ctx, tb.ID, t0), ErrTableClosed)
		assert.ErrorIs(t, s.SetRules(ctx, tb.ID, "{}"), ErrTableClosed)
		assert.ErrorIs(t, s.SetSeats(ctx, tb.ID, nil, t0), ErrTableClosed)
		assert.ErrorIs(t, s.UpdateBank(ctx, BankParams{TableID: tb.ID, Now: t0}), ErrTableClosed)

		// The next session: a new table that takes bob's bank and the kitty,
		// whatever BankOwner the caller proposes.
		next, err := s.OpenTable(ctx, OpenTableParams{Guild: "g", Channel: "c", Host: "carol", BankOwner: "carol", Now: t0.Add(2 * time.Hour)})
		require.NoError(t, err)
		assert.NotEqual(t, tb.ID, next.ID)
		assert.Equal(t, "bob", next.BankOwner)
		assert.Empty(t, next.Seats)
		st, err := s.TableState(ctx, next.ID)
		require.NoError(t, err)
		assert.EqualValues(t, 150, st.Kitty)
		assert.Zero(t, balanceOf(t, s, "g", KittyAccount(tb.ID)))
		var reason string
		require.NoError(t, s.r.QueryRow(`SELECT reason FROM ledger WHERE to_account = ?`, KittyAccount(next.ID)).Scan(&reason))
		assert.Equal(t, "kitty carried over from table "+itoa(tb.ID), reason)

		// A channel whose bank was never owned takes the proposed owner.
		other, err := s.OpenTable(ctx, OpenTableParams{Guild: "g", Channel: "d", Host: "carol", BankOwner: "carol", Now: t0})
		require.NoError(t, err)
		assert.Equal(t, "carol", other.BankOwner)
		requireAudit(t, s)
	})
}

func TestCloseTable(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		wallets(t, s, "g", 100, "alice", "bob")
		tb, r := openTableWithRound(t, s, "g", "c", "alice", "bob")
		require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 1, Member: "bob", Verb: "stake", Args: "10", Now: t0,
			Transfers: []Transfer{{From: WalletAccount("bob"), To: EscrowAccount(tb.ID, "bob"), Amount: 20}}}))

		assert.ErrorIs(t, s.CloseTable(ctx, tb.ID, t0), ErrRoundInProgress)
		assert.ErrorIs(t, s.CloseTable(ctx, 12345, t0), ErrNotFound)
		assert.ErrorIs(t, s.CloseTable(ctx, tb.ID, time.Time{}), ErrInvalid)

		// An abort action ends the round, leaving bob's escrow (say the game did
		// not settle it); closing hands it back.
		require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 2, Member: "alice", Verb: "abort", Now: t0,
			Finish: &RoundFinish{Result: `{"aborted":true}`, BankOwner: "alice"}}))
		assert.EqualValues(t, 80, balanceOf(t, s, "g", WalletAccount("bob")))
		require.NoError(t, s.CloseTable(ctx, tb.ID, t0))
		assert.EqualValues(t, 100, balanceOf(t, s, "g", WalletAccount("bob")))
		assert.Zero(t, balanceOf(t, s, "g", EscrowAccount(tb.ID, "bob")))
		requireAudit(t, s)
	})
}

func TestSetSeatsAndRules(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		tb, err := s.OpenTable(ctx, OpenTableParams{Guild: "g", Channel: "c", Host: "a", Now: t0})
		require.NoError(t, err)

		require.NoError(t, s.SetSeats(ctx, tb.ID, []string{"a", "b"}, t0))
		require.NoError(t, s.SetSeats(ctx, tb.ID, []string{"c", "b", "a"}, t0.Add(time.Minute)))
		got, err := s.TableByID(ctx, tb.ID)
		require.NoError(t, err)
		assert.Equal(t, []Seat{
			{Member: "c", SeatNo: 0, JoinedAt: t0.Add(time.Minute)},
			{Member: "b", SeatNo: 1, JoinedAt: t0},
			{Member: "a", SeatNo: 2, JoinedAt: t0},
		}, got.Seats)

		assert.ErrorIs(t, s.SetSeats(ctx, tb.ID, []string{"a", "a"}, t0), ErrInvalid)
		assert.ErrorIs(t, s.SetSeats(ctx, tb.ID, []string{""}, t0), ErrInvalid)
		assert.ErrorIs(t, s.SetSeats(ctx, 999, []string{"a"}, t0), ErrNotFound)

		require.NoError(t, s.SetSeats(ctx, tb.ID, nil, t0))
		got, err = s.TableByID(ctx, tb.ID)
		require.NoError(t, err)
		assert.Empty(t, got.Seats)

		require.NoError(t, s.SetRules(ctx, tb.ID, `{"variant":"shoot","kitty_min":10}`))
		got, err = s.TableByID(ctx, tb.ID)
		require.NoError(t, err)
		assert.JSONEq(t, `{"variant":"shoot","kitty_min":10}`, got.Rules)
		assert.ErrorIs(t, s.SetRules(ctx, tb.ID, `{`), ErrInvalid)
		assert.ErrorIs(t, s.SetRules(ctx, 999, `{}`), ErrNotFound)
	})
}

// TestUpdateBankSale: R6.3 and R9.9, a sale in one transaction.
func TestUpdateBankSale(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		wallets(t, s, "g", 1000, "alice", "bob")
		tb, err := s.OpenTable(ctx, OpenTableParams{Guild: "g", Channel: "c", Host: "alice", BankOwner: "alice", Now: t0})
		require.NoError(t, err)
		require.NoError(t, s.UpdateBank(ctx, BankParams{TableID: tb.ID, Now: t0,
			Transfers: []Transfer{{From: WalletAccount("alice"), To: KittyAccount(tb.ID), Amount: 100, Reason: "kitty"}}}))

		bob := "bob"
		sale := BankParams{TableID: tb.ID, BankOwner: &bob, Reason: "bank sale", Now: t0, Transfers: []Transfer{
			{From: WalletAccount("bob"), To: WalletAccount("alice"), Amount: 250},
			{From: KittyAccount(tb.ID), To: WalletAccount("alice"), Amount: 100},
			{From: WalletAccount("bob"), To: KittyAccount(tb.ID), Amount: 50},
		}}
		require.NoError(t, s.UpdateBank(ctx, sale))
		st, err := s.TableState(ctx, tb.ID)
		require.NoError(t, err)
		assert.Equal(t, "bob", st.BankOwner)
		assert.EqualValues(t, 50, st.Kitty)
		assert.EqualValues(t, 1000-100+250+100, balanceOf(t, s, "g", WalletAccount("alice")))
		assert.EqualValues(t, 1000-250-50, balanceOf(t, s, "g", WalletAccount("bob")))

		// Refused moves.
		for name, tr := range map[string]Transfer{
			"mint":          {From: MintAccount, To: KittyAccount(tb.ID), Amount: 1},
			"escrow":        {From: WalletAccount("bob"), To: EscrowAccount(tb.ID, "bob"), Amount: 1},
			"other kitty":   {From: WalletAccount("bob"), To: KittyAccount(tb.ID + 1), Amount: 1},
			"garbage":       {From: "purse:bob", To: KittyAccount(tb.ID), Amount: 1},
			"bad table id":  {From: WalletAccount("bob"), To: "kitty:01", Amount: 1},
			"empty wallet":  {From: "wallet:", To: KittyAccount(tb.ID), Amount: 1},
			"mint with tag": {From: "mint:x", To: KittyAccount(tb.ID), Amount: 1},
		} {
			err := s.UpdateBank(ctx, BankParams{TableID: tb.ID, Now: t0, Transfers: []Transfer{tr}})
			var ae *AccountError
			assert.ErrorAs(t, err, &ae, name)
			assert.ErrorIs(t, err, ErrBadAccount, name)
		}

		// A sale whose last leg fails changes nothing, the owner included.
		alice := "alice"
		err = s.UpdateBank(ctx, BankParams{TableID: tb.ID, BankOwner: &alice, Now: t0, Transfers: []Transfer{
			{From: WalletAccount("alice"), To: WalletAccount("bob"), Amount: 10},
			{From: KittyAccount(tb.ID), To: WalletAccount("bob"), Amount: 51},
		}})
		assert.ErrorIs(t, err, ErrInsufficientChips)
		st2, err := s.TableState(ctx, tb.ID)
		require.NoError(t, err)
		assert.Equal(t, st, st2)

		// Clearing the owner.
		none := ""
		require.NoError(t, s.UpdateBank(ctx, BankParams{TableID: tb.ID, BankOwner: &none, Now: t0}))
		st, err = s.TableState(ctx, tb.ID)
		require.NoError(t, err)
		assert.Empty(t, st.BankOwner)

		// Not during a round.
		_, err = s.StartRound(ctx, StartRoundParams{TableID: tb.ID, Number: 1, History: "{}", Now: t0})
		require.NoError(t, err)
		assert.ErrorIs(t, s.UpdateBank(ctx, BankParams{TableID: tb.ID, BankOwner: &bob, Now: t0}), ErrRoundInProgress)
		requireAudit(t, s)
	})
}

func TestTableState(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		wallets(t, s, "g", 1000, "alice", "bob", "carol")
		tb, r := openTableWithRound(t, s, "g", "c", "alice", "bob", "carol")
		// An escrow of another table whose id shares a prefix must not leak in.
		tb2, r2 := openTableWithRound(t, s, "g", "c2", "alice", "bob")
		require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r2.ID, Seq: 1, Member: "bob", Verb: "stake", Now: t0,
			Transfers: []Transfer{{From: WalletAccount("bob"), To: EscrowAccount(tb2.ID, "bob"), Amount: 7}}}))

		st, err := s.TableState(ctx, tb.ID)
		require.NoError(t, err)
		assert.Equal(t, TableState{TableID: tb.ID, Guild: "g", Status: StatusOpen, BankOwner: "alice",
			Escrows: map[string]int64{}, RoundNumber: 1, CurrentRound: r.ID}, st)

		require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 1, Member: "bob", Verb: "stake", Args: "10", Now: t0,
			Transfers: []Transfer{{From: WalletAccount("bob"), To: EscrowAccount(tb.ID, "bob"), Amount: 20}}}))
		require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 2, Member: "carol", Verb: "stake", Args: "5", Now: t0,
			Transfers: []Transfer{{From: WalletAccount("carol"), To: EscrowAccount(tb.ID, "carol"), Amount: 10}}}))
		st, err = s.TableState(ctx, tb.ID)
		require.NoError(t, err)
		assert.Equal(t, map[string]int64{"bob": 20, "carol": 10}, st.Escrows)

		// The round ends: escrows settle, bank passes, pack carried.
		require.NoError(t, s.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: 3, Member: "alice", Verb: "stay", Now: t0.Add(time.Minute),
			Transfers: []Transfer{
				{From: EscrowAccount(tb.ID, "bob"), To: WalletAccount("bob"), Amount: 20, Reason: "settle"},
				{From: WalletAccount("alice"), To: WalletAccount("bob"), Amount: 10, Reason: "settle"},
				{From: EscrowAccount(tb.ID, "carol"), To: WalletAccount("carol"), Amount: 5, Reason: "settle"},
				{From: EscrowAccount(tb.ID, "carol"), To: WalletAccount("alice"), Amount: 5, Reason: "settle"},
			},
			Finish: &RoundFinish{Result: `{"next_banker":"bob"}`, BankOwner: "bob", NextPack: []string{"9H", "7S"}}}))
		st, err = s.TableState(ctx, tb.ID)
		require.NoError(t, err)
		assert.Equal(t, TableState{TableID: tb.ID, Guild: "g", Status: StatusOpen, BankOwner: "bob",
			Escrows: map[string]int64{}, NextPack: []string{"9H", "7S"}, RoundNumber: 1}, st)

		// The next round consumes the carried pack.
		_, err = s.StartRound(ctx, StartRoundParams{TableID: tb.ID, Number: 2, History: `{"pack":["9H","7S"]}`, Now: t0})
		require.NoError(t, err)
		st, err = s.TableState(ctx, tb.ID)
		require.NoError(t, err)
		assert.Nil(t, st.NextPack)
		assert.Equal(t, 2, st.RoundNumber)

		_, err = s.TableState(ctx, 999)
		assert.ErrorIs(t, err, ErrNotFound)
	})
}

func TestTableMessage(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		tb, err := s.OpenTable(ctx, OpenTableParams{Guild: "g", Channel: "c", Host: "a", Now: t0})
		require.NoError(t, err)
		id, err := s.TableMessage(ctx, tb.ID)
		require.NoError(t, err)
		assert.Empty(t, id, "none recorded yet")
		require.NoError(t, s.SetTableMessage(ctx, tb.ID, "m1"))
		require.NoError(t, s.SetTableMessage(ctx, tb.ID, "m2"))
		id, err = s.TableMessage(ctx, tb.ID)
		require.NoError(t, err)
		assert.Equal(t, "m2", id)
		assert.ErrorIs(t, s.SetTableMessage(ctx, tb.ID, ""), ErrInvalid)
		assert.ErrorIs(t, s.SetTableMessage(ctx, 999, "m"), ErrNotFound)
		id, err = s.TableMessage(ctx, 999)
		require.NoError(t, err)
		assert.Empty(t, id)
	})
}

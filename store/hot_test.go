package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The hot state (hot.go) answers an action's reads from memory on SQLite. These tests
// change the file behind it in each way it must notice, and check that the action then
// decides on what the database holds.

// stake is bob's stake of amount at table tb: wallet to escrow.
func stake(tb Table, r Round, seq int, id string, amount int64) ApplyParams {
	return ApplyParams{RoundID: r.ID, Seq: seq, Member: "bob", Verb: "stake", InteractionID: id, Now: t0,
		Transfers: []Transfer{{From: WalletAccount("bob"), To: EscrowAccount(tb.ID, "bob"), Amount: amount}}}
}

// TestHotStateSeesAnotherProcess: another connection to the file (a second process, the
// sqlite3 shell) takes chips from bob's wallet and appends an action to the round, after
// this store has them in memory. The next actions see both.
func TestHotStateSeesAnotherProcess(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	wallets(t, s, "g", 100, "alice", "bob")
	tb, r := openTableWithRound(t, s, "g", "c", "alice", "bob")
	require.NoError(t, s.ApplyAction(ctx, stake(tb, r, 1, "i1", 10))) // bob: 90, known in memory

	other, err := sql.Open("sqlite3", s.path+"?_busy_timeout=5000")
	require.NoError(t, err)
	defer other.Close()
	tx, err := other.Begin()
	require.NoError(t, err)
	// 85 of bob's chips go back to the mint, with their ledger row, so the books balance.
	for _, q := range []string{
		`UPDATE accounts SET balance = balance - 85 WHERE guild_id = 'g' AND account = 'wallet:bob'`,
		`UPDATE accounts SET balance = balance + 85 WHERE guild_id = 'g' AND account = 'mint'`,
		`INSERT INTO ledger (guild_id, from_account, to_account, amount, reason, created_at)
			VALUES ('g', 'wallet:bob', 'mint', 85, 'shell', 'x')`,
	} {
		_, err := tx.Exec(q)
		require.NoError(t, err, q)
	}
	_, err = tx.Exec(`INSERT INTO actions (round_id, seq, member_id, verb, interaction_id, created_at) VALUES (?, 2, 'alice', 'stick', 'i2', 'x')`, r.ID)
	require.NoError(t, err)
	require.NoError(t, tx.Commit())

	assert.ErrorIs(t, s.ApplyAction(ctx, stake(tb, r, 2, "i9", 1)), ErrDuplicateAction, "seq 2 is taken")
	assert.ErrorIs(t, s.ApplyAction(ctx, stake(tb, r, 3, "i2", 1)), ErrDuplicateInteraction, "i2 is taken")
	var short *InsufficientChipsError
	require.ErrorAs(t, s.ApplyAction(ctx, stake(tb, r, 3, "i3", 10)), &short, "bob has 5")
	assert.EqualValues(t, 5, short.Have)
	require.NoError(t, s.ApplyAction(ctx, stake(tb, r, 3, "i3", 5)))
	assert.EqualValues(t, 0, balanceOf(t, s, "g", WalletAccount("bob")))
	requireAudit(t, s)
}

// TestHotStateTwoStoresOneRound: two stores on one file (two processes) take turns at
// one round's actions, each move changing balances the other has in memory.
func TestHotStateTwoStoresOneRound(t *testing.T) {
	ctx := context.Background()
	a := openTest(t)
	b, err := Open(ctx, a.path)
	require.NoError(t, err)
	defer b.Close()
	wallets(t, a, "g", 100, "alice", "bob")
	tb, r := openTableWithRound(t, a, "g", "c", "alice", "bob")
	for seq := 1; seq <= 20; seq++ {
		s := []*Store{a, b}[seq%2]
		require.NoError(t, s.ApplyAction(ctx, stake(tb, r, seq, "i"+itoa(int64(seq)), 5)), "seq %d", seq)
	}
	for _, s := range []*Store{a, b} {
		var short *InsufficientChipsError
		require.ErrorAs(t, s.ApplyAction(ctx, stake(tb, r, 21, "i21", 1)), &short, "bob staked all 100")
		assert.EqualValues(t, 0, short.Have)
		assert.ErrorIs(t, s.ApplyAction(ctx, stake(tb, r, 20, "i99", 1)), ErrDuplicateAction)
		assert.ErrorIs(t, s.ApplyAction(ctx, stake(tb, r, 21, "i7", 1)), ErrDuplicateInteraction)
	}
	requireAudit(t, a)
}

// TestHotStateForgetsARolledBackBody: in one group commit, a body that staked and then
// failed is rolled back to its savepoint, and what it would have changed must not reach
// the body after it, nor the state once the group commits.
func TestHotStateForgetsARolledBackBody(t *testing.T) {
	ctx := context.Background()
	// No checkpointer: its write-path turns would queue between the bodies.
	s := sqliteBackend.open(t, func(o *options) { o.manualCheckpoints = true })
	wallets(t, s, "g", 100, "alice", "bob")
	tb, r := openTableWithRound(t, s, "g", "c", "alice", "bob")
	require.NoError(t, s.ApplyAction(ctx, stake(tb, r, 1, "i1", 10))) // bob: 90, known in memory

	// Hold the write connection while a first write takes the write path and waits
	// for it, and the two bodies queue behind, in order: the writer then runs them in
	// one transaction.
	hold, err := s.beginWrite(ctx)
	require.NoError(t, err)
	defer hold.Rollback() // a failed wait below must not leave the writers stuck
	queued := func(n int) {
		deadline := time.Now().Add(30 * time.Second) // a bound on a wait, not a measurement
		for {
			s.group.mu.Lock()
			busy, l := s.group.busy, len(s.group.queue)
			s.group.mu.Unlock()
			if busy && l == n {
				return
			}
			if l > n || time.Now().After(deadline) {
				t.Fatalf("write path: busy %v, %d queued, want %d", busy, l, n)
			}
			runtime.Gosched()
		}
	}
	var wg sync.WaitGroup
	var first, failed, second error
	wg.Go(func() { first = s.SetGuildSettings(ctx, "g", `{}`, t0) })
	queued(0)
	wg.Go(func() {
		// Stakes 50, then a second action bob cannot pay: the whole body is refused.
		failed = s.ApplyActions(ctx, []ApplyParams{stake(tb, r, 2, "i2", 50), stake(tb, r, 3, "i3", 1000)})
	})
	queued(1)
	wg.Go(func() { second = s.ApplyAction(ctx, stake(tb, r, 2, "i4", 60)) }) // 60 of 90: only if the 50 is gone
	queued(2)
	before := s.group.commits.Load()
	require.NoError(t, hold.Rollback())
	wg.Wait()
	require.NoError(t, first)
	var short *InsufficientChipsError
	require.ErrorAs(t, failed, &short)
	require.NoError(t, second, "the failed body's stake and seq 2 were rolled back")
	assert.Equal(t, int64(2), s.group.commits.Load()-before, "the first write, then one group of two")

	// After the commit the state holds what the database does: bob has 30, seq 2 and
	// i4 are used, i2 and i3 are not.
	require.ErrorAs(t, s.ApplyAction(ctx, stake(tb, r, 3, "i5", 31)), &short)
	assert.EqualValues(t, 30, short.Have)
	assert.ErrorIs(t, s.ApplyAction(ctx, stake(tb, r, 3, "i4", 1)), ErrDuplicateInteraction)
	require.NoError(t, s.ApplyAction(ctx, stake(tb, r, 3, "i2", 30)))
	assert.EqualValues(t, 0, balanceOf(t, s, "g", WalletAccount("bob")))
	requireAudit(t, s)
}

// TestEncodeLegs: an action's legs as its row stores them (migration 00090): short
// names for the table's own accounts and wallets, no reason when it is the verb, any
// other name in full, and JSON escaping for what needs it.
func TestEncodeLegs(t *testing.T) {
	assert.False(t, encodeLegs(nil, 7, "stake").Valid, "no legs: NULL")
	got := encodeLegs([]Transfer{
		{From: WalletAccount("123"), To: EscrowAccount(7, "123"), Amount: 20},
		{From: EscrowAccount(7, "123"), To: KittyAccount(7), Amount: 5, Reason: "stake"},
		{From: KittyAccount(7), To: WalletAccount(`a"b\c`), Amount: 1, Reason: "pays\n"},
		{From: EscrowAccount(8, "123"), To: KittyAccount(8), Amount: 2},
	}, 7, "stake")
	assert.Equal(t, `[["w:123","e:123",20],["e:123","k",5],["k","w:a\"b\\c",1,"pays\u000a"],["escrow:8:123","kitty:8",2]]`, got.String)
	var v any
	assert.NoError(t, json.Unmarshal([]byte(got.String), &v), "valid JSON")
}

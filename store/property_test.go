package store

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// TestConservationProperty drives the store with random sequences of
// EnsureWallet, Give, Grant, ClaimDaily, StartRound, ApplyAction, UpdateBank
// and closing and reopening tables, with valid and invalid transfers between
// wallets, escrows and kitties. A model predicts each outcome. After every
// step: Audit is OK (conservation, ledger = balances, nothing negative) and
// every balance equals the model's, so a refused call changed nothing.
//
// Opening a database per sequence costs more than its steps, so unless
// -rapid.steps is given the sequences are long: 100 sequences of about 200
// steps. Run longer with -rapid.checks=1000.
func TestConservationProperty(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		stepsSet := false
		flag.Visit(func(f *flag.Flag) { stepsSet = stepsSet || f.Name == "rapid.steps" })
		if !stepsSet {
			if err := flag.Set("rapid.steps", "200"); err != nil {
				t.Fatal(err)
			}
		}
		n := 0
		rapid.Check(t, func(rt *rapid.T) {
			n++
			s, err := Open(context.Background(), bk.location(t))
			if err != nil {
				rt.Fatal(err)
			}
			defer s.Close()
			m := newModel(rt, s)
			rt.Repeat(map[string]func(*rapid.T){
				"":            m.check,
				"wallet":      m.ensureWallet,
				"give":        m.give,
				"grant":       m.grant,
				"daily":       m.daily,
				"time":        m.advance,
				"startRound":  m.startRound,
				"applyAction": m.applyAction,
				"applyMore":   m.applyAction, // actions are most of what a bot does
				"applyMost":   m.applyAction,
				"updateBank":  m.updateBank,
				"reopen":      m.reopen,
			})
		})
	})
}

const propGuild = "g"

var propMembers = []string{"m0", "m1", "m2", "m3", "m4"}

type modelTable struct {
	id       int64
	channel  string
	owner    string
	number   int   // last round started
	round    int64 // id of the last round, 0 before any
	seq      int   // last action seq of that round
	finished bool  // whether that round has finished
	pack     []string
}

type model struct {
	s            *Store
	ctx          context.Context
	now          time.Time
	wallets      map[string]bool
	claimed      map[string]time.Time
	bal          map[string]int64 // every account of the guild, mint included
	tables       []*modelTable
	interactions map[int64][]string // by round: the ids its actions carry
	nextID       int
}

func newModel(t *rapid.T, s *Store) *model {
	m := &model{s: s, ctx: context.Background(), now: t0, wallets: map[string]bool{}, interactions: map[int64][]string{},
		claimed: map[string]time.Time{}, bal: map[string]int64{}}
	// Three members start with wallets; the others appear on the way.
	for _, p := range propMembers[:3] {
		if _, _, err := s.EnsureWallet(m.ctx, propGuild, p, 1000, m.now); err != nil {
			t.Fatal(err)
		}
		m.wallets[p] = true
		m.bal[MintAccount] -= 1000
		m.bal[WalletAccount(p)] += 1000
	}
	for _, ch := range []string{"c1", "c2"} {
		tb, err := s.OpenTable(m.ctx, OpenTableParams{Guild: propGuild, Channel: ch, Host: "m0", Now: m.now})
		if err != nil {
			t.Fatal(err)
		}
		m.tables = append(m.tables, &modelTable{id: tb.ID, channel: ch})
	}
	return m
}

// expect fails unless err is nil when want is nil, or wraps want.
func expect(t *rapid.T, what string, err, want error) {
	t.Helper()
	if want == nil && err != nil {
		t.Fatalf("%s: unexpected error %v", what, err)
	}
	if want != nil && !errors.Is(err, want) {
		t.Fatalf("%s: got error %v, want %v", what, err, want)
	}
}

func (m *model) check(t *rapid.T) {
	rep, err := m.s.Audit(m.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Fatalf("audit:\n%s", rep)
	}
	got := map[string]int64{}
	rows, err := m.s.r.Query(`SELECT account, balance FROM accounts WHERE guild_id = ? AND balance <> 0`, propGuild)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var a string
		var b int64
		if err := rows.Scan(&a, &b); err != nil {
			t.Fatal(err)
		}
		if b < 0 && a != MintAccount {
			t.Fatalf("%s is negative: %d", a, b)
		}
		got[a] = b
	}
	want := maps.Clone(m.bal)
	maps.DeleteFunc(want, func(_ string, v int64) bool { return v == 0 })
	if !maps.Equal(got, want) {
		t.Fatalf("balances:\n got %v\nwant %v", got, want)
	}
}

func (m *model) member(t *rapid.T, label string) string {
	return rapid.SampledFrom(propMembers).Draw(t, label)
}

func (m *model) ensureWallet(t *rapid.T) {
	who := m.member(t, "member")
	starting := rapid.Int64Range(0, 2000).Draw(t, "starting")
	w, created, err := m.s.EnsureWallet(m.ctx, propGuild, who, starting, m.now)
	expect(t, "EnsureWallet", err, nil)
	if created == m.wallets[who] {
		t.Fatalf("created = %v for a wallet that existed = %v", created, m.wallets[who])
	}
	if created {
		m.wallets[who] = true
		m.bal[MintAccount] -= starting
		m.bal[WalletAccount(who)] += starting
	}
	if w.Balance != m.bal[WalletAccount(who)] {
		t.Fatalf("wallet %s: %d, model %d", who, w.Balance, m.bal[WalletAccount(who)])
	}
}

func (m *model) give(t *rapid.T) {
	from, to := m.member(t, "from"), m.member(t, "to")
	amount := amount(t, 1500)
	var want error
	switch {
	case from == to:
		want = ErrSelfTransfer
	case amount <= 0:
		want = ErrBadAmount
	case !m.wallets[from]:
		want = ErrNotFound
	case m.bal[WalletAccount(from)] < amount:
		want = ErrInsufficientChips
	case !m.wallets[to]:
		want = ErrNotFound
	}
	_, _, err := m.s.Give(m.ctx, propGuild, from, to, amount, 0, m.now)
	expect(t, "Give", err, want)
	if want == nil {
		m.bal[WalletAccount(from)] -= amount
		m.bal[WalletAccount(to)] += amount
	}
}

func (m *model) grant(t *rapid.T) {
	to := m.member(t, "to")
	amount := amount(t, 5000)
	var want error
	switch {
	case amount <= 0:
		want = ErrBadAmount
	case !m.wallets[to]:
		want = ErrNotFound
	}
	_, err := m.s.Grant(m.ctx, propGuild, "admin", to, amount, m.now)
	expect(t, "Grant", err, want)
	if want == nil {
		m.bal[MintAccount] -= amount
		m.bal[WalletAccount(to)] += amount
	}
}

func (m *model) daily(t *rapid.T) {
	who := m.member(t, "member")
	const amount, cooldown = 200, time.Hour
	var want error
	switch {
	case !m.wallets[who]:
		want = ErrNotFound
	case !m.claimed[who].IsZero() && m.now.Before(m.claimed[who].Add(cooldown)):
		want = ErrCooldown
	}
	_, err := m.s.ClaimDaily(m.ctx, propGuild, who, amount, cooldown, m.now)
	expect(t, "ClaimDaily", err, want)
	if want == nil {
		m.claimed[who] = m.now
		m.bal[MintAccount] -= amount
		m.bal[WalletAccount(who)] += amount
	}
}

func (m *model) advance(t *rapid.T) {
	m.now = m.now.Add(rapid.SampledFrom([]time.Duration{time.Second, 10 * time.Minute, time.Hour}).Draw(t, "dt"))
}

// transfers draws a list of transfers for table tb. Most legs take from an
// account that holds chips, at most what it holds, so that lists often go
// through; some take too much, from an empty account, or touch an account
// the table may not touch, or move a bad amount.
func (m *model) transfers(t *rapid.T, tb *modelTable, escrow bool) []Transfer {
	other := m.tables[0]
	if other == tb {
		other = m.tables[1]
	}
	var names []string
	for _, p := range propMembers {
		names = append(names, WalletAccount(p))
		if escrow {
			names = append(names, EscrowAccount(tb.id, p))
		}
	}
	names = append(names, KittyAccount(tb.id), KittyAccount(tb.id))
	bad := rapid.SampledFrom([]string{MintAccount, KittyAccount(other.id), EscrowAccount(other.id, "m0"), "purse:m0"})
	bal := maps.Clone(m.bal) // running balances, to aim the next leg
	n := rapid.IntRange(0, 4).Draw(t, "legs")
	ts := make([]Transfer, n)
	for i := range ts {
		var funded []string
		for _, name := range names {
			if bal[name] > 0 {
				funded = append(funded, name)
			}
		}
		tr := Transfer{From: rapid.SampledFrom(names).Draw(t, "from"), To: rapid.SampledFrom(names).Draw(t, "to")}
		if len(funded) > 0 && !chance(t, "unaimed", 5) {
			tr.From = rapid.SampledFrom(funded).Draw(t, "from")
			tr.Amount = rapid.Int64Range(1, bal[tr.From]).Draw(t, "amount")
		} else {
			tr.Amount = rapid.Int64Range(1, 400).Draw(t, "amount")
		}
		switch {
		case chance(t, "badAccount", 30):
			tr.To = bad.Draw(t, "bad")
		case chance(t, "badAmount", 30):
			tr.Amount = rapid.Int64Range(-5, 0).Draw(t, "amount")
		}
		if tr.Amount > 0 && bal[tr.From] >= tr.Amount {
			bal[tr.From] -= tr.Amount
			bal[tr.To] += tr.Amount
		}
		ts[i] = tr
	}
	return ts
}

// chance is true about once in n draws. rapid favours small numbers, so the
// rare case is the largest.
func chance(t *rapid.T, label string, n int) bool {
	return rapid.IntRange(1, n).Draw(t, label) == n
}

// amount draws a chip amount, now and then one that is not positive.
func amount(t *rapid.T, max int64) int64 {
	if chance(t, "badAmount", 10) {
		return rapid.Int64Range(-3, 0).Draw(t, "amount")
	}
	return rapid.Int64Range(1, max).Draw(t, "amount")
}

// predict applies ts to a copy of the balances as the store would and
// returns the new balances, or the error the store must return.
func (m *model) predict(ts []Transfer, tableID int64, escrow bool) (map[string]int64, error) {
	for _, tr := range ts {
		for _, name := range []string{tr.From, tr.To} {
			a, err := parseAccount(name)
			if err != nil || a.kind == kindMint || (a.kind == kindEscrow && !escrow) ||
				((a.kind == kindEscrow || a.kind == kindKitty) && a.table != tableID) {
				return nil, ErrBadAccount
			}
		}
	}
	bal := maps.Clone(m.bal)
	for _, tr := range ts {
		to, _ := parseAccount(tr.To)
		switch {
		case tr.Amount <= 0:
			return nil, ErrBadAmount
		case tr.From == tr.To:
			return nil, ErrSelfTransfer
		case bal[tr.From] < tr.Amount:
			return nil, ErrInsufficientChips
		case (to.kind == kindWallet || to.kind == kindEscrow) && !m.wallets[to.member]:
			return nil, ErrNotFound
		}
		bal[tr.From] -= tr.Amount
		bal[tr.To] += tr.Amount
	}
	return bal, nil
}

func (m *model) table(t *rapid.T) *modelTable {
	return rapid.SampledFrom(m.tables).Draw(t, "table")
}

func (m *model) startRound(t *rapid.T) {
	tb := m.table(t)
	ts := m.transfers(t, tb, true)
	number := tb.number + 1
	if chance(t, "wrongNumber", 10) {
		number = tb.number + rapid.SampledFrom([]int{0, 2}).Draw(t, "offset")
	}
	bal, want := m.predict(ts, tb.id, true)
	switch {
	case errors.Is(want, ErrBadAccount):
		// checked before the transaction begins
	case number <= tb.number && number > 0:
		want = ErrDuplicateRound
	case tb.round != 0 && !tb.finished:
		want = ErrRoundInProgress
	case number != tb.number+1:
		want = ErrStaleRound
	}
	r, err := m.s.StartRound(m.ctx, StartRoundParams{TableID: tb.id, Number: number, History: `{"format":"pontoon-history/1"}`,
		Now: m.now, Transfers: ts})
	expect(t, "StartRound", err, want)
	if want == nil {
		m.bal = bal
		tb.number, tb.round, tb.seq, tb.finished, tb.pack = number, r.ID, 0, false, nil
	}
}

func (m *model) applyAction(t *rapid.T) {
	tb := m.table(t)
	if tb.round == 0 {
		t.Skip("no round yet")
	}
	ts := m.transfers(t, tb, true)
	seq := tb.seq + 1
	m.nextID++
	interaction := fmt.Sprintf("i%d", m.nextID)
	var want error
	switch rapid.IntRange(0, 9).Draw(t, "variant") {
	case 9: // a redelivered interaction: an id is unique within its round, and on
		// PostgreSQL across rounds too (migration 00090)
		used := m.interactions[tb.round]
		if m.s.postgres {
			used = nil
			for _, ids := range m.interactions {
				used = append(used, ids...)
			}
			slices.Sort(used) // map order is random; rapid's draws must not be
		}
		if len(used) > 0 {
			interaction = rapid.SampledFrom(used).Draw(t, "interaction")
			want = ErrDuplicateInteraction
		}
	case 8: // an action applied before
		if tb.seq > 0 {
			seq = rapid.IntRange(1, tb.seq).Draw(t, "seq")
			want = ErrDuplicateAction
		}
	case 7: // a bot that lost count
		seq = tb.seq + rapid.IntRange(2, 4).Draw(t, "ahead")
		want = ErrStaleSeq
	}
	var finish *RoundFinish
	if chance(t, "finishes", 4) {
		finish = &RoundFinish{Result: `{"ok":true}`, BankOwner: m.member(t, "banker"),
			NextPack: rapid.SliceOfN(rapid.SampledFrom([]string{"AS", "KD", "7C"}), 0, 3).Draw(t, "pack")}
	}
	if tb.finished && !errors.Is(want, ErrDuplicateInteraction) && !errors.Is(want, ErrDuplicateAction) {
		want = ErrRoundFinished
	}
	bal, moveErr := m.predict(ts, tb.id, true)
	if want == nil {
		want = moveErr
	}
	err := m.s.ApplyAction(m.ctx, ApplyParams{RoundID: tb.round, Seq: seq, Member: "m1", Verb: "twist",
		InteractionID: interaction, Now: m.now, Transfers: ts, Finish: finish})
	expect(t, "ApplyAction", err, want)
	if want != nil {
		return
	}
	m.bal = bal
	m.interactions[tb.round] = append(m.interactions[tb.round], interaction)
	tb.seq = seq
	if finish != nil {
		tb.finished, tb.owner, tb.pack = true, finish.BankOwner, finish.NextPack
	}
	st, err := m.s.TableState(m.ctx, tb.id)
	expect(t, "TableState", err, nil)
	if st.BankOwner != tb.owner || !slices.Equal(st.NextPack, tb.pack) {
		t.Fatalf("table state %+v, model owner %q pack %v", st, tb.owner, tb.pack)
	}
}

func (m *model) updateBank(t *rapid.T) {
	tb := m.table(t)
	ts := m.transfers(t, tb, false)
	var owner *string
	if rapid.Bool().Draw(t, "newOwner") {
		o := m.member(t, "owner")
		owner = &o
	}
	bal, want := m.predict(ts, tb.id, false)
	if !errors.Is(want, ErrBadAccount) && tb.round != 0 && !tb.finished {
		want = ErrRoundInProgress // checked before anything moves
	}
	err := m.s.UpdateBank(m.ctx, BankParams{TableID: tb.id, Transfers: ts, BankOwner: owner, Now: m.now})
	expect(t, "UpdateBank", err, want)
	if want == nil {
		m.bal = bal
		if owner != nil {
			tb.owner = *owner
		}
	}
}

// reopen closes a table and opens the channel's next one, which must take
// the bank owner and the kitty (R6.4), while escrows go home.
func (m *model) reopen(t *rapid.T) {
	i := rapid.IntRange(0, len(m.tables)-1).Draw(t, "table")
	tb := m.tables[i]
	err := m.s.CloseTable(m.ctx, tb.id, m.now)
	if tb.round != 0 && !tb.finished {
		expect(t, "CloseTable", err, ErrRoundInProgress)
		return
	}
	expect(t, "CloseTable", err, nil)
	for _, p := range propMembers {
		if e := m.bal[EscrowAccount(tb.id, p)]; e > 0 {
			m.bal[WalletAccount(p)] += e
			m.bal[EscrowAccount(tb.id, p)] = 0
		}
	}
	next, err := m.s.OpenTable(m.ctx, OpenTableParams{Guild: propGuild, Channel: tb.channel, Host: "m2", BankOwner: "m3", Now: m.now})
	expect(t, "OpenTable", err, nil)
	owner := tb.owner
	if owner == "" {
		owner = "m3"
	}
	if next.BankOwner != owner {
		t.Fatalf("bank owner %q after reopening, want %q", next.BankOwner, owner)
	}
	m.bal[KittyAccount(next.ID)] = m.bal[KittyAccount(tb.id)]
	m.bal[KittyAccount(tb.id)] = 0
	m.tables[i] = &modelTable{id: next.ID, channel: tb.channel, owner: owner}
}

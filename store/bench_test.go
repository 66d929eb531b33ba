package store

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

// benchTransfers returns the chip movements of the n-th benchmark action: 2
// to 4 legs that together leave every balance where it was, so the
// benchmark can run as long as it likes.
func benchTransfers(tableID int64, member string, n int) []Transfer {
	w, e, k := WalletAccount(member), EscrowAccount(tableID, member), KittyAccount(tableID)
	switch n % 3 {
	case 0: // stake with reserve, then the reserve comes back
		return []Transfer{{From: w, To: e, Amount: 20}, {From: e, To: w, Amount: 20}}
	case 1: // shoot bet to the kitty and back through escrow
		return []Transfer{{From: w, To: e, Amount: 10}, {From: e, To: k, Amount: 10}, {From: k, To: w, Amount: 10}}
	default: // a settlement
		return []Transfer{{From: w, To: e, Amount: 5}, {From: e, To: k, Amount: 5}, {From: k, To: e, Amount: 5}, {From: e, To: w, Amount: 5}}
	}
}

// BenchmarkApplyAction: one table, actions applied one after another, each
// with 2-4 transfers, as one table's goroutine would.
func BenchmarkApplyAction(b *testing.B) {
	ctx := context.Background()
	s := openTest(b)
	wallets(b, s, "g", 1000, "alice", "bob")
	tb, r := openTableWithRound(b, s, "g", "c", "alice", "bob")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		err := s.ApplyAction(ctx, ApplyParams{RoundID: r.ID, Seq: i + 1, Member: "bob", Verb: "twist",
			InteractionID: fmt.Sprint("i", i), Now: t0, Transfers: benchTransfers(tb.ID, "bob", i)})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApplyActionParallel100Tables: 100 tables played at once; each
// table applies its actions in order (a lock per table, as the bot does), and
// different tables never wait on each other except for SQLite's one writer.
func BenchmarkApplyActionParallel100Tables(b *testing.B) {
	ctx := context.Background()
	s := openTest(b)
	type table struct {
		mu     sync.Mutex
		id     int64
		round  int64
		member string
		seq    int
	}
	tables := make([]*table, 100)
	for i := range tables {
		m := fmt.Sprintf("m%03d", i)
		wallets(b, s, "g", 1000, m)
		tb, r := openTableWithRound(b, s, "g", "c"+m, m)
		tables[i] = &table{id: tb.ID, round: r.ID, member: m}
	}
	var next atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			t := tables[next.Add(1)%int64(len(tables))]
			t.mu.Lock()
			t.seq++
			err := s.ApplyAction(ctx, ApplyParams{RoundID: t.round, Seq: t.seq, Member: t.member, Verb: "twist",
				InteractionID: fmt.Sprintf("%d-%d", t.id, t.seq), Now: t0, Transfers: benchTransfers(t.id, t.member, t.seq)})
			t.mu.Unlock()
			if err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkBareInsert is the reference: one transaction inserting one row,
// on the same kind of file, DSN and write connection.
func BenchmarkBareInsert(b *testing.B) {
	ctx := context.Background()
	s := openTest(b)
	if _, err := s.w.Exec(`CREATE TABLE bench (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		tx, err := s.beginWrite(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO bench (v) VALUES (?)`, "x"); err != nil {
			b.Fatal(err)
		}
		if err := s.commit(tx, "BareInsert"); err != nil {
			b.Fatal(err)
		}
	}
}

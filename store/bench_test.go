package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// benchTransfers returns the chip movements of the n-th benchmark action:
// three legs, as a stake with its reserve, a shoot bet or a settlement has,
// each action changing two or three balances, and every three actions
// leaving every balance where it was, so the benchmark can run as long as it
// likes.
func benchTransfers(tableID int64, member string, n int) []Transfer {
	w, e, k := WalletAccount(member), EscrowAccount(tableID, member), KittyAccount(tableID)
	switch n % 3 {
	case 0: // escrow 0 -> 5, kitty 0 -> 10
		return []Transfer{{From: w, To: e, Amount: 20}, {From: e, To: k, Amount: 10}, {From: e, To: w, Amount: 5}}
	case 1: // escrow 5 -> 10, kitty 10 -> 0
		return []Transfer{{From: w, To: e, Amount: 10}, {From: k, To: e, Amount: 10}, {From: e, To: w, Amount: 15}}
	default: // escrow 10 -> 0
		return []Transfer{{From: e, To: w, Amount: 10}, {From: w, To: e, Amount: 5}, {From: e, To: w, Amount: 5}}
	}
}

// benchModes are the durability settings a benchmark runs under.
var benchModes = []string{"normal", "full"}

// eachMode runs f per engine and per Synchronous mode:
// sqlite/normal, sqlite/full, postgres/normal, postgres/full.
func eachMode(b *testing.B, f func(b *testing.B, s *Store)) {
	eachBackendB(b, func(b *testing.B, be backend) {
		for _, mode := range benchModes {
			b.Run(mode, func(b *testing.B) { f(b, be.open(b, Synchronous(mode))) })
		}
	})
}

// latencies records how long each commit took and reports the 50th and 99th
// percentiles with the benchmark's figures.
type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	l.d = append(l.d, d)
	l.mu.Unlock()
}

func (l *latencies) report(b *testing.B) {
	if len(l.d) == 0 {
		return
	}
	slices.Sort(l.d)
	at := func(p float64) float64 { return float64(l.d[int(p*float64(len(l.d)-1))].Microseconds()) }
	b.ReportMetric(at(0.50), "p50-µs")
	b.ReportMetric(at(0.99), "p99-µs")
}

// framesPerOp reports, on SQLite, how many pages (write-ahead log frames)
// one committed op writes, over framesSample more ops run after the timed
// loop: a figure that, unlike the time, the machine's load does not move.
// The commit's cost grows with it: each frame is a checksum and two writes,
// and with synchronous=full more bytes to sync. op(i) runs the i-th op.
func framesPerOp(b *testing.B, s *Store, op func(i int) error) {
	b.Helper()
	if s.postgres {
		return
	}
	b.StopTimer()
	// The WAL index's header (sqlite.org/walformat.html) holds mxFrame, the
	// frames in the log, at byte 16, in the machine's byte order (little
	// endian on every platform the store runs on). A checkpoint's restart
	// puts it back to 0, so a commit's frames are the rise or the new count.
	shm, err := os.Open(s.path + "-shm")
	if err != nil {
		b.Fatal(err)
	}
	defer shm.Close()
	mxFrame := func() uint32 {
		var buf [4]byte
		if _, err := shm.ReadAt(buf[:], 16); err != nil {
			b.Fatal(err)
		}
		return binary.LittleEndian.Uint32(buf[:])
	}
	var frames uint32
	for i := range framesSample {
		before := mxFrame()
		if err := op(b.N + i); err != nil {
			b.Fatal(err)
		}
		if after := mxFrame(); after >= before {
			frames += after - before
		} else {
			frames += after
		}
	}
	b.ReportMetric(float64(frames)/framesSample, "frames/op")
}

// framesSample is how many ops framesPerOp counts the frames of.
const framesSample = 200

// BenchmarkApplyAction: one table, actions applied one after another, each
// with 2-4 transfers, as one table's goroutine would, each for a click whose
// interaction it records (WithInteraction), as the bot's are.
func BenchmarkApplyAction(b *testing.B) {
	eachMode(b, func(b *testing.B, s *Store) {
		ctx := context.Background()
		wallets(b, s, "g", 1000, "alice", "bob")
		tb, r := openTableWithRound(b, s, "g", "c", "alice", "bob")
		apply := func(i int) error {
			id := fmt.Sprint("i", i)
			return s.ApplyAction(WithInteraction(ctx, id, t0), ApplyParams{RoundID: r.ID, Seq: i + 1, Member: "bob", Verb: "twist",
				InteractionID: id, Now: t0, Transfers: benchTransfers(tb.ID, "bob", i)})
		}
		var lat latencies
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; b.Loop(); i++ {
			start := time.Now()
			err := apply(i)
			lat.add(time.Since(start))
			if err != nil {
				b.Fatal(err)
			}
		}
		lat.report(b)
		framesPerOp(b, s, apply)
	})
}

// benchTables is how many tables the parallel benchmarks play at once.
const benchTables = 100

// BenchmarkApplyActionParallel100Tables: 100 tables played at once, each by
// its own goroutine applying its actions in order, as the bot's per-table
// goroutines do; the b.N actions are shared out among them as they finish.
// ns/op is the time per committed action of the whole: its inverse is the
// actions committed per second. p50/p99 are each commit's latency.
func BenchmarkApplyActionParallel100Tables(b *testing.B) {
	eachMode(b, func(b *testing.B, s *Store) {
		ctx := context.Background()
		type table struct {
			id, round int64
			member    string
		}
		tables := make([]table, benchTables)
		for i := range tables {
			m := fmt.Sprintf("m%03d", i)
			wallets(b, s, "g", 1000, m)
			tb, r := openTableWithRound(b, s, "g", "c"+m, m)
			tables[i] = table{id: tb.ID, round: r.ID, member: m}
		}
		act := func(t table, seq int) error {
			return s.ApplyAction(ctx, ApplyParams{RoundID: t.round, Seq: seq, Member: t.member, Verb: "twist",
				InteractionID: fmt.Sprintf("%d-%d", t.id, seq), Now: t0, Transfers: benchTransfers(t.id, t.member, seq-1)})
		}
		// A running bot's connections are open and have prepared their statements:
		// every table acts once, all at once, before the clock starts. Without it the
		// slowest hundredth of 2,000 actions was the first action of each table,
		// queued behind the opening of the pool's connections.
		var wg sync.WaitGroup
		for _, t := range tables {
			wg.Go(func() {
				if err := act(t, 1); err != nil {
					b.Error(err)
				}
			})
		}
		wg.Wait()
		var lat latencies
		var next atomic.Int64
		n := int64(b.N)
		b.ReportAllocs()
		b.ResetTimer()
		for _, t := range tables {
			wg.Go(func() {
				for seq := 2; next.Add(1) <= n; seq++ {
					start := time.Now()
					err := act(t, seq)
					lat.add(time.Since(start))
					if err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		b.StopTimer()
		lat.report(b)
	})
}

// bareInsert is the reference transaction: one row inserted, committed, on
// its own: not grouped with others' (beginWrite, not write), so each FULL
// commit waits for its own fsync, as a plain SQLite program's would.
func bareInsert(ctx context.Context, s *Store) error {
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO bench (v) VALUES (?)`, "x"); err != nil {
		return err
	}
	return s.commit(tx, "bench")
}

func createBench(b *testing.B, s *Store) {
	ddl := `CREATE TABLE bench (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`
	if s.postgres {
		ddl = `CREATE TABLE bench (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, v TEXT NOT NULL)`
	}
	if _, err := s.w.Exec(ddl); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkBareInsert is the reference: one transaction inserting one row,
// on the same kind of database, settings and write path.
func BenchmarkBareInsert(b *testing.B) {
	eachMode(b, func(b *testing.B, s *Store) {
		ctx := context.Background()
		createBench(b, s)
		var lat latencies
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			start := time.Now()
			err := bareInsert(ctx, s)
			lat.add(time.Since(start))
			if err != nil {
				b.Fatal(err)
			}
		}
		lat.report(b)
		framesPerOp(b, s, func(int) error { return bareInsert(ctx, s) })
	})
}

// BenchmarkBareInsertParallel100: the reference at 100 goroutines, each
// committing one-row insert transactions of its own, the b.N shared out as
// in BenchmarkApplyActionParallel100Tables.
func BenchmarkBareInsertParallel100(b *testing.B) {
	eachMode(b, func(b *testing.B, s *Store) {
		ctx := context.Background()
		createBench(b, s)
		var lat latencies
		var next atomic.Int64
		n := int64(b.N)
		b.ResetTimer()
		var wg sync.WaitGroup
		for range benchTables {
			wg.Go(func() {
				for next.Add(1) <= n {
					start := time.Now()
					err := bareInsert(ctx, s)
					lat.add(time.Since(start))
					if err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		b.StopTimer()
		lat.report(b)
	})
}

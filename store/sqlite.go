package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mattn/go-sqlite3"
)

// sqliteWriter is the driver of the write connection: go-sqlite3 with
// automatic checkpoints turned off on every connection it opens, because
// the checkpointer goroutine does them (see checkpointer).
const sqliteWriter = "pontoon-sqlite3-writer"

func init() {
	sql.Register(sqliteWriter, &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
		_, err := c.Exec(`PRAGMA wal_autocheckpoint = 0`, nil)
		return err
	}})
}

// errClosed is what a write queued after Close gets.
var errClosed = errors.New("store: closed")

// maxGroup is the most method bodies one SQLite transaction carries.
const maxGroup = 256

// writeReq is one method body waiting for the SQLite writer.
type writeReq struct {
	ctx   context.Context
	op    string // the method's name, for the commit observer
	f     func(*txn) error
	idle  func()       // instead of f: run outside any transaction, with no other write running (whileWriterIdle)
	state atomic.Int32 // reqQueued, reqTaken or reqCancelled
	err   error
	done  chan struct{}
}

const (
	reqQueued int32 = iota
	reqTaken
	reqCancelled
)

// groupCommit is the SQLite write path. SQLite has one writer at a time,
// and with synchronous=FULL every commit waits for an fsync. A caller that
// finds the writer idle runs its body itself, as its own transaction: no
// hand-over between goroutines on the common path. Callers that arrive
// while a transaction is running queue up, and the writer goroutine then
// takes every body queued at that moment (the bodies of concurrent tables'
// actions), runs each in a SAVEPOINT of one transaction and commits once.
// Each method is still all or nothing: a body that fails is rolled back to
// its savepoint and gets its error, the others go on; a failed commit fails
// them all. Bodies run one after another, so each sees the ones before it,
// exactly as separate transactions would, and every caller returns only
// once its changes are committed (durable, with full).
type groupCommit struct {
	mu    sync.Mutex
	busy  bool        // a transaction is running: a caller's own, or the writer's
	queue []*writeReq // bodies waiting for the writer
	wake  chan struct{}
	quit  chan struct{}
	wg    sync.WaitGroup
	kick  chan struct{} // tells the checkpointer the log has grown

	commits, bodies atomic.Int64 // transactions committed, and the bodies they carried
}

// writeSQLite runs f in a write transaction, its own or a group's, and
// returns once it is committed. A caller whose ctx ends while f is still
// queued gets ctx's error and f never runs; once the writer has taken f,
// the caller waits for it (f's statements see the same ctx and fail
// quickly).
func (s *Store) writeSQLite(ctx context.Context, op string, f func(*txn) error) error {
	g := &s.group
	select {
	case <-g.quit:
		return errClosed
	default:
	}
	r := g.enter(func() *writeReq { return &writeReq{ctx: ctx, op: op, f: f, done: make(chan struct{})} })
	if r == nil {
		err := s.writeAlone(ctx, op, f)
		g.leave()
		return err
	}
	select {
	case <-r.done:
		return r.err
	case <-ctx.Done():
		if r.state.CompareAndSwap(reqQueued, reqCancelled) {
			return fmt.Errorf("store: %w", ctx.Err())
		}
		<-r.done
		return r.err
	}
}

// enter takes the write path for the caller when no write runs, and returns nil:
// the caller runs its write, then leave. Otherwise it queues the request queued makes
// for the writer, and returns it. Both happen under one lock, so a queued request is
// never left behind by a write that has just finished.
func (g *groupCommit) enter(queued func() *writeReq) *writeReq {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.busy {
		g.busy = true
		return nil
	}
	r := queued()
	g.queue = append(g.queue, r)
	return r
}

// leave hands the write path on after a write run by the caller (enter returned
// nil): to the writer if anything queued meanwhile, busy staying true, else to nobody.
func (g *groupCommit) leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.queue) == 0 {
		g.busy = false
	} else {
		g.signal()
	}
}

// signal wakes the writer.
func (g *groupCommit) signal() {
	select {
	case g.wake <- struct{}{}:
	default:
	}
}

// writeAlone runs f as a transaction of its own.
func (s *Store) writeAlone(ctx context.Context, op string, f func(*txn) error) error {
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := f(tx); err != nil {
		return err
	}
	if err := s.commit(tx, op); err != nil {
		return err
	}
	s.group.commits.Add(1)
	s.group.bodies.Add(1)
	s.group.kickCheckpoint()
	return nil
}

func (g *groupCommit) kickCheckpoint() {
	select {
	case g.kick <- struct{}{}:
	default:
	}
}

// startWriter starts the writer goroutine, and the checkpointer's unless the
// store's tests run its steps themselves (options.manualCheckpoints).
func (s *Store) startWriter(ckpt *sql.DB, checkpointer bool) {
	g := &s.group
	g.wake = make(chan struct{}, 1)
	g.quit = make(chan struct{})
	g.kick = make(chan struct{}, 1)
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		s.writer()
	}()
	if checkpointer {
		g.wg.Add(1)
		go func() {
			defer g.wg.Done()
			s.checkpointer(ckpt)
		}()
	}
}

// stopWriter lets the batch in progress finish, refuses what is still
// queued, and waits for both goroutines.
func (s *Store) stopWriter() {
	g := &s.group
	close(g.quit)
	g.wg.Wait()
	g.mu.Lock()
	for _, r := range g.queue {
		if r.state.CompareAndSwap(reqQueued, reqTaken) {
			r.err = errClosed
			close(r.done)
		}
	}
	g.queue = nil
	g.mu.Unlock()
}

func (s *Store) writer() {
	g := &s.group
	for {
		select {
		case <-g.wake:
		case <-g.quit:
			return
		}
		for {
			g.mu.Lock()
			batch := g.queue
			if len(batch) > maxGroup {
				batch, g.queue = batch[:maxGroup:maxGroup], batch[maxGroup:]
			} else {
				g.queue = nil
			}
			if len(batch) == 0 {
				g.busy = false
				g.mu.Unlock()
				break
			}
			g.mu.Unlock()
			s.runBatch(batch)
			g.kickCheckpoint()
		}
	}
}

// runBatch runs a batch taken from the queue: its bodies in transactions, and
// what must run with no transaction (whileWriterIdle) between them, in order.
func (s *Store) runBatch(batch []*writeReq) {
	for len(batch) > 0 {
		if r := batch[0]; r.idle != nil {
			if r.state.CompareAndSwap(reqQueued, reqTaken) {
				r.idle()
				close(r.done)
			}
			batch = batch[1:]
			continue
		}
		n := 1
		for n < len(batch) && batch[n].idle == nil {
			n++
		}
		s.runGroup(batch[:n])
		batch = batch[n:]
	}
}

// runGroup runs a batch of bodies in one transaction and answers each.
func (s *Store) runGroup(batch []*writeReq) {
	// Each body's statements use its own ctx; the transaction itself must
	// outlive any one caller.
	ctx := context.Background()
	tx, err := s.beginWrite(ctx)
	// Bodies are taken only now: a caller that gives up while BEGIN waits
	// for the connection (another process, or a test holding it) has not
	// been taken, and returns at once.
	live := batch[:0:0]
	for _, r := range batch {
		if r.state.CompareAndSwap(reqQueued, reqTaken) {
			live = append(live, r)
		}
	}
	finish := func(err error) {
		for _, r := range live {
			if r.err == nil {
				r.err = err
			}
			close(r.done)
		}
	}
	if err != nil {
		finish(err)
		return
	}
	defer tx.Rollback()
	if len(live) == 0 {
		return
	}
	s.group.commits.Add(1)
	s.group.bodies.Add(int64(len(live)))
	if len(live) == 1 {
		r := live[0]
		if r.err = runBody(r, tx); r.err != nil {
			finish(nil)
			return
		}
		finish(s.commit(tx, r.op))
		return
	}
	for _, r := range live {
		if _, err := tx.ExecContext(ctx, `SAVEPOINT body`); err != nil {
			finish(fmt.Errorf("store: savepoint: %w", err))
			return
		}
		notes := len(tx.notes)
		r.err = runBody(r, tx)
		if r.err != nil {
			tx.notes = tx.notes[:notes] // what the body learnt is rolled back with it
			if _, err := tx.ExecContext(ctx, `ROLLBACK TO body`); err != nil {
				finish(fmt.Errorf("store: rollback to savepoint: %w", err))
				return
			}
		}
		if _, err := tx.ExecContext(ctx, `RELEASE body`); err != nil {
			finish(fmt.Errorf("store: release savepoint: %w", err))
			return
		}
	}
	// The commit carries the bodies that succeeded; a rolled-back one
	// committed nothing.
	var ops []string
	for _, r := range live {
		if r.err == nil {
			ops = append(ops, r.op)
		}
	}
	finish(s.commit(tx, ops...))
}

// runBody runs one body, turning a panic into its error so that the writer
// and the other bodies of the batch carry on.
func runBody(r *writeReq, tx *txn) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("store: panic in a write: %v", p)
		}
	}()
	if err := r.ctx.Err(); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return r.f(tx)
}

// checkpointInterval is the least time between two checkpoints. A checkpoint
// copies each page the log holds once, in its latest version, and fsyncs the log
// and the file: the pages a busy table writes again and again (its round, its
// accounts, the actions' last leaf) are copied once a second rather than ten times.
// At 400 interactions a second, a second rather than 100 ms took the bot's writes to
// the files from 8.7 to 7.5 per interaction, its reads from 4.3 to 3.0 and its fsyncs
// from 36 to 4 a second. With synchronous=normal a power cut can lose the commits
// since the last checkpoint: about a second of them.
const checkpointInterval = time.Second

// checkpointer copies the write-ahead log into the database file, on its own
// connection, after commits, at most every checkpointInterval. SQLite would
// otherwise checkpoint inside the commit that takes the log past 1,000
// pages, and that commit, with its caller, would wait for the copy and its
// fsync: the p99 of commit latency. A PASSIVE checkpoint waits for no reader
// and no writer; what it cannot copy yet it copies next time.
//
// Under a steady stream of commits that is not enough: each checkpoint copies the
// log as it was when it began, commits go on appending meanwhile, so the log is
// never wholly copied, SQLite never starts it again from the top, and it grows for
// as long as the stream lasts, every commit writing into fresh file blocks (the
// kernel allocates and zeroes each: measured, a quarter of a commit's time, more
// for a commit of several pages). So each checkpoint is followed by a second one
// that copies what was written meanwhile while the writer holds back
// (s.whileWriterIdle): a few pages and their fsyncs, or nothing at all, every
// checkpointInterval at most, after which the next commit starts the log from the top.
func (s *Store) checkpointer(db *sql.DB) {
	g := &s.group
	for {
		select {
		case <-g.quit:
			return
		case <-g.kick:
		}
		s.checkpointStep(db)
		select {
		case <-g.quit:
			return
		case <-time.After(checkpointInterval):
		}
	}
}

// checkpointStep is one round of the checkpointer: a checkpoint while commits go
// on, then a second one for what they wrote meanwhile, with commits held back. A
// commit under way while the first ran began reading the log as it was, so it
// appends to it even if the first copied everything; only a log wholly copied
// with no transaction open lets the next commit start it again from the top.
// Errors are not fatal: the log keeps the commits, and the next checkpoint (or
// closing the last connection) copies them.
func (s *Store) checkpointStep(db *sql.DB) {
	if checkpoint(db) {
		s.whileWriterIdle(func() { checkpoint(db) })
	}
}

// checkpoint runs a PASSIVE checkpoint and reports whether the log held any
// frames; false also when it failed (a second try at once would do no better).
func checkpoint(db *sql.DB) bool {
	var busy, frames, copied int
	if err := db.QueryRow(`PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &frames, &copied); err != nil {
		return false
	}
	return frames > 0
}

// whileWriterIdle runs f while no write transaction of this store runs: it takes
// the write path as writeSQLite does (enter, leave), so commits queue behind f.
func (s *Store) whileWriterIdle(f func()) {
	g := &s.group
	r := g.enter(func() *writeReq {
		return &writeReq{ctx: context.Background(), op: "checkpoint", idle: f, done: make(chan struct{})}
	})
	if r == nil {
		f()
		g.leave()
		return
	}
	select {
	case <-r.done:
	case <-g.quit:
	}
}

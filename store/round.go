package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Round is one round of a table: its hand history (the write-ahead log the
// live state is rebuilt from) and, once finished, its result.
type Round struct {
	ID         int64
	TableID    int64
	Number     int    // 1, 2, ... per table
	History    string // the hand-history JSON of HISTORY.md: rules, table snapshot, pack
	Commitment string // shown before the deal: SHA-256 of the pack and the salt
	// Salt is stored from the start so the round can be verified later; it
	// must not be shown to players before the round has finished.
	Salt       string
	StartedAt  time.Time
	FinishedAt time.Time // zero while the round is in play
	Result     string    // JSON written when the round finished; "" before
}

// Finished reports whether the round has finished.
func (r Round) Finished() bool { return !r.FinishedAt.IsZero() }

// Action is one decision of a player in a round, in the words of HISTORY.md:
// Member Verb Args, e.g. "123 stake 10".
type Action struct {
	RoundID       int64
	Seq           int // 1, 2, ... per round
	Member        string
	Verb          string
	Args          string
	InteractionID string // the Discord interaction that carried it; "" for the bot's own (timeouts)
	CreatedAt     time.Time
}

// RoundWithActions is an unfinished round with what is needed to rebuild it.
type RoundWithActions struct {
	Table   Table
	Round   Round
	Actions []Action
}

// StartRoundParams are the arguments of StartRound.
type StartRoundParams struct {
	TableID    int64
	Number     int    // must be the table's RoundNumber + 1
	History    string // JSON
	Commitment string
	Salt       string
	Now        time.Time
	// Transfers made as the round starts, recorded as action 0 of the round
	// (ledger reason "round start" unless given).
	Transfers []Transfer
	// TurnDue is when the round's first decisions time out (R7.4), kept as the table's
	// turn deadline (deadline.go); zero keeps none.
	TurnDue time.Time
}

// StartRound records a new round of an open table and applies its opening
// transfers, in one transaction. It refuses with ErrRoundInProgress while the
// table has an unfinished round, ErrDuplicateRound if the number exists, and
// a SequenceError (ErrStaleRound) if the number is not the next one. The
// table's carried pack is consumed: the round's history holds it now.
func (s *Store) StartRound(ctx context.Context, p StartRoundParams) (Round, error) {
	if err := checkNow(p.Now); err != nil {
		return Round{}, err
	}
	history, err := jsonText("history", p.History, "")
	if err != nil {
		return Round{}, err
	}
	if history == "" {
		return Round{}, invalid("history is empty")
	}
	if err := checkTableTransfers(p.Transfers, p.TableID, true); err != nil {
		return Round{}, err
	}
	var out Round
	err = s.write(ctx, "StartRound", func(tx *txn) error {
		t, err := openTable(ctx, tx, p.TableID)
		if err != nil {
			return err
		}
		out, err = startRound(ctx, tx, t, p, history)
		return err
	})
	if err != nil {
		return Round{}, err
	}
	return out, nil
}

// startRound records round p of table t, whose history is already checked, and applies
// its opening transfers: the part of a round's start that StartRound and DealRound share.
// It refuses with ErrDuplicateRound, ErrRoundInProgress or a SequenceError
// (ErrStaleRound), and consumes the table's carried pack.
func startRound(ctx context.Context, tx *txn, t Table, p StartRoundParams, history string) (Round, error) {
	var exists bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM rounds WHERE table_id = ? AND number = ?)`,
		p.TableID, p.Number).Scan(&exists); err != nil {
		return Round{}, fmt.Errorf("store: start round: %w", err)
	}
	if exists {
		return Round{}, fmt.Errorf("%w: round %d of table %d", ErrDuplicateRound, p.Number, p.TableID)
	}
	if err := noUnfinishedRound(ctx, tx, p.TableID); err != nil {
		return Round{}, err
	}
	if p.Number != t.RoundNumber+1 {
		return Round{}, &SequenceError{Err: ErrStaleRound, Got: p.Number, Want: t.RoundNumber + 1}
	}
	// RETURNING id, not LastInsertId: PostgreSQL's driver has none (dialect.go).
	var id int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO rounds (table_id, number, history, commitment, salt, started_at)
		VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, p.TableID, p.Number, history, p.Commitment, p.Salt,
		formatTime(p.Now)).Scan(&id); err != nil {
		return Round{}, fmt.Errorf("store: start round: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE tables SET round_number = ?, next_pack = NULL WHERE id = ?`,
		p.Number, p.TableID); err != nil {
		return Round{}, fmt.Errorf("store: start round: %w", err)
	}
	ref := ledgerRef{table: p.TableID, round: id, seq: 0, now: p.Now}
	if err := moveAll(ctx, tx, t.Guild, p.Transfers, "round start", ref); err != nil {
		return Round{}, err
	}
	if err := turnDeadline(ctx, tx, p.TableID, p.TurnDue); err != nil {
		return Round{}, err
	}
	return roundWhere(ctx, tx, strconv.FormatInt(id, 10), `id = ?`, id)
}

// RoundFinish is how a round ended, written by the action that ends it.
type RoundFinish struct {
	Result    string   // JSON: the round's outcome as the game reports it
	BankOwner string   // who holds the bank after the round (RULES.md R6.2, R6.3); "" for nobody
	NextPack  []string // the pack carried to the next round (R6.1); nil when it is shuffled
	// Results are the round's per-member results for Stats and NetLeaderboard, written
	// in the same transaction as the settlement.
	Results []RoundResult
	// What the table does next, in the same transaction, so that the click that ends
	// a round commits once: Pending is the next round's pack and its commitment (as
	// SetPendingPack records it), RevealSeeds makes the seeds of the packs dealt
	// public once the pack is shuffled away (R6.1, as RevealSeeds), and Close closes
	// the table whose stop was asked for (as CloseTable, seeds revealed with it).
	Pending     *PendingPack
	RevealSeeds bool
	Close       bool
}

// ApplyParams are the arguments of ApplyAction.
type ApplyParams struct {
	RoundID       int64
	Seq           int // must be the round's last Seq + 1
	Member        string
	Verb          string
	Args          string
	InteractionID string // "" when the action has no interaction (a timeout)
	Now           time.Time
	// Transfers are the action's chip movements, applied in order; leg i of
	// the action in the ledger is Transfers[i]. Reason defaults to Verb.
	Transfers []Transfer
	Finish    *RoundFinish // non-nil when this action ends the round
	// TurnDue is when the round's next decisions time out (R7.4), kept as the table's
	// turn deadline (deadline.go) in the action's transaction. Zero leaves the deadline
	// as it is, and costs no statement: a process that keeps turn deadlines in the store
	// (shared tables) gives every action after which the round goes on its next one,
	// and a process that does not never wrote one. Finish always deletes it.
	TurnDue time.Time
}

// ApplyAction appends an action to a round's log and applies its chip
// movements, and the round's end if Finish is set, all in one transaction:
// either everything is recorded or nothing is.
//
// It refuses, in this order: a round that does not exist (ErrNotFound); an
// interaction id already used by an action of the round, on PostgreSQL of any
// round (ErrDuplicateInteraction); a sequence number already used
// (ErrDuplicateAction); a finished round (ErrRoundFinished); a sequence number
// that is not the next one (SequenceError with ErrStaleSeq). So re-applying a
// committed action never moves chips twice. An interaction belongs to one round
// (its custom id names it, and the bot refuses it in any other), so that is
// where its id is checked: migration 00090 says why.
func (s *Store) ApplyAction(ctx context.Context, p ApplyParams) error {
	a, err := prepareApply(p)
	if err != nil {
		return err
	}
	// Locked rather than SERIALIZABLE on PostgreSQL: the round's row, then
	// the accounts, are locked before anything is read (applyAction).
	// The action's row records its interaction (the id's checks below refuse a
	// duplicate), so nothing else is written for it.
	return s.writeRecording(ctx, "ApplyAction", s.d.lockedOptions(), p.InteractionID,
		func(tx *txn) error { return s.applyAction(ctx, tx, a) })
}

// ApplyActions applies several actions of one round, in order, in one transaction:
// a click that makes more than one move (the panel's "Shoot & twist", R9.4) commits
// once. Each is checked as ApplyAction checks it, and either every one is recorded
// or none is.
func (s *Store) ApplyActions(ctx context.Context, ps []ApplyParams) error {
	if len(ps) == 0 {
		return invalid("apply actions: none")
	}
	as := make([]applyArgs, len(ps))
	for i, p := range ps {
		a, err := prepareApply(p)
		if err != nil {
			return err
		}
		if p.RoundID != ps[0].RoundID {
			return invalid("apply actions: rounds %d and %d", ps[0].RoundID, p.RoundID)
		}
		as[i] = a
	}
	return s.writeRecording(ctx, "ApplyActions", s.d.lockedOptions(), ps[0].InteractionID, func(tx *txn) error {
		for _, a := range as {
			if err := s.applyAction(ctx, tx, a); err != nil {
				return err
			}
		}
		return nil
	})
}

// applyArgs is an action checked and encoded for applyAction.
type applyArgs struct {
	ApplyParams
	result  string         // the finished round's result
	pack    sql.NullString // the pack carried to the next round
	pending string         // the next round's pending pack, as stored
}

// prepareApply checks an action's arguments and encodes what it stores, before any
// transaction begins.
func prepareApply(p ApplyParams) (applyArgs, error) {
	a := applyArgs{ApplyParams: p}
	if err := checkNow(p.Now); err != nil {
		return a, err
	}
	if err := checkIDs("member", p.Member, "verb", p.Verb); err != nil {
		return a, err
	}
	if p.Seq <= 0 {
		return a, invalid("action seq %d: must be positive", p.Seq)
	}
	if f := p.Finish; f != nil {
		var err error
		if a.result, err = jsonText("result", f.Result, "{}"); err != nil {
			return a, err
		}
		if a.pack, err = encodePack(f.NextPack); err != nil {
			return a, err
		}
		if f.Pending != nil {
			if f.Close {
				return a, invalid("finish: a table that closes has no next pack")
			}
			if a.pending, err = pendingJSON(*f.Pending); err != nil {
				return a, err
			}
		}
	}
	return a, nil
}

// roundTables caches each round's table and guild, which never change once
// the round exists: an action then reads neither rounds nor tables for them.
// It is cleared when it grows past roundTablesMax, so it stays small
// however long the bot runs.
type roundTables struct {
	mu sync.Mutex
	m  map[int64]roundTable
}

type roundTable struct {
	table int64
	guild string
}

const roundTablesMax = 4096

// errNoRound is roundTable's answer for a round that does not exist.
var errNoRound = errors.New("store: no such round")

// roundTable returns the table and guild of a round that exists.
func (s *Store) roundTable(ctx context.Context, tx *txn, round int64) (int64, string, error) {
	s.rounds.mu.Lock()
	rt, ok := s.rounds.m[round]
	s.rounds.mu.Unlock()
	if ok {
		return rt.table, rt.guild, nil
	}
	if err := tx.QueryRowContext(ctx, `SELECT r.table_id, (SELECT guild_id FROM tables WHERE id = r.table_id)
		FROM rounds r WHERE r.id = ?`, round).Scan(&rt.table, &rt.guild); err != nil {
		if err == sql.ErrNoRows {
			return 0, "", errNoRound
		}
		return 0, "", fmt.Errorf("store: apply action: %w", err)
	}
	s.rounds.mu.Lock()
	if s.rounds.m == nil || len(s.rounds.m) >= roundTablesMax {
		s.rounds.m = make(map[int64]roundTable)
	}
	s.rounds.m[round] = rt
	s.rounds.mu.Unlock()
	return rt.table, rt.guild, nil
}

func (s *Store) applyAction(ctx context.Context, tx *txn, a applyArgs) error {
	p := a.ApplyParams
	// One read of the round, on rounds and the actions' primary key only,
	// in the one shape SQLite runs fast (measured with the statement cached,
	// a round of 3,000 actions): not a JOIN with tables (28 µs, against 6),
	// not "round_id = ?" in the subquery but correlated on r.id (17 µs,
	// against 4), and not folded into the INSERT as INSERT ... SELECT, which
	// reads the table it writes (70 µs, against 4 for the INSERT alone).
	// Actions of one round queue here, one after the other, where writers
	// are concurrent; the accounts are locked by moveAll.
	// On SQLite the round's state is usually known already (hot.go): the read is
	// for the first action of a round this process sees.
	if tx.conn != nil {
		// PostgreSQL: the common path is one round trip (insertActionIfNext); only
		// a refused action goes on below, to read why.
		tableID, guild, b, inserted, err := s.insertActionIfNext(ctx, tx, p)
		if err != nil {
			return err
		}
		if inserted {
			return applyEffects(ctx, tx, a, tableID, guild, b)
		}
	}
	if err := tx.lockRow(ctx, "rounds", p.RoundID); err != nil {
		return err
	}
	var last int
	var finished, used, known bool
	if tx.hot != nil {
		if err := tx.hot.begin(ctx, tx); err != nil {
			return err
		}
		last, finished, used, known = tx.hotRound(p.RoundID, p.InteractionID)
	}
	var loaded []string // the round's ids, read because its state was not known
	if !known {
		err := tx.QueryRowContext(ctx, `SELECT r.finished_at IS NOT NULL,
				coalesce((SELECT seq FROM actions WHERE round_id = r.id ORDER BY seq DESC LIMIT 1), 0)
			FROM rounds r WHERE r.id = ?`, p.RoundID).Scan(&finished, &last)
		if err == sql.ErrNoRows {
			return &NotFoundError{What: "round", Key: strconv.FormatInt(p.RoundID, 10)}
		}
		if err != nil {
			return fmt.Errorf("store: apply action: %w", err)
		}
		if tx.hot != nil {
			if loaded, err = roundInteractions(ctx, tx, p.RoundID); err != nil {
				return err
			}
			used = p.InteractionID != "" && slices.Contains(loaded, p.InteractionID)
		}
	}
	// A redelivered interaction usually also repeats its seq; the duplicate
	// interaction is the more useful answer, so it comes first. On SQLite an id is
	// unique within its round (migration 00090), checked here against the round's
	// ids; on PostgreSQL the unique index checks it, on the common path as the
	// INSERT below runs.
	if used {
		return fmt.Errorf("%w: %s", ErrDuplicateInteraction, p.InteractionID)
	}
	if p.Seq != last+1 || finished {
		if tx.hot == nil {
			if err := unusedInteraction(ctx, tx, p.InteractionID); err != nil {
				return err
			}
		}
		switch {
		case p.Seq <= last: // sequence numbers are contiguous from 1
			return fmt.Errorf("%w: action %d of round %d", ErrDuplicateAction, p.Seq, p.RoundID)
		case finished:
			return fmt.Errorf("%w: round %d", ErrRoundFinished, p.RoundID)
		default:
			return &SequenceError{Err: ErrStaleSeq, Got: p.Seq, Want: last + 1}
		}
	}
	// On the common path, on PostgreSQL, the unique index on interaction_id does
	// the duplicate check: (round, seq) is free, so a violation is the interaction.
	tableID, guild, err := s.roundTable(ctx, tx, p.RoundID)
	if err != nil {
		return err
	}
	// The legs go in the action's row (migration 00090), not as ledger rows: the
	// actions' primary key records each once, and the commit writes two pages fewer.
	if _, err := tx.ExecContext(ctx, `INSERT INTO actions (round_id, seq, member_id, verb, args, interaction_id, created_at, legs)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, p.RoundID, p.Seq, p.Member, p.Verb, p.Args, nullString(p.InteractionID),
		formatTime(p.Now), encodeLegs(p.Transfers, tableID, p.Verb)); err != nil {
		if isUnique(err) {
			return fmt.Errorf("%w: %s", ErrDuplicateInteraction, p.InteractionID)
		}
		return fmt.Errorf("store: apply action: %w", err)
	}
	if err := applyEffects(ctx, tx, a, tableID, guild, nil); err != nil {
		return err
	}
	tx.note(hotNote{round: p.RoundID, last: p.Seq, finished: p.Finish != nil, id: p.InteractionID,
		loaded: loaded, load: !known})
	return nil
}

// applyEffects applies what an action changes once its row is in: its chip movements,
// the turn deadline, and the round's end if it finishes it. b is the books of the
// transfers when they are read (and locked) already, else nil.
func applyEffects(ctx context.Context, tx *txn, a applyArgs, tableID int64, guild string, b *books) error {
	p, result, pack, pending := a.ApplyParams, a.result, a.pack, a.pending
	err := checkTableTransfers(p.Transfers, tableID, true)
	if err != nil {
		return err
	}
	ref := ledgerRef{table: tableID, round: p.RoundID, seq: p.Seq, now: p.Now, inAction: true}
	if b != nil {
		err = b.apply(ctx, tx, p.Transfers, p.Verb, ref)
	} else {
		err = moveAll(ctx, tx, guild, p.Transfers, p.Verb, ref)
	}
	if err != nil {
		return err
	}
	switch { // R7.4: the settlement ends the round's timer; zero leaves it as it is
	case p.Finish != nil:
		if err := clearDeadline(ctx, tx, tableID, DeadlineTurn, ""); err != nil {
			return err
		}
	case !p.TurnDue.IsZero():
		if err := setDeadline(ctx, tx, tableID, DeadlineTurn, "", p.TurnDue); err != nil {
			return err
		}
	}
	if p.Finish != nil {
		if _, err := tx.ExecContext(ctx, `UPDATE rounds SET finished_at = ?, result = ? WHERE id = ?`,
			formatTime(p.Now), result, p.RoundID); err != nil {
			return fmt.Errorf("store: finish round: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE tables SET bank_owner = ?, next_pack = ? WHERE id = ?`,
			nullString(p.Finish.BankOwner), pack, tableID); err != nil {
			return fmt.Errorf("store: finish round: %w", err)
		}
		if err := insertResults(ctx, tx, p.RoundID, guild, p.Finish.Results); err != nil {
			return err
		}
		switch f := p.Finish; {
		case f.Close:
			if err := closeTable(ctx, tx, tableID, p.Now); err != nil {
				return err
			}
		case f.RevealSeeds:
			if err := revealSeeds(ctx, tx, tableID, p.Now); err != nil {
				return err
			}
		}
		if f := p.Finish; f.Pending != nil {
			if err := setPendingPack(ctx, tx, tableID, *f.Pending, pending); err != nil {
				return err
			}
		}
	}
	return nil
}

// insertActionIfNext runs the common path of an action on PostgreSQL in one round
// trip: one batch (txn.batch) that locks the round's row, inserts the action's row
// if it is the round's next one and the round goes on, and reads and locks the
// accounts its transfers move chips between, returned as b (nil if none). Each
// statement runs after the one before it, at READ COMMITTED: the INSERT's check
// sees every action the lock's previous holders committed, and the accounts are
// locked in the same order as before, the round's row first.
//
// inserted is false when the round is missing, finished, or at another seq: the
// caller then reads why. A unique violation can only be the interaction's id, the
// round's next (round, seq) being free.
func (s *Store) insertActionIfNext(ctx context.Context, tx *txn, p ApplyParams) (tableID int64, guild string, b *books, inserted bool, err error) {
	tableID, guild, err = s.roundTable(ctx, tx, p.RoundID)
	if err == errNoRound {
		return 0, "", nil, false, nil
	}
	if err != nil {
		return 0, "", nil, false, err
	}
	var batch pgx.Batch
	batch.Queue(`SELECT 1 FROM rounds WHERE id = $1 FOR UPDATE`, p.RoundID)
	batch.Queue(`INSERT INTO actions (round_id, seq, member_id, verb, args, interaction_id, created_at, legs)
		SELECT r.id, $2::integer, $3, $4, $5, $6, $7, $8 FROM rounds r
		WHERE r.id = $1 AND r.finished_at IS NULL
			AND coalesce((SELECT seq FROM actions WHERE round_id = r.id ORDER BY seq DESC LIMIT 1), 0) = $2::integer - 1`,
		p.RoundID, p.Seq, p.Member, p.Verb, p.Args, nullString(p.InteractionID),
		formatTime(p.Now), encodeLegs(p.Transfers, tableID, p.Verb))
	if b = newBooks(guild, p.Transfers); len(b.accts) > 0 {
		q, args := b.query(tx.d)
		batch.Queue(tx.d.q(q), args...)
	} else {
		b = nil
	}
	err = tx.batch(ctx, &batch, func(br pgx.BatchResults) error {
		if _, err := br.Exec(); err != nil {
			return fmt.Errorf("store: lock rounds %d: %w", p.RoundID, err)
		}
		tag, err := br.Exec()
		if err != nil {
			if isUnique(err) {
				return fmt.Errorf("%w: %s", ErrDuplicateInteraction, p.InteractionID)
			}
			return fmt.Errorf("store: apply action: %w", err)
		}
		inserted = tag.RowsAffected() == 1
		if b == nil {
			return nil
		}
		rows, err := br.Query()
		if err != nil {
			return fmt.Errorf("store: read balances: %w", err)
		}
		defer rows.Close()
		return b.scan(rows)
	})
	if err != nil {
		return 0, "", nil, false, err
	}
	return tableID, guild, b, inserted, nil
}

// roundInteractions returns the interaction ids a round's actions carry, read on the
// actions' primary key.
func roundInteractions(ctx context.Context, tx *txn, round int64) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT interaction_id FROM actions WHERE round_id = ? AND interaction_id IS NOT NULL`, round)
	if err != nil {
		return nil, fmt.Errorf("store: apply action: %w", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("store: apply action: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: apply action: %w", err)
	}
	return ids, nil
}

// turnDeadline sets the table's turn deadline to due, or deletes it for a zero due.
func turnDeadline(ctx context.Context, tx *txn, tableID int64, due time.Time) error {
	if due.IsZero() {
		return clearDeadline(ctx, tx, tableID, DeadlineTurn, "")
	}
	return setDeadline(ctx, tx, tableID, DeadlineTurn, "", due)
}

// unusedInteraction returns ErrDuplicateInteraction if an action carries id: on
// PostgreSQL, whose unique index finds it.
func unusedInteraction(ctx context.Context, tx *txn, id string) error {
	if id == "" {
		return nil
	}
	var used bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM actions WHERE interaction_id = ?)`, id).Scan(&used); err != nil {
		return fmt.Errorf("store: apply action: %w", err)
	}
	if used {
		return fmt.Errorf("%w: %s", ErrDuplicateInteraction, id)
	}
	return nil
}

// Rounds returns a table's rounds, newest first; limit <= 0 returns all.
func (s *Store) Rounds(ctx context.Context, tableID int64, limit int) ([]Round, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if _, err := table(ctx, tx, tableID); err != nil {
		return nil, err
	}
	if limit <= 0 {
		return roundsWhere(ctx, tx, `table_id = ? ORDER BY number DESC`, tableID)
	}
	return roundsWhere(ctx, tx, `table_id = ? ORDER BY number DESC LIMIT ?`, tableID, limit)
}

// Round returns round number of a table, or a NotFoundError.
func (s *Store) Round(ctx context.Context, tableID int64, number int) (Round, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return Round{}, err
	}
	defer tx.Rollback()
	r, err := roundWhere(ctx, tx, fmt.Sprintf("%d of table %d", number, tableID),
		`table_id = ? AND number = ?`, tableID, number)
	if err != nil {
		return Round{}, err
	}
	return r, nil
}

// Actions returns a round's actions in order, or a NotFoundError if the
// round does not exist.
func (s *Store) Actions(ctx context.Context, roundID int64) ([]Action, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if _, err := roundWhere(ctx, tx, strconv.FormatInt(roundID, 10), `id = ?`, roundID); err != nil {
		return nil, err
	}
	return actions(ctx, tx, roundID)
}

// UnfinishedRounds returns every round still in play, with its table and
// actions, oldest first: at start-up the bot replays each through the game
// to rebuild the live state.
func (s *Store) UnfinishedRounds(ctx context.Context) ([]RoundWithActions, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rs, err := roundsWhere(ctx, tx, `finished_at IS NULL ORDER BY id`)
	if err != nil {
		return nil, err
	}
	out := make([]RoundWithActions, 0, len(rs))
	for _, r := range rs {
		t, err := table(ctx, tx, r.TableID)
		if err != nil {
			return nil, err
		}
		as, err := actions(ctx, tx, r.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, RoundWithActions{Table: t, Round: r, Actions: as})
	}
	return out, nil
}

const roundColumns = `id, table_id, number, history, commitment, salt, started_at, finished_at, result`

// roundWhere reads the one round matching cond, or a NotFoundError.
func roundWhere(ctx context.Context, tx *txn, key string, cond string, args ...any) (Round, error) {
	rs, err := roundsWhere(ctx, tx, cond, args...)
	if err != nil {
		return Round{}, err
	}
	if len(rs) == 0 {
		return Round{}, &NotFoundError{What: "round", Key: key}
	}
	return rs[0], nil
}

func roundsWhere(ctx context.Context, tx *txn, cond string, args ...any) ([]Round, error) {
	rows, err := tx.QueryContext(ctx, `SELECT `+roundColumns+` FROM rounds WHERE `+cond, args...)
	if err != nil {
		return nil, fmt.Errorf("store: rounds: %w", err)
	}
	defer rows.Close()
	var rs []Round
	for rows.Next() {
		var r Round
		var started string
		var finished, result sql.NullString
		if err := rows.Scan(&r.ID, &r.TableID, &r.Number, &r.History, &r.Commitment, &r.Salt,
			&started, &finished, &result); err != nil {
			return nil, fmt.Errorf("store: rounds: %w", err)
		}
		if r.StartedAt, err = parseTime(started); err != nil {
			return nil, err
		}
		if r.FinishedAt, err = parseNullTime(finished); err != nil {
			return nil, err
		}
		r.Result = result.String
		rs = append(rs, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: rounds: %w", err)
	}
	return rs, nil
}

func actions(ctx context.Context, tx *txn, roundID int64) ([]Action, error) {
	rows, err := tx.QueryContext(ctx, `SELECT seq, member_id, verb, args, interaction_id, created_at
		FROM actions WHERE round_id = ? ORDER BY seq`, roundID)
	if err != nil {
		return nil, fmt.Errorf("store: actions: %w", err)
	}
	defer rows.Close()
	var as []Action
	for rows.Next() {
		a := Action{RoundID: roundID}
		var interaction sql.NullString
		var created string
		if err := rows.Scan(&a.Seq, &a.Member, &a.Verb, &a.Args, &interaction, &created); err != nil {
			return nil, fmt.Errorf("store: actions: %w", err)
		}
		a.InteractionID = interaction.String
		if a.CreatedAt, err = parseTime(created); err != nil {
			return nil, err
		}
		as = append(as, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: actions: %w", err)
	}
	return as, nil
}

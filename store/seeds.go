package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Seeded shuffles (HISTORY.md, "Seeded shuffles", pontoon-shuffle/1). A table always has
// one pending server seed, whose commitment it shows before Deal; the deal that shuffles
// a fresh pack uses it (DealParams.Seed) and commits to the next one in the same
// transaction. The seed of a pack in play stays secret: it tells the cards to come. When
// the pack is shuffled away (the next fresh deal, a round that calls for a shuffle, R6.1,
// or the table closing) RevealSeeds makes it public, and /pontoon history carries it.

var (
	// ErrSeedTaken means the member already added a seed for this pack.
	ErrSeedTaken = errors.New("store: the member already added a seed for this pack")
	// ErrSeedsFull means the pack already has as many member seeds as it takes.
	ErrSeedsFull = errors.New("store: the pack takes no more member seeds")
	// ErrSeedUsed means the seed named is no longer the table's pending one: its pack
	// was dealt, or another seed took its place.
	ErrSeedUsed = errors.New("store: the seed is not the table's pending one")
)

// ShuffleSeed is a table's pontoon-shuffle/1 server seed.
type ShuffleSeed struct {
	Commitment string // lower-case hex SHA-256 of the seed, shown before the deal
	// ServerSeed is the seed as hex. RoundSeed leaves it empty until it is revealed.
	ServerSeed  string
	MemberSeeds []MemberSeed // for a pending seed: what members added, in order
	RoundID     int64        // the round first dealt from its pack; 0 while pending
	Revealed    bool
}

// MemberSeed is a text a member added for a pack.
type MemberSeed struct {
	Member string
	Seed   string
}

// SeedUse is a deal's use of the pending seed (DealParams.Seed): the commitment the
// table showed, how many member seeds the pack was derived with (so a seed added at the
// same moment is never silently dropped), and the seed to commit to for the next pack.
type SeedUse struct {
	Commitment  string
	MemberSeeds int
	Next        ShuffleSeed // Commitment and ServerSeed
}

func checkSeed(p ShuffleSeed) error {
	if len(p.Commitment) != 64 || len(p.ServerSeed) != 64 {
		return invalid("shuffle seed: a 64-hex commitment and a 64-hex server seed are required")
	}
	return nil
}

// CommitSeed returns the table's pending seed, recording candidate as it when there is
// none, so a table shows the same commitment however often it is loaded.
func (s *Store) CommitSeed(ctx context.Context, tableID int64, candidate ShuffleSeed, now time.Time) (ShuffleSeed, error) {
	if err := checkNow(now); err != nil {
		return ShuffleSeed{}, err
	}
	if err := checkSeed(candidate); err != nil {
		return ShuffleSeed{}, err
	}
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return ShuffleSeed{}, err
	}
	defer tx.Rollback()
	if _, err := openTable(ctx, tx, tableID); err != nil {
		return ShuffleSeed{}, err
	}
	p, ok, err := pendingSeed(ctx, tx, tableID)
	if err != nil {
		return ShuffleSeed{}, err
	}
	if !ok {
		if err := insertSeed(ctx, tx, tableID, candidate, now); err != nil {
			return ShuffleSeed{}, err
		}
		p = ShuffleSeed{Commitment: candidate.Commitment, ServerSeed: candidate.ServerSeed}
	}
	return p, s.commit(tx, "CommitSeed")
}

// PendingSeed returns the table's pending seed with its member seeds; ok is false when
// there is none.
func (s *Store) PendingSeed(ctx context.Context, tableID int64) (ShuffleSeed, bool, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return ShuffleSeed{}, false, err
	}
	defer tx.Rollback()
	return pendingSeed(ctx, tx, tableID)
}

// AddMemberSeed records a member's text for the pack of the pending seed commitment and
// returns how many members have added one. It refuses with ErrSeedUsed when commitment
// is no longer pending, ErrSeedTaken when the member added one already and ErrSeedsFull
// when limit seeds are in.
func (s *Store) AddMemberSeed(ctx context.Context, tableID int64, commitment, member, seed string, limit int, now time.Time) (int, error) {
	if err := checkNow(now); err != nil {
		return 0, err
	}
	if err := checkIDs("member", member); err != nil {
		return 0, err
	}
	if seed == "" {
		return 0, invalid("member seed: empty")
	}
	// A refusal that reports a count (ErrSeedTaken, ErrSeedsFull) returns the count
	// it read; the body sets it afresh on each run.
	var n int
	err := s.write(ctx, "AddMemberSeed", func(tx *txn) error {
		n = 0
		if _, err := openTable(ctx, tx, tableID); err != nil {
			return err
		}
		p, ok, err := pendingSeed(ctx, tx, tableID)
		if err != nil {
			return err
		}
		if !ok || p.Commitment != commitment {
			return ErrSeedUsed
		}
		n = len(p.MemberSeeds)
		for _, m := range p.MemberSeeds {
			if m.Member == member {
				return ErrSeedTaken
			}
		}
		if n >= limit {
			return ErrSeedsFull
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO member_seeds (table_id, commitment, seq, member_id, seed, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			tableID, commitment, n+1, member, seed, formatTime(now)); err != nil {
			return fmt.Errorf("store: member seed: %w", err)
		}
		n++
		return nil
	})
	if err != nil && !errors.Is(err, ErrSeedTaken) && !errors.Is(err, ErrSeedsFull) {
		return 0, err
	}
	return n, err
}

// RevealSeeds makes public the seeds of every pack the table was dealt from. The caller
// calls it only when no pack of the table is in play or carried to the next round
// (R6.1): a round that calls for a shuffle has settled, or the table closed.
func (s *Store) RevealSeeds(ctx context.Context, tableID int64, now time.Time) error {
	if err := checkNow(now); err != nil {
		return err
	}
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := revealSeeds(ctx, tx, tableID, now); err != nil {
		return err
	}
	return s.commit(tx, "RevealSeeds")
}

// RoundSeed returns the seed the round's pack was derived from, if it was: its
// commitment always, its server seed only once revealed.
func (s *Store) RoundSeed(ctx context.Context, roundID int64) (ShuffleSeed, bool, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return ShuffleSeed{}, false, err
	}
	defer tx.Rollback()
	var p ShuffleSeed
	var revealed sql.NullString
	err = tx.QueryRowContext(ctx, `SELECT commitment, server_seed, revealed_at FROM shuffle_seeds WHERE round_id = ?`, roundID).
		Scan(&p.Commitment, &p.ServerSeed, &revealed)
	if errors.Is(err, sql.ErrNoRows) {
		return ShuffleSeed{}, false, nil
	}
	if err != nil {
		return ShuffleSeed{}, false, fmt.Errorf("store: round seed: %w", err)
	}
	p.RoundID, p.Revealed = roundID, revealed.Valid
	if !p.Revealed {
		p.ServerSeed = ""
	}
	return p, true, nil
}

// useSeed is a deal's use of the pending seed, inside DealRound's transaction: the packs
// dealt before are shuffled away now, so their seeds are revealed; the pending seed is
// tied to the round; the next one is committed to.
func useSeed(ctx context.Context, tx *txn, tableID, roundID int64, u SeedUse, now time.Time) error {
	if err := checkSeed(u.Next); err != nil {
		return err
	}
	p, ok, err := pendingSeed(ctx, tx, tableID)
	if err != nil {
		return err
	}
	if !ok || p.Commitment != u.Commitment {
		return ErrSeedUsed
	}
	if len(p.MemberSeeds) != u.MemberSeeds {
		return fmt.Errorf("%w: the pack has %d member seeds, the deal used %d", ErrSeedUsed, len(p.MemberSeeds), u.MemberSeeds)
	}
	if err := revealSeeds(ctx, tx, tableID, now); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE shuffle_seeds SET round_id = ? WHERE table_id = ? AND commitment = ? AND round_id IS NULL`,
		roundID, tableID, u.Commitment); err != nil {
		return fmt.Errorf("store: use seed: %w", err)
	}
	return insertSeed(ctx, tx, tableID, u.Next, now)
}

func insertSeed(ctx context.Context, tx *txn, tableID int64, p ShuffleSeed, now time.Time) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO shuffle_seeds (table_id, commitment, server_seed, created_at) VALUES (?, ?, ?, ?)`,
		tableID, p.Commitment, p.ServerSeed, formatTime(now)); err != nil {
		return fmt.Errorf("store: commit seed: %w", err)
	}
	return nil
}

func revealSeeds(ctx context.Context, tx *txn, tableID int64, now time.Time) error {
	if _, err := tx.ExecContext(ctx, `UPDATE shuffle_seeds SET revealed_at = ? WHERE table_id = ? AND round_id IS NOT NULL AND revealed_at IS NULL`,
		formatTime(now), tableID); err != nil {
		return fmt.Errorf("store: reveal seeds: %w", err)
	}
	return nil
}

func pendingSeed(ctx context.Context, tx *txn, tableID int64) (ShuffleSeed, bool, error) {
	var p ShuffleSeed
	err := tx.QueryRowContext(ctx, `SELECT commitment, server_seed FROM shuffle_seeds WHERE table_id = ? AND round_id IS NULL`, tableID).
		Scan(&p.Commitment, &p.ServerSeed)
	if errors.Is(err, sql.ErrNoRows) {
		return ShuffleSeed{}, false, nil
	}
	if err != nil {
		return ShuffleSeed{}, false, fmt.Errorf("store: pending seed: %w", err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT member_id, seed FROM member_seeds WHERE table_id = ? AND commitment = ? ORDER BY seq`, tableID, p.Commitment)
	if err != nil {
		return ShuffleSeed{}, false, fmt.Errorf("store: member seeds: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var m MemberSeed
		if err := rows.Scan(&m.Member, &m.Seed); err != nil {
			return ShuffleSeed{}, false, fmt.Errorf("store: member seeds: %w", err)
		}
		p.MemberSeeds = append(p.MemberSeeds, m)
	}
	return p, true, rows.Err()
}

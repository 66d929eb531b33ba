package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// RoundResult is what one settled round did for one member: written by the action that
// settles the round (RoundFinish.Results), in its transaction, and read back by Stats
// and NetLeaderboard.
type RoundResult struct {
	Member   string
	Banker   bool  // the member held the bank this round
	Hands    int   // hands played (a split seat plays several); 0 for the banker
	Pontoons int   // hands that were a pontoon (R2.1, R8.6)
	Tricks   int   // five card tricks (R2.2)
	Busts    int   // bust or folded hands (R2.5, R7.4)
	Net      int64 // chips won (+) or lost (-) in the round; the bank's takings for the banker
}

// Stats is a member's record in one server, summed over the rounds they played.
type Stats struct {
	Rounds       int   // rounds played, as a player or as the banker (BankerRounds are among them)
	Won, Lost    int   // of those, rounds that ended up (net > 0) and down (net < 0)
	Pontoons     int   // hands
	Tricks       int   // hands: five card tricks
	Busts        int   // hands
	Net          int64 // every round's net together, as a player and as the banker
	BiggestWin   int64 // the most won in one round, as a player or as the banker; 0 when none
	BankerRounds int   // rounds played as the banker
	BankNet      int64 // the bank's takings over those rounds
}

// insertResults writes a settled round's results. tx is ApplyAction's.
func insertResults(ctx context.Context, tx *txn, roundID int64, guild string, rs []RoundResult) error {
	for _, r := range rs {
		if err := checkIDs("member", r.Member); err != nil {
			return err
		}
		banker := 0
		if r.Banker {
			banker = 1
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO round_results
			(round_id, guild_id, member_id, banker, hands, pontoons, tricks, busts, net) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			roundID, guild, r.Member, banker, r.Hands, r.Pontoons, r.Tricks, r.Busts, r.Net); err != nil {
			return fmt.Errorf("store: round results: %w", err)
		}
	}
	return nil
}

// statsQuery sums a member's result rows, found through the round_results_member index.
const statsQuery = `SELECT
			count(*),
			coalesce(sum(CASE WHEN net > 0 THEN 1 ELSE 0 END), 0),
			coalesce(sum(CASE WHEN net < 0 THEN 1 ELSE 0 END), 0),
			coalesce(sum(pontoons), 0), coalesce(sum(tricks), 0), coalesce(sum(busts), 0),
			coalesce(sum(net), 0),
			coalesce(max(CASE WHEN net > 0 THEN net ELSE 0 END), 0),
			coalesce(sum(banker), 0),
			coalesce(sum(CASE WHEN banker = 1 THEN net ELSE 0 END), 0)
		FROM round_results WHERE guild_id = ? AND member_id = ?`

// Stats returns a member's record in a server: one query over their own result rows
// through the round_results_member index. A member who never played has zero Stats.
func (s *Store) Stats(ctx context.Context, guild, member string) (Stats, error) {
	var st Stats
	if err := checkIDs("guild", guild, "member", member); err != nil {
		return st, err
	}
	err := s.r.QueryRowContext(ctx, statsQuery, guild, member).Scan(
		&st.Rounds, &st.Won, &st.Lost, &st.Pontoons, &st.Tricks, &st.Busts, &st.Net, &st.BiggestWin, &st.BankerRounds, &st.BankNet)
	if err != nil {
		return st, fmt.Errorf("store: stats: %w", err)
	}
	return st, nil
}

// NetStanding is a place on the leaderboard by net winnings.
type NetStanding struct {
	Rank   int // 1 for the biggest winner; ties go to the member id, so every rank is unique
	Member string
	Net    int64
}

// NetLeaderboard returns one page of a server's members who have played a round,
// ranked by their net winnings over every round (as players and as bankers), with how
// many there are. It reads the server's result rows through the round_results_member
// index, never the rounds themselves.
func (s *Store) NetLeaderboard(ctx context.Context, guild string, offset, limit int) (page []NetStanding, total int, err error) {
	if err := checkIDs("guild", guild); err != nil {
		return nil, 0, err
	}
	if offset < 0 || limit <= 0 {
		return nil, 0, invalid("leaderboard offset %d, limit %d", offset, limit)
	}
	tx, err := s.beginRead(ctx)
	if err != nil {
		return nil, 0, err
	}
	defer tx.Rollback()
	if err := tx.QueryRowContext(ctx, `SELECT count(DISTINCT member_id) FROM round_results WHERE guild_id = ?`, guild).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("store: net leaderboard: %w", err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT member_id, sum(net) AS total FROM round_results WHERE guild_id = ?
		GROUP BY member_id ORDER BY total DESC, member_id ASC LIMIT ? OFFSET ?`, guild, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("store: net leaderboard: %w", err)
	}
	defer rows.Close()
	rank := offset
	for rows.Next() {
		var st NetStanding
		if err := rows.Scan(&st.Member, &st.Net); err != nil {
			return nil, 0, fmt.Errorf("store: net leaderboard: %w", err)
		}
		rank++
		st.Rank = rank
		page = append(page, st)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("store: net leaderboard: %w", err)
	}
	return page, total, nil
}

// NetRank is the member's place in NetLeaderboard's order, or a NotFoundError when they
// have played no round in the server.
func (s *Store) NetRank(ctx context.Context, guild, member string) (NetStanding, error) {
	if err := checkIDs("guild", guild, "member", member); err != nil {
		return NetStanding{}, err
	}
	tx, err := s.beginRead(ctx)
	if err != nil {
		return NetStanding{}, err
	}
	defer tx.Rollback()
	var n int
	st := NetStanding{Member: member}
	if err := tx.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(net), 0) FROM round_results WHERE guild_id = ? AND member_id = ?`,
		guild, member).Scan(&n, &st.Net); err != nil {
		return st, fmt.Errorf("store: net rank: %w", err)
	}
	if n == 0 {
		return st, &NotFoundError{What: "results", Key: member}
	}
	var ahead int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT member_id, sum(net) AS total FROM round_results
			WHERE guild_id = ? GROUP BY member_id) t WHERE t.total > ? OR (t.total = ? AND t.member_id < ?)`,
		guild, st.Net, st.Net, member).Scan(&ahead); err != nil {
		return st, fmt.Errorf("store: net rank: %w", err)
	}
	st.Rank = ahead + 1
	return st, nil
}

// MemberLanguage is the language a member chose in a server with SetMemberLanguage, or
// "" when they chose none.
func (s *Store) MemberLanguage(ctx context.Context, guild, member string) (string, error) {
	if err := checkIDs("guild", guild, "member", member); err != nil {
		return "", err
	}
	var lang string
	err := s.r.QueryRowContext(ctx, `SELECT language FROM member_languages WHERE guild_id = ? AND member_id = ?`, guild, member).Scan(&lang)
	if err == sql.ErrNoRows {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: member language: %w", err)
	}
	return lang, nil
}

// SetMemberLanguage records the language a member chose in a server; "" forgets the
// choice, so their Discord client's locale counts again.
func (s *Store) SetMemberLanguage(ctx context.Context, guild, member, lang string, now time.Time) error {
	if err := checkIDs("guild", guild, "member", member); err != nil {
		return err
	}
	if err := checkNow(now); err != nil {
		return err
	}
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if lang == "" {
		_, err = tx.ExecContext(ctx, `DELETE FROM member_languages WHERE guild_id = ? AND member_id = ?`, guild, member)
	} else {
		_, err = tx.ExecContext(ctx, `INSERT INTO member_languages (guild_id, member_id, language, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (guild_id, member_id) DO UPDATE SET language = excluded.language, updated_at = excluded.updated_at`,
			guild, member, lang, formatTime(now))
	}
	if err != nil {
		return fmt.Errorf("store: set member language: %w", err)
	}
	return s.commit(tx, "SetMemberLanguage")
}

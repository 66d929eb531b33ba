-- round_results holds one row per member per settled round: what the round did for
-- them, written by the action that settles it, in the same transaction. /pontoon stats
-- reads a member's rows through the index (one query, never a scan of the rounds and
-- their JSON), and /pontoon leaderboard by net sums them per member from the same
-- index. The ledger stays the truth about chips; these rows are its per-round summary.
-- Plain SQL, the same in SQLite and PostgreSQL.

-- +goose Up
CREATE TABLE round_results (
    round_id  INTEGER NOT NULL REFERENCES rounds (id),
    guild_id  TEXT    NOT NULL,
    member_id TEXT    NOT NULL,
    banker    INTEGER NOT NULL, -- 1: the member held the bank this round
    hands     INTEGER NOT NULL, -- hands played (a split seat plays several); 0 for the banker
    pontoons  INTEGER NOT NULL,
    tricks    INTEGER NOT NULL, -- five card tricks
    busts     INTEGER NOT NULL,
    net       INTEGER NOT NULL, -- chips won (+) or lost (-) in the round, the bank's for the banker
    PRIMARY KEY (round_id, member_id)
);
CREATE INDEX round_results_member ON round_results (guild_id, member_id, banker, net);

-- +goose Down
DROP INDEX round_results_member;
DROP TABLE round_results;

-- round_results on PostgreSQL: see ../00031_round_results.sql.

-- +goose Up
CREATE TABLE round_results (
    round_id  BIGINT NOT NULL REFERENCES rounds (id),
    guild_id  TEXT COLLATE "C" NOT NULL,
    member_id TEXT COLLATE "C" NOT NULL,
    banker    BIGINT NOT NULL,
    hands     BIGINT NOT NULL,
    pontoons  BIGINT NOT NULL,
    tricks    BIGINT NOT NULL,
    busts     BIGINT NOT NULL,
    net       BIGINT NOT NULL,
    PRIMARY KEY (round_id, member_id)
);
CREATE INDEX round_results_member ON round_results (guild_id, member_id, banker, net);

-- +goose Down
DROP INDEX round_results_member;
DROP TABLE round_results;

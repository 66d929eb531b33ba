-- shuffle_seeds and member_seeds on PostgreSQL: see ../00020_shuffle_seeds.sql.

-- +goose Up
CREATE TABLE shuffle_seeds (
    table_id    BIGINT NOT NULL REFERENCES tables (id),
    commitment  TEXT COLLATE "C" NOT NULL,
    server_seed TEXT COLLATE "C" NOT NULL,
    round_id    BIGINT REFERENCES rounds (id),
    created_at  TEXT COLLATE "C" NOT NULL,
    revealed_at TEXT COLLATE "C",
    PRIMARY KEY (table_id, commitment)
);
CREATE UNIQUE INDEX shuffle_seeds_pending ON shuffle_seeds (table_id) WHERE round_id IS NULL;
CREATE UNIQUE INDEX shuffle_seeds_round ON shuffle_seeds (round_id);

CREATE TABLE member_seeds (
    table_id   BIGINT NOT NULL,
    commitment TEXT COLLATE "C" NOT NULL,
    seq        BIGINT NOT NULL,
    member_id  TEXT COLLATE "C" NOT NULL,
    seed       TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (table_id, commitment, seq),
    UNIQUE (table_id, commitment, member_id),
    FOREIGN KEY (table_id, commitment) REFERENCES shuffle_seeds (table_id, commitment)
);

-- +goose Down
DROP TABLE member_seeds;
DROP TABLE shuffle_seeds;

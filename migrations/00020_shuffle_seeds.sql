-- shuffle_seeds holds each table's pontoon-shuffle/1 server seeds (HISTORY.md, "Seeded
-- shuffles"): the one committed to for the next freshly shuffled pack (round_id NULL, its
-- commitment shown on the table before Deal), and those a round was dealt from (round_id
-- set), kept secret until the pack is shuffled away (revealed_at set). member_seeds holds
-- the texts members added for a pending seed's pack, in order. Plain SQL, the same in
-- SQLite and PostgreSQL.

-- +goose Up
CREATE TABLE shuffle_seeds (
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    commitment  TEXT    NOT NULL,
    server_seed TEXT    NOT NULL,
    round_id    INTEGER REFERENCES rounds (id),
    created_at  TEXT    NOT NULL,
    revealed_at TEXT,
    PRIMARY KEY (table_id, commitment)
);
CREATE UNIQUE INDEX shuffle_seeds_pending ON shuffle_seeds (table_id) WHERE round_id IS NULL;
CREATE UNIQUE INDEX shuffle_seeds_round ON shuffle_seeds (round_id);

CREATE TABLE member_seeds (
    table_id   INTEGER NOT NULL,
    commitment TEXT    NOT NULL,
    seq        INTEGER NOT NULL,
    member_id  TEXT    NOT NULL,
    seed       TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (table_id, commitment, seq),
    UNIQUE (table_id, commitment, member_id),
    FOREIGN KEY (table_id, commitment) REFERENCES shuffle_seeds (table_id, commitment)
);

-- +goose Down
DROP TABLE member_seeds;
DROP TABLE shuffle_seeds;

-- odds on PostgreSQL: see ../00021_odds.sql.

-- +goose Up
CREATE TABLE odds (
    rules      TEXT COLLATE "C" NOT NULL,
    seats      BIGINT NOT NULL,
    report     TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (rules, seats)
);

-- +goose Down
DROP TABLE odds;

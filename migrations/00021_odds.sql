-- odds keeps what `pontoon simulate` found for a rule set at a table size, so /pontoon
-- odds and a bank offer's fair-price hint compute it once: rules is the rule set's JSON,
-- report the simulation's JSON. Plain SQL, the same in SQLite and PostgreSQL.

-- +goose Up
CREATE TABLE odds (
    rules      TEXT    NOT NULL,
    seats      INTEGER NOT NULL,
    report     TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (rules, seats)
);

-- +goose Down
DROP TABLE odds;

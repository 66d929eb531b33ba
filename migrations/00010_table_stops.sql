-- table_stops holds the open tables whose stop was asked for during a round: they close
-- when the round settles, and a restart keeps that promise. Plain SQL, the same in
-- SQLite and PostgreSQL.

-- +goose Up
CREATE TABLE table_stops (
    table_id INTEGER PRIMARY KEY REFERENCES tables (id)
);

-- +goose Down
DROP TABLE table_stops;

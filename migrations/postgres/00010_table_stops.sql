-- table_stops holds the open tables whose stop was asked for during a round: they close
-- when the round settles, and a restart keeps that promise.

-- +goose Up
CREATE TABLE table_stops (
    table_id BIGINT PRIMARY KEY REFERENCES tables (id)
);

-- +goose Down
DROP TABLE table_stops;

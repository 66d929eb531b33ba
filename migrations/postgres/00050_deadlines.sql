-- deadlines holds the rules' timers that must outlive the process that set them (-- HTTP replicas on one database): for now the turn timer of a table's round in play
-- (R7.4). A row is written in the same transaction as what starts the timer (the deal,
-- an action the round goes on after) and deleted by what ends it (the action that
-- settles the round, a voided round, a close), so the store always says when the table
-- next times out. kind names the timer ('turn'); ref tells apart several timers of one
-- kind at a table ('' for the turn). due, claimed_until: fixed-width UTC text, as every
-- time in the store. A process that finds a row due claims it (claimed_by, until
-- claimed_until) so that one process fires it; a claim whose process died lapses.

-- +goose Up
CREATE TABLE deadlines (
    table_id BIGINT NOT NULL REFERENCES tables (id),
    kind TEXT NOT NULL,
    ref TEXT NOT NULL DEFAULT '',
    due TEXT NOT NULL,
    claimed_by TEXT,
    claimed_until TEXT,
    PRIMARY KEY (table_id, kind, ref)
);
CREATE INDEX deadlines_due ON deadlines (due);

-- +goose Down
DROP TABLE deadlines;

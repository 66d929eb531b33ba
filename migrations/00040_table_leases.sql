-- table_leases lets several bot processes share one database's tables, (HTTP
-- replicas): a process works on a table only while it holds the table's lease, so one
-- process at a time applies its commands and fires its timers. holder is the process
-- that last held it: a process that finds another's name there knows its copy of the
-- table is stale and rebuilds it from the store. until is when the lease lapses (fixed-
-- width UTC text, as every time in the store); a crashed holder's lease lapses by itself.

-- +goose Up
CREATE TABLE table_leases (
    table_id INTEGER PRIMARY KEY REFERENCES tables (id),
    holder TEXT NOT NULL,
    until TEXT NOT NULL
);

-- +goose Down
DROP TABLE table_leases;

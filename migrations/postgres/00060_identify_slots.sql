-- identify_slots paces the gateway identifies of an application's shards run as
-- separate processes on one database: Discord lets one shard per rate-limit
-- bucket (shard_id % max_concurrency) identify every 5 seconds, and a fleet restarting
-- together would otherwise send them at once. next_at is when the bucket's next
-- identify may be sent (fixed-width UTC text, as every time in the store); a process
-- reserves a slot by moving it on one window.

-- +goose Up
CREATE TABLE identify_slots (
    bucket INTEGER PRIMARY KEY,
    next_at TEXT NOT NULL
);

-- +goose Down
DROP TABLE identify_slots;

-- changed_at is when something a table shows between rounds last changed: its bank
-- (a kitty top-up, a sale, a pass: R6.3, R9.8, R9.9) or its seats (a join, a leave).
-- It is written in the transaction that makes the change, so that a restart redraws
-- the tables changed in the last minutes: the edit that would have shown the change
-- may have died with the process. NULL: no such change recorded. Fixed-width UTC text,
-- as every time in the store.

-- +goose Up
ALTER TABLE tables ADD COLUMN changed_at TEXT;

-- +goose Down
ALTER TABLE tables DROP COLUMN changed_at;

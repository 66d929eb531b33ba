-- ledger_by_table indexed the ledger by table, but no query reads it that way,
-- and every chip movement paid for it: one more index page written per
-- committed action. The unique (round_id, action_seq, leg) key stays; it is what
-- keeps an action from moving chips twice.

-- +goose Up
DROP INDEX ledger_by_table;

-- +goose Down
CREATE INDEX ledger_by_table ON ledger (table_id) WHERE table_id IS NOT NULL;

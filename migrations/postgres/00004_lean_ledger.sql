-- ledger_by_table on PostgreSQL: see ../00004_lean_ledger.sql.

-- +goose Up
DROP INDEX ledger_by_table;

-- +goose Down
CREATE INDEX ledger_by_table ON ledger (table_id) WHERE table_id IS NOT NULL;

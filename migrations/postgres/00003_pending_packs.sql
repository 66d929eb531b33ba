-- pending_packs on PostgreSQL: see ../00003_pending_packs.sql.

-- +goose Up
CREATE TABLE pending_packs (
    table_id   BIGINT PRIMARY KEY REFERENCES tables (id),
    for_round  BIGINT NOT NULL CHECK (for_round > 0),
    pack       TEXT NOT NULL CHECK (pack::jsonb IS NOT NULL),
    salt       TEXT NOT NULL CHECK (salt <> ''),
    commitment TEXT NOT NULL CHECK (commitment <> '')
);

-- +goose Down
DROP TABLE pending_packs;

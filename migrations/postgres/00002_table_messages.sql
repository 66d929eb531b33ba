-- table_messages on PostgreSQL: see ../00002_table_messages.sql.

-- +goose Up
CREATE TABLE table_messages (
    table_id   BIGINT PRIMARY KEY REFERENCES tables (id),
    message_id TEXT COLLATE "C" NOT NULL CHECK (message_id <> '')
);

-- +goose Down
DROP TABLE table_messages;

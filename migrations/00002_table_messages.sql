-- table_messages remembers the public message that shows each table, so that
-- after a restart the bot goes on editing the same message and the buttons on
-- it keep working.

-- +goose Up
CREATE TABLE table_messages (
    table_id   INTEGER PRIMARY KEY REFERENCES tables (id),
    message_id TEXT    NOT NULL CHECK (message_id <> '')
) STRICT;

-- +goose Down
DROP TABLE table_messages;

-- pending_packs holds the pack a table's next round will be dealt from, with the salt
-- and commitment shown on the table before anyone presses Deal. for_round says which
-- round it is for, so a pack is never dealt twice.

-- +goose Up
CREATE TABLE pending_packs (
    table_id   INTEGER PRIMARY KEY REFERENCES tables (id),
    for_round  INTEGER NOT NULL CHECK (for_round > 0),
    pack       TEXT    NOT NULL CHECK (json_valid(pack)),
    salt       TEXT    NOT NULL CHECK (salt <> ''),
    commitment TEXT    NOT NULL CHECK (commitment <> '')
) STRICT;

-- +goose Down
DROP TABLE pending_packs;

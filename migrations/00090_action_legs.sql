-- An action's chip movements now travel in the action's own row: legs is a JSON
-- array of [from, to, amount, reason], leg i being element i. A committed action used
-- to write one ledger row per leg, and those rows and their unique (round_id,
-- action_seq, leg) key were two of the five or six pages every action wrote. The
-- guarantee stays whole: (round_id, seq) is the actions' primary key, so an action, and
-- with it each of its legs, is recorded once. NULL: the action moved no chips, or (an
-- action from before this migration) its legs are ledger rows.
--
-- ledger_entries is every chip movement, whichever of the two holds it: the rows of
-- ledger (grants, sales, round starts, older actions) and the legs of actions. The
-- audit reads it; so can a person with the sqlite3 shell.

-- +goose Up
ALTER TABLE actions ADD COLUMN legs TEXT;

CREATE VIEW ledger_entries (guild_id, from_account, to_account, amount, reason, table_id, round_id, action_seq, leg, created_at) AS
    SELECT guild_id, from_account, to_account, amount, reason, table_id, round_id, action_seq, leg, created_at
    FROM ledger
    UNION ALL
    SELECT t.guild_id, json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]'), json_extract(j.value, '$[2]'),
           json_extract(j.value, '$[3]'), r.table_id, a.round_id, a.seq, j.key, a.created_at
    FROM actions a
    JOIN rounds r ON r.id = a.round_id
    JOIN tables t ON t.id = r.table_id
    JOIN json_each(a.legs) j
    WHERE a.legs IS NOT NULL;

-- +goose Down
DROP VIEW ledger_entries;
ALTER TABLE actions DROP COLUMN legs;

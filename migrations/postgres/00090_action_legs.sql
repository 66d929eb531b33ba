-- (The SQLite twin of this migration also makes interaction_id unique per round only;
-- PostgreSQL keeps its unique index, see there.)
--
-- An action's chip movements now travel in the action's own row: legs is a JSON
-- array of [from, to, amount, reason], leg i being element i. A committed action used
-- to write one ledger row per leg, and those rows and their unique (round_id,
-- action_seq, leg) key were two of the five or six pages every action wrote. The
-- guarantee stays whole: (round_id, seq) is the actions' primary key, so an action, and
-- with it each of its legs, is recorded once. NULL: the action moved no chips, or (an
-- action from before this migration) its legs are ledger rows. Text, not jsonb: it is
-- written on every action and read only by the audit.
--
-- ledger_entries is every chip movement, whichever of the two holds it: the rows of
-- ledger (grants, sales, round starts, older actions) and the legs of actions. The
-- audit reads it; so can a person with psql.

-- +goose Up
ALTER TABLE actions ADD COLUMN legs TEXT;

CREATE VIEW ledger_entries (guild_id, from_account, to_account, amount, reason, table_id, round_id, action_seq, leg, created_at) AS
    SELECT guild_id, from_account, to_account, amount, reason, table_id, round_id, action_seq, leg, created_at
    FROM ledger
    UNION ALL
    SELECT t.guild_id, j.leg ->> 0, j.leg ->> 1, (j.leg ->> 2)::bigint, j.leg ->> 3, r.table_id, a.round_id, a.seq,
           j.n - 1, a.created_at
    FROM actions a
    JOIN rounds r ON r.id = a.round_id
    JOIN tables t ON t.id = r.table_id
    CROSS JOIN LATERAL jsonb_array_elements(a.legs::jsonb) WITH ORDINALITY AS j (leg, n)
    WHERE a.legs IS NOT NULL;

-- +goose Down
-- The legs go back to being ledger rows.
INSERT INTO ledger (guild_id, from_account, to_account, amount, reason, table_id, round_id, action_seq, leg, created_at)
    SELECT e.guild_id, e.from_account, e.to_account, e.amount, e.reason, e.table_id, e.round_id, e.action_seq, e.leg, e.created_at
    FROM ledger_entries e
    JOIN actions a ON a.round_id = e.round_id AND a.seq = e.action_seq AND a.legs IS NOT NULL;
DROP VIEW ledger_entries;
ALTER TABLE actions DROP COLUMN legs;

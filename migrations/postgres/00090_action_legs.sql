-- (The SQLite twin of this migration also makes interaction_id unique per round only;
-- PostgreSQL keeps its unique index, see there.)
--
-- An action's chip movements now travel in the action's own row: legs is a JSON
-- array of [from, to, amount] or [from, to, amount, reason], leg i being element i; a
-- leg without a reason has the action's verb for one, and names the accounts of its own
-- table and wallets short: "w:<member>", "e:<member>" (its escrow), "k" (its kitty). A
-- short row takes less of the log (store/ledger.go, encodeLegs). A committed action used
-- to write one ledger row per leg, and those rows and their unique (round_id,
-- action_seq, leg) key were two of the five or six pages every action wrote. The
-- guarantee stays whole: (round_id, seq) is the actions' primary key, so an action, and
-- with it each of its legs, is recorded once. NULL: the action moved no chips, or (an
-- action from before this migration) its legs are ledger rows. Text, not jsonb: it is
-- written on every action and read only by the audit.
--
-- ledger_entries is every chip movement, whichever of the two holds it, each account by
-- its full name: the rows of ledger (grants, sales, round starts, older actions) and
-- the legs of actions. The audit reads it; so can a person with psql.

-- +goose Up
ALTER TABLE actions ADD COLUMN legs TEXT;

CREATE VIEW ledger_entries (guild_id, from_account, to_account, amount, reason, table_id, round_id, action_seq, leg, created_at) AS
    SELECT guild_id, from_account, to_account, amount, reason, table_id, round_id, action_seq, leg, created_at
    FROM ledger
    UNION ALL
    SELECT l.guild_id,
           CASE WHEN l.fa = 'k' THEN 'kitty:' || l.table_id
                WHEN left(l.fa, 2) = 'w:' THEN 'wallet:' || substr(l.fa, 3)
                WHEN left(l.fa, 2) = 'e:' THEN 'escrow:' || l.table_id || ':' || substr(l.fa, 3)
                ELSE l.fa END,
           CASE WHEN l.ta = 'k' THEN 'kitty:' || l.table_id
                WHEN left(l.ta, 2) = 'w:' THEN 'wallet:' || substr(l.ta, 3)
                WHEN left(l.ta, 2) = 'e:' THEN 'escrow:' || l.table_id || ':' || substr(l.ta, 3)
                ELSE l.ta END,
           l.amount, coalesce(l.reason, l.verb), l.table_id, l.round_id, l.seq, l.leg, l.created_at
    FROM (SELECT tb.guild_id, r.table_id, a.round_id, a.seq, a.verb, a.created_at, j.n - 1 AS leg,
                 j.leg ->> 0 AS fa, j.leg ->> 1 AS ta, (j.leg ->> 2)::bigint AS amount, j.leg ->> 3 AS reason
          FROM actions a
          JOIN rounds r ON r.id = a.round_id
          JOIN tables tb ON tb.id = r.table_id
          CROSS JOIN LATERAL jsonb_array_elements(a.legs::jsonb) WITH ORDINALITY AS j (leg, n)
          WHERE a.legs IS NOT NULL) l;

-- +goose Down
-- The legs go back to being ledger rows.
INSERT INTO ledger (guild_id, from_account, to_account, amount, reason, table_id, round_id, action_seq, leg, created_at)
    SELECT e.guild_id, e.from_account, e.to_account, e.amount, e.reason, e.table_id, e.round_id, e.action_seq, e.leg, e.created_at
    FROM ledger_entries e
    JOIN actions a ON a.round_id = e.round_id AND a.seq = e.action_seq AND a.legs IS NOT NULL;
DROP VIEW ledger_entries;
ALTER TABLE actions DROP COLUMN legs;

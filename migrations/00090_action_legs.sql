-- Three of the pages every action wrote go: 5.9 pages a commit before, 2.7 after, on one
-- round's actions of three legs each (BenchmarkApplyAction's frames/op in store).
--
-- 1. An action's chip movements travel in the action's own row: legs is a JSON array of
--    [from, to, amount] or [from, to, amount, reason], leg i being element i; a leg
--    without a reason has the action's verb for one, and names the accounts of its
--    own table and wallets short: "w:<member>", "e:<member>" (its escrow), "k" (its
--    kitty). A short row splits the actions' b-tree less often (store/ledger.go,
--    encodeLegs). An action used to write one ledger row per leg, and those rows and
--    their unique (round_id, action_seq, leg) key were two pages. The guarantee stays whole: (round_id, seq) is the actions'
--    primary key, so an action, and with it each of its legs, is recorded once. NULL:
--    the action moved no chips, or (an action from before this migration) its legs
--    are ledger rows.
-- 2. interaction_id is no longer UNIQUE across every round ever played, whose index was
--    one more page. An interaction belongs to one round: its custom id names the round
--    and the member's turn, and the bot refuses it anywhere else. ApplyAction refuses
--    an id that an action of the same round carries, from the round's own rows (the
--    primary key's prefix), which it keeps in memory (store/hot.go). PostgreSQL keeps
--    its unique index: there it costs no page write of a shared log. (Every other
--    write an interaction causes records its id in the interactions table:
--    store/interaction.go.)
--
-- SQLite cannot drop a column's UNIQUE, so the table is rebuilt; nothing references it.
--
-- ledger_entries is every chip movement, whichever of the two holds it, each account by
-- its full name: the rows of ledger (grants, sales, round starts, older actions) and
-- the legs of actions. The audit reads it; so can a person with the sqlite3 shell.

-- +goose Up
CREATE TABLE actions_new (
    round_id       INTEGER NOT NULL REFERENCES rounds (id),
    seq            INTEGER NOT NULL CHECK (seq > 0),
    member_id      TEXT    NOT NULL,
    verb           TEXT    NOT NULL CHECK (verb <> ''),
    args           TEXT    NOT NULL DEFAULT '',
    interaction_id TEXT,
    created_at     TEXT    NOT NULL,
    legs           TEXT,
    PRIMARY KEY (round_id, seq)
) STRICT, WITHOUT ROWID;
INSERT INTO actions_new (round_id, seq, member_id, verb, args, interaction_id, created_at)
    SELECT round_id, seq, member_id, verb, args, interaction_id, created_at FROM actions;
DROP TABLE actions;
ALTER TABLE actions_new RENAME TO actions;

CREATE VIEW ledger_entries (guild_id, from_account, to_account, amount, reason, table_id, round_id, action_seq, leg, created_at) AS
    SELECT guild_id, from_account, to_account, amount, reason, table_id, round_id, action_seq, leg, created_at
    FROM ledger
    UNION ALL
    SELECT l.guild_id,
           CASE WHEN l.fa = 'k' THEN 'kitty:' || l.table_id
                WHEN substr(l.fa, 1, 2) = 'w:' THEN 'wallet:' || substr(l.fa, 3)
                WHEN substr(l.fa, 1, 2) = 'e:' THEN 'escrow:' || l.table_id || ':' || substr(l.fa, 3)
                ELSE l.fa END,
           CASE WHEN l.ta = 'k' THEN 'kitty:' || l.table_id
                WHEN substr(l.ta, 1, 2) = 'w:' THEN 'wallet:' || substr(l.ta, 3)
                WHEN substr(l.ta, 1, 2) = 'e:' THEN 'escrow:' || l.table_id || ':' || substr(l.ta, 3)
                ELSE l.ta END,
           l.amount, coalesce(l.reason, l.verb), l.table_id, l.round_id, l.seq, l.leg, l.created_at
    FROM (SELECT tb.guild_id, r.table_id, a.round_id, a.seq, a.verb, a.created_at, j.key AS leg,
                 json_extract(j.value, '$[0]') AS fa, json_extract(j.value, '$[1]') AS ta,
                 json_extract(j.value, '$[2]') AS amount, json_extract(j.value, '$[3]') AS reason
          FROM actions a
          JOIN rounds r ON r.id = a.round_id
          JOIN tables tb ON tb.id = r.table_id
          JOIN json_each(a.legs) j
          WHERE a.legs IS NOT NULL) l;

-- +goose Down
-- The legs go back to being ledger rows, and the ids unique again (the Down fails if two
-- rounds' actions came to share one).
INSERT INTO ledger (guild_id, from_account, to_account, amount, reason, table_id, round_id, action_seq, leg, created_at)
    SELECT guild_id, from_account, to_account, amount, reason, table_id, round_id, action_seq, leg, created_at
    FROM ledger_entries e
    WHERE EXISTS (SELECT 1 FROM actions a WHERE a.round_id = e.round_id AND a.seq = e.action_seq AND a.legs IS NOT NULL);
DROP VIEW ledger_entries;
CREATE TABLE actions_old (
    round_id       INTEGER NOT NULL REFERENCES rounds (id),
    seq            INTEGER NOT NULL CHECK (seq > 0),
    member_id      TEXT    NOT NULL,
    verb           TEXT    NOT NULL CHECK (verb <> ''),
    args           TEXT    NOT NULL DEFAULT '',
    interaction_id TEXT    UNIQUE,
    created_at     TEXT    NOT NULL,
    PRIMARY KEY (round_id, seq)
) STRICT, WITHOUT ROWID;
INSERT INTO actions_old (round_id, seq, member_id, verb, args, interaction_id, created_at)
    SELECT round_id, seq, member_id, verb, args, interaction_id, created_at FROM actions;
DROP TABLE actions;
ALTER TABLE actions_old RENAME TO actions;

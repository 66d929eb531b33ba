-- Three of the pages every action wrote go: 5.9 pages a commit before, 2.7 after, on one
-- round's actions of three legs each (BenchmarkApplyAction's frames/op in store).
--
-- 1. An action's chip movements travel in the action's own row: legs is a JSON array of
--    [from, to, amount, reason], leg i being element i. An action used to write one
--    ledger row per leg, and those rows and their unique (round_id, action_seq, leg)
--    key were two pages. The guarantee stays whole: (round_id, seq) is the actions'
--    primary key, so an action, and with it each of its legs, is recorded once. NULL:
--    the action moved no chips, or (an action from before this migration) its legs
--    are ledger rows.
-- 2. interaction_id is no longer UNIQUE across every round ever played, whose index was
--    one more page. An interaction belongs to one round: its custom id names the round
--    and the member's turn, and the bot refuses it anywhere else. ApplyAction refuses
--    an id that an action of the same round carries, from the round's own rows (the
--    primary key's prefix), which it keeps in memory (store/hot.go). PostgreSQL keeps
--    its unique index: there it costs no page write of a shared log, and replicas
--    check ids before they act (RememberInteraction).
--
-- SQLite cannot drop a column's UNIQUE, so the table is rebuilt; nothing references it.
--
-- ledger_entries is every chip movement, whichever of the two holds it: the rows of
-- ledger (grants, sales, round starts, older actions) and the legs of actions. The
-- audit reads it; so can a person with the sqlite3 shell.

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
    SELECT t.guild_id, json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]'), json_extract(j.value, '$[2]'),
           json_extract(j.value, '$[3]'), r.table_id, a.round_id, a.seq, j.key, a.created_at
    FROM actions a
    JOIN rounds r ON r.id = a.round_id
    JOIN tables t ON t.id = r.table_id
    JOIN json_each(a.legs) j
    WHERE a.legs IS NOT NULL;

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

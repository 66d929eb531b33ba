-- The first schema of the Pontoon bot: chip accounts and their double-entry
-- ledger, wallets, tables with their seats, rounds with their action logs,
-- interaction ids for dedup, and per-guild settings.
--
-- Times are TEXT in UTC with a fixed width ("2006-01-02T15:04:05.000000000Z")
-- so that they read well in the sqlite3 shell and compare correctly as text.
-- Chip amounts are INTEGER; STRICT tables refuse anything else (a REAL that
-- crept in through an integer overflow would otherwise be stored silently).

-- +goose Up

-- accounts holds the balance of every chip account, per guild. Names are
-- "wallet:<member>", "escrow:<table>:<member>", "kitty:<table>" and "mint".
-- The mint is the only account that may go negative: its negative balance is
-- the total ever granted in the guild, so all balances of a guild sum to zero.
-- 1125899906842624 is store.MaxChips (1<<50).
CREATE TABLE accounts (
    guild_id TEXT    NOT NULL,
    account  TEXT    NOT NULL,
    balance  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, account),
    CHECK (balance >= 0 OR account = 'mint'),
    CHECK (balance <= 1125899906842624 OR account = 'mint')
) STRICT, WITHOUT ROWID;

-- wallets holds what the bot knows of a member besides the balance, which is
-- the account "wallet:<member>" (the generated column names it for joins).
CREATE TABLE wallets (
    guild_id         TEXT NOT NULL,
    member_id        TEXT NOT NULL CHECK (member_id <> ''),
    first_seen       TEXT NOT NULL,
    daily_claimed_at TEXT,
    account          TEXT GENERATED ALWAYS AS ('wallet:' || member_id) VIRTUAL,
    PRIMARY KEY (guild_id, member_id)
) STRICT;

-- tables: one row per session of a table in a channel. A channel has at most
-- one open table (the partial unique index); when a new table opens in a
-- channel, the store copies the previous table's bank owner and moves its
-- kitty over (RULES.md R6.4), so bank and kitty outlive sessions.
CREATE TABLE tables (
    id           INTEGER PRIMARY KEY,
    guild_id     TEXT    NOT NULL CHECK (guild_id <> ''),
    channel_id   TEXT    NOT NULL CHECK (channel_id <> ''),
    host_id      TEXT    NOT NULL,
    rules        TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(rules)),
    bank_owner   TEXT,
    status       TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    round_number INTEGER NOT NULL DEFAULT 0 CHECK (round_number >= 0),
    next_pack    TEXT    CHECK (next_pack IS NULL OR json_valid(next_pack)),
    created_at   TEXT    NOT NULL,
    closed_at    TEXT,
    CHECK ((status = 'closed') = (closed_at IS NOT NULL))
) STRICT;

CREATE UNIQUE INDEX tables_one_open_per_channel ON tables (guild_id, channel_id) WHERE status = 'open';
CREATE INDEX tables_by_channel ON tables (guild_id, channel_id, id);

CREATE TABLE seats (
    table_id  INTEGER NOT NULL REFERENCES tables (id),
    member_id TEXT    NOT NULL CHECK (member_id <> ''),
    seat_no   INTEGER NOT NULL CHECK (seat_no >= 0),
    joined_at TEXT    NOT NULL,
    PRIMARY KEY (table_id, member_id),
    UNIQUE (table_id, seat_no)
) STRICT;

-- rounds: the hand history of HISTORY.md is the write-ahead log of a round.
-- history holds the rules, the table snapshot and the pack as dealt; the
-- actions table holds what people decided, in order.
CREATE TABLE rounds (
    id          INTEGER PRIMARY KEY,
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    number      INTEGER NOT NULL CHECK (number > 0),
    history     TEXT    NOT NULL CHECK (json_valid(history)),
    commitment  TEXT    NOT NULL DEFAULT '',
    salt        TEXT    NOT NULL DEFAULT '',
    started_at  TEXT    NOT NULL,
    finished_at TEXT,
    result      TEXT    CHECK (result IS NULL OR json_valid(result)),
    UNIQUE (table_id, number)
) STRICT;

CREATE INDEX rounds_unfinished ON rounds (table_id) WHERE finished_at IS NULL;

CREATE TABLE actions (
    round_id       INTEGER NOT NULL REFERENCES rounds (id),
    seq            INTEGER NOT NULL CHECK (seq > 0),
    member_id      TEXT    NOT NULL,
    verb           TEXT    NOT NULL CHECK (verb <> ''),
    args           TEXT    NOT NULL DEFAULT '',
    interaction_id TEXT    UNIQUE,
    created_at     TEXT    NOT NULL,
    PRIMARY KEY (round_id, seq)
) STRICT, WITHOUT ROWID;

-- ledger: every chip movement, from one account to another. Movements made by
-- a round carry (round_id, action_seq, leg); the unique key makes applying the
-- same action twice impossible. action_seq 0 is the round's start.
CREATE TABLE ledger (
    id           INTEGER PRIMARY KEY,
    guild_id     TEXT    NOT NULL,
    from_account TEXT    NOT NULL,
    to_account   TEXT    NOT NULL,
    amount       INTEGER NOT NULL CHECK (amount > 0),
    reason       TEXT    NOT NULL DEFAULT '',
    table_id     INTEGER REFERENCES tables (id),
    round_id     INTEGER REFERENCES rounds (id),
    action_seq   INTEGER CHECK (action_seq >= 0),
    leg          INTEGER NOT NULL DEFAULT 0 CHECK (leg >= 0),
    created_at   TEXT    NOT NULL,
    CHECK (from_account <> to_account),
    CHECK ((round_id IS NULL) = (action_seq IS NULL)),
    UNIQUE (round_id, action_seq, leg),
    FOREIGN KEY (guild_id, from_account) REFERENCES accounts (guild_id, account),
    FOREIGN KEY (guild_id, to_account) REFERENCES accounts (guild_id, account)
) STRICT;

CREATE INDEX ledger_by_table ON ledger (table_id) WHERE table_id IS NOT NULL;

-- interactions: Discord interaction ids seen recently, so a redelivered or
-- double-clicked interaction is applied once. Pruned by age.
CREATE TABLE interactions (
    id      TEXT NOT NULL PRIMARY KEY,
    seen_at TEXT NOT NULL
) STRICT, WITHOUT ROWID;

CREATE INDEX interactions_by_age ON interactions (seen_at);

-- settings: per-guild defaults (house rules, limits, turn timer, language) as
-- one JSON document owned by the bot.
CREATE TABLE settings (
    guild_id   TEXT NOT NULL PRIMARY KEY,
    json       TEXT NOT NULL CHECK (json_valid(json)),
    updated_at TEXT NOT NULL
) STRICT, WITHOUT ROWID;

-- +goose Down
DROP TABLE settings;
DROP TABLE interactions;
DROP TABLE ledger;
DROP TABLE actions;
DROP TABLE rounds;
DROP TABLE seats;
DROP TABLE tables;
DROP TABLE wallets;
DROP TABLE accounts;

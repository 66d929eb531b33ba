-- member_languages holds the language a member chose for themself with /pontoon language,
-- per server. It wins over their Discord client's locale in everything only they read
-- (replies, panels): Discord has no Sundanese locale. No row: follow the client. Plain
-- SQL, the same in SQLite and PostgreSQL.

-- +goose Up
CREATE TABLE member_languages (
    guild_id   TEXT NOT NULL,
    member_id  TEXT NOT NULL,
    language   TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, member_id)
);

-- +goose Down
DROP TABLE member_languages;

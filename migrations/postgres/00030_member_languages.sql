-- member_languages on PostgreSQL: see ../00030_member_languages.sql.

-- +goose Up
CREATE TABLE member_languages (
    guild_id   TEXT COLLATE "C" NOT NULL,
    member_id  TEXT COLLATE "C" NOT NULL,
    language   TEXT COLLATE "C" NOT NULL,
    updated_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (guild_id, member_id)
);

-- +goose Down
DROP TABLE member_languages;

-- drawn is what a table's public message was last drawn from: a digest of the message
-- as the bot rendered it (its text, embeds, buttons and picture moment), written once
-- Discord has accepted an edit or a post of it. After a restart the bot renders each
-- table it might have to redraw and edits only those whose digest differs, so that
-- a restart over idle tables sends nothing. NULL: not known (a message from before this
-- column, or one whose draw was not recorded); such a message is redrawn once.

-- +goose Up
ALTER TABLE table_messages ADD COLUMN drawn TEXT;

-- +goose Down
ALTER TABLE table_messages DROP COLUMN drawn;

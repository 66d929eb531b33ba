-- Gifts (/pontoon give) are ledger rows with the reason 'gift'. A server caps what one
-- member gives in a day, so Give sums the giver's gifts of the last 24 hours in its
-- transaction; this index finds them (the giver's wallet account, then the time)
-- without reading the rest of the ledger. Partial: no other row pays for it.

-- +goose Up
CREATE INDEX ledger_gifts ON ledger (guild_id, from_account, created_at) WHERE reason = 'gift';

-- +goose Down
DROP INDEX ledger_gifts;

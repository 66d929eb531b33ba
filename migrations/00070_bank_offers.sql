-- bank_offers and bank_auctions hold the bank's standing sale offers (R6.3) and running
-- auctions (R9.8) of shared tables, (HTTP replicas on one database), so that
-- the replica an Accept, a Decline or a bid reaches answers as the one that opened them,
-- and their ends (an offer's expiry, an auction's close) outlive that replica: each end
-- is a row of deadlines (kind 'offer' with ref the offer's id, kind 'auction' with ref
-- ''), written in the same transaction as the offer or the auction. An offer's status
-- goes from 'open' to 'accepted', 'declined', 'expired' or 'replaced' once, in the
-- transaction that ends it (an acceptance's is the sale's), so that it is answered once.
-- An auction's row and its bids are deleted by the transaction that closes it (a sale's
-- or the unsold close). Times: fixed-width UTC text, as every time in the store.

-- +goose Up
CREATE TABLE bank_offers (
    id TEXT PRIMARY KEY,
    table_id INTEGER NOT NULL REFERENCES tables (id),
    guild_id TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    seller_id TEXT NOT NULL,
    buyer_id TEXT NOT NULL,
    price INTEGER NOT NULL,
    message_id TEXT NOT NULL DEFAULT '',
    expires TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'open'
);
CREATE INDEX bank_offers_table ON bank_offers (table_id, status);

CREATE TABLE bank_auctions (
    table_id INTEGER PRIMARY KEY REFERENCES tables (id),
    guild_id TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    seller_id TEXT NOT NULL,
    message_id TEXT NOT NULL DEFAULT '',
    ends TEXT NOT NULL
);

CREATE TABLE auction_bids (
    table_id INTEGER NOT NULL REFERENCES bank_auctions (table_id),
    member_id TEXT NOT NULL,
    amount INTEGER NOT NULL,
    PRIMARY KEY (table_id, member_id)
);

-- +goose Down
DROP TABLE auction_bids;
DROP TABLE bank_auctions;
DROP TABLE bank_offers;

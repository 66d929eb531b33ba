package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// The bank's standing sale offers (R6.3) and running auctions (R9.8), in every
// deployment: any process sharing the store may receive the buyer's Accept or a bid, a
// restart must not end them, and the offer's expiry or the auction's close must happen
// once even when the process that opened it is gone. So both live here, their ends as
// rows of deadlines written in the same transaction, and each end (an acceptance, a
// decline, an expiry, a close) changes the row in the transaction that acts on it, so
// that a second one finds it ended.

// Deadline kinds of the bank: an offer's expiry (ref the offer's id) and an auction's
// close (ref "").
const (
	DeadlineOffer   = "offer"
	DeadlineAuction = "auction"
)

// Offer statuses: open until one transaction ends it.
const (
	OfferOpen     = "open"
	OfferAccepted = "accepted"
	OfferDeclined = "declined"
	OfferExpired  = "expired"
	OfferReplaced = "replaced" // a newer offer of the table's took its place
)

var (
	// ErrOfferEnded means the offer is not open (any more): answered, expired or
	// replaced, or never made.
	ErrOfferEnded = errors.New("store: the offer has ended")
	// ErrAuctionRunning means the table already has an auction running.
	ErrAuctionRunning = errors.New("store: an auction is running")
	// ErrNoAuction means the table has no auction running (or its bids have closed).
	ErrNoAuction = errors.New("store: no auction is running")
	// ErrBidTooLow means a bid is not above the highest.
	ErrBidTooLow = errors.New("store: bid not above the highest")
)

// BankOffer is a standing offer of a table's bank to a member (R6.3).
type BankOffer struct {
	ID        string
	TableID   int64
	Guild     string
	Channel   string
	Seller    string
	Buyer     string
	Price     int64
	MessageID string
	Expires   time.Time
	Status    string
}

// BankAuction is a table's running auction of its bank (R9.8).
type BankAuction struct {
	TableID   int64
	Guild     string
	Channel   string
	Seller    string
	MessageID string
	Ends      time.Time
	Bids      map[string]int64 // member -> bid
}

// OpenOffer records an open offer and its expiry deadline, and replaces the table's
// other open offers (one standing offer per table), whose deadlines go with them; it
// returns the offers it replaced.
func (s *Store) OpenOffer(ctx context.Context, of BankOffer) ([]BankOffer, error) {
	if err := checkIDs("offer", of.ID, "seller", of.Seller, "buyer", of.Buyer, "channel", of.Channel); err != nil {
		return nil, err
	}
	if err := checkNow(of.Expires); err != nil {
		return nil, err
	}
	var replaced []BankOffer
	err := s.write(ctx, "OpenOffer", func(tx *txn) error {
		replaced = nil
		t, err := openTable(ctx, tx, of.TableID)
		if err != nil {
			return err
		}
		if replaced, err = offersWhere(ctx, tx, `table_id = ? AND status = ?`, of.TableID, OfferOpen); err != nil {
			return err
		}
		for i := range replaced {
			replaced[i].Status = OfferReplaced
			if _, err := tx.ExecContext(ctx, `UPDATE bank_offers SET status = ? WHERE id = ?`, OfferReplaced, replaced[i].ID); err != nil {
				return fmt.Errorf("store: open offer: %w", err)
			}
			if err := clearDeadline(ctx, tx, of.TableID, DeadlineOffer, replaced[i].ID); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO bank_offers (id, table_id, guild_id, channel_id, seller_id, buyer_id, price, message_id, expires, status)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, of.ID, of.TableID, t.Guild, of.Channel, of.Seller, of.Buyer, of.Price, of.MessageID,
			formatTime(of.Expires), OfferOpen); err != nil {
			return fmt.Errorf("store: open offer: %w", err)
		}
		return setDeadline(ctx, tx, of.TableID, DeadlineOffer, of.ID, of.Expires)
	})
	if err != nil {
		return nil, err
	}
	return replaced, nil
}

// Offer reads an offer, open or ended.
func (s *Store) Offer(ctx context.Context, id string) (BankOffer, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return BankOffer{}, err
	}
	defer tx.Rollback()
	ofs, err := offersWhere(ctx, tx, `id = ?`, id)
	if err != nil {
		return BankOffer{}, err
	}
	if len(ofs) == 0 {
		return BankOffer{}, &NotFoundError{What: "offer", Key: id}
	}
	return ofs[0], nil
}

// PruneOffers deletes the bank offers (R6.3) that have ended (accepted, declined, expired or
// replaced) and whose expiry is more than maxAge before now, and returns how many it
// deleted. An open offer is never pruned: its deadline still ends it. A click on a
// pruned offer's button is answered as one on an ended offer is: it expired.
func (s *Store) PruneOffers(ctx context.Context, now time.Time, maxAge time.Duration) (int64, error) {
	return s.prune(ctx, "PruneOffers", now, maxAge, `DELETE FROM bank_offers WHERE status <> ? AND expires < ?`, OfferOpen)
}

// SetOfferMessage records the message that shows an offer.
func (s *Store) SetOfferMessage(ctx context.Context, id, messageID string) error {
	return s.write(ctx, "SetOfferMessage", func(tx *txn) error {
		if _, err := tx.ExecContext(ctx, `UPDATE bank_offers SET message_id = ? WHERE id = ?`, messageID, id); err != nil {
			return fmt.Errorf("store: set offer message: %w", err)
		}
		return nil
	})
}

// EndOffer ends an open offer with status (declined, expired) and deletes its
// deadline, refusing with ErrOfferEnded one that is not open; it returns the offer.
func (s *Store) EndOffer(ctx context.Context, id, status string) (BankOffer, error) {
	if status != OfferDeclined && status != OfferExpired {
		return BankOffer{}, invalid("end offer: status %q", status)
	}
	var of BankOffer
	err := s.write(ctx, "EndOffer", func(tx *txn) error {
		var err error
		of, err = endOffer(ctx, tx, id, status)
		return err
	})
	return of, err
}

// endOffer moves an open offer to status and deletes its deadline.
func endOffer(ctx context.Context, tx *txn, id, status string) (BankOffer, error) {
	res, err := tx.ExecContext(ctx, `UPDATE bank_offers SET status = ? WHERE id = ? AND status = ?`, status, id, OfferOpen)
	if err != nil {
		return BankOffer{}, fmt.Errorf("store: end offer: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return BankOffer{}, fmt.Errorf("store: end offer: %w", err)
	} else if n == 0 {
		return BankOffer{}, fmt.Errorf("%w: %s", ErrOfferEnded, id)
	}
	ofs, err := offersWhere(ctx, tx, `id = ?`, id)
	if err != nil {
		return BankOffer{}, err
	}
	if len(ofs) == 0 {
		return BankOffer{}, fmt.Errorf("%w: %s", ErrOfferEnded, id)
	}
	return ofs[0], clearDeadline(ctx, tx, ofs[0].TableID, DeadlineOffer, id)
}

func offersWhere(ctx context.Context, tx *txn, cond string, args ...any) ([]BankOffer, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, table_id, guild_id, channel_id, seller_id, buyer_id, price, message_id, expires, status
		FROM bank_offers WHERE `+cond+` ORDER BY id`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: offers: %w", err)
	}
	defer rows.Close()
	var out []BankOffer
	for rows.Next() {
		var of BankOffer
		var expires string
		if err := rows.Scan(&of.ID, &of.TableID, &of.Guild, &of.Channel, &of.Seller, &of.Buyer, &of.Price, &of.MessageID, &expires, &of.Status); err != nil {
			return nil, fmt.Errorf("store: offers: %w", err)
		}
		if of.Expires, err = parseTime(expires); err != nil {
			return nil, err
		}
		out = append(out, of)
	}
	return out, rows.Err()
}

// StartAuction records a table's auction with no bids and its closing deadline,
// refusing with ErrAuctionRunning when the table has one.
func (s *Store) StartAuction(ctx context.Context, a BankAuction) error {
	if err := checkIDs("seller", a.Seller, "channel", a.Channel); err != nil {
		return err
	}
	if err := checkNow(a.Ends); err != nil {
		return err
	}
	return s.write(ctx, "StartAuction", func(tx *txn) error {
		t, err := openTable(ctx, tx, a.TableID)
		if err != nil {
			return err
		}
		if _, err := auction(ctx, tx, a.TableID); err == nil {
			return fmt.Errorf("%w: table %d", ErrAuctionRunning, a.TableID)
		} else if !errors.Is(err, ErrNoAuction) {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO bank_auctions (table_id, guild_id, channel_id, seller_id, message_id, ends)
			VALUES (?, ?, ?, ?, ?, ?)`, a.TableID, t.Guild, a.Channel, a.Seller, a.MessageID, formatTime(a.Ends)); err != nil {
			return fmt.Errorf("store: start auction: %w", err)
		}
		return setDeadline(ctx, tx, a.TableID, DeadlineAuction, "", a.Ends)
	})
}

// Auction reads a table's running auction with its bids; ErrNoAuction if none.
func (s *Store) Auction(ctx context.Context, tableID int64) (BankAuction, error) {
	tx, err := s.beginRead(ctx)
	if err != nil {
		return BankAuction{}, err
	}
	defer tx.Rollback()
	return auction(ctx, tx, tableID)
}

// SetAuctionMessage records the message that shows a table's auction.
func (s *Store) SetAuctionMessage(ctx context.Context, tableID int64, messageID string) error {
	return s.write(ctx, "SetAuctionMessage", func(tx *txn) error {
		if _, err := tx.ExecContext(ctx, `UPDATE bank_auctions SET message_id = ? WHERE table_id = ?`, messageID, tableID); err != nil {
			return fmt.Errorf("store: set auction message: %w", err)
		}
		return nil
	})
}

// PlaceBid records member's bid in the table's auction, refusing with ErrNoAuction
// when none runs or its bids closed before now, and with ErrBidTooLow a bid not above
// the highest; it returns the auction with the bid.
func (s *Store) PlaceBid(ctx context.Context, tableID int64, member string, amount int64, now time.Time) (BankAuction, error) {
	if err := checkIDs("member", member); err != nil {
		return BankAuction{}, err
	}
	if err := checkNow(now); err != nil {
		return BankAuction{}, err
	}
	if amount <= 0 {
		return BankAuction{}, fmt.Errorf("%w: bid %d", ErrBadAmount, amount)
	}
	var a BankAuction
	err := s.write(ctx, "PlaceBid", func(tx *txn) error {
		var err error
		if a, err = auction(ctx, tx, tableID); err != nil {
			return err
		}
		if now.After(a.Ends) {
			return fmt.Errorf("%w: table %d: bids closed", ErrNoAuction, tableID)
		}
		for _, b := range a.Bids {
			if amount <= b {
				return fmt.Errorf("%w: %d, highest %d", ErrBidTooLow, amount, b)
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO auction_bids (table_id, member_id, amount) VALUES (?, ?, ?)
			ON CONFLICT (table_id, member_id) DO UPDATE SET amount = excluded.amount`, tableID, member, amount); err != nil {
			return fmt.Errorf("store: place bid: %w", err)
		}
		a.Bids[member] = amount
		return nil
	})
	if err != nil {
		return BankAuction{}, err
	}
	return a, nil
}

// EndAuction closes a table's auction unsold: it deletes the auction, its bids and
// its deadline, refusing with ErrNoAuction when none runs; it returns the auction.
func (s *Store) EndAuction(ctx context.Context, tableID int64) (BankAuction, error) {
	var a BankAuction
	err := s.write(ctx, "EndAuction", func(tx *txn) error {
		var err error
		a, err = endAuction(ctx, tx, tableID)
		return err
	})
	return a, err
}

// endAuction deletes a table's auction, its bids and its deadline.
func endAuction(ctx context.Context, tx *txn, tableID int64) (BankAuction, error) {
	a, err := auction(ctx, tx, tableID)
	if err != nil {
		return BankAuction{}, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM auction_bids WHERE table_id = ?`, tableID); err != nil {
		return BankAuction{}, fmt.Errorf("store: end auction: %w", err)
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM bank_auctions WHERE table_id = ?`, tableID)
	if err != nil {
		return BankAuction{}, fmt.Errorf("store: end auction: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return BankAuction{}, fmt.Errorf("store: end auction: %w", err)
	} else if n == 0 {
		return BankAuction{}, fmt.Errorf("%w: table %d", ErrNoAuction, tableID)
	}
	return a, clearDeadline(ctx, tx, tableID, DeadlineAuction, "")
}

// auction reads a table's auction and its bids; ErrNoAuction if none.
func auction(ctx context.Context, tx *txn, tableID int64) (BankAuction, error) {
	a := BankAuction{TableID: tableID, Bids: map[string]int64{}}
	var ends string
	err := tx.QueryRowContext(ctx, `SELECT guild_id, channel_id, seller_id, message_id, ends FROM bank_auctions WHERE table_id = ?`,
		tableID).Scan(&a.Guild, &a.Channel, &a.Seller, &a.MessageID, &ends)
	if errors.Is(err, sql.ErrNoRows) {
		return BankAuction{}, fmt.Errorf("%w: table %d", ErrNoAuction, tableID)
	}
	if err != nil {
		return BankAuction{}, fmt.Errorf("store: auction: %w", err)
	}
	if a.Ends, err = parseTime(ends); err != nil {
		return BankAuction{}, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT member_id, amount FROM auction_bids WHERE table_id = ?`, tableID)
	if err != nil {
		return BankAuction{}, fmt.Errorf("store: auction bids: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var m string
		var n int64
		if err := rows.Scan(&m, &n); err != nil {
			return BankAuction{}, fmt.Errorf("store: auction bids: %w", err)
		}
		a.Bids[m] = n
	}
	return a, rows.Err()
}

package store

import (
	"errors"
	"fmt"
	"time"
)

// Sentinel errors. Every error the store returns on purpose wraps one of them,
// so callers test with errors.Is and, where a typed error below carries data,
// read it with errors.As. The bot turns them into player text in one place;
// any other error is unexpected (I/O, a bug) and deserves a log line.
var (
	// ErrNotFound means the wallet, table or round asked for does not exist
	// (or, for TableByChannel, the channel has no open table). See NotFoundError.
	ErrNotFound = errors.New("store: not found")

	// ErrInvalid means an argument is malformed: an empty id, a zero time,
	// text that should be JSON and is not, a member seated twice.
	ErrInvalid = errors.New("store: invalid argument")

	// ErrBadAmount means a chip amount is zero or negative where it must be
	// positive (or negative where it may be zero).
	ErrBadAmount = errors.New("store: amount must be positive")

	// ErrBadAccount means an account name is malformed, or names an account a
	// method may not touch (the mint in a round, another table's kitty).
	// See AccountError.
	ErrBadAccount = errors.New("store: bad account")

	// ErrSelfTransfer means a transfer's source and destination are the same.
	ErrSelfTransfer = errors.New("store: cannot transfer to the same account")

	// ErrInsufficientChips means a source account holds fewer chips than a
	// transfer takes from it (an account that does not exist holds none).
	// See InsufficientChipsError.
	ErrInsufficientChips = errors.New("store: insufficient chips")

	// ErrOverflow means a transfer would take an account past MaxChips, or
	// past what an int64 holds. See OverflowError.
	ErrOverflow = errors.New("store: chip balance overflow")

	// ErrCooldown means the daily chips were claimed too recently.
	// See CooldownError for when the next claim is possible.
	ErrCooldown = errors.New("store: daily chips already claimed")

	// ErrGiftCap means a gift would take what its giver gave in the last 24 hours
	// past the cap. See GiftCapError.
	ErrGiftCap = errors.New("store: daily gift cap reached")

	// ErrTableOpen means the channel already has an open table.
	ErrTableOpen = errors.New("store: the channel already has an open table")

	// ErrTooManyTables means the server has as many open tables as
	// OpenTableParams.MaxOpen allows.
	ErrTooManyTables = errors.New("store: the server has as many open tables as it may")

	// ErrTableClosed means the table has been closed and takes no more changes.
	ErrTableClosed = errors.New("store: the table is closed")

	// ErrRoundInProgress means the table has an unfinished round, and the
	// request (a new round, a bank change, closing) must wait until it ends.
	ErrRoundInProgress = errors.New("store: a round is in progress")

	// ErrRoundFinished means the round has finished and takes no more actions.
	ErrRoundFinished = errors.New("store: the round has finished")

	// ErrDuplicateRound means a round with this number exists on the table.
	ErrDuplicateRound = errors.New("store: the round already exists")

	// ErrStaleRound means a round number is not the table's next one.
	// See SequenceError.
	ErrStaleRound = errors.New("store: round number out of sequence")

	// ErrDuplicateInteraction means the interaction was applied before (a write
	// recorded its id, see WithInteraction, or an action carries it): a redelivered
	// interaction, which changes nothing.
	ErrDuplicateInteraction = errors.New("store: interaction already applied")

	// ErrDuplicateAction means the round already has an action with this
	// sequence number: the action was applied before, and is not applied again.
	ErrDuplicateAction = errors.New("store: action already applied")

	// ErrStaleSeq means an action's sequence number is not the round's next
	// one (the caller's view of the round is out of date). See SequenceError.
	ErrStaleSeq = errors.New("store: action out of sequence")
)

// NotFoundError names what was not found. It wraps ErrNotFound.
type NotFoundError struct {
	What string // "wallet", "table", "round"
	Key  string // the member, table or round asked for
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("store: %s %s not found", e.What, e.Key)
}

func (e *NotFoundError) Unwrap() error { return ErrNotFound }

// InsufficientChipsError says which account was short and by how much.
// It wraps ErrInsufficientChips.
type InsufficientChipsError struct {
	Account string // the source account, e.g. "wallet:123"
	Need    int64  // what the transfer takes
	Have    int64  // what the account holds
}

func (e *InsufficientChipsError) Error() string {
	return fmt.Sprintf("store: %s holds %d chips, %d needed", e.Account, e.Have, e.Need)
}

func (e *InsufficientChipsError) Unwrap() error { return ErrInsufficientChips }

// OverflowError says which account a transfer would have overfilled.
// It wraps ErrOverflow.
type OverflowError struct {
	Account string // the account that would overflow
	Balance int64  // its balance before the transfer
	Amount  int64  // the transfer's amount
	Max     int64  // the limit: MaxChips, or the int64 range for the mint
}

func (e *OverflowError) Error() string {
	return fmt.Sprintf("store: %s holds %d chips, %d more would pass the limit of %d", e.Account, e.Balance, e.Amount, e.Max)
}

func (e *OverflowError) Unwrap() error { return ErrOverflow }

// AccountError says which account name was refused and why.
// It wraps ErrBadAccount.
type AccountError struct {
	Account string
	Reason  string
}

func (e *AccountError) Error() string {
	return fmt.Sprintf("store: account %q: %s", e.Account, e.Reason)
}

func (e *AccountError) Unwrap() error { return ErrBadAccount }

// CooldownError says when the next daily claim is possible.
// It wraps ErrCooldown.
type CooldownError struct {
	Next time.Time // the earliest time of the next claim
}

func (e *CooldownError) Error() string {
	return fmt.Sprintf("store: daily chips already claimed; next claim at %s", e.Next.UTC().Format(time.RFC3339))
}

func (e *CooldownError) Unwrap() error { return ErrCooldown }

// GiftCapError says what the giver may still give. It wraps ErrGiftCap.
type GiftCapError struct {
	Cap   int64 // what one member may give in GiftWindow
	Given int64 // what the giver gave in the GiftWindow before this gift
}

func (e *GiftCapError) Error() string {
	return fmt.Sprintf("store: gifts capped at %d chips a day; %d given in the last 24 hours", e.Cap, e.Given)
}

func (e *GiftCapError) Unwrap() error { return ErrGiftCap }

// Left is what the giver may still give now.
func (e *GiftCapError) Left() int64 { return max(0, e.Cap-e.Given) }

// SequenceError says which number was expected when a round number or an
// action's sequence number is out of order. It wraps ErrStaleRound or
// ErrStaleSeq.
type SequenceError struct {
	Err  error // ErrStaleRound or ErrStaleSeq
	Got  int   // the number given
	Want int   // the next number the store would accept
}

func (e *SequenceError) Error() string {
	return fmt.Sprintf("%v: got %d, want %d", e.Err, e.Got, e.Want)
}

func (e *SequenceError) Unwrap() error { return e.Err }

// invalid returns an error wrapping ErrInvalid with a reason.
func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

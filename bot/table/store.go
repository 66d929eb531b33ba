package table

import (
	"context"
	"time"

	"github.com/pontoon-bot/pontoon/store"
)

// Stores are the parts of persistence a Manager uses, each a small interface declared
// beside the code that uses it; *store.Store is every one of them (StoresOf). Every
// method is one transaction. The reads are used only while loading a table (recovery,
// a first click after a start) or before a command takes the table's lock, never while
// it is held. EnsureWallet is a read for a member who has a wallet (it writes nothing
// then) and is called before the lock too.
type Stores struct {
	TableWriter    // seats, messages, stops (seats.go, manager.go)
	RoundWriter    // deals, actions, the bank's moves (play.go)
	SeedStore      // the seeded shuffle (seeds.go)
	TableReader    // loading a table (manager.go)
	RecoveryReader // what a restart looks at (manager.go)
	OfferStore     // bank offers (bank.go)
	AuctionStore   // bank auctions (bank.go)
	DeadlineStore  // the rules' timers (deadlines.go)
}

// StoresOf is every part of Stores from one store.
func StoresOf(s *store.Store) Stores {
	return Stores{TableWriter: s, RoundWriter: s, SeedStore: s, TableReader: s, RecoveryReader: s, OfferStore: s, AuctionStore: s,
		DeadlineStore: s}
}

// TableWriter writes a table's row, seats and message; each method is one transaction,
// made under the table's lock (SetTableMessage before it).
type TableWriter interface {
	OpenTable(ctx context.Context, p store.OpenTableParams) (store.Table, error)
	CloseTable(ctx context.Context, tableID int64, now time.Time) error
	SetSeats(ctx context.Context, tableID int64, members []string, now time.Time) error
	SetSeatsAndPack(ctx context.Context, tableID int64, members []string, now time.Time, pending *store.PendingPack) error
	SetPendingPack(ctx context.Context, tableID int64, p store.PendingPack) error
	SetTableMessage(ctx context.Context, tableID int64, messageID string) error
	SetStopping(ctx context.Context, tableID int64, stopping bool) error
	ResolveBroken(ctx context.Context, tableID int64, now time.Time) error
}

// RoundWriter commits the rounds and the bank: a deal with its turn deadline, actions
// with their chip movements, a sale or a kitty.
type RoundWriter interface {
	UpdateBank(ctx context.Context, p store.BankParams) error
	DealRound(ctx context.Context, p store.DealParams) (store.Round, error)
	ApplyAction(ctx context.Context, p store.ApplyParams) error
	ApplyActions(ctx context.Context, ps []store.ApplyParams) error
	EnsureWallet(ctx context.Context, guild, member string, starting int64, now time.Time) (store.Wallet, bool, error)
}

// SeedStore keeps the seeded shuffle's seeds (seeds.go).
type SeedStore interface {
	CommitSeed(ctx context.Context, tableID int64, candidate store.ShuffleSeed, now time.Time) (store.ShuffleSeed, error)
	AddMemberSeed(ctx context.Context, tableID int64, commitment, member, seed string, limit int, now time.Time) (int, error)
	RevealSeeds(ctx context.Context, tableID int64, now time.Time) error
	PendingSeed(ctx context.Context, tableID int64) (store.ShuffleSeed, bool, error)
}

// TableReader reads what loading one table needs, with no table lock held.
type TableReader interface {
	TableByID(ctx context.Context, id int64) (store.Table, error)
	TableByChannel(ctx context.Context, guild, channel string) (store.Table, error)
	Stopping(ctx context.Context, tableID int64) (bool, error)
	TableMessage(ctx context.Context, tableID int64) (string, error)
	TableState(ctx context.Context, tableID int64) (store.TableState, error)
	Pending(ctx context.Context, tableID int64) (store.PendingPack, bool, error)
	Round(ctx context.Context, tableID int64, number int) (store.Round, error)
	Actions(ctx context.Context, roundID int64) ([]store.Action, error)
}

// RecoveryReader finds the tables a restart must look at (Manager.Recover).
type RecoveryReader interface {
	UnpostedTables(ctx context.Context) ([]store.Table, error)
	StoppingTables(ctx context.Context) ([]store.Table, error)
	RecentlyChangedTables(ctx context.Context, since time.Time) ([]store.Table, error)
	RecoverRounds(ctx context.Context) ([]store.Rebuilt, error)
}

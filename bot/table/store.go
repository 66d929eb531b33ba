package table

import (
	"context"
	"time"

	"github.com/pontoon-bot/pontoon/store"
)

// Store is what a live table needs of persistence; *store.Store implements it. Every
// method is one transaction. The reads are used only while loading a table (recovery,
// a first click after a start) or before a command takes the table's lock, never while
// it is held. EnsureWallet is a read for a member who has a wallet (it writes nothing
// then) and is called before the lock too.
type Store interface {
	// writes, each one transaction, made under the table's lock (SetTableMessage and
	// EnsureWallet before it)
	OpenTable(ctx context.Context, p store.OpenTableParams) (store.Table, error)
	CloseTable(ctx context.Context, tableID int64, now time.Time) error
	SetSeats(ctx context.Context, tableID int64, members []string, now time.Time) error
	SetSeatsAndPack(ctx context.Context, tableID int64, members []string, now time.Time, pending *store.PendingPack) error
	SetPendingPack(ctx context.Context, tableID int64, p store.PendingPack) error
	UpdateBank(ctx context.Context, p store.BankParams) error
	DealRound(ctx context.Context, p store.DealParams) (store.Round, error)
	ApplyAction(ctx context.Context, p store.ApplyParams) error
	ApplyActions(ctx context.Context, ps []store.ApplyParams) error
	EnsureWallet(ctx context.Context, guild, member string, starting int64, now time.Time) (store.Wallet, bool, error)
	SetTableMessage(ctx context.Context, tableID int64, messageID string) error
	SetStopping(ctx context.Context, tableID int64, stopping bool) error
	ResolveBroken(ctx context.Context, tableID int64, now time.Time) error
	CommitSeed(ctx context.Context, tableID int64, candidate store.ShuffleSeed, now time.Time) (store.ShuffleSeed, error)
	AddMemberSeed(ctx context.Context, tableID int64, commitment, member, seed string, limit int, now time.Time) (int, error)
	RevealSeeds(ctx context.Context, tableID int64, now time.Time) error

	// reads, made with no table lock held
	TableByID(ctx context.Context, id int64) (store.Table, error)
	TableByChannel(ctx context.Context, guild, channel string) (store.Table, error)
	UnpostedTables(ctx context.Context) ([]store.Table, error)
	StoppingTables(ctx context.Context) ([]store.Table, error)
	RecentlyChangedTables(ctx context.Context, since time.Time) ([]store.Table, error)
	Stopping(ctx context.Context, tableID int64) (bool, error)
	TableMessage(ctx context.Context, tableID int64) (string, error)
	TableState(ctx context.Context, tableID int64) (store.TableState, error)
	Pending(ctx context.Context, tableID int64) (store.PendingPack, bool, error)
	PendingSeed(ctx context.Context, tableID int64) (store.ShuffleSeed, bool, error)
	Round(ctx context.Context, tableID int64, number int) (store.Round, error)
	Actions(ctx context.Context, roundID int64) ([]store.Action, error)
	RecoverRounds(ctx context.Context) ([]store.Rebuilt, error)
}

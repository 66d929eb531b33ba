package game

// AccountKind is where chips sit at a table.
type AccountKind uint8

// The kinds of account the engine moves chips between.
const (
	AccountWallet AccountKind = iota // a player's free chips
	AccountEscrow                    // a player's chips held in the round (R7.1), or the bank's cover (R7.2)
	AccountKitty                     // Shoot's kitty (R9.1)
)

// Account is one place chips sit. Player is empty for the kitty.
type Account struct {
	Kind   AccountKind
	Player string
}

// Wallet is a player's free chips.
func Wallet(p string) Account { return Account{Kind: AccountWallet, Player: p} }

// Escrow is a player's chips held in the round (for the banker: the cover).
func Escrow(p string) Account { return Account{Kind: AccountEscrow, Player: p} }

// KittyAccount is the table's kitty.
var KittyAccount = Account{Kind: AccountKitty}

func (a Account) String() string {
	switch a.Kind {
	case AccountWallet:
		return "wallet:" + a.Player
	case AccountEscrow:
		return "escrow:" + a.Player
	}
	return "kitty"
}

// Reason says why chips moved.
type Reason string

// The reasons for chip movements.
const (
	ReasonStake       Reason = "stake"        // initial stake into escrow (R3.3)
	ReasonBuy         Reason = "buy"          // a bought card's price into escrow (R4.3)
	ReasonSplit       Reason = "split"        // a split hand's stake into escrow (R4.2)
	ReasonReserve     Reason = "reserve"      // the reserve held with a bet (R7.1)
	ReasonCover       Reason = "cover"        // the bank's cover held against a bet (R7.2)
	ReasonShoot       Reason = "shoot"        // a shoot bet into escrow (R9.2)
	ReasonWin         Reason = "win"          // the banker pays a hand (R5)
	ReasonLoss        Reason = "loss"         // a hand pays the banker (R3.5, R4.6, R5)
	ReasonRelease     Reason = "release"      // held chips come back (R7.1, R7.2)
	ReasonShootWin    Reason = "shoot win"    // the kitty pays a shoot bet (R9.7)
	ReasonShootLoss   Reason = "shoot loss"   // a shoot bet goes to the kitty (R9.6, R9.7)
	ReasonShootReturn Reason = "shoot return" // a three-card shoot bet whose card never came goes back (R9.4, R7.4)
	ReasonKitty       Reason = "kitty"        // the banker puts up or tops up the kitty (R9.1, R9.8)
	ReasonKittyReturn Reason = "kitty return" // the kitty goes back to the old banker (R9.9)
	ReasonSale        Reason = "bank sale"    // the buyer pays the seller for the bank (R6.3)
)

// Transfer is one chip movement: the engine's only way of moving chips, so the store can
// write each to its ledger and tests can check that chips are conserved (R7.3).
type Transfer struct {
	From, To Account
	Amount   int64
	Reason   Reason
	Rule     string
}

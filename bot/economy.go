package bot

import (
	"context"
	"errors"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/view"
	"github.com/pontoon-bot/pontoon/config"
	"github.com/pontoon-bot/pontoon/store"
)

// Chips outside a table: balances, standings, daily chips, gifts and grants.

// economyStore is what /pontoon balance, leaderboard, daily, give and grant use (give
// also reads a member's rounds played: statsStore); the table reads a wallet too (play.go).
type economyStore interface {
	EnsureWallet(ctx context.Context, guild, member string, starting int64, now time.Time) (store.Wallet, bool, error)
	Wallet(ctx context.Context, guild, member string) (store.Wallet, error)
	ClaimDaily(ctx context.Context, guild, member string, amount int64, cooldown time.Duration, now time.Time) (store.Wallet, error)
	Give(ctx context.Context, guild, from, to string, amount, perDay int64, now time.Time) (store.Wallet, store.Wallet, error)
	Grant(ctx context.Context, guild, by, to string, amount int64, now time.Time) (store.Wallet, error)
	Leaderboard(ctx context.Context, guild string, offset, limit int) ([]store.Standing, int, error)
	Ahead(ctx context.Context, guild string, balance int64) (int, error)
}

// GiveRules say who may give chips to whom (/pontoon give) and how many: a server's
// guard against a member feeding themself from alternate accounts, each minted the
// starting chips at first use. A zero field turns its rule off.
type GiveRules struct {
	// MinRounds is how many rounds the giver and the receiver must each have played in
	// the server (as a player or as the banker).
	MinRounds int
	// MinAccountAge is how old the giver's and the receiver's Discord accounts must be,
	// told by their ids (a snowflake carries its creation time).
	MinAccountAge time.Duration
	// DailyCap is the most chips one member gives in any 24 hours (store.GiftWindow).
	DailyCap int64
}

// giveRules are the server's give rules: the configured ones, with what its admin set
// through /pontoon settings in their place.
func (b *Bot) giveRules(ctx context.Context, guild string) GiveRules {
	r := b.opt.Give
	if g := b.lang.get(ctx, guild).Give; g != nil {
		if g.MinRounds != nil {
			r.MinRounds = *g.MinRounds
		}
		if g.MinAccountDays != nil {
			// Bounded before the multiplication: the option's range is Discord's to
			// enforce, and a day count past it must not wrap around.
			days := min(max(*g.MinAccountDays, 0), config.MaxGiveMinAccountDays)
			r.MinAccountAge = time.Duration(days) * 24 * time.Hour
		}
		if g.DailyCap != nil {
			r.DailyCap = *g.DailyCap
		}
	}
	return r
}

// mayGive refuses, naming the rule, a member the server's give rules keep from giving
// or receiving.
func (b *Bot) mayGive(c *ictx, r GiveRules, member string) error {
	if r.MinAccountAge > 0 {
		// A member id that is no snowflake (never from Discord) has no age to hold against it.
		if created, err := discordgo.SnowflakeTimestamp(member); err == nil && c.now.Sub(created) < r.MinAccountAge {
			return refuse("err.give_account_age", "Player", view.Mention(member), "Days", int64(r.MinAccountAge/(24*time.Hour)))
		}
	}
	if r.MinRounds > 0 {
		st, err := b.stats.Stats(c.ctx, c.guild, member)
		if err != nil {
			return err
		}
		if st.Rounds < r.MinRounds { // as a player or as the banker
			return refuse("err.give_rounds", "Player", view.Mention(member), "Rounds", r.MinRounds, "Played", st.Rounds)
		}
	}
	return nil
}

func (b *Bot) cmdBalance(c *ictx, o options) error {
	member := c.user
	if m, ok := o["member"]; ok {
		member, _ = optionUser(c, m)
	}
	var w store.Wallet
	var err error
	if member == c.user {
		w, _, err = b.economy.EnsureWallet(c.ctx, c.guild, member, b.opt.StartingChips, c.now)
	} else {
		w, err = b.economy.Wallet(c.ctx, c.guild, member)
		if errors.Is(err, store.ErrNotFound) {
			return refuse("err.never_played", "Player", view.Mention(member))
		}
	}
	if err != nil {
		return err
	}
	ahead, err := b.economy.Ahead(c.ctx, c.guild, w.Balance)
	if err != nil {
		return err
	}
	return b.privateText(c, b.cat.T(c.lang, "balance.text", "Player", view.Mention(member), "Count", w.Balance, "Rank", ahead+1))
}

// leaderboard is one page of a server's standings with the caller's own rank. A page
// past the end shows the last one; equal balances share a rank (1, 1, 3).
func (b *Bot) leaderboard(c *ictx, page int) (view.Message, error) {
	_, total, err := b.economy.Leaderboard(c.ctx, c.guild, 0, 1)
	if err != nil {
		return view.Message{}, err
	}
	pages := max(1, (total+view.LeaderboardPage-1)/view.LeaderboardPage)
	page = min(max(page, 1), pages)
	offset := (page - 1) * view.LeaderboardPage
	standings, total, err := b.economy.Leaderboard(c.ctx, c.guild, offset, view.LeaderboardPage)
	if err != nil {
		return view.Message{}, err
	}
	for i := range standings {
		switch {
		case i > 0 && standings[i].Balance == standings[i-1].Balance:
			standings[i].Rank = standings[i-1].Rank
		case i > 0:
			standings[i].Rank = offset + i + 1 // everyone above holds more
		default:
			ahead, err := b.economy.Ahead(c.ctx, c.guild, standings[i].Balance)
			if err != nil {
				return view.Message{}, err
			}
			standings[i].Rank = ahead + 1
		}
	}
	var me *view.Standing
	if w, err := b.economy.Wallet(c.ctx, c.guild, c.user); err == nil {
		if ahead, err := b.economy.Ahead(c.ctx, c.guild, w.Balance); err == nil {
			me = &view.Standing{Rank: ahead + 1, Member: c.user, Balance: w.Balance}
		}
	}
	rows := make([]view.Standing, len(standings))
	for i, s := range standings {
		rows[i] = view.Standing{Rank: s.Rank, Member: s.Member, Balance: s.Balance}
	}
	return b.view.Leaderboard(c.lang, page, total, rows, me), nil
}

func (b *Bot) cmdLeaderboard(c *ictx, o options) error {
	page := 1
	if p, ok := o["page"]; ok {
		page = int(p.IntValue())
	}
	leaderboard := b.leaderboard
	if byNet(o) {
		leaderboard = b.netLeaderboard
	}
	m, err := leaderboard(c, page)
	if err != nil {
		return err
	}
	return b.private(c, m)
}

// clickBoard turns a leaderboard page; the custom id carries the page in its round.
func (b *Bot) clickBoard(c *ictx, id view.ID) error {
	leaderboard := b.leaderboard
	if isNetBoard(id) {
		leaderboard = b.netLeaderboard
	}
	m, err := leaderboard(c, id.Round)
	if err != nil {
		return err
	}
	return b.update(c, m)
}

func (b *Bot) cmdDaily(c *ictx, _ options) error {
	if _, _, err := b.economy.EnsureWallet(c.ctx, c.guild, c.user, b.opt.StartingChips, c.now); err != nil {
		return err
	}
	w, err := b.economy.ClaimDaily(c.ctx, c.guild, c.user, b.opt.DailyAmount, b.opt.DailyCooldown, c.now)
	if err != nil {
		return err
	}
	return b.privateText(c, b.cat.T(c.lang, "daily.claimed", "Count", b.opt.DailyAmount, "Balance", w.Balance,
		"When", view.RelTime(c.now.Add(b.opt.DailyCooldown))))
}

func (b *Bot) cmdGive(c *ictx, o options) error {
	to, isBot := optionUser(c, o["member"])
	amount := o["amount"].IntValue()
	switch {
	case isBot:
		return refuse("err.bot_player")
	case to == c.user:
		return refuse("err.self_transfer")
	}
	rules := b.giveRules(c.ctx, c.guild)
	for _, m := range []string{c.user, to} {
		if err := b.mayGive(c, rules, m); err != nil {
			return err
		}
	}
	if _, _, err := b.economy.EnsureWallet(c.ctx, c.guild, c.user, b.opt.StartingChips, c.now); err != nil {
		return err
	}
	if _, _, err := b.economy.EnsureWallet(c.ctx, c.guild, to, b.opt.StartingChips, c.now); err != nil {
		return err
	}
	from, _, err := b.economy.Give(c.ctx, c.guild, c.user, to, amount, rules.DailyCap, c.now)
	if err != nil {
		return err
	}
	return b.privateText(c, b.cat.T(c.lang, "give.done", "Count", amount, "Player", view.Mention(to), "Balance", from.Balance))
}

func (b *Bot) cmdGrant(c *ictx, o options) error {
	if !c.manager() {
		return refuse("err.admin_only")
	}
	to, isBot := optionUser(c, o["member"])
	amount := o["amount"].IntValue()
	if isBot {
		return refuse("err.bot_player")
	}
	if _, _, err := b.economy.EnsureWallet(c.ctx, c.guild, to, b.opt.StartingChips, c.now); err != nil {
		return err
	}
	w, err := b.economy.Grant(c.ctx, c.guild, c.user, to, amount, c.now)
	if err != nil {
		return err
	}
	return b.privateText(c, b.cat.T(c.lang, "grant.done", "Count", amount, "Player", view.Mention(to), "Balance", w.Balance))
}

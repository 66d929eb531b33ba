package bot

import (
	"errors"

	"github.com/pontoon-bot/pontoon/bot/view"
	"github.com/pontoon-bot/pontoon/store"
)

// Chips outside a table: balances, standings, daily chips, gifts and grants.

func (b *Bot) cmdBalance(c *ictx, o options) error {
	member := c.user
	if m, ok := o["member"]; ok {
		member, _ = optionUser(c, m)
	}
	var w store.Wallet
	var err error
	if member == c.user {
		w, _, err = b.st.EnsureWallet(c.ctx, c.guild, member, b.opt.StartingChips, c.now)
	} else {
		w, err = b.st.Wallet(c.ctx, c.guild, member)
		if errors.Is(err, store.ErrNotFound) {
			return refuse("err.never_played", "Player", view.Mention(member))
		}
	}
	if err != nil {
		return err
	}
	rank, err := b.st.Rank(c.ctx, c.guild, member)
	if err != nil {
		return err
	}
	return b.privateText(c, b.cat.T(c.lang, "balance.text", "Player", view.Mention(member), "Count", w.Balance, "Rank", rank.Rank))
}

// leaderboard is one page of a server's standings with the caller's own rank.
func (b *Bot) leaderboard(c *ictx, page int) (view.Message, error) {
	if page < 1 {
		page = 1
	}
	standings, total, err := b.st.Leaderboard(c.ctx, c.guild, (page-1)*view.LeaderboardPage, view.LeaderboardPage)
	if err != nil {
		return view.Message{}, err
	}
	var me *store.Standing
	if r, err := b.st.Rank(c.ctx, c.guild, c.user); err == nil {
		me = &r
	}
	return b.view.Leaderboard(c.lang, page, total, standings, me), nil
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
	if _, _, err := b.st.EnsureWallet(c.ctx, c.guild, c.user, b.opt.StartingChips, c.now); err != nil {
		return err
	}
	w, err := b.st.ClaimDaily(c.ctx, c.guild, c.user, b.opt.DailyAmount, b.opt.DailyCooldown, c.now)
	if err != nil {
		return err
	}
	return b.privateText(c, b.cat.T(c.lang, "daily.claimed", "Count", b.opt.DailyAmount, "Balance", w.Balance,
		"When", view.RelTime(c.now.Add(b.opt.DailyCooldown))))
}

func (b *Bot) cmdGive(c *ictx, o options) error {
	to, isBot := optionUser(c, o["member"])
	amount, err := amountOption(o, "amount")
	if err != nil {
		return err
	}
	switch {
	case isBot:
		return refuse("err.bot_player")
	case to == c.user:
		return refuse("err.self_transfer")
	}
	if _, _, err := b.st.EnsureWallet(c.ctx, c.guild, c.user, b.opt.StartingChips, c.now); err != nil {
		return err
	}
	if _, _, err := b.st.EnsureWallet(c.ctx, c.guild, to, b.opt.StartingChips, c.now); err != nil {
		return err
	}
	from, _, err := b.st.Give(c.ctx, c.guild, c.user, to, amount, c.now)
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
	amount, err := amountOption(o, "amount")
	if err != nil {
		return err
	}
	if isBot {
		return refuse("err.bot_player")
	}
	if _, _, err := b.st.EnsureWallet(c.ctx, c.guild, to, b.opt.StartingChips, c.now); err != nil {
		return err
	}
	w, err := b.st.Grant(c.ctx, c.guild, c.user, to, amount, c.now)
	if err != nil {
		return err
	}
	return b.privateText(c, b.cat.T(c.lang, "grant.done", "Count", amount, "Player", view.Mention(to), "Balance", w.Balance))
}

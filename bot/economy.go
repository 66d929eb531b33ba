package bot

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/store"
)

const leaderboardPage = 10

// optionUser returns a user option's id and whether that user is a bot.
func optionUser(c *ictx, o *discordgo.ApplicationCommandInteractionDataOption) (string, bool) {
	id := fmt.Sprint(o.Value)
	if r := c.i.ApplicationCommandData().Resolved; r != nil {
		if u, ok := r.Users[id]; ok && u != nil {
			return id, u.Bot
		}
	}
	return id, false
}

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
			return refuse("err.never_played", "Player", mention(member))
		}
	}
	if err != nil {
		return err
	}
	rank, err := b.st.Rank(c.ctx, c.guild, member)
	if err != nil {
		return err
	}
	return b.private(c, message{Content: b.cat.T(c.lang, "balance.text", "Player", mention(member), "Count", w.Balance, "Rank", rank.Rank)})
}

// leaderboard is one page of a server's standings with the caller's own rank and
// Previous/Next buttons (their custom ids carry the page in the round slot).
func (b *Bot) leaderboard(c *ictx, page int) message {
	if page < 1 {
		page = 1
	}
	standings, total, err := b.st.Leaderboard(c.ctx, c.guild, (page-1)*leaderboardPage, leaderboardPage)
	if err != nil {
		c.shown = err
		return message{Content: "⛔ " + b.errText(c.lang, err)}
	}
	pages := max(1, (total+leaderboardPage-1)/leaderboardPage)
	var lines []string
	for _, r := range standings {
		lines = append(lines, b.cat.T(c.lang, "leaderboard.row", "Rank", r.Rank, "Player", mention(r.Member), "Count", r.Balance))
	}
	if len(lines) == 0 {
		lines = append(lines, b.cat.T(c.lang, "leaderboard.empty"))
	}
	if me, err := b.st.Rank(c.ctx, c.guild, c.user); err == nil {
		lines = append(lines, "", b.cat.T(c.lang, "leaderboard.you", "Rank", me.Rank, "Count", me.Balance))
	}
	e := &discordgo.MessageEmbed{Title: b.cat.T(c.lang, "leaderboard.title"), Description: strings.Join(lines, "\n"),
		Footer: &discordgo.MessageEmbedFooter{Text: b.cat.T(c.lang, "leaderboard.page", "Page", page, "Pages", pages)}}
	prev := b.button(c.lang, "button.previous", discordgo.SecondaryButton, customID("lb", 0, page-1, 0, "prev"))
	next := b.button(c.lang, "button.next", discordgo.SecondaryButton, customID("lb", 0, page+1, 0, "next"))
	prev.Disabled = page <= 1
	next.Disabled = page >= pages
	return message{Embeds: []*discordgo.MessageEmbed{e}, Components: rows([]discordgo.MessageComponent{prev, next})}
}

func (b *Bot) cmdDaily(c *ictx) error {
	if _, _, err := b.st.EnsureWallet(c.ctx, c.guild, c.user, b.opt.StartingChips, c.now); err != nil {
		return err
	}
	w, err := b.st.ClaimDaily(c.ctx, c.guild, c.user, b.opt.DailyAmount, b.opt.DailyCooldown, c.now)
	if err != nil {
		return err
	}
	return b.private(c, message{Content: b.cat.T(c.lang, "daily.claimed", "Count", b.opt.DailyAmount, "Balance", w.Balance,
		"When", relTime(c.now.Add(b.opt.DailyCooldown)))})
}

// amountOption reads a required chip amount, refusing one out of range.
func amountOption(o options, name string) (int64, error) {
	v, ok := o[name]
	if !ok {
		return 0, refuse("err.bad_amount")
	}
	n := v.IntValue()
	if n < 1 || n > 1e12 {
		return 0, refuse("err.bad_amount")
	}
	return n, nil
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
	return b.private(c, message{Content: b.cat.T(c.lang, "give.done", "Count", amount, "Player", mention(to), "Balance", from.Balance)})
}

func (b *Bot) cmdGrant(c *ictx, o options) error {
	if !canManage(c.perms) {
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
	return b.private(c, message{Content: b.cat.T(c.lang, "grant.done", "Count", amount, "Player", mention(to), "Balance", w.Balance)})
}

package bot

import (
	"context"
	"errors"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/view"
	"github.com/pontoon-bot/pontoon/store"
)

// statsStore is what /pontoon stats and the leaderboard by net winnings read: the
// per-round results written with each settlement.
type statsStore interface {
	Stats(ctx context.Context, guild, member string) (store.Stats, error)
	NetLeaderboard(ctx context.Context, guild string, offset, limit int) ([]store.NetStanding, int, error)
	NetRank(ctx context.Context, guild, member string) (store.NetStanding, error)
}

// leaderboardChoices are /pontoon leaderboard's "by" option: balance (the default) or
// net winnings over every round played.
var leaderboardChoices = []choiceSpec{{"leaderboard.balance", "balance"}, {"leaderboard.net", "net"}}

func (b *Bot) cmdStats(c *ictx, o options) error {
	member := c.user
	if m, ok := o["member"]; ok {
		member, _ = optionUser(c, m)
	}
	st, err := b.stats.Stats(c.ctx, c.guild, member)
	if err != nil {
		return err
	}
	return b.private(c, b.view.Stats(c.lang, member, view.Stats{Rounds: st.Rounds, Won: st.Won, Lost: st.Lost,
		Pontoons: st.Pontoons, Tricks: st.Tricks, Busts: st.Busts, Net: st.Net, BiggestWin: st.BiggestWin,
		BankerRounds: st.BankerRounds, BankNet: st.BankNet}))
}

// netLeaderboard is one page of the standings by net winnings with the caller's rank.
func (b *Bot) netLeaderboard(c *ictx, page int) (view.Message, error) {
	if page < 1 {
		page = 1
	}
	standings, total, err := b.stats.NetLeaderboard(c.ctx, c.guild, (page-1)*view.LeaderboardPage, view.LeaderboardPage)
	if err != nil {
		return view.Message{}, err
	}
	var me *view.NetStanding
	if r, err := b.stats.NetRank(c.ctx, c.guild, c.user); err == nil {
		me = &view.NetStanding{Rank: r.Rank, Member: r.Member, Net: r.Net}
	} else if !errors.Is(err, store.ErrNotFound) {
		return view.Message{}, err
	}
	rows := make([]view.NetStanding, len(standings))
	for i, s := range standings {
		rows[i] = view.NetStanding{Rank: s.Rank, Member: s.Member, Net: s.Net}
	}
	return b.view.NetLeaderboard(c.lang, page, total, rows, me), nil
}

// byNet reports whether /pontoon leaderboard asked for net winnings, or a page button
// of that leaderboard was clicked.
func byNet(o options) bool {
	v, ok := o["by"]
	return ok && v.StringValue() == "net"
}

func isNetBoard(id view.ID) bool { return strings.HasPrefix(id.Arg, view.NetBoardArg) }

// setCommandID tells the catalog the registered /pontoon command's id, so that texts
// name its subcommands as clickable mentions (</pontoon history:ID>).
func (b *Bot) setCommandID(cmds []*discordgo.ApplicationCommand) {
	for _, c := range cmds {
		if c.Name == "pontoon" && c.ID != "" {
			b.cat.SetCommandID(c.ID)
			return
		}
	}
	b.log.Warn("no id for the registered /pontoon command: texts name commands in plain text")
}

package view

import (
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/i18n"
)

// NetBoardArg starts the custom-id argument of the net-winnings leaderboard's page
// buttons, which tells them from the balance leaderboard's.
const NetBoardArg = "net"

// Stats is a member's record: rounds played (as a player or as the banker), of them
// those won and lost, hands (pontoons, five card tricks, busts), the net of every round,
// the biggest win in one round, and the rounds as banker with the bank's takings.
type Stats struct {
	Rounds       int
	Won, Lost    int
	Pontoons     int
	Tricks       int
	Busts        int
	Net          int64
	BiggestWin   int64
	BankerRounds int
	BankNet      int64
}

// NetStanding is one member's place on the leaderboard by net winnings.
type NetStanding struct {
	Rank   int // 1 for the biggest winner
	Member string
	Net    int64
}

// Stats renders a member's record (/pontoon stats). Results are signed the reader's way
// (+1.000, −20) through i18n.Signed.
func (r *Renderer) Stats(lang, member string, s Stats) Message {
	var text string
	if s.Rounds == 0 {
		text = r.cat.T(lang, "stats.none", "Player", Mention(member))
	} else {
		text = r.cat.T(lang, "stats.text", "Player", Mention(member), "Rounds", s.Rounds, "Won", s.Won, "Lost", s.Lost,
			"Pontoons", s.Pontoons, "Tricks", s.Tricks, "Busts", s.Busts, "Net", i18n.Signed(s.Net),
			"Biggest", s.BiggestWin, "BankerRounds", s.BankerRounds, "BankNet", i18n.Signed(s.BankNet))
	}
	return Message{Embeds: []*discordgo.MessageEmbed{{Title: r.cat.T(lang, "stats.title"), Description: text}}}
}

// NetLeaderboard is one page of the standings by net winnings, with the caller's own
// rank (me nil when they have finished no round) and Previous/Next buttons.
func (r *Renderer) NetLeaderboard(lang string, page, total int, standings []NetStanding, me *NetStanding) Message {
	pages := max(1, (total+LeaderboardPage-1)/LeaderboardPage)
	var lines []string
	for _, s := range standings {
		lines = append(lines, r.cat.T(lang, "leaderboard.row_net", "Rank", s.Rank, "Player", Mention(s.Member), "Net", i18n.Signed(s.Net)))
	}
	if len(lines) == 0 {
		lines = append(lines, r.cat.T(lang, "leaderboard.empty_net"))
	}
	if me != nil {
		lines = append(lines, "", r.cat.T(lang, "leaderboard.you_net", "Rank", me.Rank, "Net", i18n.Signed(me.Net)))
	}
	e := &discordgo.MessageEmbed{Title: r.cat.T(lang, "leaderboard.title_net"), Description: strings.Join(lines, "\n"),
		Footer: &discordgo.MessageEmbedFooter{Text: r.cat.T(lang, "leaderboard.page", "Page", page, "Pages", pages)}}
	prev := r.button(lang, "button.previous", discordgo.SecondaryButton, cid(KindBoard, 0, page-1, 0, NetBoardArg+"prev"))
	next := r.button(lang, "button.next", discordgo.SecondaryButton, cid(KindBoard, 0, page+1, 0, NetBoardArg+"next"))
	prev.Disabled = page <= 1
	next.Disabled = page >= pages
	return Message{Embeds: []*discordgo.MessageEmbed{e}, Components: rows([]discordgo.MessageComponent{prev, next})}
}

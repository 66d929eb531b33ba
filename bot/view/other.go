package view

import (
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/table"
	"github.com/pontoon-bot/pontoon/game"
)

// RulesText is a table's house rules in words.
func (r *Renderer) RulesText(lang string, rules game.Rules, turn time.Duration) string {
	onOff := func(v bool) string {
		if v {
			return r.cat.T(lang, "rules.on")
		}
		return r.cat.T(lang, "rules.off")
	}
	lines := []string{
		r.cat.T(lang, "rules.variant."+string(rules.Variant)),
		r.cat.T(lang, "rules.stakes", "Min", rules.MinStake, "Max", rules.MaxStake),
		r.cat.T(lang, "rules.stick", "Min", rules.StickMin),
		r.cat.T(lang, "rules.split."+string(rules.Split)),
		r.cat.T(lang, "rules.double", "OnOff", onOff(rules.BankerMayDouble)),
		r.cat.T(lang, "rules.pays", "Pays", rules.PontoonPays, "Collects", rules.BankerPontoonCollects),
		r.cat.T(lang, "rules.four_low", "OnOff", onOff(rules.FourLowTwistOnly)),
		r.cat.T(lang, "rules.royal", "OnOff", onOff(rules.RoyalPontoon)),
		r.cat.T(lang, "rules.tiers."+string(rules.PontoonTiers)),
		r.cat.T(lang, "rules.burn."+strconv.Itoa(rules.Burn)),
		r.cat.T(lang, "rules.decks."+decksKey(rules.Decks)),
		r.cat.T(lang, "rules.turn_timer", "Timer", seconds(turn)),
	}
	if rules.Variant == game.Shoot {
		lines = append(lines, r.cat.T(lang, "rules.kitty", "Min", rules.KittyMin, "Max", rules.KittyMax))
	}
	return "• " + strings.Join(lines, "\n• ")
}

// seconds shows a duration as seconds with the SI symbol ("60 s"), which reads the same
// in every language of the catalog.
func seconds(d time.Duration) string {
	return strconv.FormatInt(int64(d/time.Second), 10) + " s"
}

func decksKey(d game.Decks) string {
	if d == game.DecksAuto {
		return "auto"
	}
	return strconv.Itoa(int(d))
}

// Rules is the rules embed: a table's, or the server's defaults when serverDefaults.
func (r *Renderer) Rules(lang string, rules game.Rules, turn time.Duration, serverDefaults bool) Message {
	text := r.RulesText(lang, rules, turn)
	if serverDefaults {
		text = r.cat.T(lang, "rules.server_defaults") + "\n" + text
	}
	return Message{Embeds: []*discordgo.MessageEmbed{{Title: r.cat.T(lang, "rules.title"), Description: text}}}
}

// Offer is a bank offer's public message; key is its state (offer.open, offer.accepted,
// offer.declined, offer.expired). Only an open offer has buttons.
func (r *Renderer) Offer(lang string, of table.Offer, key string) Message {
	m := Message{Content: r.cat.T(lang, key, "Seller", Mention(of.Seller), "Buyer", Mention(of.Buyer), "Count", of.Price, "When", RelTime(of.Expires))}
	if key == "offer.open" {
		m.Components = rows([]discordgo.MessageComponent{
			r.button(lang, "button.accept", discordgo.SuccessButton, cid(KindOffer, of.Table, 0, 0, of.ID+".accept")),
			r.button(lang, "button.decline", discordgo.DangerButton, cid(KindOffer, of.Table, 0, 0, of.ID+".decline")),
		})
	}
	return m
}

// Auction is an auction's public message; key is auction.open, auction.closed or
// auction.unsold.
func (r *Renderer) Auction(lang string, a table.Auction, key string) string {
	best, amount := a.Highest()
	bestText := r.cat.T(lang, "auction.no_bids")
	if best != "" {
		bestText = r.cat.T(lang, "auction.best", "Player", Mention(best), "Count", amount)
	}
	return r.cat.T(lang, key, "Seller", Mention(a.Seller), "When", RelTime(a.Ends), "Best", bestText)
}

// LeaderboardPage is the page size of the leaderboard.
const LeaderboardPage = 10

// Standing is one member's place on the leaderboard by balance.
type Standing struct {
	Rank    int // 1 for the richest; equal balances share a rank
	Member  string
	Balance int64
}

// Leaderboard is one page of a server's standings with the caller's own rank (me nil
// when they have none) and Previous/Next buttons.
func (r *Renderer) Leaderboard(lang string, page, total int, standings []Standing, me *Standing) Message {
	pages := max(1, (total+LeaderboardPage-1)/LeaderboardPage)
	var lines []string
	for _, s := range standings {
		lines = append(lines, r.cat.T(lang, "leaderboard.row", "Rank", s.Rank, "Player", Mention(s.Member), "Count", s.Balance))
	}
	if len(lines) == 0 {
		lines = append(lines, r.cat.T(lang, "leaderboard.empty"))
	}
	if me != nil {
		lines = append(lines, "", r.cat.T(lang, "leaderboard.you", "Rank", me.Rank, "Count", me.Balance))
	}
	e := &discordgo.MessageEmbed{Title: r.cat.T(lang, "leaderboard.title"), Description: strings.Join(lines, "\n"),
		Footer: &discordgo.MessageEmbedFooter{Text: r.cat.T(lang, "leaderboard.page", "Page", page, "Pages", pages)}}
	prev := r.button(lang, "button.previous", discordgo.SecondaryButton, cid(KindBoard, 0, page-1, 0, "prev"))
	next := r.button(lang, "button.next", discordgo.SecondaryButton, cid(KindBoard, 0, page+1, 0, "next"))
	prev.Disabled = page <= 1
	next.Disabled = page >= pages
	return Message{Embeds: []*discordgo.MessageEmbed{e}, Components: rows([]discordgo.MessageComponent{prev, next})}
}

// RoundLine is what /pontoon history shows of one round.
type RoundLine struct {
	Number     int
	Commitment string // SHA-256 of the pack and the salt, shown before the deal
	StartedAt  time.Time
	Finished   bool
}

// History lists a table's recent rounds with their commitments.
func (r *Renderer) History(lang string, rounds []RoundLine) Message {
	var lines []string
	for _, rd := range rounds {
		key := "history.row_open"
		if rd.Finished {
			key = "history.row_done"
		}
		lines = append(lines, r.cat.T(lang, key, "Round", rd.Number, "Commitment", rd.Commitment, "When", RelTime(rd.StartedAt)))
	}
	if len(lines) == 0 {
		lines = append(lines, r.cat.T(lang, "history.none"))
	}
	return Message{Embeds: []*discordgo.MessageEmbed{{Title: r.cat.T(lang, "history.title"), Description: strings.Join(lines, "\n"),
		Footer: &discordgo.MessageEmbedFooter{Text: r.cat.T(lang, "history.how")}}}}
}

// Settings shows a server's defaults; saved says they were just changed. public is the
// language of the server's public messages.
func (r *Renderer) Settings(lang, public string, rules game.Rules, turn time.Duration, saved bool) Message {
	text := r.cat.T(lang, "settings.language", "Language", r.cat.T(public, "language.self")) + "\n" + r.RulesText(lang, rules, turn)
	key := "settings.title"
	if saved {
		key = "settings.saved"
	}
	return Message{Embeds: []*discordgo.MessageEmbed{{Title: r.cat.T(lang, key), Description: text}}}
}

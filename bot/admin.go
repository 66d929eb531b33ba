package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/i18n"
	"github.com/pontoon-bot/pontoon/bot/view"
	"github.com/pontoon-bot/pontoon/store"
)

// historyStore is what /pontoon history reads.
type historyStore interface {
	TableByChannel(ctx context.Context, guild, channel string) (store.Table, error)
	Rounds(ctx context.Context, tableID int64, limit int) ([]store.Round, error)
	Round(ctx context.Context, tableID int64, number int) (store.Round, error)
	Actions(ctx context.Context, roundID int64) ([]store.Action, error)
}

// cmdHistory lists the table's recent rounds with their commitments, or attaches one
// finished round's history for `pontoon replay`. A round in play is never revealed.
func (b *Bot) cmdHistory(c *ictx, o options) error {
	tb, err := b.history.TableByChannel(c.ctx, c.guild, c.channel)
	if errors.Is(err, store.ErrNotFound) {
		return refuse("err.no_table")
	}
	if err != nil {
		return err
	}
	c.log = c.log.With("table", tb.ID, "round", tb.RoundNumber)
	if v, ok := o["round"]; ok {
		r, err := b.history.Round(c.ctx, tb.ID, int(v.IntValue()))
		if errors.Is(err, store.ErrNotFound) {
			return refuse("err.no_such_round", "Round", v.IntValue())
		}
		if err != nil {
			return err
		}
		if !r.Finished() {
			return refuse("err.round_still_in_play", "Round", r.Number, "Commitment", r.Commitment)
		}
		acts, err := b.history.Actions(c.ctx, r.ID)
		if err != nil {
			return err
		}
		h, err := store.RoundHistory(r, acts)
		if err != nil {
			return err
		}
		revealed, err := b.withSeed(c.ctx, r.ID, h)
		if err != nil {
			return err
		}
		data, err := json.MarshalIndent(h, "", "  ")
		if err != nil {
			return err
		}
		name := fmt.Sprintf("pontoon-table%d-round%d.json", tb.ID, r.Number)
		line := b.cat.T(c.lang, "history.file", "Round", r.Number, "Commitment", r.Commitment, "Salt", r.Salt, "File", name)
		if h.Rounds[0].SeededShuffle != nil {
			line = b.cat.T(c.lang, "history.file_sealed", "Round", r.Number, "Commitment", r.Commitment, "File", name)
			if revealed {
				line = b.cat.T(c.lang, "history.file_seeded", "Round", r.Number, "Commitment", r.Commitment, "File", name)
			}
		}
		return b.private(c, view.Message{Content: line},
			&discordgo.File{Name: name, ContentType: "application/json", Reader: strings.NewReader(string(data))})
	}
	rounds, err := b.history.Rounds(c.ctx, tb.ID, 10)
	if err != nil {
		return err
	}
	lines := make([]view.RoundLine, len(rounds))
	for i, r := range rounds {
		lines[i] = view.RoundLine{Number: r.Number, Commitment: r.Commitment, StartedAt: r.StartedAt, Finished: r.Finished()}
	}
	return b.private(c, b.view.History(c.lang, lines))
}

// cmdSettings shows or changes the server's defaults (Manage Server): language, house
// rules and turn timer for tables opened from now on.
func (b *Bot) cmdSettings(c *ictx, o options) error {
	if !c.manager() {
		return refuse("err.admin_only")
	}
	s := b.lang.get(c.ctx, c.guild)
	base, turn := b.serverDefaults(c.ctx, c.guild)
	rules, err := rulesFrom(base, o)
	if err != nil {
		return err
	}
	if v, ok := o["language"]; ok {
		lang := v.StringValue()
		if !i18n.Supported(lang) {
			return refuse("err.bad_language")
		}
		s.Language = lang
	}
	if v, ok := o["turn_timer"]; ok {
		turn = time.Duration(v.IntValue()) * time.Second
	}
	s.Give = giveSettingsFrom(s.Give, o)
	raw, _ := json.Marshal(rules)
	s.Rules = raw
	s.TurnTimer = turn.String()
	if len(o) > 0 {
		if err := b.lang.set(c.ctx, c.guild, s, c.now); err != nil {
			return err
		}
	}
	lang := s.Language
	if lang == "" {
		lang = b.lang.public(c.ctx, c.guild, guildLocale(c.i))
	}
	m := b.view.Settings(c.lang, lang, rules, turn, len(o) > 0)
	if len(m.Embeds) > 0 {
		m.Embeds[0].Description += "\n" + b.giveRulesText(c.lang, b.giveRules(c.ctx, c.guild))
	}
	return b.private(c, m)
}

// giveSettingsFrom lays the give rules the command sets over the server's (g, nil if
// it set none), on a copy: the settings in memory are shared.
func giveSettingsFrom(g *giveSettings, o options) *giveSettings {
	var out giveSettings
	if g != nil {
		out = *g
	}
	set := false
	if v, ok := o["give_min_rounds"]; ok {
		n := int(v.IntValue())
		out.MinRounds, set = &n, true
	}
	if v, ok := o["give_account_days"]; ok {
		n := int(v.IntValue())
		out.MinAccountDays, set = &n, true
	}
	if v, ok := o["give_daily_cap"]; ok {
		n := v.IntValue()
		out.DailyCap, set = &n, true
	}
	if !set {
		return g
	}
	return &out
}

// giveRulesText is the settings' line about gifts.
func (b *Bot) giveRulesText(lang string, r GiveRules) string {
	return b.cat.T(lang, "settings.give", "Rounds", r.MinRounds, "Days", int64(r.MinAccountAge/(24*time.Hour)), "Cap", r.DailyCap)
}

package bot

import (
	"errors"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/table"
	"github.com/pontoon-bot/pontoon/bot/view"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
)

// Recorder hears what the bot does, for metrics; package bot/metrics implements it. Its
// methods are called on the interaction's path: they must be quick and safe for
// concurrent use.
type Recorder interface {
	// Interaction reports one answered interaction: its kind (interactionKind), its
	// outcome ("answered", "refused" or "failed"), the reason code of a refusal or
	// failure (outcomeOf) and the time from its arrival to Discord accepting the answer.
	// A redelivery of an interaction applied before, which gets no answer, is reported
	// with outcome "redelivered" and the time it took to tell.
	Interaction(kind, outcome, reason string, d time.Duration)
}

type noRecorder struct{}

func (noRecorder) Interaction(string, string, string, time.Duration) {}

// interactionKind names an interaction for metrics and logs: "command:<subcommand>"
// ("command:bank_sell" for a group), "component:<custom id kind>" or "modal:<kind>".
// Anything else is "other", so the label has a small, fixed set of values.
// InteractionKinds lists every kind interactionKind gives a routed interaction, for
// metrics that should exist before the first interaction of each kind.
func InteractionKinds() []string {
	kinds := []string{"other"}
	for name := range commandRoutes {
		kinds = append(kinds, "command:"+strings.ReplaceAll(name, " ", "_"))
	}
	for kind := range componentRoutes {
		kinds = append(kinds, "component:"+kind)
	}
	for kind := range modalRoutes {
		kinds = append(kinds, "modal:"+kind)
	}
	slices.Sort(kinds)
	return kinds
}

func interactionKind(i *discordgo.Interaction) string {
	var kind string
	switch i.Type {
	case discordgo.InteractionApplicationCommand:
		data := i.ApplicationCommandData()
		if data.Name != "pontoon" || len(data.Options) == 0 {
			return "other"
		}
		kind = data.Options[0].Name
		if data.Options[0].Type == discordgo.ApplicationCommandOptionSubCommandGroup && len(data.Options[0].Options) > 0 {
			kind += "_" + data.Options[0].Options[0].Name
		}
		kind = "command:" + kind
	case discordgo.InteractionMessageComponent:
		id, ok := view.ParseID(i.MessageComponentData().CustomID)
		if !ok {
			return "other"
		}
		kind = "component:" + id.Kind
	case discordgo.InteractionModalSubmit:
		id, ok := view.ParseID(i.ModalSubmitData().CustomID)
		if !ok {
			return "other"
		}
		kind = "modal:" + id.Kind
	default:
		return "other"
	}
	if len(kind) > 40 || strings.ContainsFunc(kind, func(r rune) bool { return !(r == ':' || r == '_' || r >= 'a' && r <= 'z') }) {
		return "other"
	}
	return kind
}

// interactionLogger is the logger of one interaction: every line about it carries its
// id, guild, channel and kind, and the table and round when its custom id names them.
// Handlers add the table and round when they find it some other way (withTable).
func interactionLogger(log *slog.Logger, i *discordgo.Interaction, kind string) *slog.Logger {
	l := log.With("interaction", i.ID, "guild", i.GuildID, "channel", i.ChannelID, "kind", kind)
	var customID string
	switch i.Type {
	case discordgo.InteractionMessageComponent:
		customID = i.MessageComponentData().CustomID
	case discordgo.InteractionModalSubmit:
		customID = i.ModalSubmitData().CustomID
	}
	if id, ok := view.ParseID(customID); ok && id.Kind != view.KindBoard { // a leaderboard button's "table" is 0
		l = l.With("table", id.Table, "round", id.Round)
	}
	return l
}

// outcomeOf classifies the error an answer told the member about (nil: none) the way
// words puts it into words: "answered"; "refused" with the refusal's code (a catalog
// key without its "err." prefix, a game.Code, or a store refusal); or "failed" with
// reason "error" for anything unexpected.
func outcomeOf(err error) (outcome, reason string) {
	var r *table.Refusal
	var ge *game.Error
	var ins *store.InsufficientChipsError
	var cd *store.CooldownError
	switch {
	case err == nil:
		return "answered", ""
	case errors.As(err, &r):
		return "refused", strings.TrimPrefix(r.Key, "err.")
	case errors.As(err, &ge):
		return "refused", string(ge.Code)
	case errors.As(err, &cd):
		return "refused", "cooldown"
	case errors.Is(err, store.ErrGiftCap):
		return "refused", "give_cap"
	case errors.As(err, &ins):
		return "refused", "insufficient_chips"
	case errors.Is(err, store.ErrSelfTransfer):
		return "refused", "self_transfer"
	case errors.Is(err, store.ErrBadAmount):
		return "refused", "bad_amount"
	case errors.Is(err, store.ErrOverflow):
		return "refused", "overflow"
	case errors.Is(err, store.ErrTableOpen):
		return "refused", "table_exists"
	case errors.Is(err, store.ErrDuplicateAction), errors.Is(err, store.ErrDuplicateInteraction), errors.Is(err, store.ErrStaleSeq):
		return "refused", "already_applied"
	}
	return "failed", "error"
}

// record reports an answered interaction to the recorder, once Discord has taken (or
// refused, respErr) the answer, and logs an unexpected error with the interaction's ids.
func (b *Bot) record(c *ictx, respErr error) {
	outcome, reason := outcomeOf(c.shown)
	if outcome == "failed" {
		c.log.Error("unexpected error", "err", c.shown)
	}
	if respErr != nil {
		outcome, reason = "failed", "response"
	}
	if c.drew != nil {
		c.drew(respErr == nil)
	}
	b.opt.Recorder.Interaction(c.kind, outcome, reason, time.Since(c.arrived))
}

// LiveTables is the number of open tables this bot holds, for metrics.
func (b *Bot) LiveTables() int { return b.tables.LiveTables() }

// TimersPending is the number of the rules' timers armed and not yet fired (turns R7.4,
// bank offers R6.3, auctions R9.8), for metrics.
func (b *Bot) TimersPending() int { return b.tables.TimersPending() }

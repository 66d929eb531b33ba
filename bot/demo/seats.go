package demo

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/bot/view"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/game/sim"
)

// The scripted players: the Dealer, and those /demo/seats seats. They know the table
// only as a member does, through the fake Discord: they press Join and My cards on the
// table message, and on their own panel Refresh, the action buttons, the amount selects
// and the "other amount" form, so every move goes through the bot's real path. What to
// press is the documented strategy's move (game/sim), as the Hint button gives it.

// ScriptedNames are the scripted players /demo/seats seats, in order.
var ScriptedNames = []string{"Ada", "Bruno", "Chidi", "Dewi", "Elif", "Farah", "Goran", "Hana"}

// seat is a scripted player.
type seat struct {
	name, id string
	panel    string // the id of the member's last panel message; "" before the first
}

// ErrNoSeat is returned by Seat when no scripted player could sit down.
var ErrNoSeat = errors.New("demo: no scripted player could sit down")

// Seat seats up to count scripted players who are not seated yet, each pressing Join on
// the table message, and returns how many sat down. A refused Join (the table is full)
// ends it early.
func (d *Demo) Seat(ctx context.Context, count int) (int, error) {
	seated := 0
	for seated < count {
		name := d.nextScripted()
		if name == "" {
			break
		}
		id := d.add(name, 0)
		tm, join, err := d.tableButton(view.KindJoin)
		if err != nil {
			return seated, err
		}
		r, err := d.fake.Click(d.cfg.Channel, tm.ID, id, join)
		if err != nil {
			return seated, err
		}
		if r.Ephemeral && refused(r.Message) {
			d.log.Info("demo: a scripted player could not sit down", "name", name, "why", discordtest.Text(r.Message))
			break
		}
		d.mu.Lock()
		d.seats = append(d.seats, &seat{name: name, id: id})
		d.mu.Unlock()
		seated++
	}
	if seated == 0 {
		return 0, ErrNoSeat
	}
	return seated, nil
}

// nextScripted is the first scripted name not seated yet, or "".
func (d *Demo) nextScripted() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, n := range ScriptedNames {
		taken := false
		for _, s := range d.seats {
			taken = taken || s.name == n
		}
		if !taken {
			return n
		}
	}
	return ""
}

// play makes the scripted players' moves until ctx ends: every Think, each of them
// whom the round waits on makes one move.
func (d *Demo) play(ctx context.Context) {
	defer close(d.stopped)
	tick := time.NewTicker(d.cfg.Think)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		d.mu.Lock()
		seats := append([]*seat(nil), d.seats...)
		d.mu.Unlock()
		for _, s := range seats {
			if ctx.Err() != nil {
				return
			}
			adv, ok := d.cfg.Bot.Advice(ctx, d.cfg.Guild, d.cfg.Channel, s.id)
			if !ok {
				continue
			}
			if err := d.move(s, adv); err != nil {
				// The table moved on between the advice and the click (a timer, another
				// member): the next tick asks again.
				d.log.Debug("demo: scripted move not made", "name", s.name, "verb", adv.Verb, "err", err)
			}
		}
	}
}

// move presses on s's panel what makes the advised move.
func (d *Demo) move(s *seat, adv sim.Advice) error {
	panel, err := d.panelOf(s)
	if err != nil {
		return err
	}
	verb := string(adv.Verb)
	var r *discordtest.Response
	switch {
	case view.AmountVerbs[adv.Verb]:
		amount := strconv.FormatInt(adv.Amount, 10)
		if id, ok := findOption(panel, verb, amount); ok {
			r, err = d.fake.Select(d.cfg.Channel, panel.ID, s.id, id, []string{amount})
			break
		}
		if adv.Verb == game.VerbShoot {
			// A three-card shoot bet goes with its card (R9.4): the panel offers it
			// together with the twist.
			if id, ok := findOption(panel, view.ShootTwistVerb, amount); ok {
				r, err = d.fake.Select(d.cfg.Channel, panel.ID, s.id, id, []string{amount})
				break
			}
		}
		ask, ok := findComponent(panel, view.KindAsk, verb)
		if !ok {
			return fmt.Errorf("the panel offers no %s of %s", verb, amount)
		}
		if r, err = d.fake.Click(d.cfg.Channel, panel.ID, s.id, ask); err != nil {
			return err
		}
		if r.Modal == nil {
			return fmt.Errorf("no form for %s", verb)
		}
		fields := map[string]string{}
		for _, in := range modalInputs(r.Modal) {
			fields[in.CustomID] = amount
		}
		r, err = d.fake.SubmitModal(d.cfg.Channel, s.id, r.Modal.CustomID, fields, r)
	default:
		id, ok := findComponent(panel, view.KindAct, verb)
		if !ok {
			return fmt.Errorf("the panel offers no %s", verb)
		}
		r, err = d.fake.Click(d.cfg.Channel, panel.ID, s.id, id)
	}
	if err != nil {
		return err
	}
	if refused(r.Message) {
		return errors.New(discordtest.Text(r.Message))
	}
	return nil
}

// panelOf is s's panel as it stands now: Refresh on their last panel when it belongs to
// the round on the table, else My cards on the table message (a new panel).
func (d *Demo) panelOf(s *seat) (*discordgo.Message, error) {
	tm, cards, err := d.tableButton(view.KindCards)
	if err != nil {
		return nil, err
	}
	round := idOf(cards).Round
	if s.panel != "" {
		if pm := d.fake.Message(d.cfg.Channel, s.panel); pm != nil {
			if refresh, ok := findComponent(pm, view.KindCards, ""); ok && idOf(refresh).Round == round {
				r, err := d.fake.Click(d.cfg.Channel, pm.ID, s.id, refresh)
				if err != nil {
					return nil, err
				}
				if r.Message != nil {
					return r.Message, nil
				}
			}
		}
	}
	r, err := d.fake.Click(d.cfg.Channel, tm.ID, s.id, cards)
	if err != nil {
		return nil, err
	}
	if r.Message == nil || refused(r.Message) {
		return nil, fmt.Errorf("no panel: %s", discordtest.Text(r.Message))
	}
	s.panel = r.Message.ID
	return r.Message, nil
}

var errNoTable = errors.New("demo: the channel shows no table")

// tableMessage is the channel's table message: the latest public message with a Join
// button, or nil.
func (d *Demo) tableMessage() *discordgo.Message {
	msgs := d.fake.Messages(d.cfg.Channel)
	for i := len(msgs) - 1; i >= 0; i-- {
		if _, ok := findComponent(msgs[i], view.KindJoin, ""); ok {
			return msgs[i]
		}
	}
	return nil
}

// tableButton is the channel's table message and the custom id of its kind button
// (errNoTable without either).
func (d *Demo) tableButton(kind string) (*discordgo.Message, string, error) {
	tm := d.tableMessage()
	if tm == nil {
		return nil, "", errNoTable
	}
	id, ok := findComponent(tm, kind, "")
	if !ok {
		return nil, "", errNoTable
	}
	return tm, id, nil
}

// findComponent finds the custom id of an enabled button or select of the bot's on m
// by kind, and by verb when verb is not "".
func findComponent(m *discordgo.Message, kind, verb string) (string, bool) {
	for _, c := range discordtest.Components(m) {
		id, disabled := "", false
		switch v := c.(type) {
		case *discordgo.Button:
			id, disabled = v.CustomID, v.Disabled
		case *discordgo.SelectMenu:
			id, disabled = v.CustomID, v.Disabled
		}
		if p, ok := view.ParseID(id); ok && !disabled && p.Kind == kind && (verb == "" || p.Arg == verb) {
			return id, true
		}
	}
	return "", false
}

// findOption finds an amount select for verb on m that offers value.
func findOption(m *discordgo.Message, verb, value string) (string, bool) {
	for _, c := range discordtest.Components(m) {
		s, ok := c.(*discordgo.SelectMenu)
		if !ok || s.Disabled {
			continue
		}
		if p, ok := view.ParseID(s.CustomID); !ok || p.Kind != view.KindAmount || p.Arg != verb {
			continue
		}
		for _, o := range s.Options {
			if o.Value == value {
				return s.CustomID, true
			}
		}
	}
	return "", false
}

func idOf(customID string) view.ID {
	id, _ := view.ParseID(customID)
	return id
}

// modalInputs lists a modal's text inputs.
func modalInputs(m *discordtest.Modal) []*discordgo.TextInput {
	var out []*discordgo.TextInput
	for _, c := range m.Components {
		var row []discordgo.MessageComponent
		switch v := c.(type) {
		case *discordgo.ActionsRow:
			row = v.Components
		case discordgo.ActionsRow:
			row = v.Components
		}
		for _, x := range row {
			switch in := x.(type) {
			case *discordgo.TextInput:
				out = append(out, in)
			case discordgo.TextInput:
				out = append(out, &in)
			}
		}
	}
	return out
}

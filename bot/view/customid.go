package view

import (
	"strconv"
	"strings"

	"github.com/pontoon-bot/pontoon/bot/table"
)

// The one place custom ids are built, parsed and checked for staleness.
//
// A component's custom id is pt:<kind>:<table>:<round>:<member action count>:<arg>. The
// round and the member's count make a button from an earlier round or turn (or a double
// click) a refusal instead of a second action. A custom id says nothing of where it was
// posted; package bot checks that before it routes one (place.go).

// ID is a parsed custom id.
type ID struct {
	Kind  string
	Table int64
	Round int
	MSeq  int
	Arg   string
}

// The kinds of custom id, routed by package bot.
const (
	KindJoin   = "join"
	KindLeave  = "leave"
	KindDeal   = "deal"
	KindCards  = "cards"
	KindRules  = "rules"
	KindAct    = "act"   // an action button; Arg is the verb
	KindAmount = "amt"   // an amount select; Arg is the verb
	KindAsk    = "ask"   // "other amount": opens the modal; Arg is the verb
	KindModal  = "mod"   // the typed-amount modal; Arg is the verb
	KindBoard  = "lb"    // a leaderboard page; Round is the page
	KindOffer  = "offer" // a bank offer's answer; Arg is <offer id>.<accept|decline>
	KindHint   = "hint"  // a player's Hint: what the documented strategy would do now
	KindOpen   = "open"  // Open table: launches the table's web page (the Discord Activity)
)

// String builds the custom id.
func (id ID) String() string {
	var b strings.Builder
	b.Grow(32 + len(id.Arg))
	b.WriteString("pt:")
	b.WriteString(id.Kind)
	b.WriteByte(':')
	b.WriteString(strconv.FormatInt(id.Table, 10))
	b.WriteByte(':')
	b.WriteString(strconv.Itoa(id.Round))
	b.WriteByte(':')
	b.WriteString(strconv.Itoa(id.MSeq))
	b.WriteByte(':')
	b.WriteString(id.Arg)
	return b.String()
}

// cid builds a custom id string.
func cid(kind string, tableID int64, round, mseq int, arg string) string {
	return ID{Kind: kind, Table: tableID, Round: round, MSeq: mseq, Arg: arg}.String()
}

// ParseID reads a custom id; ok is false for anything the bot did not make.
func ParseID(s string) (ID, bool) {
	f := strings.SplitN(s, ":", 6)
	if len(f) != 6 || f[0] != "pt" {
		return ID{}, false
	}
	t, err1 := strconv.ParseInt(f[2], 10, 64)
	round, err2 := strconv.Atoi(f[3])
	mseq, err3 := strconv.Atoi(f[4])
	if err1 != nil || err2 != nil || err3 != nil {
		return ID{}, false
	}
	return ID{Kind: f[1], Table: t, Round: round, MSeq: mseq, Arg: f[5]}, true
}

// Check refuses a button from an earlier round, or from before the member's last action
// (a double click, or a panel left open across turns). As a table.Guard it runs under
// the table's lock.
func (id ID) Check(round, memberSeq int) error {
	if id.Round != round {
		return table.Refuse("err.stale_round", "Old", id.Round, "Now", round)
	}
	if id.MSeq != memberSeq {
		return table.Refuse("err.stale_turn")
	}
	return nil
}

// IsTableButton reports whether a custom id is a button of that table's own public
// message (its Join button), by which a restart finds a message it posted but did not
// record.
func IsTableButton(customID string, tableID int64) bool {
	id, ok := ParseID(customID)
	return ok && id.Kind == KindJoin && id.Table == tableID
}

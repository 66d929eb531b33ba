package bot

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/pontoon-bot/pontoon/bot/view"
)

// Members' names, for the table's picture and its web page (Discord's own messages
// use mentions, which Discord resolves). Every interaction shows its member's name
// (noteName). A member the bot has not heard from since it started, as after a
// restart, is asked of Discord (GET /guilds/{guild}/members/{user}) in the
// background: the rendering that missed draws "Seat N" and goes on, and when the name
// arrives the pages watching the channels that missed it are told (WebWatch), so they
// draw it; the table's picture takes it at its next drawing. Nothing waits for
// Discord's answer: not a member's click, not a table's hold.

const (
	// maxNameLookups bounds the lookups in flight at once, across all servers. A miss
	// past it is asked again at the next rendering that misses.
	maxNameLookups = 8
	// nameGoneFor is how long a member Discord does not know (they left the server, or
	// the bot did) stays unknown before it is asked again: every state of their table
	// misses them, and it is asked once, not each time.
	nameGoneFor = 10 * time.Minute
	// nameRetryAfter is how long a member stays unknown after a failed lookup (Discord
	// unreachable or erring).
	nameRetryAfter = time.Minute
	// nameLookupTimeout bounds one lookup, discordgo's waits for its rate limits included.
	nameLookupTimeout = 30 * time.Second
)

// nameLookups are the lookups of members' names in flight, one per member at a time,
// and the members not to ask about again yet. Its lock is never held while calling
// Discord or telling the pages.
type nameLookups struct {
	mu      sync.Mutex
	started bool                          // Start has connected: the session is there to make calls
	pending map[string]map[string]bool    // guild/member -> the channels to tell when it arrives
	unknown *lru.Cache[string, time.Time] // guild/member -> not asked again before
	ctx     context.Context               // cancelled by Close: lookups in flight give up
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

func newNameLookups(size int) *nameLookups {
	ctx, cancel := context.WithCancel(context.Background())
	return &nameLookups{pending: map[string]map[string]bool{}, unknown: newCache[string, time.Time](size), ctx: ctx, cancel: cancel}
}

// start lets lookups begin, once the bot's session is there to make them.
func (l *nameLookups) start() {
	l.mu.Lock()
	l.started = true
	l.mu.Unlock()
}

// close stops the lookups in flight and waits for them.
func (l *nameLookups) close() {
	l.mu.Lock()
	l.started = false
	l.cancel()
	l.mu.Unlock()
	l.wg.Wait()
}

// memberName is a member's name for the picture and the page: as their last
// interaction showed it, or as Discord answered a lookup. A miss starts a lookup
// (lookUpName) whose answer tells the pages watching channel ("" for none).
func (b *Bot) memberName(guild, channel string) view.Names {
	return func(member string) (string, string, bool) {
		n, ok := b.names.Get(guild + "/" + member)
		if !ok {
			b.lookUpName(guild, member, channel)
			return "", "", false
		}
		return n[0], n[1], true
	}
}

// noteName remembers the name an interaction shows for its member.
func (b *Bot) noteName(i *discordgo.Interaction) {
	if i.GuildID == "" {
		return
	}
	b.noteMember(i.GuildID, i.Member)
}

// noteMember remembers a member's name: their server nickname, else their display
// name, else their username (the picture's fallback).
func (b *Bot) noteMember(guild string, m *discordgo.Member) bool {
	if m == nil || m.User == nil || m.User.ID == "" {
		return false
	}
	u := m.User
	name := m.Nick
	if name == "" {
		name = u.GlobalName
	}
	if name == "" {
		name = u.Username
	}
	fallback := u.Username
	if fallback == "" {
		fallback = name
	}
	if name == "" {
		return false
	}
	key := guild + "/" + u.ID
	if v, ok := b.names.Get(key); ok && v == [2]string{name, fallback} {
		return true
	}
	b.names.Add(key, [2]string{name, fallback})
	return true
}

// lookUpName asks Discord for a member's name on its own goroutine, unless it is
// asked already (then channel joins the channels to tell), Discord said lately that
// there is no such member, too many lookups are in flight, or the bot is not running. It
// never blocks: renderings call it under a table's lock.
func (b *Bot) lookUpName(guild, member, channel string) {
	if guild == "" || member == "" {
		return
	}
	l := b.lookups
	key := guild + "/" + member
	l.mu.Lock()
	defer l.mu.Unlock()
	if chans, ok := l.pending[key]; ok {
		if channel != "" {
			chans[channel] = true
		}
		return
	}
	if until, ok := l.unknown.Get(key); ok && b.now().Before(until) {
		return
	}
	if !l.started || len(l.pending) >= maxNameLookups || l.ctx.Err() != nil {
		return
	}
	chans := map[string]bool{}
	if channel != "" {
		chans[channel] = true
	}
	l.pending[key] = chans
	l.wg.Add(1)
	go b.fetchName(guild, member)
}

// fetchName is one lookup: GET /guilds/{guild}/members/{user}, paced by discordgo's
// rate limiter like every other call.
func (b *Bot) fetchName(guild, member string) {
	l := b.lookups
	defer l.wg.Done()
	ctx, cancel := context.WithTimeout(l.ctx, nameLookupTimeout)
	defer cancel()
	m, err := b.s.GuildMember(guild, member, discordgo.WithContext(ctx))
	key := guild + "/" + member
	l.mu.Lock()
	chans := l.pending[key]
	delete(l.pending, key)
	// The name is in the cache before the lookup leaves pending, so a rendering in
	// between neither misses it nor asks again.
	known := err == nil && b.noteMember(guild, m)
	failed := false
	switch {
	case known:
		l.unknown.Remove(key)
	case l.ctx.Err() != nil:
		// The bot is closing: nothing learnt.
	case err == nil || gone(err):
		l.unknown.Add(key, b.now().Add(nameGoneFor))
	default:
		l.unknown.Add(key, b.now().Add(nameRetryAfter))
		failed = true
	}
	l.mu.Unlock()
	if failed {
		b.log.Warn("member's name not looked up", "guild", guild, "member", member, "err", err)
	}
	if known {
		for ch := range chans {
			b.watch.changed(guild, ch)
		}
	}
}

// gone is true when Discord's answer says the lookup will not succeed soon: an
// unknown member (they left) or guild, or no access to it (the bot left).
func gone(err error) bool {
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response == nil {
		return false
	}
	switch re.Response.StatusCode {
	case http.StatusNotFound, http.StatusForbidden:
		return true
	}
	return false
}

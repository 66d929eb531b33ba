package bot

import (
	"context"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/pontoon-bot/pontoon/bot/i18n"
)

// memberLanguageStore keeps each member's own language, per server (/pontoon language).
type memberLanguageStore interface {
	MemberLanguage(ctx context.Context, guild, member string) (string, error)
	SetMemberLanguage(ctx context.Context, guild, member, lang string, now time.Time) error
}

// memberLanguages caches the members' choices (read once, written through), so an
// interaction of a recent member reads no store; the cache keeps the members used
// most recently (Options.CacheEntries), and one it let go is read again.
type memberLanguages struct {
	st    memberLanguageStore
	cache *lru.Cache[string, string] // guild + "/" + member -> language ("" for no choice)
}

// get is the member's own choice in the server, or "".
func (l *memberLanguages) get(ctx context.Context, guild, member string) string {
	if guild == "" || member == "" {
		return ""
	}
	key := guild + "/" + member
	if v, ok := l.cache.Get(key); ok {
		return v
	}
	lang, err := l.st.MemberLanguage(ctx, guild, member)
	if err != nil {
		return "" // not cached: read again next time
	}
	l.cache.Add(key, lang)
	return lang
}

func (l *memberLanguages) set(ctx context.Context, guild, member, lang string, now time.Time) error {
	if err := l.st.SetMemberLanguage(ctx, guild, member, lang, now); err != nil {
		return err
	}
	l.cache.Add(guild+"/"+member, lang)
	return nil
}

// memberLang is the language to answer a member in: their own choice wins over their
// Discord client's locale (Discord has no Sundanese), else the server's language.
func (b *Bot) memberLang(ctx context.Context, guild, member, clientLocale, public string) string {
	if lang := i18n.Choose(b.mlang.get(ctx, guild, member), clientLocale); lang != "" {
		return lang
	}
	return public
}

// cmdLanguage sets the member's own language, or with no argument clears it.
func (b *Bot) cmdLanguage(c *ictx, o options) error {
	lang := ""
	if v, ok := o["language"]; ok {
		if lang = i18n.Match(v.StringValue()); lang == "" {
			return refuse("err.bad_language")
		}
	}
	if err := b.mlang.set(c.ctx, c.guild, c.user, lang, c.now); err != nil {
		return err
	}
	if lang == "" {
		c.lang = b.memberLang(c.ctx, c.guild, c.user, string(c.i.Locale), c.pub)
		return b.privateText(c, b.cat.T(c.lang, "language.cleared"))
	}
	c.lang = lang // the answer is already in the new language
	return b.privateText(c, b.cat.T(lang, "language.saved", "Language", b.cat.T(lang, "language.self")))
}

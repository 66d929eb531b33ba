package config

import (
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// Error is a configuration problem with one key. Its message is one line
// naming the key, what is wrong and the environment variable that sets it;
// it never contains the Discord token.
type Error struct {
	Key     string // e.g. "game.turn_timer"
	Problem string // e.g. "is 5s, must be between 10s and 10m"
}

// The largest give rules (Game.GiveMinRounds, Game.GiveMinAccountAge in days) the
// configuration and a server's /pontoon settings accept.
const (
	MaxGiveMinRounds      = 10000
	MaxGiveMinAccountDays = 3650
)

func (e *Error) Error() string {
	return fmt.Sprintf("config: %s %s; set %s or %s in the config file", e.Key, e.Problem, EnvName(e.Key), e.Key)
}

var (
	snowflake = regexp.MustCompile(`^[0-9]{1,20}$`)
	// A language tag as Discord's locales write them: id, pl, pt-BR, es-419.
	language = regexp.MustCompile(`^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$`)
)

// Validate checks the configuration and returns the first problem as an
// *Error, or nil. Everything serve needs is checked, the token included.
func (c Config) Validate() error {
	bad := func(key, format string, args ...any) error {
		return &Error{Key: key, Problem: fmt.Sprintf(format, args...)}
	}
	d := c.Discord
	switch {
	case d.Token == "":
		return bad("discord.token", "is empty")
	case strings.ContainsFunc(string(d.Token), isSpace):
		return bad("discord.token", "contains spaces or line breaks; give the bare token, without \"Bot \"")
	case tokenProblem(string(d.Token)) != "":
		return bad("discord.token", "%s", tokenProblem(string(d.Token)))
	case d.ApplicationID != "" && !snowflake.MatchString(d.ApplicationID):
		return bad("discord.application_id", "is %s, must be a Discord id (digits) or empty", show(d.ApplicationID))
	case d.GuildID != "" && !snowflake.MatchString(d.GuildID):
		return bad("discord.guild_id", "is %s, must be a Discord id (digits) or empty", show(d.GuildID))
	}
	if err := checkURL(d.APIURL); err != "" {
		return bad("discord.api_url", "is %s, %s", show(d.APIURL), err)
	}
	if err := d.Scale.validate(); err != nil {
		return err
	}
	if err := d.Endpoint.validate(); err != nil {
		return err
	}
	if err := c.Activity.Validate(d); err != nil {
		return err
	}
	if err := c.Database.Validate(); err != nil {
		return err
	}
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		return bad("log.level", "is %s, must be one of debug, info, warn, error", show(c.Log.Level))
	}
	switch c.Log.Format {
	case "text", "json":
	default:
		return bad("log.format", "is %s, must be text or json", show(c.Log.Format))
	}
	g := c.Game
	if err := between("game.turn_timer", g.TurnTimer, 10*time.Second, 10*time.Minute); err != nil {
		return err
	}
	if g.StartingChips < 0 || g.StartingChips > maxChips {
		return bad("game.starting_chips", "is %d, must be from 0 to %d", g.StartingChips, int64(maxChips))
	}
	if g.DailyAmount < 1 || g.DailyAmount > maxChips {
		return bad("game.daily_amount", "is %d, must be from 1 to %d", g.DailyAmount, int64(maxChips))
	}
	if err := between("game.daily_cooldown", g.DailyCooldown, time.Minute, 30*24*time.Hour); err != nil {
		return err
	}
	if g.GiveMinRounds < 0 || g.GiveMinRounds > MaxGiveMinRounds {
		return bad("game.give_min_rounds", "is %d, must be from 0 to %d", g.GiveMinRounds, MaxGiveMinRounds)
	}
	if err := between("game.give_min_account_age", g.GiveMinAccountAge, 0, MaxGiveMinAccountDays*24*time.Hour); err != nil {
		return err
	}
	if g.GiveDailyCap < 0 || g.GiveDailyCap > maxChips {
		return bad("game.give_daily_cap", "is %d, must be from 0 to %d", g.GiveDailyCap, int64(maxChips))
	}
	if g.Language != "" && !language.MatchString(g.Language) {
		return bad("game.language", "is %s, must be a language tag such as pl or pt-BR, or empty", show(g.Language))
	}
	if err := between("game.bank_offer_ttl", g.BankOfferTTL, 10*time.Second, 15*time.Minute); err != nil {
		return err
	}
	if err := between("game.bid_window", g.BidWindow, 10*time.Second, 10*time.Minute); err != nil {
		return err
	}
	if err := c.Admin.Validate(); err != nil {
		return err
	}
	if r := c.Runtime; r.MaxProcs < 0 || r.MaxProcs > 1024 {
		return bad("runtime.max_procs", "is %d, must be from 0 (one per CPU) to 1024", r.MaxProcs)
	}
	if r := c.Runtime; r.GCPercent < 25 || r.GCPercent > 1000 {
		return bad("runtime.gc_percent", "is %d, must be from 25 to 1000 (100 is Go's default)", r.GCPercent)
	}
	return c.Limits.validate()
}

// validate checks the limits' ranges.
func (l Limits) validate() error {
	bad := func(key string, v, lo, hi int) error {
		return &Error{Key: key, Problem: fmt.Sprintf("is %d, must be from %d to %d", v, lo, hi)}
	}
	switch {
	case l.MaxOpenTables < 1 || l.MaxOpenTables > 10000:
		return bad("limits.max_open_tables", l.MaxOpenTables, 1, 10000)
	case l.OddsPerHour < 1 || l.OddsPerHour > 1000:
		return bad("limits.odds_per_hour", l.OddsPerHour, 1, 1000)
	case l.OddsKept < 10 || l.OddsKept > 1000000:
		return bad("limits.odds_kept", l.OddsKept, 10, 1000000)
	case l.CacheEntries < 100 || l.CacheEntries > 10000000:
		return bad("limits.cache_entries", l.CacheEntries, 100, 10000000)
	}
	return between("limits.idle_table", l.IdleTable, time.Minute, 24*time.Hour)
}

// Validate checks the database keys alone: what `pontoon migrate`, `audit`
// and `copy` need, which run without a Discord token.
func (d Database) Validate() error {
	bad := func(key, format string, args ...any) error {
		return &Error{Key: key, Problem: fmt.Sprintf(format, args...)}
	}
	if d.URL != "" {
		// The URL is a Secret: the message names what is wrong, never the text.
		u, err := url.Parse(d.URL.Reveal())
		switch {
		case err != nil:
			return bad("database.url", "is not a URL; want postgres://user:password@host:5432/database")
		case u.Scheme != "postgres" && u.Scheme != "postgresql":
			return bad("database.url", "must start with postgres:// (leave it empty for SQLite and set database.path)")
		case u.Host == "":
			return bad("database.url", "has no host; want postgres://user:password@host:5432/database")
		}
	} else if d.Path == "" {
		return bad("database.path", "is empty")
	}
	switch d.Synchronous {
	case "normal", "full":
	default:
		return bad("database.synchronous", "is %s, must be normal or full", show(d.Synchronous))
	}
	return nil
}

// Validate checks the admin keys alone: what `pontoon healthcheck` needs, which runs
// without a Discord token.
func (a Admin) Validate() error {
	bad := func(key, format string, args ...any) error {
		return &Error{Key: key, Problem: fmt.Sprintf(format, args...)}
	}
	if l := a.Listen; l != "" {
		if _, port, err := net.SplitHostPort(l); err != nil || port == "" {
			return bad("admin.listen", "is %s, must be host:port such as 127.0.0.1:9464, or empty for none", show(l))
		}
	}
	// The token is a Secret: the message says what is wrong with it, never the text.
	// A short one could be guessed, and the log scrubber would mask every occurrence of
	// it in every line; header-safe characters are what a client can send.
	if t := a.Token.Reveal(); t != "" {
		n := len(t)
		if n < minAdminToken || n > maxAdminToken || strings.ContainsFunc(t, func(r rune) bool { return r <= ' ' || r > '~' }) {
			return bad("admin.token", "is %d characters, must be %d to %d visible ASCII characters without spaces (openssl rand -hex 32 makes one), or empty for none",
				n, minAdminToken, maxAdminToken)
		}
	}
	return nil
}

// Bounds of admin.token's length.
const (
	minAdminToken = 16
	maxAdminToken = 256
)

func between(key string, d, lo, hi time.Duration) error {
	if d < lo || d > hi {
		return &Error{Key: key, Problem: fmt.Sprintf("is %v, must be from %v to %v", d, lo, hi)}
	}
	return nil
}

// checkURL returns what is wrong with an API base URL, or "".
func checkURL(s string) string {
	u, err := url.Parse(s)
	switch {
	case err != nil || s == "":
		return "must be a URL such as https://discord.com"
	case u.Scheme != "http" && u.Scheme != "https":
		return "must start with https:// (or http:// for a local fake)"
	case u.Host == "":
		return "has no host"
	case u.RawQuery != "" || u.Fragment != "" || u.User != nil:
		return "must be a plain base URL, without query, fragment or credentials"
	}
	return ""
}

func isSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r'
}

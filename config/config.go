package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/viper"
)

// DefaultFile is the configuration file Load reads when it is given no path
// and the file exists in the working directory.
const DefaultFile = "config.yaml"

// EnvPrefix starts every environment variable Load reads. A key's variable is
// the prefix and the key in upper case with '.' as '_': discord.token is
// PONTOON_DISCORD_TOKEN, game.rules.min_stake is PONTOON_GAME_RULES_MIN_STAKE.
const EnvPrefix = "PONTOON_"

// maxChips mirrors store.MaxChips, the most chips one account may hold.
const maxChips = 1 << 50

// Config is the whole configuration of the bot, with every default filled in.
// It is a plain value: Load builds it, Validate checks it, and nothing in it
// refers back to viper.
//
// Formatting a Config (%v, %+v, %#v, String) or marshalling it to JSON never
// shows the Discord token: see Secret.
type Config struct {
	Discord  Discord
	Database Database
	Log      Log
	Game     Game
	Admin    Admin
	Runtime  Runtime
	Limits   Limits
	Activity Activity
}

// Discord is how the bot reaches Discord.
type Discord struct {
	Token         Secret   // the bot token; required to serve
	ApplicationID string   // the application's id; "" means read it from READY
	GuildID       string   // register commands in this guild only (development); "" means globally
	APIURL        string   // Discord's base URL, https://discord.com; tests point it at a fake
	Scale         Scale    // shards and the HTTP interactions endpoint (scale.go)
	Endpoint      Endpoint // the HTTP interactions endpoint's timeouts and connections (endpoint.go)
	// ClientSecret is the application's OAuth2 client secret, with which members
	// sign in to the table's web page (activity.go); never logged or printed.
	ClientSecret Secret
}

// Database is where the state lives: a SQLite file by default, or a
// PostgreSQL database when URL is set (several processes of the bot can share
// one).
type Database struct {
	Path string // the SQLite file; created if missing; unused when URL is set
	// URL selects PostgreSQL: postgres://user:password@host:5432/db?sslmode=...
	// It may hold a password, so it is a Secret: never logged or printed.
	URL Secret
	// Synchronous is how durable a commit is: "normal" or "full" (fsync at
	// every commit; survives a power cut). See store.Synchronous.
	Synchronous string
}

// Location is what store.Open takes: the URL if set, else the file.
func (d Database) Location() string {
	if d.URL != "" {
		return d.URL.Reveal()
	}
	return d.Path
}

// Log is how the bot logs.
type Log struct {
	Level  string // debug, info, warn or error
	Format string // text or json
}

// Admin is the operators' listener: metrics, health checks and profiling.
type Admin struct {
	// Listen is the host:port of the admin HTTP listener serving /metrics, /healthz,
	// /readyz and, with Pprof, /debug/pprof/; "" (the default) serves none.
	Listen string
	// Token, when set, is the bearer token every admin endpoint but /healthz requires
	// (Authorization: Bearer <token>). Without it anyone who reaches Listen reads the
	// metrics: keep Listen on loopback or set a token.
	Token Secret
	// Pprof serves Go's profiles under /debug/pprof/; off by default.
	Pprof bool
}

// Runtime tunes the Go runtime the bot runs on. The defaults are measured
// (docs/PERFORMANCE.md): the bot's work is small pieces of I/O, and what the
// runtime spends waking idle threads, and its monitor for them, is a large
// part of its CPU. One processor costs least: a second
// processor cost a fifth more CPU per interaction at 400 a second for a p99
// of 4 to 7 ms instead of 5 to 9, and again 0.82 to 0.87 ms against 0.74 to
// 0.81. While a SQLite call that the kernel stalls holds the only processor,
// the monitor hands it on at its next poll (every 20 µs while the process
// works, backing off to 10 ms). A
// bigger bot grows by processes (shards, HTTP replicas), not threads; a
// process that runs every shard (discord.shards: auto) wants 0.
type Runtime struct {
	// MaxProcs is GOMAXPROCS, the goroutines that run at once: 0 leaves Go's
	// default (one per CPU the process may use). The GOMAXPROCS variable, when
	// set, wins.
	MaxProcs int
	// GCPercent is GOGC, how far the heap grows past what the last collection
	// kept before the next one: 100 is Go's default. The GOGC variable, when
	// set, wins.
	GCPercent int
}

// Game holds the defaults of the tables and of the economy.
type Game struct {
	TurnTimer     time.Duration // how long a player has to act (RULES.md R7.4)
	StartingChips int64         // minted into a member's wallet the first time they play
	DailyAmount   int64         // what /pontoon daily gives
	DailyCooldown time.Duration // how often /pontoon daily may be claimed
	Language      string        // the public language when a server has set none; "" follows the guild's locale
	// Rules are the default house rules of a new table, with the keys of
	// HISTORY.md's "rules" object. The game package validates them
	// (game.ParseRules on RulesJSON).
	Rules        map[string]any
	BankOfferTTL time.Duration // how long an offer to sell the bank stands
	BidWindow    time.Duration // how long an auction of the bank takes bids
	// TablePicture attaches the drawn table (a PNG) to the table message at the
	// deal, the banker's reveal and the settlement. Off, the message is its text
	// alone, and each interaction costs about a third less CPU.
	TablePicture bool

	// Who may give chips (/pontoon give), until a server's admin sets its own: giver
	// and receiver must have played GiveMinRounds rounds in the server and hold a
	// Discord account at least GiveMinAccountAge old, and one member gives at most
	// GiveDailyCap chips in 24 hours. 0 turns each rule off.
	GiveMinRounds     int64
	GiveMinAccountAge time.Duration
	GiveDailyCap      int64
}

// Limits bound what members can make one process hold or compute.
type Limits struct {
	// MaxOpenTables is how many tables one server may have open at once.
	MaxOpenTables int
	// OddsPerHour is how many rule sets whose odds are not kept yet one server may
	// have simulated per hour (/pontoon odds); kept odds are answered at any rate.
	OddsPerHour int
	// OddsKept is how many simulated odds the database keeps (rule set and table
	// size each); past it the oldest go, to be simulated again when asked for.
	OddsKept int
	// IdleTable is how long an open table between rounds stays in memory with no
	// click; it is loaded from the database again on the next one.
	IdleTable time.Duration
	// CacheEntries bounds each of the process's caches of members (names and
	// languages), servers and tables (settings, pictures, fair-price hints).
	CacheEntries int
}

// RulesJSON returns the default house rules as a JSON object, the form
// game.ParseRules reads.
func (g Game) RulesJSON() ([]byte, error) {
	return json.Marshal(g.Rules)
}

// SlogLevel returns the log level for log/slog.
func (l Log) SlogLevel() slog.Level {
	switch l.Level {
	case "debug":
		return slog.LevelDebug
	case "warn":
		return slog.LevelWarn
	case "error":
		return slog.LevelError
	}
	return slog.LevelInfo
}

// Default returns the configuration with every default and no token.
func Default() Config {
	return Config{
		Discord:  Discord{APIURL: "https://discord.com", Endpoint: defaultEndpoint()},
		Database: Database{Path: "pontoon.db", Synchronous: "normal"},
		Log:      Log{Level: "info", Format: "text"},
		Runtime:  Runtime{MaxProcs: 1, GCPercent: 200},
		Game: Game{
			TurnTimer:     60 * time.Second,
			StartingChips: 1000,
			DailyAmount:   200,
			DailyCooldown: 24 * time.Hour,
			Rules:         DefaultRules(),
			BankOfferTTL:  2 * time.Minute,
			BidWindow:     60 * time.Second,
			TablePicture:  true,

			// A casual server's guard against chips fed from alternate accounts: a
			// week-old account that has played a few rounds may give what one
			// member starts with, once a day.
			GiveMinRounds:     5,
			GiveMinAccountAge: 7 * 24 * time.Hour,
			GiveDailyCap:      1000,
		},
		Limits: Limits{MaxOpenTables: 25, OddsPerHour: 10, OddsKept: 1000, IdleTable: 30 * time.Minute, CacheEntries: 10000},
	}
}

// DefaultRules returns the default house rules: RULES.md's defaults and the
// limits of HISTORY.md's examples.
func DefaultRules() map[string]any {
	return map[string]any{
		"variant":                 "classic",
		"min_stake":               1,
		"max_stake":               50,
		"kitty_min":               10,
		"kitty_max":               200,
		"stick_min":               15,
		"split":                   "any",
		"banker_may_double":       false,
		"pontoon_pays":            2,
		"banker_pontoon_collects": 2,
		"four_low_twist_only":     false,
		"royal_pontoon":           false,
		"pontoon_tiers":           "equal",
		"burn":                    0,
		"decks":                   "auto",
	}
}

// field is one configuration key: its name, and how to read it into a Config.
type field struct {
	key string
	get func(c *Config) any          // reads the key from a Config (from Default(): its default)
	set func(c *Config, v any) error // decodes a value from a file or the environment
}

// fields lists every key but game.rules.*, in the order of config.example.yaml.
var fields = []field{
	{"discord.token", func(c *Config) any { return c.Discord.Token }, func(c *Config, v any) error {
		switch x := v.(type) {
		case Secret:
			c.Discord.Token = x
		case string:
			c.Discord.Token = Secret(x)
		default:
			return errors.New("must be text") // and never show the value
		}
		return nil
	}},
	{"discord.application_id", func(c *Config) any { return c.Discord.ApplicationID },
		func(c *Config, v any) error { return decodeString(v, &c.Discord.ApplicationID) }},
	{"discord.guild_id", func(c *Config) any { return c.Discord.GuildID },
		func(c *Config, v any) error { return decodeString(v, &c.Discord.GuildID) }},
	{"discord.api_url", func(c *Config) any { return c.Discord.APIURL },
		func(c *Config, v any) error { return decodeString(v, &c.Discord.APIURL) }},
	{"database.path", func(c *Config) any { return c.Database.Path },
		func(c *Config, v any) error { return decodeString(v, &c.Database.Path) }},
	{"database.url", func(c *Config) any { return c.Database.URL }, func(c *Config, v any) error {
		switch x := v.(type) {
		case Secret:
			c.Database.URL = x
		case string:
			c.Database.URL = Secret(x)
		default:
			return errors.New("must be text") // and never show the value
		}
		return nil
	}},
	{"database.synchronous", func(c *Config) any { return c.Database.Synchronous },
		func(c *Config, v any) error { return decodeString(v, &c.Database.Synchronous) }},
	{"log.level", func(c *Config) any { return c.Log.Level },
		func(c *Config, v any) error { return decodeString(v, &c.Log.Level) }},
	{"log.format", func(c *Config) any { return c.Log.Format },
		func(c *Config, v any) error { return decodeString(v, &c.Log.Format) }},
	{"game.turn_timer", func(c *Config) any { return c.Game.TurnTimer },
		func(c *Config, v any) error { return decodeDuration(v, &c.Game.TurnTimer) }},
	{"game.starting_chips", func(c *Config) any { return c.Game.StartingChips },
		func(c *Config, v any) error { return decodeInt(v, &c.Game.StartingChips) }},
	{"game.daily_amount", func(c *Config) any { return c.Game.DailyAmount },
		func(c *Config, v any) error { return decodeInt(v, &c.Game.DailyAmount) }},
	{"game.daily_cooldown", func(c *Config) any { return c.Game.DailyCooldown },
		func(c *Config, v any) error { return decodeDuration(v, &c.Game.DailyCooldown) }},
	{"game.give_min_rounds", func(c *Config) any { return c.Game.GiveMinRounds },
		func(c *Config, v any) error { return decodeInt(v, &c.Game.GiveMinRounds) }},
	{"game.give_min_account_age", func(c *Config) any { return c.Game.GiveMinAccountAge },
		func(c *Config, v any) error { return decodeDuration(v, &c.Game.GiveMinAccountAge) }},
	{"game.give_daily_cap", func(c *Config) any { return c.Game.GiveDailyCap },
		func(c *Config, v any) error { return decodeInt(v, &c.Game.GiveDailyCap) }},
	{"game.language", func(c *Config) any { return c.Game.Language },
		func(c *Config, v any) error { return decodeString(v, &c.Game.Language) }},
	{"game.bank_offer_ttl", func(c *Config) any { return c.Game.BankOfferTTL },
		func(c *Config, v any) error { return decodeDuration(v, &c.Game.BankOfferTTL) }},
	{"game.bid_window", func(c *Config) any { return c.Game.BidWindow },
		func(c *Config, v any) error { return decodeDuration(v, &c.Game.BidWindow) }},
	{"game.table_picture", func(c *Config) any { return c.Game.TablePicture },
		func(c *Config, v any) error { return decodeBool(v, &c.Game.TablePicture) }},
	{"admin.listen", func(c *Config) any { return c.Admin.Listen },
		func(c *Config, v any) error { return decodeString(v, &c.Admin.Listen) }},
	{"admin.token", func(c *Config) any { return c.Admin.Token },
		func(c *Config, v any) error { return decodeSecret(v, &c.Admin.Token) }},
	{"admin.pprof", func(c *Config) any { return c.Admin.Pprof },
		func(c *Config, v any) error { return decodeBool(v, &c.Admin.Pprof) }},
	{"runtime.max_procs", func(c *Config) any { return int64(c.Runtime.MaxProcs) },
		func(c *Config, v any) error { return decodeSmallInt(v, &c.Runtime.MaxProcs) }},
	{"runtime.gc_percent", func(c *Config) any { return int64(c.Runtime.GCPercent) },
		func(c *Config, v any) error { return decodeSmallInt(v, &c.Runtime.GCPercent) }},
	{"limits.max_open_tables", func(c *Config) any { return int64(c.Limits.MaxOpenTables) },
		func(c *Config, v any) error { return decodeSmallInt(v, &c.Limits.MaxOpenTables) }},
	{"limits.odds_per_hour", func(c *Config) any { return int64(c.Limits.OddsPerHour) },
		func(c *Config, v any) error { return decodeSmallInt(v, &c.Limits.OddsPerHour) }},
	{"limits.odds_kept", func(c *Config) any { return int64(c.Limits.OddsKept) },
		func(c *Config, v any) error { return decodeSmallInt(v, &c.Limits.OddsKept) }},
	{"limits.idle_table", func(c *Config) any { return c.Limits.IdleTable },
		func(c *Config, v any) error { return decodeDuration(v, &c.Limits.IdleTable) }},
	{"limits.cache_entries", func(c *Config) any { return int64(c.Limits.CacheEntries) },
		func(c *Config, v any) error { return decodeSmallInt(v, &c.Limits.CacheEntries) }},
}

const rulesKey = "game.rules"

// EnvName returns the environment variable of a key: PONTOON_ and the key in
// upper case with '.' as '_'.
func EnvName(key string) string {
	return EnvPrefix + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

// Keys returns every configuration key but the house rules (game.rules.*).
func Keys() []string {
	keys := make([]string, len(fields))
	for i, f := range fields {
		keys[i] = f.key
	}
	return keys
}

// Load builds the configuration from, in rising order of precedence: the
// defaults, the YAML file at path, and the PONTOON_* variables of env.
//
// An empty path reads DefaultFile if it exists in the working directory and
// no file otherwise; a path that is given must exist. A nil env reads the
// process environment; a variable set to "" counts as unset. A key the file
// does not know, or a value of the wrong type, is an error naming the key.
//
// Load does not call Validate, so that commands that need no Discord token
// (replay, migrate) can load the rest; serve must call it.
func Load(path string, env map[string]string) (Config, error) {
	if env == nil {
		env = environ()
	}
	v := viper.New()
	v.SetConfigType("yaml")
	def := Default()
	for _, f := range fields {
		v.SetDefault(f.key, f.get(&def))
	}
	for k, r := range def.Game.Rules {
		v.SetDefault(rulesKey+"."+k, r)
	}

	// The file.
	file := path
	if file == "" {
		if _, err := os.Stat(DefaultFile); err == nil {
			file = DefaultFile
		}
	}
	if file != "" {
		b, err := os.ReadFile(file)
		if errors.Is(err, fs.ErrNotExist) {
			return Config{}, fmt.Errorf("config: file %s does not exist", file)
		}
		if err != nil {
			return Config{}, fmt.Errorf("config: %s", oneLine(err.Error()))
		}
		if err := v.ReadConfig(bytes.NewReader(b)); err != nil {
			return Config{}, fmt.Errorf("config: %s is not valid YAML: %s", file, oneLine(err.Error()))
		}
		if err := unknownKeys(b, file); err != nil {
			return Config{}, err
		}
	}

	// The environment, over the file.
	for _, f := range fields {
		if s := env[EnvName(f.key)]; s != "" {
			v.Set(f.key, s)
		}
	}
	rulesPrefix := EnvName(rulesKey) + "_"
	for name, s := range env {
		if rest, ok := strings.CutPrefix(name, rulesPrefix); ok && rest != "" && s != "" {
			v.Set(rulesKey+"."+strings.ToLower(rest), scalar(s))
		}
	}

	// Decoding, key by key, so that an error names its key.
	c := Default()
	for _, f := range fields {
		val := v.Get(f.key)
		if val == nil {
			continue // "key:" with no value in the file: keep the default
		}
		if err := f.set(&c, val); err != nil {
			return Config{}, &Error{Key: f.key, Problem: err.Error()}
		}
	}
	c.Game.Rules = map[string]any{}
	for _, k := range v.AllKeys() {
		if name, ok := strings.CutPrefix(k, rulesKey+"."); ok {
			if strings.Contains(name, ".") {
				return Config{}, &Error{Key: k, Problem: "is a mapping; house rules take plain values"}
			}
			if val := v.Get(k); val != nil {
				c.Game.Rules[name] = val
			}
		}
	}
	// A rule no table has is refused here, in the words of the file or the variable
	// that set it, rather than by the rules' JSON decoder when serve starts.
	known := DefaultRules()
	for _, name := range slices.Sorted(maps.Keys(c.Game.Rules)) {
		if _, ok := known[name]; !ok {
			return Config{}, unknownRule(name, file, env[EnvName(rulesKey+"."+name)] != "")
		}
	}
	return c, nil
}

// removedKeys are keys earlier versions read, with what became of them. A file
// that still sets one is refused like any unknown key, since the setting no
// longer does anything, but with a message that says so rather than suggest a
// typo.
var removedKeys = map[string]string{
	"runtime.steady_sysmon": "was removed (the bot no longer starts itself again with a GODEBUG scheduler trace); delete it",
}

// unknownKeys refuses keys in the file (its YAML, already read once) that no
// field reads: a typo there would otherwise be ignored without a word. It reads
// the file alone, without the defaults, to tell an empty section from one that
// holds a value.
func unknownKeys(yaml []byte, file string) error {
	v := viper.New()
	v.SetConfigType("yaml")
	if err := v.ReadConfig(bytes.NewReader(yaml)); err != nil {
		return fmt.Errorf("config: %s is not valid YAML: %s", file, oneLine(err.Error()))
	}
	known := map[string]bool{}
	for _, f := range fields {
		known[f.key] = true
	}
	var unknown []string
	for _, k := range v.AllKeys() {
		if known[k] || strings.HasPrefix(k, rulesKey+".") {
			continue
		}
		if gone, ok := removedKeys[k]; ok {
			return fmt.Errorf("config: %s in %s %s", k, file, gone)
		}
		if k == rulesKey {
			return &Error{Key: rulesKey, Problem: "must be a mapping of rule names to values"}
		}
		if holds, ok := sectionKey(k); ok {
			if v.Get(k) == nil {
				continue // "discord:" with every key under it commented out
			}
			// "discord: oops": a value where the file must hold the section's keys.
			return fmt.Errorf("config: %s in %s must be a section holding keys such as %s, not a single value", k, file, strings.Join(holds[:min(3, len(holds))], ", "))
		}
		unknown = append(unknown, k)
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return fmt.Errorf("config: unknown key %s in %s (known keys: %s, game.rules.*)", unknown[0], file, strings.Join(Keys(), ", "))
	}
	return nil
}

// environ returns the process environment as a map.
func environ() map[string]string {
	env := map[string]string{}
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	return env
}

// scalar reads an environment value for the house rules as what YAML would
// have made of it: a whole number, true or false, or text.
func scalar(s string) any {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n
	}
	if b, err := strconv.ParseBool(s); err == nil && (s == "true" || s == "false") {
		return b
	}
	return s
}

// oneLine joins the lines of a message, so every error is one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// show quotes a value for an error message, shortened.
func show(v any) string {
	s := fmt.Sprint(v)
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return strconv.Quote(s)
}

func decodeString(v any, dst *string) error {
	switch x := v.(type) {
	case string:
		*dst = x
	case int, int64, uint64, float64, bool:
		*dst = fmt.Sprint(x) // an id written without quotes in YAML
	default:
		return fmt.Errorf("must be text, not %s", show(v))
	}
	return nil
}

// decodeSecret reads text that must never be shown, not even in its own error.
func decodeSecret(v any, dst *Secret) error {
	switch x := v.(type) {
	case Secret:
		*dst = x
	case string:
		*dst = Secret(x)
	default:
		return errors.New("must be text") // and never show the value
	}
	return nil
}

func decodeBool(v any, dst *bool) error {
	switch x := v.(type) {
	case bool:
		*dst = x
	case string:
		switch strings.TrimSpace(x) {
		case "true":
			*dst = true
		case "false":
			*dst = false
		default:
			return fmt.Errorf("is %s, must be true or false", show(v))
		}
	default:
		return fmt.Errorf("is %s, must be true or false", show(v))
	}
	return nil
}

func decodeInt(v any, dst *int64) error {
	switch x := v.(type) {
	case int:
		*dst = int64(x)
	case int64:
		*dst = x
	case uint64:
		if x > math.MaxInt64 {
			return fmt.Errorf("is %d, too large", x)
		}
		*dst = int64(x)
	case float64:
		if x != math.Trunc(x) || math.Abs(x) > 1<<62 {
			return fmt.Errorf("is %s, must be a whole number", show(v))
		}
		*dst = int64(x)
	case string:
		n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		if err != nil {
			return fmt.Errorf("is %s, must be a whole number", show(v))
		}
		*dst = n
	default:
		return fmt.Errorf("is %s, must be a whole number", show(v))
	}
	return nil
}

func decodeDuration(v any, dst *time.Duration) error {
	switch x := v.(type) {
	case time.Duration:
		*dst = x
	case string:
		d, err := time.ParseDuration(strings.TrimSpace(x))
		if err != nil {
			return fmt.Errorf("is %s, must be a duration such as 90s, 5m or 24h", show(v))
		}
		*dst = d
	default:
		return fmt.Errorf("is %s, must be a duration with a unit, such as 90s, 5m or 24h", show(v))
	}
	return nil
}

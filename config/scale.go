package config

import (
	"encoding/hex"
	"fmt"
	"net"
	"regexp"
	"slices"
	"strconv"
)

// Scale is how one process shares an application's work with others:
// which gateway shards it runs, and whether it answers Discord's
// interaction POSTs itself. Its keys sit under discord.
type Scale struct {
	// ShardID and ShardCount (discord.shard_id, discord.shard_count) run this
	// process as shard ShardID of ShardCount. ShardCount 0, the default,
	// means no sharding: one shard, no shard field in the identify.
	ShardID    int
	ShardCount int
	// Shards (discord.shards) is "auto" to run every shard GET /gateway/bot
	// recommends in this process, identifies paced by its max_concurrency;
	// "" uses ShardID and ShardCount.
	Shards string
	// InteractionsListen (discord.interactions_listen) is the host:port of
	// the HTTP interactions endpoint, e.g. ":8443" or "127.0.0.1:8080" behind
	// a TLS proxy; "" receives interactions over the gateway.
	InteractionsListen string
	// PublicKey (discord.public_key) is the application's public key from
	// the Developer Portal, 64 hex digits, that signs every interaction POST.
	PublicKey string
}

// ShardsAuto is the value of discord.shards that asks Discord for the count.
const ShardsAuto = "auto"

// Sharded reports whether the process identifies with a shard: a count of
// its own, or auto.
func (s Scale) Sharded() bool { return s.ShardCount > 0 || s.Shards == ShardsAuto }

// hostname is a DNS name as a listen address may give it.
var hostname = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$`)

// maxShards bounds discord.shard_count to catch a typo; Discord's largest
// bots run a few thousand shards.
const maxShards = 1 << 16

// scaleFields are the keys of Scale, in the order of config.example.yaml.
var scaleFields = []field{
	{"discord.shard_id", func(c *Config) any { return c.Discord.Scale.ShardID },
		func(c *Config, v any) error { return decodeSmallInt(v, &c.Discord.Scale.ShardID) }},
	{"discord.shard_count", func(c *Config) any { return c.Discord.Scale.ShardCount },
		func(c *Config, v any) error { return decodeSmallInt(v, &c.Discord.Scale.ShardCount) }},
	{"discord.shards", func(c *Config) any { return c.Discord.Scale.Shards },
		func(c *Config, v any) error { return decodeString(v, &c.Discord.Scale.Shards) }},
	{"discord.interactions_listen", func(c *Config) any { return c.Discord.Scale.InteractionsListen },
		func(c *Config, v any) error { return decodeString(v, &c.Discord.Scale.InteractionsListen) }},
	{"discord.public_key", func(c *Config) any { return c.Discord.Scale.PublicKey },
		func(c *Config, v any) error { return decodeString(v, &c.Discord.Scale.PublicKey) }},
}

// The keys of Scale join the table after discord.api_url, where
// config.example.yaml has them. Splicing them in here rather than writing
// them into the table keeps this section in one file.
func init() {
	at := slices.IndexFunc(fields, func(f field) bool { return f.key == "discord.api_url" }) + 1
	fields = slices.Insert(fields, at, append(scaleFields, endpointFields...)...)
}

// validate checks the keys of Scale; Config.Validate calls it.
func (s Scale) validate() error {
	bad := func(key, format string, args ...any) error {
		return &Error{Key: key, Problem: fmt.Sprintf(format, args...)}
	}
	switch {
	case s.Shards != "" && s.Shards != ShardsAuto:
		return bad("discord.shards", "is %s, must be auto or empty", show(s.Shards))
	case s.ShardCount < 0 || s.ShardCount > maxShards:
		return bad("discord.shard_count", "is %d, must be from 1 to %d, or 0 for no sharding", s.ShardCount, maxShards)
	case s.Shards == ShardsAuto && (s.ShardCount != 0 || s.ShardID != 0):
		return bad("discord.shard_count", "is set while discord.shards is auto; leave discord.shard_id and discord.shard_count unset, or empty discord.shards")
	case s.ShardID < 0:
		return bad("discord.shard_id", "is %d, must be 0 or more", s.ShardID)
	case s.ShardCount == 0 && s.ShardID != 0:
		return bad("discord.shard_id", "is %d, but discord.shard_count is not set", s.ShardID)
	case s.ShardCount > 0 && s.ShardID >= s.ShardCount:
		return bad("discord.shard_id", "is %d, must be below discord.shard_count (%d): shards count from 0", s.ShardID, s.ShardCount)
	}
	if s.InteractionsListen != "" {
		host, port, err := net.SplitHostPort(s.InteractionsListen)
		n, perr := strconv.Atoi(port)
		switch {
		case err != nil || perr != nil || n < 0 || n > 65535:
			return bad("discord.interactions_listen", "is %s, must be host:port or :port, such as :8443 or 127.0.0.1:8080", show(s.InteractionsListen))
		case host != "" && net.ParseIP(host) == nil && !hostname.MatchString(host):
			return bad("discord.interactions_listen", "is %s, its host must be an IP address or a host name", show(s.InteractionsListen))
		case s.PublicKey == "":
			return bad("discord.public_key", "is empty, but discord.interactions_listen is set: every interaction POST must be checked against the application's public key (Developer Portal, General Information)")
		}
	}
	if s.PublicKey != "" {
		if b, err := hex.DecodeString(s.PublicKey); err != nil || len(b) != 32 {
			return bad("discord.public_key", "is %s, must be the application's public key: 64 hexadecimal digits", show(s.PublicKey))
		}
		if s.InteractionsListen == "" {
			return bad("discord.public_key", "is set, but discord.interactions_listen is empty: set both to receive interactions over HTTP, or neither")
		}
	}
	return nil
}

// decodeSmallInt is decodeInt for values that fit an int.
func decodeSmallInt(v any, dst *int) error {
	var n int64
	if err := decodeInt(v, &n); err != nil {
		return err
	}
	if n < -1<<31 || n > 1<<31-1 {
		return fmt.Errorf("is %d, too large", n)
	}
	*dst = int(n)
	return nil
}

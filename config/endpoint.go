package config

import (
	"fmt"
	"time"
)

// Endpoint bounds what clients can hold of the HTTP interactions endpoint
// (discord.interactions_listen): anyone can connect to it, and only a
// request signed by Discord is answered. Its keys sit under discord.
type Endpoint struct {
	// ReadTimeout (discord.interactions_read_timeout) is how long a request,
	// headers and body, may take to arrive; a slower one is cut off.
	ReadTimeout time.Duration
	// IdleTimeout (discord.interactions_idle_timeout) is how long a
	// kept-alive connection may wait for its next request.
	IdleTimeout time.Duration
	// MaxConnections (discord.interactions_max_connections) is how many
	// connections are served at once; more wait until one closes.
	MaxConnections int
}

func defaultEndpoint() Endpoint {
	return Endpoint{ReadTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second, MaxConnections: 256}
}

// endpointFields are the keys of Endpoint, in the order of config.example.yaml,
// where they follow discord.public_key; scale.go's init puts them there.
var endpointFields = []field{
	{"discord.interactions_read_timeout", func(c *Config) any { return c.Discord.Endpoint.ReadTimeout },
		func(c *Config, v any) error { return decodeDuration(v, &c.Discord.Endpoint.ReadTimeout) }},
	{"discord.interactions_idle_timeout", func(c *Config) any { return c.Discord.Endpoint.IdleTimeout },
		func(c *Config, v any) error { return decodeDuration(v, &c.Discord.Endpoint.IdleTimeout) }},
	{"discord.interactions_max_connections", func(c *Config) any { return int64(c.Discord.Endpoint.MaxConnections) },
		func(c *Config, v any) error { return decodeSmallInt(v, &c.Discord.Endpoint.MaxConnections) }},
}

// validate checks the keys of Endpoint; Config.Validate calls it.
func (e Endpoint) validate() error {
	// Discord sends its few kilobytes at once: 30s is already far more than
	// it needs, and longer would let a slow client hold a connection as long.
	if err := between("discord.interactions_read_timeout", e.ReadTimeout, time.Second, 30*time.Second); err != nil {
		return err
	}
	if err := between("discord.interactions_idle_timeout", e.IdleTimeout, time.Second, 5*time.Minute); err != nil {
		return err
	}
	if n := e.MaxConnections; n < 1 || n > 65536 {
		return &Error{Key: "discord.interactions_max_connections", Problem: fmt.Sprintf("is %d, must be from 1 to 65536", n)}
	}
	return nil
}

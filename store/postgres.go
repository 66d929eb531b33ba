package store

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"github.com/pontoon-bot/pontoon/migrations"
)

// openPostgres opens a PostgreSQL database through pgx's database/sql
// driver. database/sql rather than pgxpool, because the store's methods and
// goose are written against database/sql: one body of Go code then runs on
// both engines, with the dialect rewriting only placeholders and a few
// clauses. pgx still caches each connection's prepared statements itself,
// so no statement is parsed twice on a connection.
//
// Every pooled connection gets the same settings from the connection
// config, as the SQLite DSN gives them to SQLite's: synchronous_commit from
// Synchronous. Tables are found through the URL's search_path, so a test
// (or a second bot) can live in its own schema of a shared database.
func openPostgres(ctx context.Context, location string, o options) (*Store, error) {
	shown := RedactLocation(location)
	cfg, err := pgx.ParseConfig(location)
	if err != nil {
		return nil, invalid("database url %s: %v", shown, err)
	}
	if plain, ok := plainOnLoopback(location, cfg); ok {
		if cfg, err = pgx.ParseConfig(plain); err != nil {
			return nil, invalid("database url %s: %v", shown, err)
		}
	}
	if o.synchronous == "full" {
		cfg.RuntimeParams["synchronous_commit"] = "on"
	} else {
		cfg.RuntimeParams["synchronous_commit"] = "off"
	}
	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(pgConns)
	db.SetMaxIdleConns(pgConns)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: %w", shown, err)
	}
	p := &pool{DB: db, d: postgresDialect, turns: newTurns(pgConns)}
	s := &Store{w: p, r: p, d: postgresDialect, path: shown, postgres: true, observe: o.observe}
	s.goose, err = goose.NewProvider(goose.DialectPostgres, db, migrations.Postgres,
		goose.WithDisableGlobalRegistry(true))
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("store: migrations: %w", err)
	}
	if _, err := s.Migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// plainOnLoopback returns location asking for no TLS (sslmode=disable) when it
// leaves TLS to the default and every host it names is this machine: a loopback
// address, localhost or a Unix socket. pgx's default, like libpq's, is "prefer",
// which encrypts whenever the server offers it (Debian's PostgreSQL does, with its
// own certificate), and on a connection that never leaves the machine encryption
// protects nothing while every round trip pays for it at both ends: a fifth to a
// third of an action's time with 100 tables acting at once. A location that names
// sslmode, ssl, a certificate or a service file, or a PGSSLMODE in the
// environment, is left as it is.
func plainOnLoopback(location string, cfg *pgx.ConnConfig) (string, bool) {
	if os.Getenv("PGSSLMODE") != "" || os.Getenv("PGSERVICE") != "" || strings.Contains(location, "#") {
		return "", false
	}
	u, err := url.Parse(location)
	if err != nil {
		return "", false
	}
	q := u.Query()
	for _, k := range []string{"sslmode", "ssl", "sslcert", "sslkey", "sslrootcert", "service", "servicefile"} {
		if q.Has(k) {
			return "", false
		}
	}
	hosts := []string{cfg.Host}
	for _, f := range cfg.Fallbacks {
		hosts = append(hosts, f.Host)
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); h != "localhost" && !strings.HasPrefix(h, "/") && (ip == nil || !ip.IsLoopback()) {
			return "", false
		}
	}
	if u.RawQuery == "" {
		return location + "?sslmode=disable", true
	}
	return location + "&sslmode=disable", true
}

// pgConns is how many connections a process keeps to PostgreSQL: enough for
// every table's goroutine to be inside a transaction at once on two cores;
// PostgreSQL allows 100 by default, shared by every process of the bot.
const pgConns = 16

// migrateLocked runs up while holding a PostgreSQL advisory lock named after
// the schema, so that several processes starting at once on one database
// migrate it one after the other, and processes in different schemas (tests)
// do not wait for each other.
func (s *Store) migrateLocked(ctx context.Context, up func(context.Context) error) error {
	conn, err := s.w.DB.Conn(ctx)
	if err != nil {
		return fmt.Errorf("store: migrate: %w", err)
	}
	defer conn.Close()
	const key = `hashtextextended('pontoon migrations ' || current_schema(), 0)`
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(`+key+`)`); err != nil {
		return fmt.Errorf("store: migrate: lock: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(`+key+`)`)
	return up(ctx)
}

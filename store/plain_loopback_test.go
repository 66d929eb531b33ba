package store

import (
	"context"
	"net/url"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
)

// A PostgreSQL URL that leaves TLS to the default connects without it when every
// host is this machine, and keeps whatever TLS it asks for otherwise.
func TestAPostgreSQLURLOnThisMachineConnectsWithoutTLSUnlessItAsks(t *testing.T) {
	t.Setenv("PGSSLMODE", "")
	t.Setenv("PGSERVICE", "")
	for _, c := range []struct {
		url, want string // want "" leaves the URL as it is
	}{
		{"postgres://u@127.0.0.1:5432/db", "postgres://u@127.0.0.1:5432/db?sslmode=disable"},
		{"postgres://u:p@localhost/db?search_path=s1", "postgres://u:p@localhost/db?search_path=s1&sslmode=disable"},
		{"postgresql://u@[::1]:5433/db", "postgresql://u@[::1]:5433/db?sslmode=disable"},
		{"postgres://u@127.0.0.1,127.0.0.2/db", "postgres://u@127.0.0.1,127.0.0.2/db?sslmode=disable"},
		{"postgres://u@db.example.com/db", ""},
		{"postgres://u@127.0.0.1,db.example.com/db", ""},
		{"postgres://u@10.0.0.5/db", ""},
		{"postgres://u@127.0.0.1/db?sslmode=require", ""},
		{"postgres://u@127.0.0.1/db?sslmode=prefer", ""},
		{"postgres://u@127.0.0.1/db?ssl=true", ""},
	} {
		cfg, err := pgx.ParseConfig(c.url)
		require.NoError(t, err, c.url)
		got, ok := plainOnLoopback(c.url, cfg)
		require.Equal(t, c.want != "", ok, c.url)
		require.Equal(t, c.want, got, c.url)
	}
	t.Setenv("PGSSLMODE", "require")
	cfg, err := pgx.ParseConfig("postgres://u@127.0.0.1/db")
	require.NoError(t, err)
	_, ok := plainOnLoopback("postgres://u@127.0.0.1/db", cfg)
	require.False(t, ok, "PGSSLMODE in the environment is the operator's choice")
}

// The store's own connections to a PostgreSQL on this machine carry no TLS.
func TestTheStoresConnectionsToPostgreSQLOnThisMachineCarryNoTLS(t *testing.T) {
	s := postgresBackend.open(t)
	// The tests' server is on this machine wherever they run (.ci/run starts it).
	u, err := url.Parse(s.path)
	require.NoError(t, err)
	require.Contains(t, []string{"127.0.0.1", "localhost", "::1"}, u.Hostname())
	var ssl bool
	require.NoError(t, s.r.QueryRowContext(context.Background(),
		`SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()`).Scan(&ssl))
	require.False(t, ssl)
}

package store

import (
	"context"
	"database/sql"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/store/storetest"
)

// t0 is the tests' clock start; tests pass times explicitly.
var t0 = time.Date(2025, 3, 14, 15, 9, 26, 535897932, time.UTC)

// openTest opens a store on a fresh SQLite file in t.TempDir() and closes it
// with the test, after checking the books balance. Tests that hold for both
// engines use eachBackend and b.open instead.
func openTest(t testing.TB) *Store {
	t.Helper()
	return sqliteBackend.open(t)
}

// backend is a database engine the store's tests run against.
type backend struct {
	name string
	// location returns a fresh, empty database for Open, removed when the
	// test ends: a file in t.TempDir(), or a PostgreSQL schema of its own.
	location func(t testing.TB) string
}

var (
	sqliteBackend   = backend{name: "sqlite", location: storetest.SQLitePath}
	postgresBackend = backend{name: "postgres", location: storetest.PostgresURL}
	backends        = []backend{sqliteBackend, postgresBackend}
)

// eachBackend runs f as a subtest per engine: t.Run("sqlite"), t.Run("postgres").
func eachBackend(t *testing.T, f func(t *testing.T, b backend)) {
	t.Helper()
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { f(t, b) })
	}
}

// eachBackendB is eachBackend for benchmarks.
func eachBackendB(b *testing.B, f func(b *testing.B, be backend)) {
	b.Helper()
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) { f(b, be) })
	}
}

// open opens a store on a fresh database and closes it with the test, after
// checking the books balance.
func (b backend) open(t testing.TB, opts ...Option) *Store {
	t.Helper()
	s, err := Open(context.Background(), b.location(t), opts...)
	require.NoError(t, err)
	t.Cleanup(func() {
		rep, err := s.Audit(context.Background())
		if err == nil && !rep.OK() {
			t.Errorf("audit at close:\n%s", rep)
		}
		require.NoError(t, s.Close())
	})
	return s
}

// balanceOf reads an account's balance outside any method (0 if missing).
func balanceOf(t testing.TB, s *Store, guild, account string) int64 {
	t.Helper()
	var b int64
	err := s.r.QueryRow(`SELECT balance FROM accounts WHERE guild_id = ? AND account = ?`, guild, account).Scan(&b)
	if err == sql.ErrNoRows {
		return 0
	}
	require.NoError(t, err)
	return b
}

// count returns the number of rows of a table.
func count(t testing.TB, s *Store, table string) int {
	t.Helper()
	var n int
	require.NoError(t, s.r.QueryRow(`SELECT count(*) FROM `+table).Scan(&n))
	return n
}

// requireAudit fails the test if the books do not balance.
func requireAudit(t testing.TB, s *Store) {
	t.Helper()
	rep, err := s.Audit(context.Background())
	require.NoError(t, err)
	require.True(t, rep.OK(), "%s", rep)
}

// wallets creates wallets with starting chips for members of guild.
func wallets(t testing.TB, s *Store, guild string, starting int64, members ...string) {
	t.Helper()
	for i, m := range members {
		_, _, err := s.EnsureWallet(context.Background(), guild, m, starting, t0.Add(time.Duration(i)*time.Second))
		require.NoError(t, err)
	}
}

// openTableWithRound opens a table in channel, seats members and starts round 1.
func openTableWithRound(t testing.TB, s *Store, guild, channel string, members ...string) (Table, Round) {
	t.Helper()
	ctx := context.Background()
	tb, err := s.OpenTable(ctx, OpenTableParams{Guild: guild, Channel: channel, Host: members[0],
		Rules: `{"variant":"classic"}`, BankOwner: members[0], Now: t0})
	require.NoError(t, err)
	require.NoError(t, s.SetSeats(ctx, tb.ID, members, t0))
	r, err := s.StartRound(ctx, StartRoundParams{TableID: tb.ID, Number: 1, History: `{"format":"pontoon-history/1"}`,
		Commitment: "c0ffee", Salt: "salt", Now: t0})
	require.NoError(t, err)
	return tb, r
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// atOnce runs f(0) … f(n-1) each in its own goroutine, as that many processes or clicks
// would at the same moment, and returns what each returned.
func atOnce(n int, f func(i int) error) []error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = f(i)
		}()
	}
	wg.Wait()
	return errs
}

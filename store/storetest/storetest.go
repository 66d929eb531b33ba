// Package storetest gives tests a database of their own on either engine the
// store supports: a SQLite file in t.TempDir(), or a fresh schema on the
// test PostgreSQL server, dropped when the test ends. Any package's tests can
// use it (the store's own, the binary's, a bot test that runs two processes
// on one PostgreSQL).
//
//	url := storetest.PostgresURL(t) // postgres://...?search_path=pontoon_test_...
//	st, err := store.Open(ctx, url)
//
// The server is PONTOON_TEST_POSTGRES_URL, by default the machine's
// postgres://postgres@127.0.0.1:5432/test (what .ci/run starts). When it is
// unreachable the test is skipped, after one line on stderr saying so, unless
// the CI variable is set: then it fails, because CI must test both engines.
package storetest

import (
	"cmp"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	// The driver registers itself as "pgx".
	_ "github.com/jackc/pgx/v5/stdlib"
)

// Env names the PostgreSQL database the tests use.
const Env = "PONTOON_TEST_POSTGRES_URL"

// DefaultURL is the machine's PostgreSQL 15 with trust auth.
const DefaultURL = "postgres://postgres@127.0.0.1:5432/test"

var (
	once  sync.Once
	admin *sql.DB
	err   error
	base  string
)

// PostgresURL creates a schema for the test on the test server and returns
// the URL that selects it (search_path). The schema is dropped, with
// everything in it, when the test ends.
func PostgresURL(t testing.TB) string {
	t.Helper()
	once.Do(connect)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set and PostgreSQL at %s is unreachable: %v", redact(base), err)
		}
		t.SkipNow()
	}
	var buf [8]byte
	_, _ = rand.Read(buf[:])
	schema := "pontoon_test_" + hex.EncodeToString(buf[:])
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatalf("storetest: create schema: %v", err)
	}
	t.Cleanup(func() {
		if _, err := admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`); err != nil {
			t.Errorf("storetest: drop schema %s: %v", schema, err)
		}
	})
	u, perr := url.Parse(base)
	if perr != nil {
		t.Fatalf("storetest: %s: %v", Env, perr)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// SQLitePath returns a fresh SQLite file name in t.TempDir().
func SQLitePath(t testing.TB) string {
	t.Helper()
	return t.TempDir() + "/pontoon.db"
}

func connect() {
	base = cmp.Or(os.Getenv(Env), DefaultURL)
	admin, err = sql.Open("pgx", base)
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err = admin.PingContext(ctx)
	}
	if err != nil && os.Getenv("CI") == "" {
		fmt.Fprintf(os.Stderr, "storetest: PostgreSQL at %s is unreachable (%v): skipping the PostgreSQL tests; start it or set %s\n",
			redact(base), err, Env)
	}
}

func redact(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}

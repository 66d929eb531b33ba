package migrations

import (
	"io/fs"
	"slices"
	"testing"
)

// TestMigrationsPaired: every SQLite migration has its PostgreSQL twin of the
// same name and the other way round, so that both engines reach the same
// schema version and `pontoon copy` can move a database from one to the
// other.
func TestMigrationsPaired(t *testing.T) {
	lite, err := fs.Glob(FS, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	pg, err := fs.Glob(Postgres, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	if len(lite) == 0 {
		t.Fatal("no SQLite migrations embedded")
	}
	for _, n := range lite {
		if !slices.Contains(pg, n) {
			t.Errorf("migrations/%s has no PostgreSQL twin: add migrations/postgres/%s", n, n)
		}
	}
	for _, n := range pg {
		if !slices.Contains(lite, n) {
			t.Errorf("migrations/postgres/%s has no SQLite twin: add migrations/%s", n, n)
		}
	}
}

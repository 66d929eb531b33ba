package migrations

import (
	"embed"
	"io/fs"
)

// FS holds the SQLite migrations at its root, named NNNNN_description.sql.
//
//go:embed *.sql
var FS embed.FS

//go:embed postgres/*.sql
var postgresFS embed.FS

// Postgres holds the PostgreSQL migrations at its root: for every file of FS
// the file of the same name, in PostgreSQL's SQL.
var Postgres fs.FS

func init() {
	sub, err := fs.Sub(postgresFS, "postgres")
	if err != nil {
		panic(err) // the directory is embedded above; this cannot happen
	}
	Postgres = sub
}

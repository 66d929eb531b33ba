package migrations

import "embed"

// FS holds every migration file at its root, named NNNNN_description.sql.
//
//go:embed *.sql
var FS embed.FS

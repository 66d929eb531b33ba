package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/pontoon-bot/pontoon/config"
	"github.com/pontoon-bot/pontoon/store"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newMigrateCmd, newAuditCmd, newBackupCmd) }

func newMigrateCmd(stdout, stderr io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "migrate",
		Short: "Create or upgrade the database and print its schema version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// Opening the store applies every pending migration.
			return withStore(stderr, func(ctx context.Context, _ config.Config, st *store.Store) error {
				v, err := st.Version(ctx)
				if err != nil {
					fmt.Fprintln(stderr, err)
					return exitError{1}
				}
				fmt.Fprintf(stdout, "%s: schema version %d\n", st.Path(), v)
				return nil
			})
		},
	}
}

func newAuditCmd(stdout, stderr io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "audit [FILE]",
		Short: "Check that chips are conserved: print each server's totals; exit 1 if anything is off",
		Long: "Audits the configured database, or FILE (a copy made by pontoon backup) when given.\n" +
			"Exit status 0 when every server's chips are conserved, 1 otherwise.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withExistingStore(stderr, "audit", args, func(ctx context.Context, _ config.Config, st *store.Store) error {
				rep, err := st.Audit(ctx)
				if err != nil {
					fmt.Fprintln(stderr, err)
					return exitError{1}
				}
				fmt.Fprint(stdout, rep.String())
				if !rep.OK() {
					return exitError{1}
				}
				return nil
			})
		},
	}
}

func newBackupCmd(stdout, stderr io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "backup FILE",
		Short: "Write a consistent copy of the database to FILE (a new file) while the bot serves",
		Long: "Copies the configured database to FILE, which must not exist, as of one moment, without\n" +
			"stopping the bot, and checks the copy's integrity. Check its chips with pontoon audit FILE;\n" +
			"restore it by stopping the bot and putting FILE in place of the database (README: Operations).\n" +
			"SQLite only: on PostgreSQL (database.url) it refuses; use pg_dump there.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withExistingStore(stderr, "backup", nil, func(ctx context.Context, _ config.Config, st *store.Store) error {
				if err := st.Backup(ctx, args[0]); err != nil {
					fmt.Fprintln(stderr, err)
					return exitError{1}
				}
				fmt.Fprintf(stdout, "%s: backed up to %s\n", st.Path(), args[0])
				return nil
			})
		},
	}
}

// withStore loads the configuration (no token needed), opens the database it
// names (database.url, else database.path), creating a missing SQLite file, and
// runs f.
func withStore(stderr io.Writer, f func(context.Context, config.Config, *store.Store) error) error {
	cfg, err := loadDatabaseConfig(stderr)
	if err != nil {
		return err
	}
	return runOn(stderr, cfg, "", f)
}

// withExistingStore is withStore for a command that reads a database (cmd names it):
// the SQLite file args names, if any, instead of the configured database, and a SQLite
// file that does not exist is refused instead of created, which would make an empty
// database and find nothing wrong in it.
func withExistingStore(stderr io.Writer, cmd string, args []string, f func(context.Context, config.Config, *store.Store) error) error {
	cfg, err := loadDatabaseConfig(stderr)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		if cfg.Database.URL == "" {
			if err := existingDatabase(cfg.Database.Path); err != nil {
				fmt.Fprintf(stderr, "%s: database.path %v; set %s or database.path to the bot's database\n",
					cmd, err, config.EnvName("database.path"))
				return exitError{1}
			}
		}
		return runOn(stderr, cfg, "", f)
	}
	file := args[0]
	if err := existingDatabase(file); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
		return exitError{1}
	}
	scratch, cleanup, err := scratchCopy(file)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
		return exitError{1}
	}
	defer cleanup()
	// The file named wins over database.url as well as database.path.
	cfg.Database.Path, cfg.Database.URL = scratch, ""
	return runOn(stderr, cfg, file, f)
}

// loadDatabaseConfig loads the configuration for a command that needs the database
// alone (no token), checks its database keys, and warns of each PONTOON_ variable
// that no setting reads.
func loadDatabaseConfig(stderr io.Writer) (config.Config, error) {
	cfg, err := loadConfig(stderr, false)
	if err != nil {
		return cfg, err
	}
	if err := cfg.Database.Validate(); err != nil {
		fmt.Fprintln(stderr, err)
		return cfg, exitError{2}
	}
	for _, w := range config.UnknownEnv(nil) {
		fmt.Fprintln(stderr, "config: warning: "+w)
	}
	return cfg, nil
}

// runOn opens the database cfg names and runs f on it. When the database is a scratch
// copy of the operator's file shown, an error names that file instead of the copy.
func runOn(stderr io.Writer, cfg config.Config, shown string, f func(context.Context, config.Config, *store.Store) error) error {
	ctx := context.Background()
	st, err := openStore(ctx, cfg.Database)
	if err != nil {
		msg := err.Error()
		if shown != "" {
			msg = strings.ReplaceAll(msg, cfg.Database.Path, shown)
		}
		fmt.Fprintln(stderr, msg)
		return exitError{1}
	}
	defer st.Close()
	return f(ctx, cfg, st)
}

// existingDatabase says why the SQLite file at path cannot be a database to read, or
// returns nil. The error names path.
func existingDatabase(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s does not exist", path)
	case err != nil:
		return err
	case fi.IsDir():
		return fmt.Errorf("%s is a directory, not a database file", path)
	case fi.Size() == 0:
		return fmt.Errorf("%s is empty, not a database", path)
	}
	return nil
}

// openStore opens the configured database: PostgreSQL when database.url is
// set, else the SQLite file; opts add to the configured ones.
func openStore(ctx context.Context, db config.Database, opts ...store.Option) (*store.Store, error) {
	return store.Open(ctx, db.Location(), append([]store.Option{store.Synchronous(db.Synchronous)}, opts...)...)
}

// scratchCopy copies a database file (a backup), and its -wal if it has one, into a
// temporary directory, so that checking it never changes it: opening a database applies
// pending migrations and switches it to WAL mode.
func scratchCopy(path string) (scratch string, cleanup func(), err error) {
	dir, err := os.MkdirTemp("", "pontoon-audit-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { _ = os.RemoveAll(dir) }
	scratch = filepath.Join(dir, "audit.db")
	for _, suffix := range []string{"", "-wal"} {
		err := copyFile(path+suffix, scratch+suffix)
		if suffix != "" && errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			cleanup()
			return "", nil, err
		}
	}
	return scratch, cleanup, nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

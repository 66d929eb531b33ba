package main

import (
	"context"
	"fmt"
	"io"

	"github.com/pontoon-bot/pontoon/config"
	"github.com/pontoon-bot/pontoon/store"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newMigrateCmd, newAuditCmd) }

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
		Use:   "audit",
		Short: "Check that chips are conserved: print each server's totals; exit 1 if anything is off",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withStore(stderr, func(ctx context.Context, _ config.Config, st *store.Store) error {
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

// withStore loads the configuration (no token needed), opens the database it
// names (database.url, else database.path) and runs f.
func withStore(stderr io.Writer, f func(context.Context, config.Config, *store.Store) error) error {
	cfg, err := loadConfig(stderr, false)
	if err != nil {
		return err
	}
	if err := cfg.Database.Validate(); err != nil {
		fmt.Fprintln(stderr, err)
		return exitError{2}
	}
	ctx := context.Background()
	st, err := openStore(ctx, cfg.Database)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitError{1}
	}
	defer st.Close()
	return f(ctx, cfg, st)
}

// openStore opens the configured database: PostgreSQL when database.url is
// set, else the SQLite file.
func openStore(ctx context.Context, db config.Database) (*store.Store, error) {
	return store.Open(ctx, db.Location(), store.Synchronous(db.Synchronous))
}

package main

import (
	"context"
	"fmt"
	"io"

	"github.com/pontoon-bot/pontoon/store"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newCopyCmd) }

func newCopyCmd(stdout, stderr io.Writer) *cobra.Command {
	var from, to string
	cmd := &cobra.Command{
		Use:   "copy --from FILE --to postgres://...",
		Short: "Move the whole economy (wallets, ledger, tables, rounds, settings) into an empty database; audit both ends",
		Long: `copy moves everything the bot keeps, from the SQLite file --from into the
empty database --to (a postgres:// URL, or another SQLite file), keeping every
id, in one transaction, then audits both ends and exits 1 unless they balance
and hold the same chips. Stop the bot first. --to is migrated first; a
destination that holds anything is refused.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if from == "" || to == "" {
				fmt.Fprintln(stderr, "copy: give both --from FILE and --to postgres://user:password@host:5432/database")
				return exitError{2}
			}
			if store.IsPostgres(from) {
				fmt.Fprintln(stderr, "copy: --from is the SQLite file the bot ran on")
				return exitError{2}
			}
			if !store.IsPostgres(to) && store.RedactLocation(to) != to {
				// A key=value connection string (host=… password=…) would be taken for
				// a SQLite file's name, created, and shown, password and all.
				fmt.Fprintln(stderr, "copy: --to holds a password but is not a postgres:// URL; give postgres://user:password@host:5432/database")
				return exitError{2}
			}
			// Opening a missing file would create it: an empty source copies nothing
			// and the two empty ends would audit as equal.
			if err := existingDatabase(from); err != nil {
				fmt.Fprintf(stderr, "copy: --from %v: give the SQLite file the bot ran on (its database.path)\n", err)
				return exitError{1}
			}
			ctx := context.Background()
			src, err := store.Open(ctx, from)
			if err != nil {
				fmt.Fprintln(stderr, err)
				return exitError{1}
			}
			defer src.Close()
			dst, err := store.Open(ctx, to)
			if err != nil {
				fmt.Fprintln(stderr, err) // names the URL without its password
				return exitError{1}
			}
			defer dst.Close()
			rep, err := store.Copy(ctx, dst, src)
			if err != nil {
				fmt.Fprintln(stderr, err)
				return exitError{1}
			}
			fmt.Fprintf(stdout, "from %s to %s\n", src.Path(), dst.Path())
			fmt.Fprint(stdout, rep.String())
			if !rep.OK() {
				return exitError{1}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&from, "from", "", "the SQLite file to copy from")
	cmd.Flags().StringVar(&to, "to", "", "the empty database to copy to: postgres://user:password@host:5432/database")
	return cmd
}

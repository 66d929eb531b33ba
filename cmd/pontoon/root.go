package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// exitError carries an exit status out of a subcommand that has already printed its message.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// Main runs the command line with the given streams and returns the exit status, so
// tests can run the whole program in-process as well as through the built binary.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	var ee exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.code
	default:
		fmt.Fprintln(stderr, err)
		return 2
	}
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "pontoon",
		Short:         "Pontoon and Shoot Pontoon tables for Discord",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	for _, c := range subcommands {
		root.AddCommand(c(stdout, stderr))
	}
	root.PersistentFlags().StringVar(&configFlag, "config", "", "configuration file (default: config.yaml in the working directory, if present)")
	// serve is the default: `pontoon` alone runs the bot.
	root.Args = cobra.NoArgs
	root.RunE = func(cmd *cobra.Command, _ []string) error { return serve(cmd.Context(), stderr) }
	return root
}

// subcommands are registered by each subcommand's file, so wiring stays in one place per command.
var subcommands []func(stdout, stderr io.Writer) *cobra.Command

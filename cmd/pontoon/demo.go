package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/pontoon-bot/pontoon/bot/demo"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newDemoCmd) }

func newDemoCmd(stdout, stderr io.Writer) *cobra.Command {
	var (
		listen string
		noOpen bool
	)
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Play a table in the browser with no Discord: the bot, a fake Discord and the page in one process",
		Long: "Runs the bot against a fake Discord on this machine, with a throwaway database, and serves the\n" +
			"table's page with the fake channel beside it. A scripted Dealer opens a table and holds the bank;\n" +
			"\"Add a player\" seats scripted players. Open the page as ?user=NAME, one name per tab, to play as\n" +
			"several members. Nothing is kept: the database is removed when the demo stops (Ctrl-C).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runDemo(cmd.Context(), listen, noOpen, stdout, stderr)
		},
	}
	cmd.Flags().StringVar(&listen, "listen", "127.0.0.1:8080", "the page's address, host:port (port 0 takes a free one)")
	cmd.Flags().BoolVar(&noOpen, "no-open", false, "print the page's address without opening a browser")
	return cmd
}

// runDemo wires a temporary directory to the demo's stack (package bot/demo) and runs
// it until SIGINT or SIGTERM.
func runDemo(parent context.Context, listen string, noOpen bool, stdout, stderr io.Writer) error {
	if parent == nil {
		parent = context.Background()
	}
	ctx, stop := signal.NotifyContext(parent, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	dir, err := os.MkdirTemp("", "pontoon-demo-")
	if err != nil {
		fmt.Fprintln(stderr, "demo:", err)
		return exitError{1}
	}
	defer os.RemoveAll(dir)
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	s, err := demo.OpenStack(ctx, demo.StackConfig{Dir: dir, Listen: listen, Bankroll: 9000, Log: log,
		// No spec ships with the binary, and the demo's own requests need no second check.
		Fake: []discordtest.Option{discordtest.WithoutOpenAPI()}})
	if err != nil {
		fmt.Fprintln(stderr, "demo:", err)
		return exitError{1}
	}
	defer s.Close()
	fmt.Fprintf(stdout, "Pontoon demo at %s\n", s.URL)
	fmt.Fprintf(stdout, "Play as a member of your choosing: %s?user=NAME (another name in another tab is another player).\n", s.URL)
	fmt.Fprintln(stdout, "Stop with Ctrl-C; the demo's database is removed.")
	if !noOpen {
		if err := openBrowser(s.URL); err != nil {
			fmt.Fprintf(stdout, "No browser opened (%v): open the address above.\n", err)
		}
	}
	<-ctx.Done()
	fmt.Fprintln(stdout, "Stopping the demo.")
	return nil
}

// openBrowser asks the desktop to open url: xdg-open, or open on macOS.
func openBrowser(url string) error {
	name := "xdg-open"
	if runtime.GOOS == "darwin" {
		name = "open"
	}
	cmd := exec.Command(name, url)
	if err := cmd.Start(); err != nil {
		return err
	}
	// The opener hands the address to the browser and exits; reap it.
	go func() { _ = cmd.Wait() }()
	return nil
}

package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/pontoon-bot/pontoon/config"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newHealthcheckCmd) }

// newHealthcheckCmd asks a running bot's admin listener how it is, for Docker's
// HEALTHCHECK and compose: the runtime image has no shell and no curl, only this binary.
func newHealthcheckCmd(stdout, stderr io.Writer) *cobra.Command {
	var ready bool
	var timeout time.Duration
	c := &cobra.Command{
		Use:   "healthcheck",
		Short: "Ask the running bot's admin listener whether it is healthy; exit 0 if so, 1 if not",
		Long: "Sends GET /healthz (with --ready, /readyz: the database answers and the gateway or the\n" +
			"interactions endpoint is up) to the admin listener at admin.listen, with admin.token\n" +
			"when it is set, and prints one line. Exit status 0 when the answer is 200, 1 otherwise.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			line, ok := healthcheck(cmd.Context(), ready, timeout)
			if !ok {
				fmt.Fprintln(stderr, "unhealthy: "+line)
				return exitError{1} // Docker reads 1 as unhealthy; it reserves 2
			}
			fmt.Fprintln(stdout, "healthy: "+line)
			return nil
		},
	}
	c.Flags().BoolVar(&ready, "ready", false, "check readiness (/readyz) instead of liveness (/healthz)")
	c.Flags().DurationVar(&timeout, "timeout", 5*time.Second, "how long to wait for the answer")
	return c
}

// healthcheck asks the admin listener and describes its answer in one line.
func healthcheck(ctx context.Context, ready bool, timeout time.Duration) (line string, ok bool) {
	cfg, err := config.Load(configFlag, nil)
	if err == nil {
		err = cfg.Admin.Validate()
	}
	if err != nil {
		return healthText(err.Error()), false
	}
	if cfg.Admin.Listen == "" {
		return "admin.listen is empty, so there is no admin listener to ask; set " + config.EnvName("admin.listen") +
			" such as 127.0.0.1:9464", false
	}
	path := "/healthz"
	if ready {
		path = "/readyz"
	}
	url := "http://" + dialAddr(cfg.Admin.Listen) + path
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return healthText(err.Error()), false
	}
	if t := cfg.Admin.Token.Reveal(); t != "" {
		req.Header.Set("Authorization", "Bearer "+t)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return healthText(err.Error()), false
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	line = fmt.Sprintf("GET %s: %s: %s", url, resp.Status, healthText(string(body)))
	return line, resp.StatusCode == http.StatusOK
}

// dialAddr is where a client on this machine reaches a listener on addr: an empty or
// unspecified host (":9464", "0.0.0.0:9464") listens on every interface, loopback
// included.
func dialAddr(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
		if ip != nil && ip.To4() == nil {
			host = "::1"
		}
	}
	return net.JoinHostPort(host, port)
}

// healthText is s on one line, as a health check reports.
func healthText(s string) string { return strings.Join(strings.Fields(s), " ") }

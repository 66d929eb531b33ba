package discordtest_test

import (
	"net/http"
	"testing"

	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/stretchr/testify/require"
)

// Standalone runs the fake outside a test: it serves until stopped, and what New
// would fail a test for comes back as an error.
func TestStandalone(t *testing.T) {
	srv, stop, err := discordtest.Standalone(nil, discordtest.WithoutOpenAPI())
	require.NoError(t, err)
	resp, err := http.Get(srv.URL() + "/api/v9/gateway")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode, "the fake answers, and wants the token")
	stop()
	_, err = http.Get(srv.URL() + "/api/v9/gateway")
	require.Error(t, err, "stopped")

	_, _, err = discordtest.Standalone(nil, discordtest.WithHeartbeatInterval(0))
	require.ErrorContains(t, err, "heartbeat interval must be positive")
}

package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/bot/logging/logtest"
	"github.com/pontoon-bot/pontoon/store/storetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Two shard processes of one application (max_concurrency 1: one rate-limit bucket)
// started at the same moment, as a fleet restart does, pace their identifies through
// the PostgreSQL they share: neither identifies within the other's window, so Discord
// answers neither with op 9, and both get ready.
func TestShardProcessesPaceTheirIdentifies(t *testing.T) {
	url := storetest.PostgresURL(t)
	bin := sharedBinary(t)
	fake := discordtest.New(t, discordtest.WithToken(token), discordtest.WithShards(2, 1), discordtest.WithIdentifyWindow(time.Second))
	base := append(os.Environ(), "PONTOON_DISCORD_TOKEN="+token, "PONTOON_DISCORD_API_URL="+fake.URL(),
		"PONTOON_DATABASE_URL="+url, "PONTOON_LOG_FORMAT=json", "PONTOON_DISCORD_SHARD_COUNT=2")
	// The schema first, so that the two processes do not race to migrate it.
	migrate := exec.Command(bin, "migrate")
	migrate.Env = base
	out, err := migrate.CombinedOutput()
	require.NoError(t, err, string(out))

	var procs []*serveProcess
	for s := range 2 {
		cmd := exec.Command(bin)
		cmd.Env = append(base[:len(base):len(base)], fmt.Sprintf("PONTOON_DISCORD_SHARD_ID=%d", s))
		logs := &logtest.Buffer{}
		cmd.Stdout, cmd.Stderr = logs, logs
		require.NoError(t, cmd.Start())
		procs = append(procs, &serveProcess{cmd: cmd, logs: logs})
	}
	for i, p := range procs {
		require.Eventually(t, func() bool { return strings.Contains(p.logs.String(), "pontoon bot ready") },
			30*time.Second, 20*time.Millisecond, "shard %d never got ready: %s", i, p.logs.String())
	}
	assert.Zero(t, fake.TooFastIdentifies(), "an identify came within the bucket's window")
	assert.Len(t, fake.Sessions(), 2)
	for _, p := range procs {
		stopServe(t, p)
	}
	assert.Empty(t, fake.Failures())
}

package bot

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/pontoon-bot/pontoon/store"
	"github.com/pontoon-bot/pontoon/store/storetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// HTTP interactions share the tables (leases, interaction ids in the store) only over a
// database several replicas can reach: over SQLite the process owns its tables, as over
// the gateway; over PostgreSQL it is one of the replicas. The gateway never shares.
func TestOnlyReplicasOnPostgresShareTables(t *testing.T) {
	ctx := context.Background()
	lite, err := store.Open(ctx, filepath.Join(t.TempDir(), "pontoon.db"))
	require.NoError(t, err)
	defer lite.Close()
	pg, err := store.Open(ctx, storetest.PostgresURL(t))
	require.NoError(t, err)
	defer pg.Close()

	assert.Nil(t, sharedStore(lite, Scale{HTTP: true}), "HTTP over SQLite: one process")
	assert.NotNil(t, sharedStore(pg, Scale{HTTP: true}), "HTTP over PostgreSQL: replicas")
	assert.Nil(t, sharedStore(pg, Scale{ShardCount: 2, ShardID: 1}), "shards never share a table")
}

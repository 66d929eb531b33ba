package store

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What a table message was drawn from is kept for that message only: a new message
// (a repost) starts unknown, and a late record about the old one changes nothing.
func TestTableDrawnBelongsToItsMessage(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		ctx := context.Background()
		s := bk.open(t)
		tb, err := s.OpenTable(ctx, OpenTableParams{Guild: "g", Channel: "c", Host: "alice", Now: t0})
		require.NoError(t, err)
		require.NoError(t, s.SetTableMessage(ctx, tb.ID, "m-1"))
		d, err := s.TableDrawn(ctx, tb.ID, "m-1")
		require.NoError(t, err)
		assert.Empty(t, d, "nothing drawn yet")

		require.NoError(t, s.SetTablesDrawn(ctx, []TableDrawn{{TableID: tb.ID, MessageID: "m-1", Drawn: "d1"}}))
		d, err = s.TableDrawn(ctx, tb.ID, "m-1")
		require.NoError(t, err)
		assert.Equal(t, "d1", d)

		require.NoError(t, s.SetTableMessage(ctx, tb.ID, "m-2"))
		d, err = s.TableDrawn(ctx, tb.ID, "m-2")
		require.NoError(t, err)
		assert.Empty(t, d, "a new message starts unknown")
		require.NoError(t, s.SetTablesDrawn(ctx, []TableDrawn{{TableID: tb.ID, MessageID: "m-1", Drawn: "late"}}))
		d, err = s.TableDrawn(ctx, tb.ID, "m-2")
		require.NoError(t, err)
		assert.Empty(t, d, "a record about the old message changes nothing")

		assert.Error(t, s.SetTablesDrawn(ctx, []TableDrawn{{TableID: tb.ID, MessageID: "m-2"}}))
	})
}

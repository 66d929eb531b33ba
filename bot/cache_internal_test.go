package bot

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// boundedBot is a bot over a fresh SQLite store whose caches keep size entries; it is
// never started: the caches are exercised directly.
func boundedBot(t *testing.T, size int) *Bot {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "pontoon.db"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	b, err := New(st, Options{Token: "test-token", CacheEntries: size})
	require.NoError(t, err)
	return b
}

// Members' languages past the cache's size: the cache stays at its size, and every
// member is still answered in their own language, read again from the store when the
// cache let it go.
func TestMemberLanguagesStayBoundedAndRight(t *testing.T) {
	b := boundedBot(t, 3)
	ctx := context.Background()
	langs := []string{"pl", "id", "su", "pt-BR", "en"}
	member := func(i int) string { return fmt.Sprintf("30000000000000%04d", i) }
	for i := range 20 {
		require.NoError(t, b.mlang.set(ctx, "1", member(i), langs[i%len(langs)], time.Now()))
		assert.LessOrEqual(t, b.mlang.cache.Len(), 3)
	}
	for i := range 20 {
		assert.Equal(t, langs[i%len(langs)], b.mlang.get(ctx, "1", member(i)), "member %d", i)
		assert.LessOrEqual(t, b.mlang.cache.Len(), 3)
	}
}

// Members' names past the cache's size: the cache stays at its size and keeps the names
// seen last, which the picture shows; a name it let go is shown as the picture shows an
// unknown member's until it is had again (names.go).
func TestMemberNamesStayBounded(t *testing.T) {
	b := boundedBot(t, 3)
	for i := range 10 {
		id := fmt.Sprintf("30000000000000%04d", i)
		b.noteName(&discordgo.Interaction{GuildID: "1", Member: &discordgo.Member{Nick: "nick" + id[len(id)-2:],
			User: &discordgo.User{ID: id, Username: "user" + id[len(id)-2:]}}})
		assert.LessOrEqual(t, b.names.Len(), 3)
	}
	names := b.memberName("1", "")
	name, user, ok := names("300000000000000009")
	require.True(t, ok, "a name seen last is kept")
	assert.Equal(t, [2]string{"nick09", "user09"}, [2]string{name, user})
	_, _, ok = names("300000000000000000")
	assert.False(t, ok, "the least recently seen went")
}

// Tables' pictures past the cache's size: the cache stays at its size, and a table it let
// go is drawn as after a restart (its message not known to hold a picture).
func TestPictureStatesStayBounded(t *testing.T) {
	b := boundedBot(t, 3)
	for id := range int64(10) {
		b.pics.put(id, picState{message: "m", moment: "deal", shown: true, known: true})
		assert.LessOrEqual(t, b.pics.m.Len(), 3)
	}
	assert.True(t, b.pics.get(9, "m").shown)
	assert.Equal(t, picState{message: "m"}, b.pics.get(0, "m"), "let go: nothing known of its message")
}

// Servers' odds budgets past the cache's size stay bounded, and a server seen recently
// keeps its count.
func TestOddsBudgetsStayBounded(t *testing.T) {
	g := newOddsGate(1, 3)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for i := range 10 {
		ok, _ := g.take(fmt.Sprint(i), now)
		assert.True(t, ok)
		assert.LessOrEqual(t, g.budgets.Len(), 3)
	}
	ok, again := g.take("9", now.Add(time.Minute))
	assert.False(t, ok, "server 9 has used its hour")
	assert.Equal(t, now.Add(time.Hour), again)
	ok, _ = g.take("9", now.Add(time.Hour))
	assert.True(t, ok, "a new hour")
}

// Servers' settings and locales past the cache's size: the caches stay at their size,
// and every server's public language is still its own setting, read again from the
// store when the cache let it go.
func TestServerSettingsStayBoundedAndRight(t *testing.T) {
	b := boundedBot(t, 3)
	ctx := context.Background()
	langs := []string{"pl", "id", "su", "pt-BR", "en"}
	guild := func(i int) string { return fmt.Sprintf("10000000000000%04d", i) }
	for i := range 12 {
		require.NoError(t, b.lang.set(ctx, guild(i), guildSettings{Language: langs[i%len(langs)]}, time.Now()))
		b.lang.public(ctx, guild(i), "de")
		assert.LessOrEqual(t, b.lang.settings.Len(), 3)
		assert.LessOrEqual(t, b.lang.locales.Len(), 3)
	}
	for i := range 12 {
		assert.Equal(t, langs[i%len(langs)], b.lang.public(ctx, guild(i), ""), "server %d", i)
		assert.LessOrEqual(t, b.lang.settings.Len(), 3)
	}
}

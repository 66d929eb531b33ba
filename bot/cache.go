package bot

import lru "github.com/hashicorp/golang-lru/v2"

// newCache is one of the bot's in-memory caches (members' names and languages, the
// members Discord said it does not know, servers' settings, locales and odds budgets,
// tables' pictures, fair-price hints): it keeps the size entries used most recently and
// lets the least recently used go, so ever more members, servers or tables cannot grow
// the process. What one lets go is had again from the store, from Discord or a new
// render; a server's odds budget let go starts a fresh hour.
func newCache[K comparable, V any](size int) *lru.Cache[K, V] {
	c, err := lru.New[K, V](max(size, 1))
	if err != nil {
		panic(err) // lru.New fails only for a size below 1
	}
	return c
}

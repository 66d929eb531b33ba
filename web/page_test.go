package web

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/pontoon-bot/pontoon/bot/i18n"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The page's own files, the ones a browser loads first.
var firstLoad = []string{"index.html", "app.js", "channel.js", "felt.css", "vendor/discord-sdk.js"}

func TestFilesAreRootedAtThePage(t *testing.T) {
	for _, name := range append(firstLoad, "vendor/LICENSES.txt") {
		b, err := fs.ReadFile(Files, name)
		require.NoError(t, err, name)
		assert.NotEmpty(t, b, name)
	}
	_, err := fs.Stat(Files, "static")
	assert.ErrorIs(t, err, fs.ErrNotExist, "Files starts inside static/")
	index, err := fs.ReadFile(Files, "index.html")
	require.NoError(t, err)
	assert.Contains(t, string(index), `href="felt.css"`)
	assert.Contains(t, string(index), `src="app.js"`)
}

// Discord's proxy lets an Activity reach only its own mapped host, and the demo runs
// offline, so the page names no other host: no script, style, picture, font or socket
// from anywhere but the server that sent it. (The SVG namespace is a name, not a load.)
func TestPageLoadsNothingFromAnotherHost(t *testing.T) {
	url := regexp.MustCompile(`(?i)\b(?:https?|wss?):|["'(]//[a-z0-9]`)
	for _, name := range []string{"index.html", "app.js", "channel.js", "felt.css"} {
		b, err := fs.ReadFile(Files, name)
		require.NoError(t, err)
		text := strings.ReplaceAll(string(b), `"http://www.w3.org/2000/svg"`, "")
		for i, line := range strings.Split(text, "\n") {
			// The one scheme the page writes is the socket's, chosen from the page's own.
			if strings.Contains(line, `"wss:" : "ws:"`) {
				continue
			}
			assert.False(t, url.MatchString(line), "%s:%d names another host: %s", name, i+1, strings.TrimSpace(line))
		}
	}
}

// The first load stays small enough for a phone on a slow line inside Discord.
func TestFirstLoadFitsIn300KBGzipped(t *testing.T) {
	total := 0
	for _, name := range firstLoad {
		b, err := fs.ReadFile(Files, name)
		require.NoError(t, err)
		var z bytes.Buffer
		w, _ := gzip.NewWriterLevel(&z, gzip.DefaultCompression)
		_, err = w.Write(b)
		require.NoError(t, err)
		require.NoError(t, w.Close())
		t.Logf("%-22s %7d bytes, %6d gzipped", name, len(b), z.Len())
		total += z.Len()
	}
	t.Logf("first load: %d bytes gzipped", total)
	assert.LessOrEqual(t, total, 300*1024)
}

// pageKeys are the catalog keys the page's scripts ask for: t("web.…") and, for the
// card names, the prefixes web.card.rank. and web.card.suit. with a card's letter.
func pageKeys(t *testing.T) (keys, prefixes map[string]bool) {
	t.Helper()
	keys, prefixes = map[string]bool{}, map[string]bool{}
	word := regexp.MustCompile(`"(web\.[a-z0-9_.]+)"`)
	for _, name := range []string{"app.js", "channel.js"} {
		b, err := fs.ReadFile(Files, name)
		require.NoError(t, err)
		for _, m := range word.FindAllStringSubmatch(string(b), -1) {
			if strings.HasSuffix(m[1], ".") {
				prefixes[m[1]] = true
			} else {
				keys[m[1]] = true
			}
		}
	}
	return keys, prefixes
}

// goSources is the text of the bot's Go files (tests aside): the server may send a
// web.* word of its own inside the table's texts.
func goSources(t *testing.T) string {
	t.Helper()
	var all strings.Builder
	err := filepath.WalkDir(filepath.Join("..", "bot"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		b, err := os.ReadFile(path)
		all.Write(b)
		return err
	})
	require.NoError(t, err)
	return all.String()
}

// Every word the page shows is in every language, and the catalogs carry no web.* key
// that neither the page nor the bot uses.
func TestEveryPageWordIsInEveryCatalog(t *testing.T) {
	bot := goSources(t)
	keys, prefixes := pageKeys(t)
	require.True(t, prefixes["web.card.rank."] && prefixes["web.card.suit."], "%v", prefixes)
	for _, r := range "A23456789TJQK" {
		keys["web.card.rank."+string(r)] = true
	}
	for _, s := range "SHDC" {
		keys["web.card.suit."+string(s)] = true
	}
	for _, lang := range i18n.Languages {
		raw, err := i18n.Raw(lang)
		require.NoError(t, err, lang)
		for key := range keys {
			assert.NotEmpty(t, raw[key]["other"], "%s lacks %s", lang, key)
		}
		for key := range raw {
			if strings.HasPrefix(key, "web.") && !keys[key] {
				assert.Contains(t, bot, `"`+key+`"`, "%s: %s is used by neither the page nor the bot", lang, key)
			}
		}
	}
}

// The page fills {name} slots itself (the catalog's own {{.Placeholders}} are the
// server's), so each language must keep English's slots.
func TestPageWordsKeepTheirSlots(t *testing.T) {
	slot := regexp.MustCompile(`\{(\w+)\}`)
	slots := func(s string) []string {
		var out []string
		for _, m := range slot.FindAllStringSubmatch(s, -1) {
			out = append(out, m[1])
		}
		sort.Strings(out)
		return out
	}
	en, err := i18n.Raw("en")
	require.NoError(t, err)
	for _, lang := range i18n.Languages {
		raw, err := i18n.Raw(lang)
		require.NoError(t, err)
		for key, forms := range en {
			if !strings.HasPrefix(key, "web.") {
				continue
			}
			assert.NotContains(t, forms["other"], "{{", "%s: the server sends web.* words unfilled", key)
			assert.Equal(t, slots(forms["other"]), slots(raw[key]["other"]), "%s %s", lang, key)
		}
	}
}

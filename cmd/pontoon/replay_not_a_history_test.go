package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A file that is not a hand history is refused on one line naming the file, where it
// went wrong and what a history is, without the decoder's Go types.
func TestReplayOfAFileThatIsNotAHistorySaysWhereAndWhy(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ name, body, want string }{
		{"list.json", `[1, 2]`, "list.json is not a hand history: the file is an array at line 1, column 1, where an object belongs"},
		{"notes.txt", "hello", "notes.txt is not JSON: invalid character 'h' looking for beginning of value at line 1, column 1"},
		{"table.json", "{\n  \"table\": 5\n}", `table.json is not a hand history: "table" is a number at line 2, column 12, where an object belongs`},
		{"typo.json", "{\"format\": \"pontoon-history/1\",\n \"tabel\": {}}", `typo.json is not a hand history: unknown key "tabel" at line 2, column 2`},
		{"rules.hist", `{"format": "pontoon-history/1", "rules": {"max_stak": 5}, "table": {}}`, `rules.hist: the rules have no key "max_stak" at line 1, column 43`},
		{"short.json", `{"format":`, "short.json is not a hand history: the JSON ends before it is complete"},
	} {
		path := filepath.Join(dir, tt.name)
		require.NoError(t, os.WriteFile(path, []byte(tt.body), 0o600))
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 1, Main([]string{"replay", path}, strings.NewReader(""), &stdout, &stderr))
		line := stderr.String()
		assert.Equal(t, 1, strings.Count(line, "\n"), "one line: %q", line)
		assert.Contains(t, line, "history: "+filepath.Join(dir, tt.want))
		if !strings.HasPrefix(tt.name, "rules") {
			assert.Contains(t, line, `want a hand history (HISTORY.md): a JSON object with "format": "pontoon-history/1"`)
		}
		for _, goTalk := range []string{"Go value", "Go struct", "game.", "jsontext", "json:"} {
			assert.NotContains(t, line, goTalk)
		}
	}
}

package activity

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Text assets go gzipped to a client that takes gzip, and whole to one that does not;
// the bundled SDK is cached for a day, the rest checked again on each load.
func TestTextAssetsAreGzippedForClientsThatTakeIt(t *testing.T) {
	js := strings.Repeat("export const felt = 'green';\n", 200)
	files, err := loadAssets(fstest.MapFS{
		"app.js":                {Data: []byte(js)},
		"vendor/discord-sdk.js": {Data: []byte(js)},
		"card.png":              {Data: bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 300)},
	})
	require.NoError(t, err)
	s := &Server{files: files}
	get := func(path, ae string) *http.Response {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		if ae != "" {
			r.Header.Set("Accept-Encoding", ae)
		}
		w := httptest.NewRecorder()
		s.serveFile(w, r)
		return w.Result()
	}
	resp := get("/app.js", "gzip, deflate, br")
	assert.Equal(t, "gzip", resp.Header.Get("Content-Encoding"))
	assert.Equal(t, "no-cache", resp.Header.Get("Cache-Control"))
	zr, err := gzip.NewReader(resp.Body)
	require.NoError(t, err)
	body, err := io.ReadAll(zr)
	require.NoError(t, err)
	assert.Equal(t, js, string(body))

	resp = get("/app.js", "")
	assert.Empty(t, resp.Header.Get("Content-Encoding"))
	body, _ = io.ReadAll(resp.Body)
	assert.Equal(t, js, string(body))
	assert.Empty(t, get("/app.js", "gzip;q=0").Header.Get("Content-Encoding"))

	assert.Empty(t, get("/card.png", "gzip").Header.Get("Content-Encoding"), "pictures are compressed already")
	assert.Contains(t, get("/vendor/discord-sdk.js", "gzip").Header.Get("Cache-Control"), "max-age=86400")
	assert.Equal(t, http.StatusNotFound, get("/nope.js", "").StatusCode)
}

package picture

import (
	"bytes"
	"flag"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden pictures under testdata")

// TestGolden draws each scene and compares its pixels with the golden PNG
// under testdata (go test ./bot/view/picture -run TestGolden -update
// rewrites them; look at them before committing).
func TestGolden(t *testing.T) {
	for _, sc := range scenes {
		t.Run(sc.name, func(t *testing.T) {
			pic, err := Render(sc.table())
			require.NoError(t, err)
			path := filepath.Join("testdata", sc.name+".png")
			if *update {
				require.NoError(t, os.MkdirAll("testdata", 0o755))
				require.NoError(t, os.WriteFile(path, pic.PNG, 0o644))
				require.NoError(t, os.WriteFile(filepath.Join("testdata", sc.name+".alt.txt"), []byte(pic.Alt+"\n"), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "no golden picture: run with -update")
			assertSamePixels(t, want, pic.PNG)
			alt, err := os.ReadFile(filepath.Join("testdata", sc.name+".alt.txt"))
			require.NoError(t, err)
			assert.Equal(t, string(bytes.TrimSuffix(alt, []byte("\n"))), pic.Alt)
		})
	}
}

// assertSamePixels compares decoded pixels, so a change in the PNG
// encoder's compression does not fail the test but a changed pixel does.
func assertSamePixels(t *testing.T, want, got []byte) {
	t.Helper()
	wi, err := png.Decode(bytes.NewReader(want))
	require.NoError(t, err)
	gi, err := png.Decode(bytes.NewReader(got))
	require.NoError(t, err)
	require.Equal(t, wi.Bounds(), gi.Bounds())
	diff := 0
	var first image.Point
	b := wi.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, a1 := wi.At(x, y).RGBA()
			r2, g2, b2, a2 := gi.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				if diff == 0 {
					first = image.Pt(x, y)
				}
				diff++
			}
		}
	}
	assert.Zero(t, diff, "%d pixels differ from the golden picture, the first at %v", diff, first)
}

package picture

import (
	"bytes"
	"image"
	"image/png"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPNGReadsBackWithinTheBudget: each scene's PNG is the drawn picture pixel for
// pixel, on its palette, and no scene, twelve seats included, is over the 100 KB a
// picture may take.
func TestPNGReadsBackWithinTheBudget(t *testing.T) {
	for _, sc := range scenes {
		img := renderImage(sc.table())
		pic, err := Render(sc.table())
		require.NoError(t, err, sc.name)
		got, err := png.Decode(bytes.NewReader(pic.PNG))
		require.NoError(t, err, sc.name)
		p, ok := got.(*image.Paletted)
		require.True(t, ok, "%s: the PNG is not paletted", sc.name)
		require.Equal(t, img.Pix, p.Pix, sc.name)
		require.LessOrEqual(t, len(pic.PNG), 100<<10, sc.name)
	}
}

// TestPNGsDrawnAtOnceDoNotShareBytes: pictures encoded at the same time, through the
// pooled encoder buffers, each keep their own bytes.
func TestPNGsDrawnAtOnceDoNotShareBytes(t *testing.T) {
	want := map[string][]byte{}
	for _, sc := range scenes {
		pic, err := Render(sc.table())
		require.NoError(t, err)
		want[sc.name] = pic.PNG
	}
	got := make([][]byte, 4*len(scenes))
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pic, err := Render(scenes[i%len(scenes)].table())
			if err == nil {
				got[i] = pic.PNG
			}
		}()
	}
	wg.Wait()
	for i, g := range got {
		require.Equal(t, want[scenes[i%len(scenes)].name], g, "picture %d", i)
	}
}

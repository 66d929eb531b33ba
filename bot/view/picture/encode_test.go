package picture

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"encoding/binary"
	stdadler32 "hash/adler32"
	"image"
	"image/color"
	"image/png"
	"io"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// TestEncodeRoundTrip: any paletted picture the encoder writes decodes, with
// the standard library's PNG decoder (which checks the CRCs, the zlib
// checksum and the Huffman codes), to the same pixels and palette. The
// pictures mix what the match finder looks for (runs, rows that repeat the
// one above, patterns met again) with noise.
func TestEncodeRoundTrip(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		w, h := rapid.IntRange(1, 300).Draw(rt, "w"), rapid.IntRange(1, 60).Draw(rt, "h")
		ncol := rapid.IntRange(1, 256).Draw(rt, "colours")
		p := make(color.Palette, ncol)
		for i := range p {
			p[i] = color.RGBA{uint8(i * 7), uint8(i * 13), uint8(255 - i), 0xff}
		}
		img := image.NewPaletted(image.Rect(0, 0, w, h), p)
		for i := 0; i < len(img.Pix); {
			n := rapid.IntRange(1, 400).Draw(rt, "n")
			switch rapid.IntRange(0, 3).Draw(rt, "kind") {
			case 0: // a run
				v := uint8(rapid.IntRange(0, ncol-1).Draw(rt, "v"))
				for ; n > 0 && i < len(img.Pix); n, i = n-1, i+1 {
					img.Pix[i] = v
				}
			case 1: // a copy of the row above
				for ; n > 0 && i < len(img.Pix); n, i = n-1, i+1 {
					if i >= w {
						img.Pix[i] = img.Pix[i-w]
					}
				}
			case 2: // a copy from further back
				d := rapid.IntRange(1, 40000).Draw(rt, "d")
				for ; n > 0 && i < len(img.Pix); n, i = n-1, i+1 {
					if i >= d {
						img.Pix[i] = img.Pix[i-d]
					}
				}
			default: // noise
				for ; n > 0 && i < len(img.Pix); n, i = n-1, i+1 {
					img.Pix[i] = uint8(rapid.IntRange(0, ncol-1).Draw(rt, "noise"))
				}
			}
		}
		got, err := png.Decode(bytes.NewReader(encodePNG(img)))
		require.NoError(rt, err)
		gp, ok := got.(*image.Paletted)
		require.True(rt, ok, "decoded as %T", got)
		require.Equal(rt, img.Rect, gp.Rect)
		require.Equal(rt, img.Pix, gp.Pix)
		require.Len(rt, gp.Palette, ncol)
		for i := range p {
			r1, g1, b1, a1 := p[i].RGBA()
			r2, g2, b2, a2 := gp.Palette[i].RGBA()
			require.Equal(rt, [4]uint32{r1, g1, b1, a1}, [4]uint32{r2, g2, b2, a2})
		}
	})
}

// TestEncodeScenes: each golden scene's picture written by the encoder reads
// back pixel for pixel, and the busiest is no larger than image/png's
// fastest level made it (49,428 bytes before the encoder was ours).
func TestEncodeScenes(t *testing.T) {
	for _, sc := range scenes {
		img := renderImage(sc.table())
		data := encodePNG(img)
		got, err := png.Decode(bytes.NewReader(data))
		require.NoError(t, err, sc.name)
		require.Equal(t, img.Pix, got.(*image.Paletted).Pix, sc.name)
		if sc.name == "ten-seats-settled" {
			require.LessOrEqual(t, len(data), 49428)
		}
	}
}

// TestAdler32: the eight-bytes-a-step checksum is hash/adler32's, for any
// bytes and any length (the tail, the 5,552-byte blocks, all 0xff bytes,
// which carry the most).
func TestAdler32(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(0, 20000).Draw(rt, "n")
		b := make([]byte, n)
		fill := rapid.IntRange(0, 2).Draw(rt, "fill")
		for i := range b {
			switch fill {
			case 0:
				b[i] = 0xff
			case 1:
				b[i] = byte(i * 31)
			default:
				b[i] = byte(rapid.IntRange(0, 255).Draw(rt, "b"))
			}
		}
		s1, s2 := adlerSums(b, 1, 0) // Adler-32 starts from (1, 0)
		require.Equal(rt, stdadler32.Checksum(b), uint32(s2<<16|s1))
	})
}

// TestDeflateLongCodes: codes of up to 15 bits, which with a length's 5
// extra bits are wider than 16, decode. Literals with Fibonacci frequencies
// make the Huffman tree as deep as the limit allows, and one match of 240
// (5 extra bits) is its rarest symbol. (The encoder once kept a length's
// code and extra bits in 16 bits and wrote a stream that did not decode.)
func TestDeflateLongCodes(t *testing.T) {
	w := new(pngWriter)
	var want []byte
	a, b := 1, 1
	for v := 0; v < 25; v++ {
		for range a {
			w.tokens = append(w.tokens, uint32(v))
			w.litFreq[v]++
			want = append(want, byte(v))
		}
		a, b = b, a+b
	}
	w.tokens = w.match(w.tokens, 240, 1)
	for range 240 {
		want = append(want, want[len(want)-1])
	}
	w.deflate()
	var litLen [286]uint8
	huffLengths(w.litFreq[:], 15, litLen[:])
	require.GreaterOrEqual(t, litLen[257+int(lengthCode[240-3])], uint8(12), "with its 5 extra bits, over 16")
	got, err := io.ReadAll(flate.NewReader(bytes.NewReader(w.out)))
	require.NoError(t, err)
	require.Equal(t, want, got)
}

// TestEncodeOverTheBareTable: a picture encoded with the bare table's rows
// (the rows nothing was drawn on, nor the row above, take their tokens and
// checksum sums) decodes to the same pixels as one encoded afresh, and its
// zlib checksum holds, for every scene; the four-seat reveal takes most of
// its untouched rows from the bare table.
func TestEncodeOverTheBareTable(t *testing.T) {
	for _, sc := range scenes {
		c := render(sc.table())
		want := append([]byte(nil), c.raw...)
		over := encodeFramed(c.out, c.raw, c.touched.rows, backgroundRows)
		afresh := encodeFramed(c.out, c.raw, nil, nil)
		reused := 0
		for y, m := range c.touched.rows {
			if m == 0 && (y == 0 || c.touched.rows[y-1] == 0) {
				reused++
			}
		}
		c.release()
		for name, data := range map[string][]byte{"over": over, "afresh": afresh} {
			got, err := png.Decode(bytes.NewReader(data))
			require.NoError(t, err, sc.name, name)
			p := got.(*image.Paletted)
			for y := 0; y < canvasH; y++ {
				require.Equal(t, want[y*(canvasW+1)+1:(y+1)*(canvasW+1)], p.Pix[p.PixOffset(0, y):][:canvasW], "%s %s row %d", sc.name, name, y)
			}
			zr, err := zlib.NewReader(bytes.NewReader(idat(t, data)))
			require.NoError(t, err)
			inflated, err := io.ReadAll(zr) // to the end: zlib checks the Adler-32 there
			require.NoError(t, err, "%s %s", sc.name, name)
			require.Equal(t, want, inflated, "%s %s", sc.name, name)
		}
		if sc.name == "banker-reveal" {
			require.Greater(t, reused, 250, "rows taken from the bare table")
		}
	}
}

// idat is a PNG's image data, its IDAT chunks joined.
func idat(t *testing.T, data []byte) []byte {
	t.Helper()
	var out []byte
	for p := 8; p+12 <= len(data); {
		n := int(binary.BigEndian.Uint32(data[p:]))
		if string(data[p+4:p+8]) == "IDAT" {
			out = append(out, data[p+8:p+8+n]...)
		}
		p += 12 + n
	}
	require.NotEmpty(t, out)
	return out
}

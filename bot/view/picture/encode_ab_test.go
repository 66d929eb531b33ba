package picture

import (
	"bytes"
	"image/png"
	"sync"
	"testing"
)

// pngPool is png.EncoderBufferPool over a sync.Pool, as a caller of image/png keeps its
// encoders' buffers between pictures.
type pngPool struct{ p sync.Pool }

func (p *pngPool) Get() *png.EncoderBuffer  { b, _ := p.p.Get().(*png.EncoderBuffer); return b }
func (p *pngPool) Put(b *png.EncoderBuffer) { p.p.Put(b) }

// BenchmarkEncodeAB encodes the same drawn pictures, a four-seat table at the banker's
// reveal and ten seats mid-round and settled, with this package's encoder (as Render
// does, over the bare table's rows) and with image/png at BestSpeed with a buffer pool,
// the library it would otherwise be. Only the encoding is timed; cpu-ns/op is the CPU
// time and bytes the PNG's size. The hand-written encoder stays only while it is at
// least twice as fast: run with
// `go test -run XXX -bench EncodeAB -benchmem ./bot/view/picture`.
func BenchmarkEncodeAB(b *testing.B) {
	for _, s := range []struct {
		name  string
		table Table
	}{{"four-seats", bankerReveal()}, {"ten-seats-playing", tenSeatsPlaying()}, {"ten-seats-settled", tenSeatsSettled()}} {
		c := render(s.table)
		b.Run(s.name+"/ours", func(b *testing.B) {
			var size int
			defer cpu(b)()
			for b.Loop() {
				size = len(encodeFramed(c.out, c.raw, c.touched.rows, backgroundRows))
			}
			b.ReportMetric(float64(size), "bytes")
		})
		b.Run(s.name+"/image-png", func(b *testing.B) {
			enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &pngPool{}}
			var buf bytes.Buffer
			defer cpu(b)()
			for b.Loop() {
				buf.Reset()
				if err := enc.Encode(&buf, c.out); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len()), "bytes")
		})
		c.release()
	}
}

package picture

import (
	"bytes"
	"testing"
)

// benchRender renders t b.N times, reporting the PNG's size as the "bytes"
// metric and the CPU time (steadier than ns/op on a shared machine) as
// "cpu-ns/op".
func benchRender(b *testing.B, t Table) {
	var size int
	defer cpu(b)()
	for b.Loop() {
		pic, err := Render(t)
		if err != nil {
			b.Fatal(err)
		}
		size = len(pic.PNG)
	}
	b.ReportMetric(float64(size), "bytes")
}

// BenchmarkRender is the 10-seat settled table, the busiest picture the bot
// sends: render, quantize and encode. The budget is 5 ms of CPU
// and 100 KB.
func BenchmarkRender(b *testing.B) { benchRender(b, tenSeatsSettled()) }

// BenchmarkRenderPlaying is the 10-seat table mid-round, mostly card backs.
func BenchmarkRenderPlaying(b *testing.B) { benchRender(b, tenSeatsPlaying()) }

// BenchmarkRenderFourSeats is the four-seat table at the banker's reveal, the size
// of table the load command plays.
func BenchmarkRenderFourSeats(b *testing.B) { benchRender(b, bankerReveal()) }

// BenchmarkRenderFourSeatsParts splits BenchmarkRenderFourSeats into the drawing
// (the canvas from the bare table) and image/png's encoding of the drawn canvas, the
// two costs a cheaper picture would have to cut.
func BenchmarkRenderFourSeatsParts(b *testing.B) {
	t := bankerReveal()
	b.Run("draw", func(b *testing.B) {
		defer cpu(b)()
		for b.Loop() {
			render(t).release()
		}
	})
	b.Run("encode", func(b *testing.B) {
		c := render(t)
		defer c.release()
		var buf bytes.Buffer
		defer cpu(b)()
		for b.Loop() {
			buf.Reset()
			if err := pngEncoder.Encode(&buf, c.out); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(buf.Len()), "bytes")
	})
}

package picture

import "testing"

// BenchmarkRender is the 10-seat settled table, the busiest picture the bot
// sends: render, quantize and encode. The budget is 15 ms and
// 100 KB; the size is reported as the "bytes" metric, and the CPU time
// (steadier than ns/op on a shared machine) as "cpu-ns/op".
func BenchmarkRender(b *testing.B) {
	t := tenSeatsSettled()
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

// BenchmarkRenderPlaying is the 10-seat table mid-round, mostly card backs.
func BenchmarkRenderPlaying(b *testing.B) {
	t := tenSeatsPlaying()
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

// BenchmarkRenderFourSeats is the four-seat table at the banker's reveal, the size
// of table the load command plays.
func BenchmarkRenderFourSeats(b *testing.B) {
	t := bankerReveal()
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

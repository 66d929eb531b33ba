package picture

import (
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"math/bits"
	"slices"
	"sync"
)

// The PNG is written here rather than by image/png, whose general-purpose
// deflate (hash chains over every byte) was half of a render's CPU. The
// picture is a fixed palette of flat areas, so almost every byte repeats
// either the byte before it (a run of felt) or the byte above it (the same
// column one row up, the next row of a card): the encoder looks for exactly
// those two matches, and for the same four bytes met recently in the row
// (a card's pattern, a repeated letter), and codes the result in one deflate
// block with its own Huffman tables. It is several times quicker than
// compress/flate's fastest level and its output is about as small.

// pngWriter holds one encoding's scratch space; encoders are pooled.
type pngWriter struct {
	raw    []byte   // the rows as PNG filters them: a 0 (no filter) byte, then the row
	copy   []byte   // raw for encodePNG, which copies the picture
	tokens []uint32 // literals and matches, see token
	out    []byte
	bits   uint64 // bits not yet in out, the first in the lowest bit
	nbits  uint
	recent [1 << 12]uint64 // hash of 4 bytes -> their last position + 1 (high half) and the bytes
	adler  uint32          // the checksum of raw, summed as tokenize goes

	litFreq  [286]uint32 // how often each code is used, counted as the tokens are made
	distFreq [30]uint32
}

var pngWriters = sync.Pool{New: func() any { return new(pngWriter) }}

// A token is a literal byte (below 1<<16) or a match: its distance code in
// bits 24-28, its length minus 3 in bits 16-23 and its distance minus 1 in
// bits 0-15, with bit 31 set.
const matchFlag = 1 << 31

const (
	minMatch = 4 // shorter matches cost about as much as their literals
	maxMatch = 258
	window   = 32768
)

var pngHeader = []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}

// encodePNG writes img, whose palette has at most 256 opaque colours, as an
// 8-bit paletted PNG. The result is a new slice.
func encodePNG(img *image.Paletted) []byte {
	w := pngWriters.Get().(*pngWriter)
	defer pngWriters.Put(w)
	b := img.Bounds()
	stride := b.Dx() + 1
	n := stride * b.Dy()
	w.copy = slices.Grow(w.copy[:0], n)[:n]
	for y := 0; y < b.Dy(); y++ {
		w.copy[y*stride] = 0
		copy(w.copy[y*stride+1:(y+1)*stride], img.Pix[img.PixOffset(b.Min.X, b.Min.Y+y):][:b.Dx()])
	}
	return w.encode(w.copy, b.Dx(), b.Dy(), img.Palette, nil, nil)
}

// framed makes a paletted picture whose rows are laid out as a PNG filters
// them, each after a 0 (no filter) byte: encodeFramed writes it without
// copying it first.
func framed(r image.Rectangle, p color.Palette) (*image.Paletted, []byte) {
	raw := make([]byte, (r.Dx()+1)*r.Dy())
	return &image.Paletted{Pix: raw[1:], Stride: r.Dx() + 1, Rect: r, Palette: p}, raw
}

// encodeFramed writes img made by framed, raw its bytes, as encodePNG
// would.
//
// A picture drawn over the bare table passes what was drawn on (touched, a
// word per row, see tiles) and the bare table's rows (bare): a row not drawn
// on, nor the row above it, takes the bare table's tokens. Both may be nil.
func encodeFramed(img *image.Paletted, raw []byte, touched []uint64, bare *bareRows) []byte {
	w := pngWriters.Get().(*pngWriter)
	defer pngWriters.Put(w)
	return w.encode(raw, img.Rect.Dx(), img.Rect.Dy(), img.Palette, touched, bare)
}

// encode writes the rows raw, each after its filter byte.
func (w *pngWriter) encode(raw []byte, width, height int, palette color.Palette, touched []uint64, bare *bareRows) []byte {
	w.raw = raw
	defer func() { w.raw = nil }()
	stride := width + 1

	w.out = append(w.out[:0], pngHeader...)
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8], ihdr[9] = 8, 3 // 8 bits a pixel, paletted
	w.chunk("IHDR", ihdr[:])
	plte := make([]byte, 0, 3*len(palette))
	for _, c := range palette {
		r, g, bl, _ := c.RGBA()
		plte = append(plte, byte(r>>8), byte(g>>8), byte(bl>>8))
	}
	w.chunk("PLTE", plte)

	// IDAT: its length is filled in once the data is written.
	start := len(w.out)
	w.out = append(w.out, 0, 0, 0, 0, 'I', 'D', 'A', 'T', 0x78, 0x01) // zlib: deflate, 32 KB window, fastest
	w.tokenize(stride, touched, bare)
	w.deflate()
	w.out = binary.BigEndian.AppendUint32(w.out, w.adler)
	binary.BigEndian.PutUint32(w.out[start:], uint32(len(w.out)-start-8))
	w.out = binary.BigEndian.AppendUint32(w.out, crc32.ChecksumIEEE(w.out[start+4:]))
	w.chunk("IEND", nil)
	return slices.Clone(w.out)
}

func (w *pngWriter) chunk(typ string, data []byte) {
	w.out = binary.BigEndian.AppendUint32(w.out, uint32(len(data)))
	at := len(w.out)
	w.out = append(w.out, typ...)
	w.out = append(w.out, data...)
	w.out = binary.BigEndian.AppendUint32(w.out, crc32.ChecksumIEEE(w.out[at:]))
}

// matchLen is how many leading bytes a and b share, at most max.
func matchLen(a, b []byte, max int) int {
	n := min(len(a), len(b), max)
	a, b = a[:n], b[:n]
	i := 0
	// Long runs (the felt, a card's blank rows) are compared 32 bytes a
	// step, the end of a match found in the 8-byte steps after.
	for len(a) >= 32 && len(b) >= 32 {
		x := binary.LittleEndian.Uint64(a) ^ binary.LittleEndian.Uint64(b)
		x |= binary.LittleEndian.Uint64(a[8:]) ^ binary.LittleEndian.Uint64(b[8:])
		x |= binary.LittleEndian.Uint64(a[16:]) ^ binary.LittleEndian.Uint64(b[16:])
		x |= binary.LittleEndian.Uint64(a[24:]) ^ binary.LittleEndian.Uint64(b[24:])
		if x != 0 {
			break
		}
		a, b = a[32:], b[32:]
		i += 32
	}
	for len(a) >= 8 && len(b) >= 8 {
		if x := binary.LittleEndian.Uint64(a) ^ binary.LittleEndian.Uint64(b); x != 0 {
			return i + bits.TrailingZeros64(x)>>3
		}
		a, b = a[8:], b[8:]
		i += 8
	}
	for j := range a {
		if j >= len(b) || a[j] != b[j] {
			return i + j
		}
	}
	return n
}

func hash4(b []byte) uint32 {
	return (binary.LittleEndian.Uint32(b) * 0x9e3779b1) >> 20
}

// tokenize turns w.raw into literals and matches, row by row: at each place
// the longest of the run (distance 1), the row above (distance stride), the
// last match's distance and the last place the next four bytes were seen,
// greedily. A candidate whose first four bytes differ is passed over without
// measuring it, which is most of them where literals are.
//
// No match runs past the end of its row, so that a row can take tokens worked
// out before: with bare (the bare table's rows, see bareRows), a row that
// neither it nor the row above was drawn on (touched) takes the bare table's
// tokens for it, whose matches reach no further back than the row above. It
// also takes the bare row's checksum sums; the others are summed here.
func (w *pngWriter) tokenize(stride int, touched []uint64, bare *bareRows) {
	clear(w.recent[:])
	clear(w.litFreq[:])
	clear(w.distFreq[:])
	t := w.tokens[:0]
	last := stride
	s1, s2 := uint64(1), uint64(0)
	for y, lo := 0, 0; lo < len(w.raw); y, lo = y+1, lo+stride {
		hi := min(lo+stride, len(w.raw))
		if bare != nil && y < len(touched) && touched[y] == 0 && (y == 0 || touched[y-1] == 0) {
			rt := bare.tokens[bare.start[y]:bare.start[y+1]]
			for _, tok := range rt {
				if tok&matchFlag != 0 {
					w.litFreq[257+int(lengthCode[tok>>16&0xff])]++
					w.distFreq[tok>>24&0x1f]++
				} else {
					w.litFreq[tok]++
				}
			}
			t = append(t, rt...)
			n := uint64(hi - lo)
			s2 = (s2 + n*s1 + uint64(bare.w[y])) % adlerMod
			s1 = (s1 + uint64(bare.s[y])) % adlerMod
			continue
		}
		t = w.row(t, lo, hi, stride, 0, &last)
		s1, s2 = adlerSums(w.raw[lo:hi], s1, s2)
	}
	w.tokens = t
	w.adler = uint32(s2<<16 | s1)
}

// row appends the tokens of raw[lo:hi], one row. No match ends past hi, and
// none reaches back before minQ.
func (w *pngWriter) row(t []uint32, lo, hi, stride, minQ int, lastp *int) []uint32 {
	raw := w.raw
	n := len(raw)
	recent, lf, df := &w.recent, &w.litFreq, &w.distFreq
	last := *lastp
	p := lo
	if lo == 0 { // the first row: runs only
		for ; p < hi && p+4 <= n; p++ {
			if p >= 1 && raw[p] == raw[p-1] {
				if l := matchLen(raw[p:hi], raw[p-1:], maxMatch); l >= minMatch {
					t = w.match(t, l, 1)
					p += l - 1
					continue
				}
			}
			t = append(t, uint32(raw[p]))
			lf[raw[p]]++
		}
	}
	for p < hi && p+8 <= n {
		m := min(maxMatch, hi-p) // the longest match that ends in the row
		if m < minMatch {
			break
		}
		cur := binary.LittleEndian.Uint32(raw[p:])
		best, dist := 0, 0
		// The row above, then the last distance, then the run.
		if binary.LittleEndian.Uint32(raw[p-stride:]) == cur {
			best, dist = matchLen(raw[p+4:], raw[p+4-stride:], m-4)+4, stride
			if best == m {
				goto emit
			}
		}
		if last != stride && p-last >= minQ && binary.LittleEndian.Uint32(raw[p-last:]) == cur {
			if l := matchLen(raw[p+4:], raw[p+4-last:], m-4) + 4; l > best {
				best, dist = l, last
			}
		}
		if best < m && last != 1 && uint32(raw[p-1])*0x01010101 == cur {
			if l := matchLen(raw[p+4:], raw[p+3:], m-4) + 4; l > best {
				best, dist = l, 1
			}
		}
		if best < minMatch {
			// The table keeps each position's four bytes beside it, so a
			// miss costs no load from far back in raw.
			h := hash4(raw[p:])
			e := recent[h]
			recent[h] = uint64(p+1)<<32 | uint64(cur)
			q := int(e>>32) - 1
			if d := p - q; q >= minQ && uint32(e) == cur && d <= window && d != stride && d != last {
				best, dist = matchLen(raw[p+4:], raw[q+4:], m-4)+4, d
			} else {
				c := raw[p]
				t = append(t, uint32(c))
				lf[c]++
				p++
				continue
			}
		}
	emit:
		lc := lengthCode[best-3]
		dc := distCode(dist - 1)
		lf[257+int(lc)]++
		df[dc]++
		t = append(t, matchFlag|uint32(dc)<<24|uint32(best-3)<<16|uint32(dist-1))
		last = dist
		p += best
	}
	for ; p < hi; p++ { // the row's last few bytes
		t = append(t, uint32(raw[p]))
		lf[raw[p]]++
	}
	*lastp = last
	return t
}

// bareRows is the bare table (the background every picture starts from)
// encoded once, row by row: each row's tokens, made reaching back no further
// than the row above, and its checksum sums (s: the bytes' sum, w: each byte
// weighted by how many bytes from it to the row's end, both mod adlerMod).
type bareRows struct {
	tokens []uint32
	start  []int // row y's tokens are tokens[start[y]:start[y+1]]
	s, w   []uint32
}

// newBareRows encodes the framed bytes of the bare table.
func newBareRows(raw []byte, stride int) *bareRows {
	w := &pngWriter{raw: raw}
	b := &bareRows{start: []int{0}}
	last := stride
	for lo := 0; lo < len(raw); lo += stride {
		hi := min(lo+stride, len(raw))
		w.tokens = w.row(w.tokens, lo, hi, stride, max(lo-stride, 0), &last)
		b.start = append(b.start, len(w.tokens))
		s, ws := adlerSums(raw[lo:hi], 0, 0)
		b.s, b.w = append(b.s, uint32(s)), append(b.w, uint32(ws))
	}
	b.tokens = w.tokens
	return b
}

// match appends a match of l bytes at distance d and counts its codes.
func (w *pngWriter) match(t []uint32, l, d int) []uint32 {
	lc := lengthCode[l-3]
	dc := distCode(d - 1)
	w.litFreq[257+int(lc)]++
	w.distFreq[dc]++
	return append(t, matchFlag|uint32(dc)<<24|uint32(l-3)<<16|uint32(d-1))
}

// The deflate length and distance codes (RFC 1951 3.2.5).
var (
	lengthBase  = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lengthExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distBase    = [30]uint16{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	distExtra   = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}

	lengthCode [256]uint8 // length-3 -> code-257
)

func init() {
	for c := range lengthBase {
		for l := int(lengthBase[c]); l <= 258 && (c == 28 || l < int(lengthBase[c+1])); l++ {
			lengthCode[l-3] = uint8(c)
		}
	}
}

func distCode(d int) int { // d is distance-1
	if d < 4 {
		return d
	}
	n := bits.Len(uint(d)) // d >= 4: the code is 2*(n-1) plus the bit after the top one
	return 2*(n-1) + (d>>(n-2))&1
}

// code is a symbol's Huffman code, already bit-reversed for writing.
type code struct {
	bits uint32 // up to 20 bits: lenCodes' hold the extra bits too
	len  uint8
}

// deflate writes w.tokens as one final dynamic-Huffman block.
func (w *pngWriter) deflate() {
	litFreq, distFreq := &w.litFreq, &w.distFreq
	litFreq[256] = 1 // end of block
	var litLen [286]uint8
	var distLen [30]uint8
	huffLengths(litFreq[:], 15, litLen[:])
	huffLengths(distFreq[:], 15, distLen[:])
	nlit, ndist := 286, 30
	for nlit > 257 && litLen[nlit-1] == 0 {
		nlit--
	}
	for ndist > 1 && distLen[ndist-1] == 0 {
		ndist--
	}

	// The two code lengths in a row, run-length coded with the symbols 16
	// (repeat the last 3-6 times), 17 (3-10 zeros) and 18 (11-138 zeros).
	all := append(append(make([]uint8, 0, 316), litLen[:nlit]...), distLen[:ndist]...)
	type clSym struct{ sym, extra uint8 }
	var cls []clSym
	var clFreq [19]uint32
	for i := 0; i < len(all); {
		v := all[i]
		run := 1
		for i+run < len(all) && all[i+run] == v {
			run++
		}
		switch {
		case v == 0 && run >= 3:
			r := min(run, 138)
			if r >= 11 {
				cls = append(cls, clSym{18, uint8(r - 11)})
			} else {
				cls = append(cls, clSym{17, uint8(r - 3)})
			}
			clFreq[cls[len(cls)-1].sym]++
			i += r
		case v != 0 && run >= 4:
			cls = append(cls, clSym{v, 0})
			clFreq[v]++
			r := min(run-1, 6)
			cls = append(cls, clSym{16, uint8(r - 3)})
			clFreq[16]++
			i += 1 + r
		default:
			cls = append(cls, clSym{v, 0})
			clFreq[v]++
			i++
		}
	}
	var clLen [19]uint8
	huffLengths(clFreq[:], 7, clLen[:])
	order := [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}
	ncl := 19
	for ncl > 4 && clLen[order[ncl-1]] == 0 {
		ncl--
	}

	litCodes, distCodes, clCodes := canonical(litLen[:]), canonical(distLen[:]), canonical(clLen[:])
	w.bits, w.nbits = 0, 0
	w.put(1, 1) // final block
	w.put(2, 2) // dynamic Huffman
	w.put(uint64(nlit-257), 5)
	w.put(uint64(ndist-1), 5)
	w.put(uint64(ncl-4), 4)
	for _, s := range order[:ncl] {
		w.put(uint64(clLen[s]), 3)
	}
	for _, c := range cls {
		w.putCode(clCodes[c.sym])
		switch c.sym {
		case 16:
			w.put(uint64(c.extra), 2)
		case 17:
			w.put(uint64(c.extra), 3)
		case 18:
			w.put(uint64(c.extra), 7)
		}
	}

	// A match's length code and extra bits, as one code per length.
	var lenCodes [256]code
	for l := range lenCodes {
		lc := lengthCode[l]
		c := litCodes[257+int(lc)]
		lenCodes[l] = code{bits: c.bits | uint32(l+3-int(lengthBase[lc]))<<c.len, len: c.len + lengthExtra[lc]}
	}
	// Each token is written without a branch, as the literal-or-match test
	// and the buffer's flush would mispredict at every other token: both
	// codes are looked up and the match's kept by a mask, and the buffer
	// goes out eight bytes at a time, advanced by the whole bytes it holds.
	for w.nbits >= 8 { // what the header left
		w.out = append(w.out, byte(w.bits))
		w.bits >>= 8
		w.nbits -= 8
	}
	pos := len(w.out)
	buf := slices.Grow(w.out, 7*len(w.tokens)+16)
	buf = buf[:cap(buf)]
	bitBuf, nbits := w.bits, uint64(w.nbits)
	for _, t := range w.tokens {
		mask := -uint64(t >> 31) // all ones for a match
		lit, ln := litCodes[t&0xff], lenCodes[t>>16&0xff]
		dc := t >> 24 & 0x1f
		dcode := distCodes[dc]
		d := (uint64(dcode.bits) | uint64(t&0xffff+1-uint32(distBase[dc]))<<dcode.len) & mask
		dn := uint64(dcode.len+distExtra[dc]) & mask
		a := uint64(lit.bits)&^mask | uint64(ln.bits)&mask
		an := uint64(lit.len)&^mask | uint64(ln.len)&mask
		bitBuf |= (a | d<<an) << nbits
		nbits += an + dn
		binary.LittleEndian.PutUint64(buf[pos:], bitBuf)
		adv := nbits >> 3
		pos += int(adv)
		bitBuf >>= adv * 8
		nbits &= 7
	}
	w.out, w.bits, w.nbits = buf[:pos], bitBuf, uint(nbits)
	w.putCode(litCodes[256])
	for w.nbits > 0 {
		w.out = append(w.out, byte(w.bits))
		w.bits >>= 8
		w.nbits = uint(max(int(w.nbits)-8, 0))
	}
}

// put adds the n low bits of v (n at most 32).
func (w *pngWriter) put(v uint64, n uint) {
	w.bits |= v << w.nbits
	w.nbits += n
	if w.nbits >= 32 {
		w.out = binary.LittleEndian.AppendUint32(w.out, uint32(w.bits))
		w.bits >>= 32
		w.nbits -= 32
	}
}

func (w *pngWriter) putCode(c code) { w.put(uint64(c.bits), uint(c.len)) }

// huffLengths sets the Huffman code length of each symbol of freq, none
// longer than limit; unused symbols get 0. At least two symbols get a code,
// so that the code is complete whatever the frequencies.
func huffLengths(freq []uint32, limit int, lengths []uint8) {
	h := huffScratches.Get().(*huffScratch)
	defer huffScratches.Put(h)
	clear(lengths)
	syms := h.syms[:0]
	for s, f := range freq {
		if f > 0 {
			syms = append(syms, s)
		}
	}
	for len(syms) < 2 { // pad with unused symbols
		for s := range freq {
			if !slices.Contains(syms, s) {
				syms = append(syms, s)
				break
			}
		}
	}
	f := slices.Grow(h.f[:0], len(freq))[:len(freq)]
	clear(f)
	for _, s := range syms {
		f[s] = max(uint64(freq[s]), 1)
	}
	defer func() { h.syms, h.f = syms, f }()
	for {
		// Sorted by frequency, then symbol: as one number each, which sorts
		// several times quicker than through a comparison function.
		keys := slices.Grow(h.keys[:0], len(syms))[:len(syms)]
		h.keys = keys
		for i, s := range syms {
			keys[i] = f[s]<<16 | uint64(s)
		}
		slices.Sort(keys)
		for i, k := range keys {
			syms[i] = int(k & 0xffff)
		}
		// Two queues: the leaves in order of frequency, and the inner nodes
		// as they are made, which come out in order too.
		nodes := h.nodes[:0]
		for _, s := range syms {
			nodes = append(nodes, huffNode{freq: f[s], sym: s, parent: -1})
		}
		li, ii := 0, len(syms)
		take := func() int {
			if li < len(syms) && (ii >= len(nodes) || nodes[li].freq <= nodes[ii].freq) {
				li++
				return li - 1
			}
			ii++
			return ii - 1
		}
		for len(nodes)-len(syms) < len(syms)-1 {
			a, b := take(), take()
			nodes = append(nodes, huffNode{freq: nodes[a].freq + nodes[b].freq, sym: -1, parent: -1})
			nodes[a].parent, nodes[b].parent = len(nodes)-1, len(nodes)-1
		}
		h.nodes = nodes
		depth := slices.Grow(h.depth[:0], len(nodes))[:len(nodes)]
		h.depth = depth
		depth[len(nodes)-1] = 0
		deepest := 0
		for i := len(nodes) - 2; i >= 0; i-- { // parents come after their children
			depth[i] = depth[nodes[i].parent] + 1
			if i < len(syms) {
				deepest = max(deepest, depth[i])
			}
		}
		if deepest <= limit {
			for i := range syms {
				lengths[nodes[i].sym] = uint8(depth[i])
			}
			return
		}
		// Too deep: flatten the frequencies and build again.
		for _, s := range syms {
			f[s] = f[s]/2 + 1
		}
	}
}

type huffNode struct {
	freq   uint64
	sym    int // a leaf's symbol, or -1
	parent int
}

// huffScratch is huffLengths' working space, pooled: the encoder builds
// three codes a picture.
type huffScratch struct {
	syms  []int
	f     []uint64
	keys  []uint64
	nodes []huffNode
	depth []int
}

var huffScratches = sync.Pool{New: func() any { return new(huffScratch) }}

// canonical assigns the canonical codes of RFC 1951 3.2.2 to the lengths,
// bit-reversed as deflate writes them.
func canonical(lengths []uint8) []code {
	var count [16]uint16
	for _, l := range lengths {
		count[l]++
	}
	count[0] = 0
	var next [16]uint16
	c := uint16(0)
	for l := 1; l < 16; l++ {
		c = (c + count[l-1]) << 1
		next[l] = c
	}
	out := make([]code, len(lengths))
	for s, l := range lengths {
		if l == 0 {
			continue
		}
		out[s] = code{bits: uint32(bits.Reverse16(next[l]) >> (16 - l)), len: l}
		next[l]++
	}
	return out
}

const adlerMod = 65521

// adlerSums continues Adler-32's two sums (s1, s2, each below adlerMod) over p,
// eight bytes a step: the standard library's adds the bytes one by one, each
// sum waiting on the last, which made it a tenth of a render. For eight bytes
// b0..b7 after the sums s1, s2: s1' = s1 + Σbi and s2' = s2 + 8·s1 + Σ(8-i)·bi;
// the byte sums are taken four 16-bit lanes at a time, and a multiplication
// adds the lanes up. From (0, 0) the sums are a block's: Σbi and Σ(n-i)·bi,
// which is how a row's checksum is carried over to a picture (tokenize).
func adlerSums(p []byte, s1, s2 uint64) (uint64, uint64) {
	const (
		nmax  = 5552 // the most bytes before s2 could pass 2^32 (a multiple of 8)
		lane  = 0x00ff00ff00ff00ff
		ones  = 0x0001000100010001
		wEven = 8<<48 | 6<<32 | 4<<16 | 2 // weights of b0, b2, b4, b6, read from the top lane down
		wOdd  = 7<<48 | 5<<32 | 3<<16 | 1 // of b1, b3, b5, b7
	)
	for len(p) > 0 {
		q := p
		if len(q) > nmax {
			q = q[:nmax]
		}
		p = p[len(q):]
		for len(q) >= 8 {
			x := binary.LittleEndian.Uint64(q)
			even, odd := x&lane, x>>8&lane
			s2 += 8*s1 + (even*wEven)>>48 + (odd*wOdd)>>48
			s1 += ((even + odd) * ones) >> 48
			q = q[8:]
		}
		for _, b := range q {
			s1 += uint64(b)
			s2 += s1
		}
		s1 %= adlerMod
		s2 %= adlerMod
	}
	return s1, s2
}

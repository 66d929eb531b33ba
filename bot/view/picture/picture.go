package picture

import (
	"bytes"
	"image"
	"image/png"
	"slices"
	"strconv"
	"sync"

	"github.com/pontoon-bot/pontoon/game"
)

// FileName is the name the table's picture is uploaded under. An embed shows
// it with Image.URL = "attachment://" + FileName (see EmbedURL).
const FileName = "table.png"

// EmbedURL is what an embed's image url says to show the uploaded picture.
const EmbedURL = "attachment://" + FileName

// MaxAltText is Discord's limit on an attachment's description (alt text).
const MaxAltText = 1024

// Table is everything the picture shows. It is plain data: the caller copies
// it out of the engine's state and fills in words already translated, so this
// package needs no catalog and no Discord.
type Table struct {
	// Seats in clockwise order (R3.1). The seat with Banker set sits at the
	// head of the table; the others go round it from the banker's left.
	Seats []Seat
	// Bank is the banker's chips shown at the head of the table.
	Bank int64
	// Kitty is Shoot's kitty (R9.1), shown when ShowKitty is set.
	Kitty     int64
	ShowKitty bool
	// Labels are the table's words, in the reader's language.
	Labels Labels
}

// Seat is one member at the table.
type Seat struct {
	// Member is the seat's member id. The picture does not draw it; readers of the
	// seats other than the picture (the web page's state) tell seats apart by it.
	Member string
	// Name is the member's display name in any script. Letters the picture's
	// fonts lack make it fall back to Fallback.
	Name string
	// Fallback is shown when Name has letters the fonts cannot draw (Discord
	// usernames are plain ASCII, so the username is a good fallback).
	Fallback string
	Banker   bool
	// Turn marks the seat whose turn it is (R3.1).
	Turn bool
	// Hands are the seat's hands; a split seat holds several (R4.2).
	Hands []Hand
}

// Hand is one hand of cards with its stake.
type Hand struct {
	// Cards as the table sees them: face-down cards are drawn as backs
	// (R3.2, R5.1) unless Own is set.
	Cards []game.HandCard
	// Own draws face-down cards face up with a folded corner: the member's
	// own hand in their private panel, which only they see.
	Own   bool
	Stake int64
	// Turn marks the hand to act when the seat holds several (R4.8).
	Turn bool
	// Result is the hand's settlement in words ("Pontoon +40"), empty before
	// the round settles.
	Result string
	Tone   Tone
}

// Tone colours a result.
type Tone uint8

// The tones of a result badge.
const (
	Neutral Tone = iota // grey-blue: a note, not a payment
	Win                 // green: the hand was paid
	Loss                // red: the hand paid the bank
	Push                // grey: nothing changed hands
)

// Labels are the picture's words, translated by the caller. Empty labels
// (and nil functions) are left out.
type Labels struct {
	Title  string // over the table, e.g. "Shoot Pontoon · round 12"
	Phase  string // under the title: the round's phase, e.g. "Players' turns"
	Banker string // the badge on the banker's seat
	Bank   string // before the bank's chips
	Kitty  string // before the kitty
	Turn   string // the badge on the seat whose turn it is
	// ToAct says whose turn it is under the phase ("Bob to act").
	ToAct func(name string) string
	// Stake labels a hand's stake ("Stake 20"), given the amount written
	// by Amount; nil draws the amount alone.
	Stake func(amount string) string
	// Showing labels the total of a hand's face-up cards while some are
	// face down ("Showing 14"); Total the total of a hand whose cards are
	// all in view ("Total 21").
	Showing, Total func(total string) string
	// FaceDown stands for each face-down card in the alt text.
	FaceDown string
	// Hand names a split hand in the alt text ("hand" gives "hand 2").
	Hand string
	// Amount writes chips the reader's way (1.000, 1 000); nil writes digits.
	Amount func(int64) string
}

func (l Labels) amount(n int64) string {
	if l.Amount != nil {
		return l.Amount(n)
	}
	return strconv.FormatInt(n, 10)
}

func (l Labels) stakeOf(n int64) string {
	if l.Stake != nil {
		return l.Stake(l.amount(n))
	}
	return l.amount(n)
}

// Picture is a rendered table: the PNG to upload and its alt text, which goes
// in the attachment's description.
type Picture struct {
	PNG    []byte
	Alt    string
	Width  int
	Height int
}

// Render draws the table. It is safe for concurrent use.
func Render(t Table) (Picture, error) {
	c := render(t)
	h := c.out.Rect.Dy()
	buf := pngBuffers.Get().(*bytes.Buffer)
	defer pngBuffers.Put(buf)
	buf.Reset()
	err := pngEncoder.Encode(buf, c.out)
	c.release()
	if err != nil {
		return Picture{}, err
	}
	return Picture{PNG: slices.Clone(buf.Bytes()), Alt: altText(t), Width: canvasW, Height: h}, nil
}

// pngEncoder writes the pictures. BestSpeed: the picture is flat colours on one
// palette, which compress/flate's fastest level packs to under 50 KB for ten
// seats, half the 100 KB budget. Its buffers, the compressor's state included,
// are pooled between pictures.
var pngEncoder = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: new(encoderBuffers)}

// pngBuffers hold the PNG while it is written; the picture keeps a copy of its size.
var pngBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// encoderBuffers is png.EncoderBufferPool over a sync.Pool.
type encoderBuffers struct{ p sync.Pool }

func (e *encoderBuffers) Get() *png.EncoderBuffer {
	b, _ := e.p.Get().(*png.EncoderBuffer)
	return b
}

func (e *encoderBuffers) Put(b *png.EncoderBuffer) { e.p.Put(b) }

// render draws the table on a canvas, which the caller releases.
func render(t Table) *canvas {
	_, ps := players(t)
	c := newCanvas(rowsFor(len(ps)))
	c.paint(t)
	return c
}

// renderImage renders the table into a paletted image of its own (for
// tests).
func renderImage(t Table) *image.Paletted {
	c := render(t)
	img := image.NewPaletted(c.out.Rect, c.out.Palette)
	for y := 0; y < c.out.Rect.Dy(); y++ {
		copy(img.Pix[img.PixOffset(0, y):][:canvasW], c.out.Pix[c.out.PixOffset(0, y):])
	}
	c.release()
	return img
}

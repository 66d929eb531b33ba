// Package picture draws a Pontoon table as a PNG: a felt table with the
// banker at its head and the players round it in play order, real-looking
// cards (corner indices, pips, court panels, patterned backs), each seat's
// name and stakes, the bank and the kitty, and at settlement each hand's
// result. It goes with the public table message at the moments that matter
// and, with Hand.Own, in a member's private panel.
//
// It is pure: it imports game, the standard library and golang.org/x/image
// (vector shapes, the compiled-in Go fonts) and nothing of Discord, the
// store or the catalog. The caller copies the table into a Table and passes
// words already translated in Labels; Render returns the PNG and its alt
// text.
//
// # Getting started
//
//	pic, err := picture.Render(picture.Table{
//		Bank: 4250, Labels: picture.Labels{Bank: "Bank", Banker: "Banker", FaceDown: "face down"},
//		Seats: []picture.Seat{
//			{Name: "Alice", Banker: true, Hands: []picture.Hand{{Cards: bankerCards}}},
//			{Name: "Bob", Turn: true, Hands: []picture.Hand{{Cards: bobCards, Stake: 20}}},
//		},
//	})
//	// Upload pic.PNG as picture.FileName with pic.Alt as the attachment's
//	// description, and point the embed's image at picture.EmbedURL.
//
// # Wiring it into the bot
//
// Attach a new picture at the moments that matter: the deal (the round
// enters staking), the banker's reveal (the banker's turn, R5.1) and the
// settlement (the round's Outcome is set). The embed's Image.URL is
// EmbedURL; the PNG goes up as FileName with the alt text as the
// attachment's description, through discordapi.SendMessage, EditMessage,
// Respond or EditResponse (discordgo alone cannot send a description). Any
// other edit goes without files and without an attachments array, and keeps
// Image.URL = EmbedURL: the picture stays. The text embed stays too, for
// screen readers and clients that load no images.
//
// Filling a Table from the engine: Seats in game.Game.Seats order (already
// clockwise) with Banker for the round's banker, Name the member's display
// name and Fallback their username; each seat's Hands from Round.Hands in
// order (split hands follow the first), Cards as they are (game.HandCard
// carries FaceUp), Stake, Turn for Round.Turn's hand while players act;
// the banker's one hand from Round.BankerHand, every card face up once the
// round settles; Result and Tone from the settlement (the hand's kind in
// words and its Net, Tone from Net's sign). Bank and Kitty as the text
// embed shows them, ShowKitty for Shoot. In a member's private panel set
// Own on their own hands.
//
// Start reading at picture.go (the types and Render), then canvas.go (the
// layout), cards.go and suits.go (the card art), sprite.go (how what is
// drawn once is kept and copied) and palette.go (why the PNG is paletted).
// image/png writes the PNG, at BestSpeed with its buffers pooled (picture.go).
// The golden pictures under testdata show what
// players see; `go test ./bot/view/picture -run TestGolden -update` redraws
// them.
//
// # Budget
//
// A 10-seat table (992 x 632) has a budget of 15 ms and 100 KB.
// Everything drawn more than once is drawn once and kept in a bounded cache:
// cards, chips, pills and frames as sprites whose opaque runs are already on
// the palette, letters and whole texts as placed glyph masks. A picture is
// drawn on the palette alone, over the pre-drawn felt: sprites copy their
// palette indices, and an edge or a letter blends with the palette's colour
// of what is under it (there is no full-colour picture to fill and put back,
// which under load cost more in cache misses than the drawing). About half of
// a render is image/png's encoding. A hand-written encoder that coded only
// the matches such a picture has, and reused the bare table's rows, was
// 1.4 to 2.2 times quicker than image/png at BestSpeed on the same pictures
// (BenchmarkEncodeAB, in the history), short of the twice that would pay for
// keeping a deflate of our own. With image/png a ten-seat table takes about
// 2.6 to 3.4 ms of CPU and 49 KB settled, 2.6 ms and 40 KB mid-round, a
// four-seat one 1.8 to 2.1 ms and 28 KB, on a shared 2-CPU machine. Measure
// with `go test -run XXX -bench . -benchmem ./bot/view/picture`: the bytes
// metric is the PNG's size, cpu-ns/op the CPU time (steadier than ns/op on a
// shared machine).
//
// Render is safe for concurrent use.
package picture

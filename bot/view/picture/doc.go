// Package picture draws a Pontoon table as a PNG: a felt table with the
// round's title, its phase and whose turn it is, the banker at the head of
// the table beside the bank and the kitty, and the players under them in
// play order, each with real-looking cards (a large rank and suit in the
// corner, one large suit on the face, patterned backs), the stake labelled
// ("Stake 20"), the total of the cards in view ("Showing 14", or "Total 21"
// when every card is in view) and at settlement each hand's result, under
// the cards. It goes with the public table message at the moments that
// matter and, with Hand.Own, in a member's private panel.
//
// It is pure: it imports game, the standard library and golang.org/x/image
// (vector shapes, the compiled-in Go fonts) and nothing of Discord, the
// store or the catalog. The caller copies the table into a Table and passes
// words already translated in Labels; Render returns the PNG and its alt
// text, which says in words what the picture shows, in the same order.
//
// # Getting started
//
//	pic, err := picture.Render(picture.Table{
//		Bank: 4250,
//		Labels: picture.Labels{Bank: "Bank", Banker: "Banker", FaceDown: "face down",
//			Phase: "Players' turns", ToAct: func(n string) string { return n + " to act" },
//			Stake: func(a string) string { return "Stake " + a }},
//		Seats: []picture.Seat{
//			{Name: "Alice", Banker: true, Hands: []picture.Hand{{Cards: bankerCards}}},
//			{Name: "Bob", Turn: true, Hands: []picture.Hand{{Cards: bobCards, Stake: 20}}},
//		},
//	})
//	// Upload pic.PNG as picture.FileName with pic.Alt as its description.
//
// # Read on a phone
//
// Discord shows the picture at the width of the message: about 400 pixels
// on a phone. The picture is 800 pixels wide, so everything in it is sized
// to read at half size: card indices at 24 px (a rank is 9 px high on the
// phone), names at 21 px, stakes, totals and results at 18 px. A fanned hand
// leaves each card's strip with its rank and suit in view (cardStep), and a
// seat too narrow for its hands narrows the strips before it shrinks the
// cards. The seats lie in a grid of three columns, as many rows as the
// players need (the picture grows taller, not smaller), so the largest
// table fits without anything cut: the bot seats ten (MaxSeats), the
// picture is drawn and tested up to twelve. Names the plate cannot hold end
// with an ellipsis, cut between graphemes and measured with the font.
// Check a change by scaling the golden pictures to 400 px wide and looking.
//
// # Whose turn, and the countdown
//
// The picture is redrawn only at the deal, the banker's reveal and the
// settlement (view.PictureMoment), so it cannot count down, and it shows
// the table as it stood at that moment, its phase saying which. It says
// whose turn it was ("Bob to act" under the phase, a gold frame and badge
// on the seat; while stakes are placed every member still to stake) and
// leaves the live turn and its countdown to the message's text, which
// Discord keeps live with a <t:…:R> timestamp. A clock time drawn in the
// picture would be in one time zone for readers in all of them.
//
// # Wiring it into the bot
//
// Attach a new picture at the moments that matter: the deal (the round
// enters staking), the banker's reveal (the banker's turn, R5.1) and the
// settlement (the round's Outcome is set). A message shows it by
// EmbedURL (an embed's image, or a Components V2 media item, whose
// description is then the alt text); the PNG goes up as FileName with the alt text as the
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
// carries FaceUp), Stake, Turn for the members to act (game.Game.ToAct) and
// their hand; the banker's one hand from Round.BankerHand, every card face
// up once the round settles; Result and Tone from the settlement (the
// hand's kind in words and its Net, Tone from Net's sign). Bank and Kitty
// as the message shows them, ShowKitty for Shoot; Labels.Phase the round's
// phase in words. In a member's private panel set Own on their own hands.
// bot/view's Renderer.Picture does all this.
//
// Start reading at picture.go (the types and Render), then canvas.go (the
// layout), cards.go and suits.go (the card art), alt.go (the alt text), sprite.go (how what is
// drawn once is kept and copied) and palette.go (why the PNG is paletted).
// image/png writes the PNG, at BestSpeed with its buffers pooled (picture.go).
// The golden pictures under testdata show what
// players see; `go test ./bot/view/picture -run TestGolden -update` redraws
// them.
//
// # Budget
//
// A ten-seat table (800 x 844) has a budget of 5 ms of CPU and 100 KB.
// Everything drawn more than once is drawn once and kept in a bounded cache:
// cards, chips, pills and frames as sprites whose opaque runs are already on
// the palette, letters and whole texts as placed glyph masks; the bare table
// is drawn once per number of rows. A picture is drawn on the palette alone,
// over the bare table: sprites copy their palette indices, and an edge or a
// letter blends with the palette's colour of what is under it (there is no
// full-colour picture to fill and put back, which under load cost more in
// cache misses than the drawing). About half of a render is image/png's
// encoding. A hand-written encoder that coded only the matches such a
// picture has was 1.4 to 2.2 times quicker than image/png at BestSpeed
// (BenchmarkEncodeAB, in the history), short of the twice that would pay
// for keeping a deflate of our own. With image/png a ten-seat table takes
// about 3.7 ms of CPU and 51 KB settled, 2.8 to 3.2 ms and 40 KB mid-round,
// a four-seat one 1.6 to 1.8 ms and 23 KB, on a shared 2-CPU machine.
// Measure with `go test -run XXX -bench . -benchmem ./bot/view/picture`: the
// bytes metric is the PNG's size, cpu-ns/op the CPU time (steadier than
// ns/op on a shared machine).
//
// Render is safe for concurrent use.
package picture

package view_test

import (
	"testing"

	"github.com/pontoon-bot/pontoon/bot/i18n"
	"github.com/pontoon-bot/pontoon/bot/view"
	"github.com/pontoon-bot/pontoon/bot/view/picture"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func names(member string) (string, string, bool) {
	if member == "ann" {
		return "Ann ✨", "ann", true
	}
	return "", "", false
}

// The picture shows the round as the text embed does: the banker at its head with the
// cards face down until the settlement (R5.1), the split seat's two hands (R4.2), the
// stakes and whose turn it is; at the settlement every card face up and each hand's
// result with its tone. The moment changes only at the deal, the reveal and the
// settlement.
func TestPictureFromTheSnapshot(t *testing.T) {
	r := view.New(i18n.MustLoad())
	mid := goldenTable(t, false)
	assert.Equal(t, "3/deal", view.PictureMoment(mid))
	pt := r.Picture("pl", mid, names, "")
	require.Len(t, pt.Seats, 3)
	assert.Equal(t, "Bankier", pt.Labels.Banker, "the labels are in the reader's language")
	assert.Equal(t, "1\u00a0000", pt.Labels.Amount(1000), "and so are the amounts (a no-break space in pl)")
	assert.True(t, pt.ShowKitty, "Shoot shows the kitty")
	bank, ann, bob := pt.Seats[0], pt.Seats[1], pt.Seats[2]
	assert.True(t, bank.Banker)
	assert.Equal(t, "Miejsce 1", bank.Name, "a member the bot has not seen is named by seat")
	for _, c := range bank.Hands[0].Cards {
		assert.False(t, c.FaceUp, "the banker's cards are face down while the players play (R5.1)")
	}
	assert.Equal(t, "Ann ✨", ann.Name)
	assert.Equal(t, "ann", ann.Fallback)
	require.Len(t, ann.Hands, 2, "ann split")
	assert.True(t, ann.Turn, "ann is to act")
	assert.True(t, ann.Hands[0].Turn, "on her first hand")
	assert.Equal(t, int64(10), ann.Hands[0].Stake)
	assert.False(t, ann.Hands[0].Own, "the public picture owns no hand")
	assert.False(t, bob.Turn)
	assert.Empty(t, ann.Hands[0].Result, "no results before the settlement")

	own := r.Picture("en", mid, names, "ann")
	assert.True(t, own.Seats[1].Hands[0].Own, "a member's own picture shows their hands face up")
	assert.False(t, own.Seats[2].Hands[0].Own, "and nobody else's")

	done := goldenTable(t, true)
	assert.Equal(t, "3/settled", view.PictureMoment(done))
	pt = r.Picture("en", done, names, "")
	for _, s := range pt.Seats {
		for _, h := range s.Hands {
			for _, c := range h.Cards {
				assert.True(t, c.FaceUp, "every card is shown at the settlement")
			}
			assert.NotEmpty(t, h.Result, "%s has a result", s.Name)
		}
	}
	for _, h := range pt.Seats[1].Hands {
		switch {
		case h.Tone == picture.Win:
			assert.Contains(t, h.Result, "+")
		case h.Tone == picture.Loss:
			assert.Contains(t, h.Result, "−")
		}
	}
	pic, err := picture.Render(pt)
	require.NoError(t, err)
	assert.Contains(t, pic.Alt, "Ann ✨")
}

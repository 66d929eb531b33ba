package view_test

import (
	"testing"

	"github.com/pontoon-bot/pontoon/bot/view"
	"github.com/stretchr/testify/assert"
)

// The stake select offers what a person would pick: every amount when they fit in a
// select, else round steps with both ends and the last stake.
func TestAmountChoices(t *testing.T) {
	assert.Equal(t, []int64{1, 2, 3, 4, 5}, view.AmountChoices(1, 5, 0))
	assert.Equal(t, []int64{1, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50}, view.AmountChoices(1, 50, 0))
	assert.Equal(t, []int64{1, 5, 7, 10, 15, 20, 25, 30, 35, 40, 45, 50}, view.AmountChoices(1, 50, 7))
	assert.Equal(t, []int64{1, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50}, view.AmountChoices(1, 50, 10), "a last stake on a step is not repeated")
	got := view.AmountChoices(3, 1000, 333)
	assert.LessOrEqual(t, len(got), 25)
	assert.Equal(t, int64(3), got[0])
	assert.Equal(t, int64(1000), got[len(got)-1])
	assert.Contains(t, got, int64(333))
	assert.IsIncreasing(t, got)
	for _, v := range got {
		if v != 3 && v != 1000 && v != 333 {
			assert.Zero(t, v%50, "%d is a round step", v)
		}
	}
	big := view.AmountChoices(1, 1_000_000_000_000, 0)
	assert.LessOrEqual(t, len(big), 25)
	assert.IsIncreasing(t, big)
}

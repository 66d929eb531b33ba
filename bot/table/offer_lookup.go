package table

import "context"

// StandingOffer is the offer with that id while it stands (not ended, not expired), for
// a caller that must know where it was posted before it lets anyone answer it.
func (m *Manager) StandingOffer(ctx context.Context, id string) (Offer, bool, error) {
	return m.standingOffer(ctx, id)
}

package table

import (
	"context"
	"encoding/hex"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
)

// Seeded shuffles (HISTORY.md, "Seeded shuffles"): a freshly shuffled pack is derived at
// Deal with pontoon-shuffle/1 from a server seed the table committed to before (its
// commitment is on the table), the id Discord gave the interaction that pressed Deal, and
// the seeds members added. The bot draws the seed and cannot know the rest when it
// commits, so it cannot choose the order. The seed stays secret while its pack is in play
// or carried to the next round (R6.1) and is revealed when the pack is shuffled away.

// MaxMemberSeeds bounds the member seeds a pack takes, so the entropy stays short and the
// table's line stays true.
const MaxMemberSeeds = 10

// MaxSeedLen bounds a member seed, in characters.
const MaxSeedLen = 64

// Seeds is what the table shows of the pack it will shuffle next: the commitment and how
// many members have added a seed.
type Seeds struct {
	Commitment string
	Members    int
}

// drawSeed draws a fresh server seed from the entropy source (crypto/rand in production).
func (m *Manager) drawSeed() (store.ShuffleSeed, error) {
	seed := make([]byte, game.SeedSize)
	if _, err := io.ReadFull(m.opt.Random, seed); err != nil {
		return store.ShuffleSeed{}, err
	}
	return store.ShuffleSeed{Commitment: game.ShuffleCommitment(seed), ServerSeed: hex.EncodeToString(seed)}, nil
}

// ensureSeed loads the table's pending seed, committing to a fresh one when it has none,
// so the commitment shows before anyone presses Deal and survives a restart. A failure is
// only logged: the deal then commits to a seed itself. t.mu must be held, or t not yet
// shared.
func (t *Table) ensureSeed(ctx context.Context) {
	cand, err := t.m.drawSeed()
	if err == nil {
		var p store.ShuffleSeed
		if p, err = t.m.st.CommitSeed(ctx, t.id, cand, t.m.now()); err == nil {
			t.seed = &p
			return
		}
	}
	t.m.log.Error("shuffle seed not committed", "table", t.id, "err", err)
}

// AddSeed records a member's seed for the next freshly shuffled pack and returns the
// table and how many members have added one. The text is checked by the caller's rules
// (SeedText).
func (t *Table) AddSeed(ctx context.Context, member, text string) (Snapshot, int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed || t.closing {
		return t.snapshot(), 0, Refuse("err.table_closed")
	}
	if t.seed == nil {
		t.ensureSeed(ctx)
		if t.seed == nil {
			return t.snapshot(), 0, Refuse("err.not_saved")
		}
	}
	n, err := t.m.st.AddMemberSeed(ctx, t.id, t.seed.Commitment, member, text, MaxMemberSeeds, t.m.now())
	switch {
	case errors.Is(err, store.ErrSeedTaken):
		return t.snapshot(), n, Refuse("err.seed_taken")
	case errors.Is(err, store.ErrSeedsFull):
		return t.snapshot(), n, Refuse("err.seeds_full", "Max", MaxMemberSeeds)
	case err != nil:
		return t.snapshot(), 0, err
	}
	t.seed.MemberSeeds = append(t.seed.MemberSeeds, store.MemberSeed{Member: member, Seed: text})
	t.m.n.Changed(t)
	return t.snapshot(), n, nil
}

// seededPack derives the round's pack from the pending seed (pontoon-shuffle/1) and says
// what the deal must record: the round's seeded_shuffle (no server seed: the pack is in
// play) and the store's use of the seed with the next one to commit to. t.mu must be held.
func (t *Table) seededPack(ctx context.Context, interactionID string, decks int) ([]game.Card, *game.SeededShuffle, *store.SeedUse, error) {
	if t.seed == nil {
		// Nothing was shown (the commitment could not be saved before): commit now. The
		// Deal interaction's id is still entropy the bot did not choose.
		if t.ensureSeed(ctx); t.seed == nil {
			return nil, nil, nil, Refuse("err.not_saved")
		}
	}
	seed, err := hex.DecodeString(t.seed.ServerSeed)
	if err != nil {
		return nil, nil, nil, err
	}
	var members []string
	for _, s := range t.seed.MemberSeeds {
		members = append(members, s.Seed)
	}
	if interactionID == "" {
		interactionID = "0"
	}
	pack, err := game.DealPack(seed, interactionID, members, decks)
	if err != nil {
		return nil, nil, nil, err
	}
	next, err := t.m.drawSeed()
	if err != nil {
		return nil, nil, nil, err
	}
	ss := &game.SeededShuffle{Alg: game.ShuffleAlg, Commitment: t.seed.Commitment, Entropy: game.DealEntropy(interactionID, members)}
	return pack, ss, &store.SeedUse{Commitment: t.seed.Commitment, MemberSeeds: len(members), Next: next}, nil
}

// seeds is what the snapshot shows of the pending seed. t.mu must be held.
func (t *Table) seeds() *Seeds {
	if t.seed == nil {
		return nil
	}
	return &Seeds{Commitment: t.seed.Commitment, Members: len(t.seed.MemberSeeds)}
}

// revealSeeds makes public the seeds of the packs shuffled away; only logged on failure,
// since the next fresh deal reveals them again in its own transaction. t.mu must be held.
func (t *Table) revealSeeds(ctx context.Context) {
	if err := t.m.st.RevealSeeds(ctx, t.id, t.m.now()); err != nil {
		t.m.log.Error("shuffle seeds not revealed", "table", t.id, "err", err)
	}
}

// SeedText checks a member's seed: trimmed, not empty, at most MaxSeedLen characters,
// printable. It returns the text to record.
func SeedText(s string) (string, error) {
	r := []rune(strings.TrimSpace(s))
	if len(r) == 0 {
		return "", Refuse("err.seed_empty")
	}
	if len(r) > MaxSeedLen {
		return "", Refuse("err.seed_long", "Max", MaxSeedLen)
	}
	if slices.ContainsFunc(r, invisible) {
		return "", Refuse("err.seed_control")
	}
	return string(r), nil
}

// ActAll applies a member's actions in order as one click, once guard accepts it: the
// panel's "Shoot & twist" (R9.4), so the member never sees a three-card shoot bet
// waiting for its card. The whole list goes through the engine on a copy and then
// commits in one transaction (applyAll), so either every action applies or none does:
// the first under interactionID and the next under interactionID with ".2", ".3"
// appended (the store applies an interaction once).
func (t *Table) ActAll(ctx context.Context, as []game.Action, interactionID string, guard Guard) (Snapshot, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return t.snapshot(), Refuse("err.table_closed")
	}
	if len(as) == 0 {
		return t.snapshot(), Refuse("err.not_now")
	}
	if guard != nil {
		if err := guard(t.round.Number, t.mseq[as[0].Player]); err != nil {
			return t.snapshot(), err
		}
	}
	if !t.inRound() {
		return t.snapshot(), Refuse("err.no_round")
	}
	ids := make([]string, len(as))
	for i := range as {
		if ids[i] = interactionID; i > 0 && interactionID != "" {
			ids[i] += "." + strconv.Itoa(i+1)
		}
	}
	if _, err := t.applyAll(ctx, as, ids); err != nil {
		return t.snapshot(), err
	}
	return t.snapshot(), nil
}

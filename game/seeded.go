package game

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"slices"
)

// ShuffleAlg names the seeded shuffle of HISTORY.md ("Seeded shuffles").
const ShuffleAlg = "pontoon-shuffle/1"

// SeedSize is the length in bytes of a pontoon-shuffle/1 server seed.
const SeedSize = 32

// ShuffleCommitment is what the bot shows before the deal: the lower-case hex SHA-256 of
// the server seed (pontoon-shuffle/1, step 1). The seed itself stays secret until its pack
// is shuffled away, since it tells the cards to come.
func ShuffleCommitment(serverSeed []byte) string {
	sum := sha256.Sum256(serverSeed)
	return hex.EncodeToString(sum[:])
}

// DealEntropy is the entropy of a pack dealt by pressing Deal: the snowflake id Discord
// gave that interaction, then the seeds members added for the pack, in the order added.
// Neither is known to the bot when it commits to its server seed, so it cannot pick the
// order.
func DealEntropy(dealInteractionID string, memberSeeds []string) []string {
	return append([]string{dealInteractionID}, memberSeeds...)
}

// SeededPack derives a pack from a server seed and entropy exactly as HISTORY.md's
// pontoon-shuffle/1 says: a key from HMAC-SHA256 of the seed over the algorithm name and
// each entropy string after a zero byte, a stream of HMAC-SHA256(key, counter) blocks
// read as big-endian uint64s, and a Fisher–Yates shuffle of the fresh order (R1.2) with
// rejection so that every order is equally likely. The engine has no random source of its
// own: the caller draws the seed (crypto/rand in the bot) and passes it in.
func SeededPack(serverSeed []byte, entropy []string, decks int) ([]Card, error) {
	if len(serverSeed) != SeedSize {
		return nil, fmt.Errorf("a %s server seed is %d bytes, not %d", ShuffleAlg, SeedSize, len(serverSeed))
	}
	if decks != 1 && decks != 2 {
		return nil, fmt.Errorf("a pack is 1 or 2 decks, not %d", decks)
	}
	mac := hmac.New(sha256.New, serverSeed)
	mac.Write([]byte(ShuffleAlg))
	for _, e := range entropy {
		mac.Write([]byte{0})
		mac.Write([]byte(e))
	}
	s := &shuffleStream{mac: hmac.New(sha256.New, mac.Sum(nil))}
	pack := NewPack(decks)
	for i := len(pack) - 1; i >= 1; i-- {
		n := uint64(i + 1)
		rem := -n % n // 2^64 mod n
		x := s.next()
		for rem != 0 && x >= -rem { // x >= 2^64 - (2^64 mod n): reject, or j would favour low values
			x = s.next()
		}
		j := int(x % n)
		pack[i], pack[j] = pack[j], pack[i]
	}
	return pack, nil
}

// DealPack is SeededPack for a pack dealt by pressing Deal (see DealEntropy).
func DealPack(serverSeed []byte, dealInteractionID string, memberSeeds []string, decks int) ([]Card, error) {
	return SeededPack(serverSeed, DealEntropy(dealInteractionID, memberSeeds), decks)
}

// shuffleStream is pontoon-shuffle/1's byte stream: HMAC-SHA256(key, counter as 8 bytes
// big-endian) for counter 0, 1, 2, ..., read 8 bytes at a time.
type shuffleStream struct {
	mac     hash.Hash
	counter uint64
	block   []byte
}

func (s *shuffleStream) next() uint64 {
	if len(s.block) == 0 {
		var c [8]byte
		binary.BigEndian.PutUint64(c[:], s.counter)
		s.counter++
		s.mac.Reset()
		s.mac.Write(c[:])
		s.block = s.mac.Sum(nil)
	}
	x := binary.BigEndian.Uint64(s.block)
	s.block = s.block[8:]
	return x
}

// SeededShuffle is a round's "seeded_shuffle" (HISTORY.md): how its pack was made. Before
// the pack is shuffled away ServerSeed is empty, and only the commitment and entropy are
// on record.
type SeededShuffle struct {
	Alg        string   `json:"alg"`
	Commitment string   `json:"commitment"`
	ServerSeed string   `json:"server_seed,omitempty"`
	Entropy    []string `json:"entropy"`
}

// Verify checks a round's pack against its seeded shuffle: the commitment against the
// revealed seed, and the pack against the derivation. revealed is false when the seed is
// not yet revealed, and then nothing of the derivation could be checked.
func (s SeededShuffle) Verify(pack []Card, decks int) (revealed bool, err error) {
	if s.Alg != ShuffleAlg {
		return false, fmt.Errorf("seeded_shuffle: alg is %q; this replay knows %q", s.Alg, ShuffleAlg)
	}
	if len(s.Commitment) != 2*sha256.Size {
		return false, fmt.Errorf("seeded_shuffle: the commitment must be %d hex digits", 2*sha256.Size)
	}
	if _, err := hex.DecodeString(s.Commitment); err != nil {
		return false, fmt.Errorf("seeded_shuffle: the commitment is not hex")
	}
	if s.ServerSeed == "" {
		return false, nil
	}
	seed, err := hex.DecodeString(s.ServerSeed)
	if err != nil || len(seed) != SeedSize {
		return true, fmt.Errorf("seeded_shuffle: server_seed must be %d bytes as %d hex digits", SeedSize, 2*SeedSize)
	}
	if got := ShuffleCommitment(seed); got != s.Commitment {
		return true, fmt.Errorf("seeded_shuffle: the server seed's SHA-256 is %s, not the commitment %s", got, s.Commitment)
	}
	want, err := SeededPack(seed, s.Entropy, decks)
	if err != nil {
		return true, fmt.Errorf("seeded_shuffle: %w", err)
	}
	if !slices.Equal(want, pack) {
		at := 0
		for at < min(len(want), len(pack)) && want[at] == pack[at] {
			at++
		}
		if at == len(pack) || at == len(want) {
			return true, fmt.Errorf("seeded_shuffle: the pack lists %d cards; the derivation gives %d", len(pack), len(want))
		}
		return true, fmt.Errorf("seeded_shuffle: card %d of the pack is %s; the derivation from seed and entropy gives %s", at+1, pack[at], want[at])
	}
	return true, nil
}

// Package ids makes the ULIDs that the mbc-cqrs-serverless conventions use
// as ids (package conventions' SimpleEntity and the other patterns take
// them as segments). It is a package of its own so that programs checking
// the conventions, the emulator's server among them, do not link
// github.com/oklog/ulid/v2 and its initialisation (start-up time).
package ids

import (
	"crypto/rand"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/oklog/ulid/v2"
)

// IDGenerator makes ULIDs (github.com/oklog/ulid/v2) that sort in the order
// they were made: within one millisecond the random part is incremented
// (ulid.Monotonic), and a clock that steps back is held at the last
// millisecond used, so a later id is never smaller. It is safe for
// concurrent use.
type IDGenerator struct {
	now func() time.Time

	mu      sync.Mutex // guards entropy and lastMS
	entropy *ulid.MonotonicEntropy
	lastMS  uint64
}

// NewIDGenerator returns a generator reading the clock now and the random
// source entropy; nil means time.Now and crypto/rand. Tests pass a fixed
// clock and a seeded source (math/rand.New(rand.NewSource(seed))) to get
// the same ids on every run.
func NewIDGenerator(now func() time.Time, entropy io.Reader) *IDGenerator {
	if now == nil {
		now = time.Now
	}
	if entropy == nil {
		entropy = rand.Reader
	}
	return &IDGenerator{now: now, entropy: ulid.Monotonic(entropy, 0)}
}

// New returns the next ULID. It fails only when the random source does, or
// past the year 10889 (ulid.ErrBigTime).
func (g *IDGenerator) New() (ulid.ULID, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	ms := max(ulid.Timestamp(g.now()), g.lastMS)
	for {
		id, err := ulid.New(ms, g.entropy)
		if errors.Is(err, ulid.ErrMonotonicOverflow) {
			ms++ // the millisecond's ids are used up: borrow the next one
			continue
		}
		if err != nil {
			return ulid.ULID{}, err
		}
		g.lastMS = ms
		return id, nil
	}
}

// NewString returns the next ULID in its 26-character text form.
func (g *IDGenerator) NewString() (string, error) {
	id, err := g.New()
	if err != nil {
		return "", err
	}
	return id.String(), nil
}

var defaultIDs = NewIDGenerator(nil, nil)

// NewULID returns a ULID string from a package generator on the system clock
// and crypto/rand; ids from it sort by creation within the process.
func NewULID() string {
	s, err := defaultIDs.NewString()
	if err != nil {
		panic("ids: " + err.Error()) // crypto/rand does not fail
	}
	return s
}

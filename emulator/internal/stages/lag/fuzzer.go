package lag

import (
	"errors"
	"hash/fnv"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/faults/lag"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Bounds are the fuzz mode's bounds on a commit's lag: hidden from 1 to
// MaxReads reads of its view, and shown between MinDelay and MaxDelay
// after it whatever the reads. AWS documents a second: a GSI "within 1
// second" (re:Post, "dynamodb-missing-table-items-gsi"), eventually
// consistent reads "usually within one second or less" (Developer Guide,
// HowItWorks.ReadConsistency), streams "in near-real time"
// (Streams.html, no figure; the same second here).
var Bounds = lag.Fuzz{MaxReads: 3, MinDelay: 500 * time.Millisecond, MaxDelay: time.Second}

// maxReports bounds the stale reads a Fuzzer keeps (the first ones).
const maxReports = 10000

// ErrMode: a consistency mode that is not "", "strong" or "fuzz:SEED".
var ErrMode = errors.New(`consistency: want "strong" or "fuzz:SEED" (SEED a number from 0 to 2^64-1)`)

// ParseMode reads a consistency mode: "" or "strong" (no fuzzing: fuzz
// false), or "fuzz:SEED" with SEED a decimal uint64.
func ParseMode(s string) (seed uint64, fuzz bool, err error) {
	switch s {
	case "", "strong":
		return 0, false, nil
	}
	rest, ok := strings.CutPrefix(s, "fuzz:")
	if !ok || rest == "" || rest[0] == '+' {
		return 0, false, ErrMode
	}
	seed, err = strconv.ParseUint(rest, 10, 64)
	if err != nil {
		return 0, false, ErrMode
	}
	return seed, true, nil
}

// Fuzzer is one service's consistency fuzzing: its seed, the views it
// lags and the stale reads it saw. Safe for concurrent use.
type Fuzzer struct {
	seed uint64

	mu      sync.Mutex // guards the fields below; a leaf but for the gates' locks
	views   map[*lag.Gate]*view
	stale   []StaleRead
	dropped int // stale reads past maxReports, not kept
	watches map[*Watch]struct{}
}

// Watch collects the stale reads a Fuzzer sees from Watch to Unwatch,
// apart from the report (Reset does not touch it): a test's own, which
// the tests beside it neither see nor forget.
type Watch struct {
	stale   []StaleRead // guarded by the Fuzzer's mu
	dropped int
}

// Watch starts collecting the stale reads seen from now on.
func (f *Fuzzer) Watch() *Watch {
	f.mu.Lock()
	defer f.mu.Unlock()
	w := &Watch{}
	if f.watches == nil {
		f.watches = map[*Watch]struct{}{}
	}
	f.watches[w] = struct{}{}
	return w
}

// Unwatch stops w and returns the stale reads it collected, oldest
// first, and how many more it saw past the bound kept (maxReports).
func (f *Fuzzer) Unwatch(w *Watch) (stale []StaleRead, dropped int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.watches, w)
	return w.stale, w.dropped
}

// NewFuzzer returns the fuzzing of a service with seed.
func NewFuzzer(seed uint64) *Fuzzer {
	return &Fuzzer{seed: seed, views: map[*lag.Gate]*view{}}
}

// Seed is the fuzzer's seed.
func (f *Fuzzer) Seed() uint64 { return f.seed }

// View kinds, as StaleRead.View names them.
const (
	ViewTable  = "table"  // a table's (or an LSI's) eventually consistent reads
	ViewIndex  = "index"  // a GSI
	ViewStream = "stream" // a table's stream (GetRecords)
)

// view is one lagged view: what it is, and the writes its gate has
// numbered and not shown yet, oldest first.
type view struct {
	of           service.Table // the table it is a view of, till forget
	kind         string
	table, index string
	keys         [2]string // the view's key attributes (partition, sort; "": none)
	base         uint64    // a stream's: its record numbered base + commit
	lastSeq      uint64    // the commit of the last write recorded
	writes       []write
}

// write is one write a view has not shown yet.
type write struct {
	seq     uint64 // its commit on the view's gate
	op      string
	key     storage.Key
	keyAttr [2]string
	event   string
	at      time.Time
	// parts are the view's partition key values of the item before
	// and after (a GSI's), when known.
	parts     [2]storage.Value
	partKnown bool
}

// gateFuzz is the fuzz mode of the gate of view kind/table/index: the
// bounds, seeded by the fuzzer's seed and the view's name.
func (f *Fuzzer) gateFuzz(kind, table, index string) lag.Fuzz {
	h := fnv.New64a()
	h.Write([]byte(kind + "\x00" + table + "\x00" + index))
	z := Bounds
	z.Seed = f.seed ^ h.Sum64()
	return z
}

// install puts g, the gate of a view, in fuzz mode (once) and records
// the view.
func (f *Fuzzer) install(g *lag.Gate, v *view) {
	if !g.Fuzzing() {
		g.SetFuzz(f.gateFuzz(v.kind, v.table, v.index))
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if old, ok := f.views[g]; ok {
		old.keys, old.base = v.keys, v.base
		return
	}
	f.views[g] = v
}

// forget forgets the views of the tables of, so that nothing keeps
// them: a table deleted, or every table of a namespace gone.
func (f *Fuzzer) forget(of func(service.Table) bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for g, v := range f.views {
		if of(v.of) {
			delete(f.views, g)
		}
	}
}

// viewOf returns the view of gate g (nil: not one the fuzzer lags).
func (f *Fuzzer) viewOf(g *lag.Gate) *view {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.views[g]
}

// Report returns the stale reads seen so far, oldest first, and how many
// more were seen past the bound kept.
func (f *Fuzzer) Report() (stale []StaleRead, dropped int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]StaleRead(nil), f.stale...), f.dropped
}

// Reset forgets the stale reads seen so far (the lags go on).
func (f *Fuzzer) Reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stale, f.dropped = nil, 0
}

// reportLocked adds a stale read to the report and to each Watch; f.mu
// is held.
func (f *Fuzzer) reportLocked(r StaleRead) {
	for w := range f.watches {
		if len(w.stale) >= maxReports {
			w.dropped++
		} else {
			w.stale = append(w.stale, r)
		}
	}
	if len(f.stale) >= maxReports {
		f.dropped++
		return
	}
	f.stale = append(f.stale, r)
}

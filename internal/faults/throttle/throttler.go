package throttle

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// Mode is a table's capacity mode.
type Mode uint8

// Capacity modes.
const (
	// Provisioned: reads and writes are limited by the table's and each
	// GSI's provisioned capacity (token buckets with burst capacity).
	Provisioned Mode = iota + 1
	// OnDemand: only the per-partition-key limits apply (Options.PerKey).
	OnDemand
)

// Throughput is capacity units per second.
type Throughput struct {
	Read, Write float64
}

// Table is what the throttler needs of one table: its mode, and for a
// provisioned table its provisioned throughput and that of each global
// secondary index. An on-demand table lists its GSIs in Indexes too (the
// values are ignored), so that their keys are limited apart from the
// table's. An index not listed (a local secondary index) shares the
// table's capacity and partitions, as on AWS.
type Table struct {
	Mode    Mode
	Table   Throughput
	Indexes map[string]Throughput
	// KeysOnly, for a Provisioned table, leaves its provisioned capacity
	// (and its GSIs') unenforced: only the per-partition-key limits apply
	// (Options.PerKey), and a hot key is refused as a provisioned table's
	// is, with ProvisionedThroughputExceeded. AWS's developer guide
	// ("Troubleshooting throttling") lists key range throttling "in both
	// modes", and a provisioned table's throttling exception is
	// ProvisionedThroughputExceededException. Table and Indexes need not
	// hold throughput then.
	KeysOnly bool
	// VectorSearch limits SearchVectors on each vector index listed:
	// VectorSearchRequestBytes per second (the unit AWS bills searches
	// in; a search draws on no read capacity of the table). AWS
	// publishes no such limit: it is the emulator's, for testing a
	// client's retries. A bucket holds one second's worth and starts
	// full. An index not listed is not limited.
	VectorSearch map[string]float64
}

// Options configure a Throttler.
type Options struct {
	// Clock is the emulator's clock (time.Now if nil): buckets fill as it
	// moves, so a test that advances it repays throttled capacity.
	Clock func() time.Time
	// Burst is how much unused capacity a provisioned table or GSI keeps:
	// AWS's developer guide ("Using burst capacity effectively") says
	// DynamoDB retains up to 300 seconds of unused read and write
	// capacity. 0 means 300 s; a bucket never holds less than one second
	// of throughput. A new bucket starts full.
	Burst time.Duration
	// PerKey enforces the per-partition-key limits (KeyRead and KeyWrite
	// units per second on one partition key value of a table or GSI; AWS
	// documents 3,000 RCU and 1,000 WCU per partition), in both modes;
	// burst capacity does not apply to them.
	PerKey bool
	// KeyRead and KeyWrite are those limits; 0 means 3000 and 1000.
	KeyRead, KeyWrite float64
}

// Use is one use of capacity: reads or writes of a table or of one of its
// indexes (reads of a GSI, and each GSI a write updates, are charged to
// the GSI), on one partition key value ("" when there is none, as for a
// Scan: no per-key limit applies).
type Use struct {
	Table     string
	Index     string
	Partition string // the partition key value as text (storage.Value.Str)
	Write     bool
	// Vector: a SearchVectors use of the vector index Index, charged in
	// VectorSearchRequestBytes (Table.VectorSearch).
	Vector bool
}

// Throttler enforces tables' capacity with token buckets driven by the
// emulator's clock. Only tables given to Configure are throttled. It is
// safe for concurrent use.
type Throttler struct {
	clock    func() time.Time
	burst    float64 // seconds
	perKey   bool
	keyRate  [2]float64 // read, write
	nTables  atomic.Int32
	mu       sync.Mutex // guards tables and every bucket in them
	tables   map[string]*tableState
	keyCount int // per-key buckets in all tables
	sweepAt  int // sweep full per-key buckets when keyCount reaches it
}

// tableState is one configured table's buckets.
type tableState struct {
	mode Mode
	// rw holds the provisioned buckets of the table ("") and of each GSI
	// by name, read and write; nil in on-demand mode.
	rw map[string]*[2]*bucket
	// gsi names the table's global secondary indexes.
	gsi map[string]bool
	// keys holds the per-key buckets by resource (the table "" or a
	// GSI), direction and partition key value.
	keys map[keyRes]map[string]*bucket
	// vs holds the search buckets of the limited vector indexes by name
	// (Table.VectorSearch).
	vs map[string]*bucket
}

// keyRes is a resource's per-key buckets in one direction.
type keyRes struct {
	index string
	write bool
}

// ErrTable: a Table given to Configure is not valid.
var ErrTable = errors.New("throttle: invalid table capacity")

// New returns a throttler with no table.
func New(o Options) *Throttler {
	t := &Throttler{clock: o.Clock, perKey: o.PerKey, tables: map[string]*tableState{}, sweepAt: minSweep}
	if t.clock == nil {
		t.clock = time.Now
	}
	t.burst = 300
	if o.Burst > 0 {
		t.burst = max(1, o.Burst.Seconds())
	}
	t.keyRate = [2]float64{3000, 1000}
	if o.KeyRead > 0 {
		t.keyRate[0] = o.KeyRead
	}
	if o.KeyWrite > 0 {
		t.keyRate[1] = o.KeyWrite
	}
	return t
}

// Active reports whether any table is throttled: when it is false, a
// caller need not build its Use (one inlined nil check and atomic load).
//
//gcassert:inline
func (t *Throttler) Active() bool { return t != nil && t.nTables.Load() > 0 }

// validThroughput reports whether v is capacity units per second.
func validThroughput(v float64) bool { return v > 0 && !math.IsInf(v, 0) && !math.IsNaN(v) }

// Configure starts throttling table name as c says, or changes how (an
// UpdateTable): buckets that remain keep what they hold, up to their new
// size; a change of mode starts afresh.
func (t *Throttler) Configure(name string, c Table) error {
	if c.Mode != Provisioned && c.Mode != OnDemand {
		return fmt.Errorf("%w %q: mode %d", ErrTable, name, c.Mode)
	}
	if c.Mode == Provisioned && !c.KeysOnly {
		if !validThroughput(c.Table.Read) || !validThroughput(c.Table.Write) {
			return fmt.Errorf("%w %q: provisioned throughput %+v", ErrTable, name, c.Table)
		}
		for ix, tp := range c.Indexes {
			if ix == "" || !validThroughput(tp.Read) || !validThroughput(tp.Write) {
				return fmt.Errorf("%w %q: index %q throughput %+v", ErrTable, name, ix, tp)
			}
		}
	}
	for ix, rate := range c.VectorSearch {
		if ix == "" || !validThroughput(rate) {
			return fmt.Errorf("%w %q: vector index %q search bytes %v", ErrTable, name, ix, rate)
		}
	}
	now := t.clock().UnixNano()
	t.mu.Lock()
	defer t.mu.Unlock()
	ts := t.tables[name]
	if ts == nil || ts.mode != c.Mode {
		if ts == nil {
			t.nTables.Add(1)
		} else {
			t.keyCount -= ts.keyBuckets()
		}
		ts = &tableState{mode: c.Mode, keys: map[keyRes]map[string]*bucket{}}
		t.tables[name] = ts
	}
	ts.gsi = map[string]bool{}
	for ix := range c.Indexes {
		ts.gsi[ix] = true
	}
	oldVS := ts.vs
	ts.vs = nil
	for ix, rate := range c.VectorSearch {
		if ts.vs == nil {
			ts.vs = map[string]*bucket{}
		}
		b := oldVS[ix]
		if b == nil {
			b = newBucket(rate, rate, now)
		} else {
			b.refill(now)
			b.resize(rate, rate)
		}
		ts.vs[ix] = b
	}
	if c.Mode == OnDemand || c.KeysOnly {
		ts.rw = nil
		return nil
	}
	old := ts.rw
	ts.rw = map[string]*[2]*bucket{}
	set := func(res string, tp Throughput) {
		b := old[res]
		if b == nil {
			b = &[2]*bucket{newBucket(tp.Read, t.burst*tp.Read, now), newBucket(tp.Write, t.burst*tp.Write, now)}
		} else {
			b[0].refill(now)
			b[1].refill(now)
			b[0].resize(tp.Read, t.burst*tp.Read)
			b[1].resize(tp.Write, t.burst*tp.Write)
		}
		ts.rw[res] = b
	}
	set("", c.Table)
	for ix, tp := range c.Indexes {
		set(ix, tp)
	}
	return nil
}

// Drop stops throttling table name (DeleteTable) and forgets its buckets.
func (t *Throttler) Drop(name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if ts, ok := t.tables[name]; ok {
		t.keyCount -= ts.keyBuckets()
		delete(t.tables, name)
		t.nTables.Add(-1)
	}
}

// keyBuckets counts the table's per-key buckets.
func (ts *tableState) keyBuckets() int {
	n := 0
	for _, m := range ts.keys {
		n += len(m)
	}
	return n
}

// resource returns the name whose capacity and partitions a use of index
// draws on: a GSI's own, or the table's ("") for the table and its LSIs.
func (ts *tableState) resource(index string) string {
	if ts.gsi[index] {
		return index
	}
	return ""
}

// dir is a use's direction as an index into [read, write].
func dir(write bool) int {
	if write {
		return 1
	}
	return 0
}

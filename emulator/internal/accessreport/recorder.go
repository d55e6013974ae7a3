package accessreport

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/access"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Options configure a Recorder.
type Options struct {
	// Clock is the emulator's clock (time.Now if nil): it stamps the
	// report's start and Contributor Insights' state changes and rules.
	Clock func() time.Time
	// TopKeys is how many keys are counted per table or index for each
	// of the hot-key counters (accessed and throttled, partition keys and
	// full keys); 0 means 64. The report shows the first 10.
	TopKeys int
	// Costliest is how many of the costliest requests are kept; 0 means 10.
	Costliest int
	// UnmatchedShapes bounds the kinds of unmatched requests kept; 0 means 50.
	UnmatchedShapes int
	// InsightsSettle is how long Contributor Insights stays ENABLING or
	// DISABLING after a change (AWS: about a second); 0: until the next
	// Describe, so that UpdateContributorInsights answers ENABLING and a
	// DescribeContributorInsights after it ENABLED.
	InsightsSettle time.Duration
}

// Recorder collects what the requests do to each table and index: the
// access-pattern report (when reporting is on) and the counters of the
// tables and indexes whose Contributor Insights is enabled. It is safe
// for concurrent use; with reporting off and no Contributor Insights
// enabled, On is false and callers skip Record (one atomic load).
type Recorder struct {
	// watchers is 1 while reporting plus the number of tables and
	// indexes whose Contributor Insights collects: On is watchers > 0.
	watchers atomic.Int32
	clock    func() time.Time
	opts     Options

	mu        sync.Mutex // guards the fields below
	reporting bool
	since     time.Time
	seq       int64 // requests recorded while reporting
	res       map[resKey]*resStats
	costly    costHeap
	design    *insights.Design
	static    []insights.Finding // design.Check()
	patterns  map[*insights.Pattern]*patternStats
	unmatched map[shapeKey]*unmatchedStats
	dropped   int64 // unmatched requests of shapes not kept
	ci        map[resKey]*ciEntry
}

// resKey names a table ("" index) or one of its indexes.
type resKey struct{ table, index string }

// resStats is what the requests did to one table or index.
type resStats struct {
	ops                        map[string]*opStats
	byAccess                   [access.Count]int64
	itemsRead, itemsReturned   int64
	filterRead, filterReturned int64 // of requests with a filter
	readUnits, writeUnits      float64
	vectorSearch, vectorWrite  float64 // bytes
	throttled                  int64
	hotPK, hotKey              *topK // consumed throughput units per partition key, per full key
	throttledPK, throttledKey  *topK // throttled requests per partition key, per full key
}

// opStats is what the requests of one operation did to a table or index.
type opStats struct {
	requests, itemsRead, itemsReturned, throttled int64
	readUnits, writeUnits                         float64
	vectorSearch, vectorWrite                     float64 // bytes
}

// New returns a recorder, not reporting.
func New(o Options) *Recorder {
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.TopKeys <= 0 {
		o.TopKeys = 64
	}
	if o.Costliest <= 0 {
		o.Costliest = 10
	}
	if o.UnmatchedShapes <= 0 {
		o.UnmatchedShapes = 50
	}
	r := &Recorder{clock: o.Clock, opts: o, ci: map[resKey]*ciEntry{}}
	r.resetLocked()
	return r
}

// On reports whether Record would keep anything: reporting is on or some
// table or index has Contributor Insights enabled. The hook is "if
// r.On() { r.Record(&Request{...}) }", one inlined atomic load when off.
//
//gcassert:inline
func (r *Recorder) On() bool { return r != nil && r.watchers.Load() > 0 }

// SetReporting starts or stops the access-pattern report's collection
// (what it collected stays until Reset).
func (r *Recorder) SetReporting(on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if on == r.reporting {
		return
	}
	r.reporting = on
	if on {
		r.watchers.Add(1)
	} else {
		r.watchers.Add(-1)
	}
}

// Reporting reports whether the access-pattern report collects.
func (r *Recorder) Reporting() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reporting
}

// Reset forgets every count (the report starts again from now; the
// design, reporting and Contributor Insights' states stay).
func (r *Recorder) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.resetLocked()
}

func (r *Recorder) resetLocked() {
	r.since = r.clock()
	r.seq = 0
	r.res = map[resKey]*resStats{}
	r.costly = costHeap{max: r.opts.Costliest}
	r.patterns = map[*insights.Pattern]*patternStats{}
	r.unmatched = map[shapeKey]*unmatchedStats{}
	r.dropped = 0
	r.design.ForgetLearned()
}

// SetDesign checks the traffic against d from now on (nil: no design);
// the counts of the previous design's patterns are forgotten.
func (r *Recorder) SetDesign(d *insights.Design) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.design = d.Clone() // the traffic names and completes this namespace's copy
	r.static = nil
	if d != nil {
		r.static = d.Check()
	}
	r.patterns = map[*insights.Pattern]*patternStats{}
	r.unmatched = map[shapeKey]*unmatchedStats{}
	r.dropped = 0
}

// Design returns the design the traffic is checked against, or nil.
func (r *Recorder) Design() *insights.Design {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.design
}

// Record counts one request's use of one table or index. It reads q and
// keeps nothing of it but key values (strings storage keeps anyway).
func (r *Recorder) Record(q *insights.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := resKey{q.Table, q.Index}
	if !r.reporting && !r.ciCollectingLocked(k) {
		return
	}
	st := r.res[k]
	if st == nil {
		st = r.newResStats()
		r.res[k] = st
	}
	st.add(q)
	if !r.reporting {
		return
	}
	r.seq++
	r.costly.offer(q, r.seq)
	if r.design != nil {
		r.matchLocked(q)
	}
}

func (r *Recorder) newResStats() *resStats {
	n := r.opts.TopKeys
	return &resStats{
		ops:   map[string]*opStats{},
		hotPK: newTopK(n), hotKey: newTopK(n),
		throttledPK: newTopK(n), throttledKey: newTopK(n),
	}
}

// add counts q.
func (st *resStats) add(q *insights.Request) {
	o := st.ops[q.Op]
	if o == nil {
		o = &opStats{}
		st.ops[q.Op] = o
	}
	o.requests++
	if q.Access < access.Count {
		st.byAccess[q.Access]++
	}
	o.itemsRead += int64(q.Read)
	o.itemsReturned += int64(q.Returned)
	o.readUnits += q.ReadUnits
	o.writeUnits += q.WriteUnits
	o.vectorSearch += q.VectorSearchBytes
	o.vectorWrite += q.VectorWriteBytes
	st.itemsRead += int64(q.Read)
	st.itemsReturned += int64(q.Returned)
	if q.Filter {
		st.filterRead += int64(q.Read)
		st.filterReturned += int64(q.Returned)
	}
	st.readUnits += q.ReadUnits
	st.writeUnits += q.WriteUnits
	st.vectorSearch += q.VectorSearchBytes
	st.vectorWrite += q.VectorWriteBytes
	pk := q.Key.Partition
	if q.Throttled {
		o.throttled++
		st.throttled++
	}
	if !pk.IsValid() {
		return
	}
	full := q.Key.SortOp == insights.SortEQ
	if q.Throttled {
		st.throttledPK.add(keyOf(pk, storage.Value{}), 1)
		if full {
			st.throttledKey.add(keyOf(pk, q.Key.Sort), 1)
		}
		return
	}
	// AWS's ConsumedThroughputUnits: 3 x write units + read units.
	ctu := q.ReadUnits + 3*q.WriteUnits
	st.hotPK.add(keyOf(pk, storage.Value{}), ctu)
	if full {
		st.hotKey.add(keyOf(pk, q.Key.Sort), ctu)
	}
}

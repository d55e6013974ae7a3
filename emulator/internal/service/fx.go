package service

import (
	"errors"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/faults"
	"github.com/dynamoemu/dynamoemu/internal/faults/throttle"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/lease"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Fault injection, capacity throttling and the access-pattern report
// (faults/WIRING.md is the design). One hook pair wraps each
// use of a table or index by a data-plane request: fxBegin after the
// request is validated and before storage is touched (the fault rules,
// then the throttler's Admit), fxUse.end once it ran (the throttler's
// Charge and the recorder's Record). With no rule, no throttled table and
// no report reader, fxBegin is three atomic loads and returns nil, and
// end on a nil *fxUse does nothing: nothing is allocated. The handlers
// reach these hooks through the request pipeline (pipeline.go), not
// directly.

// ThrottleConfig says which tables' capacity is enforced (faults/throttle).
type ThrottleConfig struct {
	// Provisioned enforces the provisioned capacity of PROVISIONED tables
	// and their GSIs (token buckets with Burst of unused capacity).
	Provisioned bool
	// HotKeys enforces the per-partition-key limits (3,000 RCU, 1,000 WCU
	// per second) on every table (but those tagged off): ThrottlingException
	// on an on-demand table, ProvisionedThroughputExceededException on a
	// provisioned one, whether or not its capacity is enforced.
	HotKeys bool
	// Burst is the unused capacity kept (0: AWS's 300 s).
	Burst time.Duration
}

// ThrottleTag is the tag that turns throttling on or off for one table
// ("on": its provisioned capacity is enforced, whatever the emulator's
// ThrottleConfig; "off": never throttled).
const ThrottleTag = "dynamoemu:throttle"

// VectorSearchTag is the tag that limits SearchVectors on each of a
// table's vector indexes to its value in VectorSearchRequestBytes per
// second (a positive number; a bucket of one second's worth, starting
// full): ThrottlingException past it. AWS publishes no such limit (a
// search draws on no read capacity of the table); the tag lets a test
// see its client's retries. ThrottleTag off turns it off too.
const VectorSearchTag = "dynamoemu:vector-search-bytes"

// fxState is the service's fault injector and the report's settings that
// every namespace's recorder follows.
type fxState struct {
	inj *faults.Injector // never nil
	th  ThrottleConfig

	mu        sync.Mutex // guards reporting and design; a leaf
	reporting bool
	design    *insights.Design

	// saveMu serializes the saves of Contributor Insights configurations
	// (fx_persist.go); held over a recorder's lock and a DB's SetMeta,
	// never with a table's lock.
	saveMu sync.Mutex
}

// initFx gives a new namespace its throttler and recorder, with the
// service's report settings.
func (s *Service) initFx(ns *Namespace) {
	ns.th = throttle.New(throttle.Options{Clock: s.clock, Burst: s.fx.th.Burst, PerKey: s.fx.th.HotKeys})
	ns.rec = insights.New(insights.Options{Clock: s.clock})
	s.fx.mu.Lock()
	defer s.fx.mu.Unlock()
	if s.fx.design != nil {
		ns.rec.SetDesign(s.fx.design)
	}
	if s.fx.reporting {
		ns.rec.SetReporting(true)
	}
}

// tableThrottle is what a table's throttling was last configured from.
type tableThrottle struct {
	meta *tableMeta // the definition it was computed for
	on   bool
}

// throttled reports whether t's capacity is enforced, configuring the
// namespace's throttler when t's definition changed since it last looked
// (CreateTable, UpdateTable, tags, a restore or a load all publish a new
// definition). One atomic load when nothing changed.
func (t *table) throttled() bool {
	m := t.meta.Load()
	if tt := t.thState.Load(); tt != nil && tt.meta == m {
		return tt.on
	}
	return t.syncThrottle(m)
}

// syncThrottle configures the throttler for t's definition m.
func (t *table) syncThrottle(m *tableMeta) bool {
	ns := t.ns
	if ns == nil || ns.th == nil || m == nil {
		return false
	}
	cfg := ns.svc.fx.th
	prev := t.thState.Load()
	provisioned := m.billingMode != "PAY_PER_REQUEST" && m.throughput.Read > 0 && m.throughput.Write > 0
	enforce := cfg.Provisioned // the provisioned capacity
	tagged, searchBytes := false, 0.0
	for _, tg := range m.tags {
		switch tg.Key {
		case ThrottleTag:
			tagged, enforce = true, tg.Value == "on"
		case VectorSearchTag:
			if f, err := strconv.ParseFloat(tg.Value, 64); err == nil && f > 0 && !math.IsInf(f, 1) {
				searchBytes = f
			}
		}
	}
	if tagged && !enforce {
		searchBytes = 0
	}
	searched := searchBytes > 0 && len(m.Vectors) > 0
	on := provisioned && enforce || cfg.HotKeys && (!tagged || enforce) || searched
	if prev == nil {
		ns.th.Drop(t.name) // a table of the same name before this one
	}
	if on {
		// A provisioned table is in provisioned mode even when only its
		// hot keys are limited: its hot keys are refused with
		// ProvisionedThroughputExceededException (throttle.Table.KeysOnly).
		c := throttle.Table{Mode: throttle.OnDemand, Indexes: map[string]throttle.Throughput{}}
		if provisioned {
			c.Mode, c.KeysOnly = throttle.Provisioned, !enforce
			c.Table = throttle.Throughput{Read: float64(m.throughput.Read), Write: float64(m.throughput.Write)}
		}
		for _, x := range m.GSIs {
			tp := throttle.Throughput{Read: 1, Write: 1}
			if x.Throughput != nil && x.Throughput.Read > 0 && x.Throughput.Write > 0 {
				tp = throttle.Throughput{Read: float64(x.Throughput.Read), Write: float64(x.Throughput.Write)}
			}
			c.Indexes[x.Name] = tp
		}
		if searched {
			c.VectorSearch = map[string]float64{}
			for _, x := range m.Vectors {
				c.VectorSearch[x.Name] = searchBytes
			}
		}
		if err := ns.th.Configure(t.name, c); err != nil {
			ns.svc.log.Warn("throttling not configured", "table", t.name, "err", err)
			on = false
		}
	}
	if !on && prev != nil && prev.on {
		ns.th.Drop(t.name)
	}
	t.thState.Store(&tableThrottle{meta: m, on: on})
	return on
}

// fxUse is one use of a table or index by a request, between fxBegin and
// end: what the throttler charges and the recorder records.
type fxUse struct {
	c     *call
	t     *table
	index string // the index read ("" the table; an LSI is named but charged to the table)
	gsi   bool
	// vector: a search of the vector index index, charged in
	// VectorSearchRequestBytes (endSearch).
	vector bool
	write  bool
	th     bool // t is throttled
	rec    *insights.Recorder
	q      insights.Request
	// charged is what was taken from the throttler ahead (a batch item).
	charged float64

	lease.Owned // lent by usePool until end
}

// fxBegin runs the fault rules and the throttler before a request uses
// t: index is the index it reads (nil: the table), key its key condition
// (a full key for an item, the partition for a Query, none for a Scan),
// access what it does. It returns nil and no error when nothing is on,
// and an error of AWS's (the injected fault's, or
// ProvisionedThroughputExceeded/Throttling) when the use is refused.
func (c *call) fxBegin(t *table, x *tablespec.IndexDef, kc insights.KeyCondition, access insights.Access, filter bool) (*fxUse, error) {
	return c.fxBeginParts(t, x, kc, nil, access, filter)
}

// fxBeginParts is fxBegin for a read of several partitions (parts, nil:
// kc's one): the fault rules decide once per partition, in order, and the
// first refused fails the read; the throttler and the report see one use
// with key condition kc (beginSelect, feature_statements_read.go).
func (c *call) fxBeginParts(t *table, x *tablespec.IndexDef, kc insights.KeyCondition, parts []*expr.KeyCondition, access insights.Access, filter bool) (*fxUse, error) {
	var r fxResource
	if x != nil {
		r = fxResource{index: x.Name, gsi: !x.Local}
	}
	return c.fxBeginOn(t, r, kc, parts, access, filter)
}

// fxResource is the index a use reads ("" the table): a GSI, or a
// vector index.
type fxResource struct {
	index       string
	gsi, vector bool
}

// fxBeginSearch is fxBegin for a search of t's vector index named
// index: its throttler's use is the index's search limit
// (VectorSearchTag), its report's the index's.
func (c *call) fxBeginSearch(t *table, index string, kc insights.KeyCondition, access insights.Access) (*fxUse, error) {
	return c.fxBeginOn(t, fxResource{index: index, vector: true}, kc, nil, access, false)
}

// fxWatched reports whether a stage watches a use of t: the fault rules,
// the throttler or the report. fxBeginOn opens no use otherwise.
func (c *call) fxWatched(t *table) bool {
	return c.svc.fx.inj.Active() || t.throttled() || t.ns.recorder().On()
}

// fxBeginOn is fxBeginParts on the resource r.
func (c *call) fxBeginOn(t *table, r fxResource, kc insights.KeyCondition, parts []*expr.KeyCondition, access insights.Access, filter bool) (*fxUse, error) {
	inj, rec := c.svc.fx.inj, t.ns.recorder()
	th := t.throttled()
	if !inj.Active() && !th && !rec.On() {
		return nil, nil
	}
	u := c.newUse()
	*u = fxUse{c: c, t: t, write: access.IsWrite(), th: th, rec: rec, index: r.index, gsi: r.gsi, vector: r.vector}
	u.q = insights.Request{Op: c.op, Access: access, Table: t.name, Index: u.index, Key: kc, Filter: filter}
	if inj.Active() {
		if parts == nil {
			if err := u.decide(inj, kc); err != nil {
				return nil, err
			}
		}
		for _, p := range parts {
			if err := u.decide(inj, queryKey(p.Partition, p.Sort)); err != nil {
				return nil, err
			}
		}
	}
	if th {
		if err := u.admit(); err != nil {
			return nil, err
		}
	}
	return u, nil
}

// decide puts the use of the partition (and sort key) kc names to the
// fault rules: it sleeps a delay, and returns the error of a fault that
// fails the use (recorded as refused, with kc's key).
func (u *fxUse) decide(inj *faults.Injector, kc insights.KeyCondition) error {
	var key storage.Key
	if kc.Partition.IsValid() {
		key.Partition = kc.Partition
		if kc.SortOp == insights.SortEQ {
			key.Sort = kc.Sort
		}
	}
	f := inj.Decide(faults.Call{Op: u.c.op, Table: u.t.name, Index: u.index, Key: key})
	if f.Delay > 0 {
		if err := u.c.sleep(f.Delay); err != nil {
			return err
		}
	}
	if f.Fails() {
		u.q.Key = kc
		u.refused(f.Kind)
		return u.faultError(f.Kind, f.Message)
	}
	return nil
}

// recorder returns the namespace's recorder (nil for a namespace not
// registered).
func (ns *Namespace) recorder() *insights.Recorder {
	if ns == nil {
		return nil
	}
	return ns.rec
}

// sleep holds the request for d of real time (an injected delay is the
// client's latency), or until its context is done.
func (c *call) sleep(d time.Duration) error {
	tm := time.NewTimer(d)
	defer tm.Stop()
	ctx := c.ctx
	if ctx == nil {
		<-tm.C
		return nil
	}
	select {
	case <-tm.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// admit asks the throttler for the use: the table (or the GSI read),
// and for a write every GSI of the table (AWS throttles a table's writes
// when a GSI is out of write capacity).
func (u *fxUse) admit() error {
	th := u.t.ns.th
	if r, refused := th.Admit(u.throttleUse()); refused {
		u.refused(r.Kind)
		return u.throttleError(r)
	}
	if u.write {
		for _, x := range u.t.snapshot().GSIs {
			if r, refused := th.Admit(throttle.Use{Table: u.t.name, Index: x.Name, Write: true}); refused {
				u.refused(r.Kind)
				return u.throttleError(r)
			}
		}
	}
	return nil
}

// refused records a use refused with a fault of kind k: a throttled one
// for Contributor Insights' throttled keys when k is a throughput error.
func (u *fxUse) refused(k faults.Kind) {
	if !u.rec.On() {
		return
	}
	q := u.q
	q.Throttled = k == faults.Throttling || k == faults.ProvisionedThroughputExceeded || k == faults.RequestLimitExceeded
	if q.Throttled {
		u.rec.Record(&q)
	}
}

// faultError is the error of an injected fault of kind k: its class,
// message and, for the throughput errors, a ThrottlingReason naming the
// table or index.
func (u *fxUse) faultError(k faults.Kind, msg string) error {
	var reasons []apierr.ThrottlingReason
	switch k {
	case faults.ProvisionedThroughputExceeded:
		reasons = []apierr.ThrottlingReason{u.reason("ProvisionedThroughputExceeded")}
	case faults.Throttling:
		reasons = []apierr.ThrottlingReason{u.reason("KeyRangeThroughputExceeded")}
	}
	return apierr.Fault(k.ErrorType(), msg, reasons)
}

// reason is the ThrottlingReason of the use for a limit.
func (u *fxUse) reason(limit string) apierr.ThrottlingReason {
	res, arn, dir := "Table", u.t.arn, "Read"
	if u.gsi || u.vector {
		res, arn = "Index", u.t.arn+"/index/"+u.index
	}
	if u.write {
		dir = "Write"
	}
	return apierr.ThrottlingReason{Reason: res + dir + limit, Resource: arn}
}

// throttleError is the error of a use the throttler refused.
func (u *fxUse) throttleError(r throttle.Throttle) error {
	arn := u.t.arn
	if r.Index != "" {
		arn += "/index/" + r.Index
	}
	return apierr.Fault(r.Kind.ErrorType(), r.Message, []apierr.ThrottlingReason{{Reason: r.Reason, Resource: arn}})
}

// end tells the throttler and the recorder what the use consumed: read
// and write units on the table (or the GSI read), the units of each GSI a
// write updated (gsiUnits, nil: none), items read and returned. Nil-safe.
func (u *fxUse) end(readUnits, writeUnits float64, gsiUnits map[*tablespec.IndexDef]float64, read, returned int) {
	if u == nil {
		return
	}
	if u.th {
		th := u.t.ns.th
		th.Charge(u.throttleUse(), readUnits+writeUnits-u.charged)
		for x, units := range gsiUnits {
			if !x.Local {
				th.Charge(throttle.Use{Table: u.t.name, Index: x.Name, Write: true}, units)
			}
		}
	}
	if u.rec.On() {
		u.q.ReadUnits, u.q.WriteUnits, u.q.Read, u.q.Returned = readUnits, writeUnits, read, returned
		u.rec.Record(&u.q)
	}
	usePool.Put(u)
}

// endSearch is end for a search of a vector index that consumed bytes
// (VectorSearchRequestBytes) and returned items: the index's search
// limit is charged the bytes, the report counts them. Nil-safe.
func (u *fxUse) endSearch(bytes float64, returned int) {
	if u == nil {
		return
	}
	if u.th {
		u.t.ns.th.Charge(u.throttleUse(), bytes)
	}
	if u.rec.On() {
		u.q.VectorSearchBytes, u.q.Read, u.q.Returned = bytes, returned, returned
		u.rec.Record(&u.q)
	}
	usePool.Put(u)
}

// capMode is the capacity mode a write reports in: the request's, or
// INDEXES when the use is watched and the table has indexes, so that the
// write decodes the item it replaces and its GSI units can be charged.
func (u *fxUse) capMode(mode string) string {
	if u == nil {
		return mode
	}
	return watchedCapMode(mode)
}

// watchedCapMode is the capacity mode of a watched write: INDEXES when
// the request asks for none.
func watchedCapMode(mode string) string {
	if mode == "" || mode == capacityNone {
		return capacityIndexes
	}
	return mode
}

// itemKey is the key condition of an item operation on t.
func itemKey(t *table, k storage.Key) insights.KeyCondition {
	kc := insights.KeyCondition{Partition: k.Partition}
	if t.schema.HasSort() {
		kc.SortOp, kc.Sort = insights.SortEQ, k.Sort
	}
	return kc
}

// queryKey is the key condition of a Query.
func queryKey(pk storage.Value, sc storage.SortCondition) insights.KeyCondition {
	return insights.KeyCondition{Partition: pk, SortOp: insights.SortOp(sc.Op), Sort: sc.Values[0], Sort2: sc.Values[1]}
}

// unprocessable reports whether a batch item refused with err goes back
// in UnprocessedItems or UnprocessedKeys (AWS's BatchWriteItem reference:
// the items that fail because the provisioned throughput is exceeded or
// an internal processing failure) rather than failing the call.
func unprocessable(err error) bool {
	return errors.Is(err, apierr.ErrProvisionedThroughputExceeded) || errors.Is(err, apierr.ErrThrottling) ||
		errors.Is(err, apierr.ErrRequestLimitExceeded) || errors.Is(err, apierr.ErrInternalServer)
}

// cancellationCode is the CancellationReason code of a transaction's
// action refused with err, or "" when err fails the whole call.
func cancellationCode(err error) string {
	switch {
	case errors.Is(err, apierr.ErrTransactionConflict):
		return "TransactionConflict"
	case errors.Is(err, apierr.ErrConditionalCheckFailed):
		return "ConditionalCheckFailed"
	case errors.Is(err, apierr.ErrProvisionedThroughputExceeded):
		return "ProvisionedThroughputExceeded"
	case errors.Is(err, apierr.ErrThrottling):
		return "ThrottlingError"
	}
	return ""
}

// endWrite is end for a single-item write of sizeBytes (the larger of the
// old and new item) that made change: the table's write units and each
// GSI's. Nil-safe.
func (u *fxUse) endWrite(sizeBytes int, change storage.Change) {
	if u == nil {
		return
	}
	var gsiUnits map[*tablespec.IndexDef]float64
	if u.th {
		if gsis, _ := u.t.indexes(); len(gsis) > 0 {
			gsiUnits = indexWriteUnits(u.t.schema, gsis, change)
		}
	}
	u.end(0, writeUnits(sizeBytes), gsiUnits, 0, 0)
}

// throttleUse is the use as the throttler sees it.
func (u *fxUse) throttleUse() throttle.Use {
	use := throttle.Use{Table: u.t.name, Write: u.write}
	if u.q.Key.Partition.IsValid() {
		use.Partition = u.q.Key.Partition.Str()
	}
	if u.gsi || u.vector {
		use.Index, use.Vector = u.index, u.vector
	}
	return use
}

// forgetFx drops a deleted table's buckets, Contributor Insights and lags.
func (ns *Namespace) forgetFx(table string) {
	if ns.th != nil {
		ns.th.Drop(table)
	}
	if ns.rec != nil {
		ns.rec.ForgetContributorInsights(table, "")
		ns.saveContributorInsights()
	}
	ns.saveLags() // without the table's (fx_lag_persist.go)
}

// usePool recycles uses: a use is put back, zeroed, by end, after which
// nothing refers to it (a use never ended, of a request that failed, is
// left to the collector; under the race detector a second end panics).
// So a watched request allocates nothing for its hooks.
//
// The pool pays on every watched operation. BenchmarkFaultsCost, 2000x
// -count 5, medians, pool on -> off: PutItem with the report, a rule or
// throttling 817 -> 1105 B/op (+35%), 10 -> 11 allocs; GetItem so
// 233 -> 521 B/op (+124%), 6 -> 7 allocs.
var usePool = lease.NewPool(lease.Config[*fxUse]{
	New:   func() *fxUse { return new(fxUse) },
	Reset: func(u *fxUse) bool { *u = fxUse{}; return true },
})

// newUse returns a zero use from the pool.
func (c *call) newUse() *fxUse {
	lease.Check(c)
	return usePool.Get()
}

package service

import (
	"errors"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/faults"
	"github.com/dynamoemu/dynamoemu/internal/faults/throttle"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Fault injection, capacity throttling and the access-pattern report
// (faults/WIRING.md is the design), the core's three stages of the
// pipeline (stage.go): each use of a table or index by a data-plane
// request is put to their Begin after the request is validated and
// before storage is touched (the fault rules, then the throttler's
// Admit), and to their End once it ran (the throttler's Charge and the
// recorder's Record). With no rule, no throttled table and no report
// reader, no stage runs and nothing is allocated (Table.watchers). The
// handlers reach the stages through the request pipeline's entry points
// (pipeline_item.go), not directly.

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

// The throttler is the core's stage of the pipeline's stage seam
// (stage.go), until it moves out: it comes after the installed ones, so
// that no stage refuses a use after the throttler admitted it (a
// batch's item takes its units at admission).
var coreLast = []Stage{throttleStage{}}

// throttleStage is capacity throttling: Begin admits the use (a batch's
// item takes its estimated units at once), End charges what it consumed.
type throttleStage struct{}

func (throttleStage) Watches(t Table) bool { return t.t.throttled() }

func (throttleStage) Begin(u *TableUse) error {
	if u.th = u.t.throttled(); !u.th {
		return nil
	}
	if err := u.admit(); err != nil {
		return err
	}
	if u.batch {
		// Its units are taken from the throttler at once (an estimate:
		// one unit, or half a unit for a read), so that the items after
		// it in the same batch see the capacity it used, as on AWS, where
		// a batch's items are separate requests; End charges the rest.
		u.charged = 0.5
		if u.write {
			u.charged = 1
		}
		u.t.ns.th.Charge(u.throttleUse(), u.charged)
	}
	return nil
}

func (throttleStage) End(u *TableUse, o Outcome) {
	if !u.th || o.Refused != nil {
		return
	}
	th := u.t.ns.th
	if u.vector {
		th.Charge(u.throttleUse(), o.SearchBytes)
		return
	}
	th.Charge(u.throttleUse(), o.ReadUnits+o.WriteUnits-u.charged)
	for x, units := range u.IndexWriteUnits(o) {
		if !x.Local {
			th.Charge(throttle.Use{Table: u.t.name, Index: x.Name, Write: true}, units)
		}
	}
}

// recorder returns the namespace's recorder (nil for a namespace not
// registered).
func (ns *Namespace) recorder() *insights.Recorder {
	if ns == nil {
		return nil
	}
	return ns.rec
}

// admit asks the throttler for the use: the table (or the GSI read),
// and for a write every GSI of the table (AWS throttles a table's writes
// when a GSI is out of write capacity).
func (u *TableUse) admit() error {
	th := u.t.ns.th
	if r, refused := th.Admit(u.throttleUse()); refused {
		return u.throttleError(r)
	}
	if u.write {
		for _, x := range u.t.snapshot().GSIs {
			if r, refused := th.Admit(throttle.Use{Table: u.t.name, Index: x.Name, Write: true}); refused {
				return u.throttleError(r)
			}
		}
	}
	return nil
}

// throttleError is the error of a use the throttler refused.
func (u *TableUse) throttleError(r throttle.Throttle) error {
	arn := u.t.arn
	if r.Index != "" {
		arn += "/index/" + r.Index
	}
	return apierr.Fault(r.Kind.ErrorType(), r.Message, []apierr.ThrottlingReason{{Reason: r.Reason, Resource: arn}})
}

// capMode is the capacity mode a write reports in: the request's, or
// INDEXES when the use is watched and the table has indexes, so that the
// write decodes the item it replaces and its GSI units can be charged.
func (u *TableUse) capMode(mode string) string {
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

// throttleUse is the use as the throttler sees it.
func (u *TableUse) throttleUse() throttle.Use {
	use := throttle.Use{Table: u.t.name, Write: u.write}
	if u.key.Partition.IsValid() {
		use.Partition = u.key.Partition.Str()
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

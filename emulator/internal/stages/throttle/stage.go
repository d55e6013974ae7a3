package throttle

import (
	"math"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/faults/throttle"
)

// Stage is capacity throttling's stage (service.Stage and
// service.Hooker).
type Stage struct{}

// Hooks drop a deleted table's buckets.
func (Stage) Hooks() service.Hooks { return service.Hooks{Dropped: dropped} }

var (
	// spaces is each namespace's throttler.
	spaces = service.NewState[space]()
	// tables is what each table's throttling was last configured from.
	tables = service.NewTableState[tableState]()
)

// Setting is the key of the service's throttle.Settings in
// service.Config.Settings.
var Setting service.SettingOf[throttle.Settings]

// admission is what Begin keeps on a use it began on a throttled table
// (service.TableUse.SetValue): one more than the half units a batch's
// item took at once (so a use admitted is never zero). A byte, which the
// use holds without allocating.
type admission uint8

// admittedAhead is the admission of a use that took units at once.
func admittedAhead(units float64) admission { return admission(1 + 2*units) }

// ahead is the units the use took at once.
func (a admission) ahead() float64 { return float64(a-1) / 2 }

// space is a namespace's throttler, made when a table of it is first
// throttled: a namespace whose tables are not (a branch only read, say)
// keeps none.
type space struct {
	mu sync.Mutex // serializes the throttler's making
	th atomic.Pointer[throttle.Throttler]
}

// throttler returns the namespace's throttler, made now if need be.
func throttler(sp service.Space) *throttle.Throttler {
	s := spaces.In(sp)
	if th := s.th.Load(); th != nil {
		return th
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if th := s.th.Load(); th != nil {
		return th
	}
	set, _ := Setting.Of(sp)
	th := throttle.New(throttle.Options{Clock: sp.Clock(), Burst: set.Burst, PerKey: set.HotKeys})
	s.th.Store(th)
	return th
}

// drop drops table name's buckets, if the namespace has a throttler.
func drop(sp service.Space, name string) {
	if s := spaces.Made(sp); s != nil {
		if th := s.th.Load(); th != nil {
			th.Drop(name)
		}
	}
}

// tableState is a table's throttling, for one of its definitions.
type tableState struct {
	def  service.Definition
	on   bool
	gsis []string // the GSIs a write is admitted on
}

// Watches reports whether t's capacity is enforced.
func (Stage) Watches(t service.Table) bool { return configured(t).on }

// Begin admits the use (a batch's item takes its estimated units at
// once).
func (Stage) Begin(u *service.TableUse) error {
	t := u.Table()
	ts := configured(t)
	if !ts.on {
		return nil
	}
	u.SetValue(admittedAhead(0))
	th := throttler(t.Space())
	if err := admit(th, u, ts); err != nil {
		return err
	}
	if u.Batch() {
		// Its units are taken from the throttler at once (an estimate:
		// one unit, or half a unit for a read), so that the items after
		// it in the same batch see the capacity it used, as on AWS, where
		// a batch's items are separate requests; End charges the rest.
		charged := 0.5
		if u.Write() {
			charged = 1
		}
		u.SetValue(admittedAhead(charged))
		th.Charge(useOf(u), charged)
	}
	return nil
}

// End charges what the use consumed: the table (or the index read), and
// each GSI a write updated.
func (Stage) End(u *service.TableUse, o service.Outcome) {
	a, admitted := u.Value().(admission)
	if !admitted || o.Refused != nil {
		return
	}
	t := u.Table()
	th := throttler(t.Space())
	if u.Vector() {
		th.Charge(useOf(u), o.SearchBytes)
		return
	}
	th.Charge(useOf(u), o.ReadUnits+o.WriteUnits-a.ahead())
	for x, units := range u.IndexWriteUnits(o) {
		if !x.Local {
			th.Charge(throttle.Use{Table: t.Info().Name, Index: x.Name, Write: true}, units)
		}
	}
}

// dropped drops a deleted table's buckets.
func dropped(d service.Dropped) { drop(d.Table().Space(), d.Table().Info().Name) }

// admit asks the throttler for the use: the table (or the GSI read),
// and for a write every GSI of the table.
func admit(th *throttle.Throttler, u *service.TableUse, ts *tableState) error {
	if r, refused := th.Admit(useOf(u)); refused {
		return throttleError(u, r)
	}
	if u.Write() {
		name := u.Table().Info().Name
		for _, x := range ts.gsis {
			if r, refused := th.Admit(throttle.Use{Table: name, Index: x, Write: true}); refused {
				return throttleError(u, r)
			}
		}
	}
	return nil
}

// throttleError is the error of a use the throttler refused.
func throttleError(u *service.TableUse, r throttle.Throttle) error {
	arn := u.Table().Info().ARN
	if r.Index != "" {
		arn += "/index/" + r.Index
	}
	return apierr.Fault(r.Kind.ErrorType(), r.Message, []apierr.ThrottlingReason{{Reason: r.Reason, Resource: arn}})
}

// useOf is the use as the throttler sees it.
func useOf(u *service.TableUse) throttle.Use {
	use := throttle.Use{Table: u.Table().Info().Name, Write: u.Write()}
	if kc := u.Key(); kc.Partition.IsValid() {
		use.Partition = kc.Partition.Str()
	}
	if u.OwnIndex() {
		use.Index, use.Vector = u.Index(), u.Vector()
	}
	return use
}

// configured returns t's throttling for its definition, configuring the
// namespace's throttler when the definition changed since it last
// looked (CreateTable, UpdateTable, tags, a restore or a load all
// publish a new definition). One atomic load when nothing changed. A
// table not throttled keeps nothing (a branch's tables only read, say):
// it is configured afresh at each ask, which is Watches' once a
// definition, as the stage then watches no use of it.
func configured(t service.Table) *tableState {
	d := t.Definition()
	prev := tables.Load(t)
	if prev != nil && prev.def.Same(d) {
		return prev
	}
	ts := configure(t, d, prev)
	if ts.on || prev != nil { // a table not throttled keeps none
		tables.Store(t, keepOn(ts))
	}
	return ts
}

// keepOn returns ts when its table is throttled, else nil.
func keepOn(ts *tableState) *tableState {
	if ts.on {
		return ts
	}
	return nil
}

// configure configures the throttler for t's definition d (prev: the
// table's last, nil for a table not seen yet).
func configure(t service.Table, d service.Definition, prev *tableState) *tableState {
	ts := &tableState{def: d}
	if !d.Exists() {
		return ts
	}
	sp := t.Space()
	cfg, _ := Setting.Of(sp)
	capacity := d.Settings().Capacity
	provisioned := d.Settings().Billing.Mode != "PAY_PER_REQUEST" && capacity.Read > 0 && capacity.Write > 0
	tagged, enforce, searchBytes := tagRule(t.Tags(), cfg.Provisioned)
	vectors := d.VectorIndexes()
	searched := searchBytes > 0 && len(vectors) > 0
	on := provisioned && enforce || cfg.HotKeys && (!tagged || enforce) || searched
	name := t.Info().Name
	if prev == nil {
		drop(sp, name) // a table of the same name before this one
	}
	if on {
		if !searched {
			vectors = nil
		}
		c := tableConfig(d, provisioned, enforce, vectors, searchBytes)
		if err := throttler(sp).Configure(name, c); err != nil {
			sp.Log().Warn("throttling not configured", "table", name, "err", err)
			on = false
		}
	}
	if !on && prev != nil && prev.on {
		drop(sp, name)
	}
	ts.on = on
	if on { // admit reads them of a throttled table only
		for _, x := range d.Indexes().GSIList() {
			ts.gsis = append(ts.gsis, x.Name())
		}
	}
	return ts
}

// tagRule is what a table's tags say of its throttling, enforce the
// namespace's choice for provisioned capacity: whether throttle.Tag is
// set, whether capacity is enforced (the tag's "on" when it is set), and
// the bytes a second of vector search (throttle.VectorSearchTag: a
// positive finite number, else 0; 0 too when the tag turns throttling
// off).
func tagRule(tags []service.TagDesc, enforce bool) (tagged, on bool, searchBytes float64) {
	for _, tg := range tags {
		switch tg.Key {
		case throttle.Tag:
			tagged, enforce = true, tg.Value == "on"
		case throttle.VectorSearchTag:
			if f, err := strconv.ParseFloat(tg.Value, 64); err == nil && f > 0 && !math.IsInf(f, 1) {
				searchBytes = f
			}
		}
	}
	if tagged && !enforce {
		searchBytes = 0
	}
	return tagged, enforce, searchBytes
}

// tableConfig is the throttler's configuration of a throttled table of
// definition d: provisioned or on demand, its GSIs' throughput (1 and 1
// where a GSI has none), and searchBytes for each of vectors.
func tableConfig(d service.Definition, provisioned, enforce bool, vectors []string, searchBytes float64) throttle.Table {
	// A provisioned table is in provisioned mode even when only its hot
	// keys are limited: its hot keys are refused with
	// ProvisionedThroughputExceededException (throttle.Table.KeysOnly).
	c := throttle.Table{Mode: throttle.OnDemand, Indexes: map[string]throttle.Throughput{}}
	if provisioned {
		capacity := d.Settings().Capacity
		c.Mode, c.KeysOnly = throttle.Provisioned, !enforce
		c.Table = throttle.Throughput{Read: float64(capacity.Read), Write: float64(capacity.Write)}
	}
	for _, x := range d.Indexes().GSIList() {
		tp := throttle.Throughput{Read: 1, Write: 1}
		if xc, ok := x.Capacity(); ok && xc.Read > 0 && xc.Write > 0 {
			tp = throttle.Throughput{Read: float64(xc.Read), Write: float64(xc.Write)}
		}
		c.Indexes[x.Name()] = tp
	}
	if len(vectors) > 0 {
		c.VectorSearch = map[string]float64{}
		for _, x := range vectors {
			c.VectorSearch[x] = searchBytes
		}
	}
	return c
}

package service

import (
	"bytes"
	"errors"
	"slices"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Definition changes and dropped members of a global table, carried
// through the replication tap (global_tables_repl.go) like item writes:
// a change of a 2019.11.21 member's definition is one RecordMeta on its
// namespace's commit hook, which the tap queues (the whole definition)
// for every other member; a member's table dropped (DeleteTable in its
// region) is one RecordDropTable, which the tap turns into the others
// forgetting it.
//
// What is carried is what AWS keeps the same across replicas (the
// developer guide's global tables core concepts, "settings
// synchronization", and public records of AWS's answers: ack-api-quirks
// lab notes DDB-TABLE-230, -251, -294, -295, -296, table-replicas.md):
// GSIs created and deleted (each replica builds its own, CREATING then
// ACTIVE), TTL, the billing mode and provisioned throughput, on-demand
// limits, SSE, the table class (unless the replica overrides it) and
// write auto scaling. Read capacity is kept where the replica has a read
// override. Tags, deletion protection, point-in-time recovery, resource
// policies, Contributor Insights and Kinesis destinations stay regional.
// The stream cannot change while the table has replicas
// (tables_update_replicas.go), so it needs no carrying. The 2017.11.29
// version carries none of this (its upgrade guide lists GSIs, TTL and
// auto scaling as not synchronized).
//
// A member that took a change shows as UPDATING in the source's
// Replicas for the transient delay, then ACTIVE. A change applied to a
// member is not sent on again: applying marks the member's table
// (replicator.applying) while its definition is recorded, and the tap
// skips that record.

// errNoSync aborts a changeMeta that has nothing to change.
var errNoSync = errors.New("service: nothing to synchronize")

// replicaGone is the state of a replica gone from a global table: never
// shown (describeReplicas leaves it out).
const replicaGone = "-"

// queueCatalogLocked queues the catalog record rec of a table with
// replicas: a definition for every other member, or the member's drop.
// replicator.mu is held (by the tap).
func (p *replTap) queueCatalogLocked(rec *storage.Record) {
	r := p.r
	route, ok := r.routes[rec.Table]
	if !ok {
		return
	}
	now := p.clock()
	switch rec.Kind {
	case storage.RecordMeta:
		if rec.Key != metaKeyTable || rec.Value == nil || route.legacy {
			return
		}
		def, prev := bytes.Clone(rec.Value), r.defs[rec.Table]
		if r.defs == nil {
			r.defs = map[string][]byte{}
		}
		r.defs[rec.Table] = def
		if r.applying == rec.Table {
			return
		}
		for _, region := range route.to {
			r.queue = append(r.queue, replOp{kind: opDef, to: replTarget{route.from.accessKey, region, route.from.name},
				due: now.Add(r.delay), def: def, prev: prev, from: route.from.region})
		}
	case storage.RecordDropTable:
		delete(r.routes, rec.Table)
		delete(r.stamps, rec.Table)
		delete(r.defs, rec.Table)
		gone := route.from
		// Nothing goes to the dropped table any more: its queued writes
		// are dropped and no member routes to its region (a table of the
		// same name made there later is no replica).
		r.queue = slices.DeleteFunc(r.queue, func(op replOp) bool { return op.to == gone })
		for id, rt := range r.routes {
			if rt.from.accessKey == gone.accessKey && rt.from.name == gone.name && slices.Contains(rt.to, gone.region) {
				rt.to = without(rt.to, gone.region)
				if len(rt.to) == 0 {
					delete(r.routes, id)
				} else {
					r.routes[id] = rt
				}
			}
		}
		for _, region := range route.to {
			r.queue = append(r.queue, replOp{kind: opGone, to: replTarget{gone.accessKey, region, gone.name},
				due: now, from: gone.region, legacy: route.legacy})
		}
	}
	r.pending.Store(int64(len(r.queue)))
}

// replicaCall is a call in the namespace of target, for the service's
// own changes of a replica (no request behind it).
func (r *replicator) replicaCall(ns *Namespace, to replTarget) *call {
	return &call{ns: ns, region: to.region, account: defaultAccountID, accessKey: to.accessKey,
		op: "Replicate", now: r.svc.clock(), clock: r.svc.clock, svc: r.svc}
}

// changeReplicaMeta is changeMeta for a change the replication makes:
// the record it makes is not sent on to the other members. drainMu is
// held.
func (r *replicator) changeReplicaMeta(t *table, fn func(m *tableMeta) (func(bool) error, error)) error {
	return t.changeMeta(func(m *tableMeta) (func(bool) error, error) {
		done, err := fn(m)
		if err != nil {
			return nil, err
		}
		// t.mu is held from here until t's definition is recorded and
		// done has run, so the mark covers that record only.
		r.mu.Lock()
		r.applying = t.id
		r.mu.Unlock()
		return func(recorded bool) error {
			r.mu.Lock()
			r.applying = ""
			r.mu.Unlock()
			if done == nil {
				return nil
			}
			return done(recorded)
		}, nil
	})
}

// applyDef brings the synchronized settings of op's member to the
// definition carried (global_tables_sync.go's list), then marks that
// member UPDATING in the source's view. drainMu is held.
func (r *replicator) applyDef(op replOp) {
	ns := r.svc.dbs.lookup(nsKey{accessKey: op.to.accessKey, region: op.to.region})
	t := ns.getTable(op.to.name)
	if t == nil || t.data == nil {
		return
	}
	_, sm, err := decodeTableRecord(op.def, t.schema)
	var pm *tableMeta
	if err == nil && op.prev != nil {
		_, pm, err = decodeTableRecord(op.prev, t.schema)
	}
	if err != nil {
		r.svc.log.Warn("replication: a definition record does not decode", "table", op.to.name, "error", err)
		return
	}
	c := r.replicaCall(ns, op.to)
	var added, dropped []*indexDef
	err = r.changeReplicaMeta(t, func(m *tableMeta) (func(bool) error, error) {
		if m.status == statusDeleting || m.ext == nil || m.ext.GlobalVersion != globalVersion2019 {
			return nil, errNoSync
		}
		added, dropped = nil, nil
		if !syncSettings(t, m, sm, pm, op.to.region, c.now, c.svc.cfg.TransientDelay, &added, &dropped) {
			return nil, errNoSync
		}
		return func(recorded bool) error {
			if !recorded {
				return nil
			}
			for _, x := range added {
				if err := t.data.AddIndex(x.storageDef()); err != nil {
					return err
				}
			}
			for _, x := range dropped {
				if err := t.data.DropIndex(x.name); err != nil && !errors.Is(err, storage.ErrNoIndex) {
					return err
				}
			}
			return nil
		}, nil
	})
	switch {
	case errors.Is(err, errNoSync):
		return
	case err != nil && !errors.Is(err, storage.ErrNotDurable):
		r.svc.log.Warn("replication: a definition change failed on a replica", "table", op.to.name, "region", op.to.region, "error", err)
		return
	}
	// The source shows the member UPDATING while it takes the change.
	src := r.svc.dbs.lookup(nsKey{accessKey: op.to.accessKey, region: op.from}).getTable(op.to.name)
	if src == nil {
		return
	}
	until := c.now.Add(r.svc.cfg.TransientDelay)
	_ = r.changeReplicaMeta(src, func(m *tableMeta) (func(bool) error, error) {
		if m.ext == nil {
			return nil, errNoSync
		}
		e := m.extCopy()
		e.Replicas = slices.Clone(e.Replicas)
		found := false
		for i, x := range e.Replicas {
			if x.Region == op.to.region && x.statusAt(c.now) == "ACTIVE" {
				e.Replicas[i].Status, e.Replicas[i].Until, e.Replicas[i].Next = "UPDATING", until, "ACTIVE"
				found = true
			}
		}
		if !found {
			return nil, errNoSync
		}
		m.ext = e
		return nil, nil
	})
}

// syncSettings makes m, the definition of t (a member in region), carry
// the synchronized settings that changed from pm to sm, the source's
// definitions before and after its change (pm nil: unknown, every
// synchronized setting is carried). Carrying only what changed keeps two
// members that change different settings at once from undoing each
// other's change with a stale copy. added and dropped receive the GSIs
// it creates and deletes. It reports whether anything changed.
func syncSettings(t *table, m, sm, pm *tableMeta, region string, now time.Time, delay time.Duration, added, dropped *[]*indexDef) bool {
	own := sourceOverrides(sm, region)
	changed := syncGSIs(t, m, sm, pm, now, delay, added, dropped)
	if syncCapacity(m, sm, pm, own, now) {
		changed = true
	}
	if syncTableSettings(m, sm, pm, own) {
		changed = true
	}
	if syncWriteAutoScaling(m, sm, pm) {
		changed = true
	}
	return changed
}

// movedAtSource reports whether a synchronized setting changed at the
// source: f says whether pm, the source's definition before its change,
// differs from the one after; with pm nil (unknown) every setting moved.
func movedAtSource(pm *tableMeta, f func(*tableMeta) bool) bool { return pm == nil || f(pm) }

// sourceOverrides returns the source's overrides for the member in
// region (its replica record in sm), or none.
func sourceOverrides(sm *tableMeta, region string) replicaRec {
	var own replicaRec
	if sm.ext != nil {
		for _, x := range sm.ext.Replicas {
			if x.Region == region {
				own = x
			}
		}
	}
	return own
}

// gsiNamed returns the index of xs named name, or nil.
func gsiNamed(xs []*indexDef, name string) *indexDef {
	if i := slices.IndexFunc(xs, func(y *indexDef) bool { return y.name == name }); i >= 0 {
		return xs[i]
	}
	return nil
}

// syncGSIs carries the source's GSIs to m: those the source created,
// built here; those it deleted, deleted here; write capacity changed.
// added and dropped receive the GSIs it creates and deletes; the
// attribute definitions follow the key schemas. It reports whether
// anything changed.
func syncGSIs(t *table, m, sm, pm *tableMeta, now time.Time, delay time.Duration, added, dropped *[]*indexDef) bool {
	changed := false
	gsis := slices.Clone(m.gsis)
	for _, x := range sm.gsis {
		had := pm == nil || gsiNamed(pm.gsis, x.name) != nil
		cur := gsiNamed(gsis, x.name)
		switch {
		case cur == nil && !had || cur == nil && pm == nil:
			y := *x
			y.arn = t.arn + "/index/" + y.name
			y.activeAt = now.Add(delay)
			gsis = append(gsis, &y)
			*added = append(*added, &y)
		case cur != nil && gsiWriteMoved(cur, x, pm):
			y := *cur
			w := *y.throughput
			w.write = x.throughput.write
			y.throughput = &w
			gsis[slices.Index(gsis, cur)] = &y
			changed = true
		}
	}
	m.deleting = slices.DeleteFunc(slices.Clone(m.deleting), func(x *indexDef) bool { return !now.Before(x.goneAt) })
	gsis = slices.DeleteFunc(gsis, func(y *indexDef) bool {
		if gsiNamed(sm.gsis, y.name) != nil || pm != nil && gsiNamed(pm.gsis, y.name) == nil {
			return false // kept by the source, or never the source's to delete
		}
		z := *y
		z.goneAt = now.Add(delay)
		m.deleting = append(m.deleting, &z)
		*dropped = append(*dropped, &z)
		return true
	})
	m.gsis = gsis
	if len(*added) > 0 || len(*dropped) > 0 {
		// The source's definitions of the new keys, then those no key
		// schema uses any more dropped (as UpdateTable does).
		defs := slices.Clone(m.attrDefs)
		for _, a := range sm.attrDefs {
			if !slices.ContainsFunc(defs, func(b attrDef) bool { return b.name == a.name }) {
				defs = append(defs, a)
			}
		}
		m.attrDefs = defs
		m.pruneAttrDefs(t.keySchema)
		changed = true
	}
	return changed
}

// gsiWriteMoved reports whether the source's GSI x has a write capacity
// other than cur, the member's, and changed it (pm nil: unknown, taken
// as changed).
func gsiWriteMoved(cur, x *indexDef, pm *tableMeta) bool {
	if x.throughput == nil || cur.throughput == nil || cur.throughput.write == x.throughput.write {
		return false
	}
	if pm == nil {
		return true
	}
	p := gsiNamed(pm.gsis, x.name)
	return p != nil && p.throughput != nil && p.throughput.write != x.throughput.write
}

// syncCapacity carries the source's capacity to m: the billing mode,
// write capacity, read capacity unless the member overrides it (own),
// on-demand limits. It reports whether anything changed.
func syncCapacity(m, sm, pm *tableMeta, own replicaRec, now time.Time) bool {
	changed := false
	if m.billingMode != sm.billingMode && movedAtSource(pm, func(p *tableMeta) bool { return p.billingMode != sm.billingMode }) {
		m.billingMode, m.billingReported, m.payPerRequestSince = sm.billingMode, sm.billingReported, sm.payPerRequestSince
		if sm.billingMode == "PAY_PER_REQUEST" {
			m.throughput = throughput{}
			for i, x := range m.gsis {
				y := *x
				y.throughput = nil
				m.gsis[i] = &y
			}
		}
		changed = true
	}
	if sm.billingMode != "PAY_PER_REQUEST" && movedAtSource(pm, func(p *tableMeta) bool {
		return p.throughput.read != sm.throughput.read || p.throughput.write != sm.throughput.write
	}) {
		tp := sm.throughput
		if own.ReadOverride > 0 {
			tp.read = own.ReadOverride
		}
		if m.throughput.read != tp.read || m.throughput.write != tp.write {
			m.throughput.apply(tp.read, tp.write, now)
			changed = true
		}
	}
	if !sameOnDemand(m.onDemand, sm.onDemand) && movedAtSource(pm, func(p *tableMeta) bool { return !sameOnDemand(p.onDemand, sm.onDemand) }) {
		m.onDemand = sm.onDemand
		changed = true
	}
	return changed
}

// syncTableSettings carries the source's TTL, encryption and table class
// (unless the member overrides the class, own) to m. It reports whether
// anything changed.
func syncTableSettings(m, sm, pm *tableMeta, own replicaRec) bool {
	changed := false
	if m.ttl != sm.ttl && movedAtSource(pm, func(p *tableMeta) bool { return p.ttl != sm.ttl }) {
		m.ttl = sm.ttl
		changed = true
	}
	if !sameSSE(m.sse, sm.sse) && movedAtSource(pm, func(p *tableMeta) bool { return !sameSSE(p.sse, sm.sse) }) {
		m.sse = sm.sse
		changed = true
	}
	if own.TableClass == "" && m.tableClass != sm.tableClass && movedAtSource(pm, func(p *tableMeta) bool { return p.tableClass != sm.tableClass }) {
		m.tableClass = sm.tableClass
		changed = true
	}
	return changed
}

// writeScalingRules returns the write auto scaling rules of x (read rules
// are per replica).
func writeScalingRules(x *tableMeta) []autoScalingRule {
	if x == nil || x.ext == nil {
		return nil
	}
	return slices.DeleteFunc(slices.Clone(x.ext.AutoScaling), func(r autoScalingRule) bool { return !r.Write })
}

// syncWriteAutoScaling carries the source's write auto scaling rules to
// m, keeping m's own read rules. It reports whether anything changed.
func syncWriteAutoScaling(m, sm, pm *tableMeta) bool {
	src := writeScalingRules(sm)
	if slices.Equal(src, writeScalingRules(m)) || !movedAtSource(pm, func(p *tableMeta) bool { return !slices.Equal(writeScalingRules(p), src) }) {
		return false
	}
	e := m.extCopy()
	var own []autoScalingRule
	if m.ext != nil {
		own = slices.DeleteFunc(slices.Clone(m.ext.AutoScaling), func(r autoScalingRule) bool { return r.Write })
	}
	e.AutoScaling = slices.Concat(own, src)
	m.ext = e
	return true
}

// sameOnDemand reports whether two OnDemandThroughput settings are equal.
func sameOnDemand(a, b *OnDemandThroughput) bool {
	if a == nil || b == nil {
		return a == b
	}
	eq := func(x, y *int64) bool { return x == nil && y == nil || x != nil && y != nil && *x == *y }
	return eq(a.MaxReadRequestUnits, b.MaxReadRequestUnits) && eq(a.MaxWriteRequestUnits, b.MaxWriteRequestUnits)
}

// applyGone makes op's member forget the member in op.from, whose table
// was dropped: DELETING for the transient delay, then gone; its writes
// no longer go there. drainMu is held.
func (r *replicator) applyGone(op replOp) {
	ns := r.svc.dbs.lookup(nsKey{accessKey: op.to.accessKey, region: op.to.region})
	t := ns.getTable(op.to.name)
	if t == nil || t.data == nil {
		return
	}
	c := r.replicaCall(ns, op.to)
	var rest []string
	err := r.changeReplicaMeta(t, func(m *tableMeta) (func(bool) error, error) {
		if m.ext == nil || !slices.ContainsFunc(m.ext.Replicas, func(x replicaRec) bool { return x.Region == op.from }) {
			return nil, errNoSync
		}
		e := m.extCopy()
		e.Replicas = markDeleting(e.Replicas, op.from, c.now, c.transientUntil())
		m.ext = e
		rest = liveRegions(e.Replicas, c.now)
		return nil, nil
	})
	if err != nil && !errors.Is(err, storage.ErrNotDurable) {
		return
	}
	r.setRoute(t.id, op.to, rest, op.legacy)
}

// markDeleting returns recs with region DELETING until until, then gone,
// and without the replicas gone by now.
func markDeleting(recs []replicaRec, region string, now, until time.Time) []replicaRec {
	out := pruneGone(recs, now)
	for i := range out {
		if out[i].Region == region {
			out[i].Status, out[i].Until, out[i].Next = "DELETING", until, replicaGone
		}
	}
	return out
}

// pruneGone returns a copy of recs without the replicas gone by now.
func pruneGone(recs []replicaRec, now time.Time) []replicaRec {
	return slices.DeleteFunc(slices.Clone(recs), func(x replicaRec) bool { return x.statusAt(now) == replicaGone })
}

// liveRegions returns the regions of recs that take writes at now (not
// DELETING, not gone).
func liveRegions(recs []replicaRec, now time.Time) []string {
	var out []string
	for _, x := range recs {
		if st := x.statusAt(now); st != "DELETING" && st != replicaGone {
			out = append(out, x.Region)
		}
	}
	return out
}

// sameSSE reports whether two SSE settings are equal.
func sameSSE(a, b *SSEDescription) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// seedDef records t's definition m as the last one the tap saw of it, so
// that t's first change is carried as a change (only what it changed),
// not as its whole definition: a new replica and a member loaded from
// disk are seeded as their routes are set.
func (r *replicator) seedDef(t *table, m *tableMeta) {
	b := encodeTableMeta(t, m)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.defs == nil {
		r.defs = map[string][]byte{}
	}
	r.defs[t.id] = b
}

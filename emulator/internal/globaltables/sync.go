package globaltables

import (
	"bytes"
	"errors"
	"slices"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Definition changes and dropped members of a global table, carried
// through the replication tap (replication.go) like item writes:
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
// (stream.go), so it needs no carrying. The 2017.11.29
// version carries none of this (its upgrade guide lists GSIs, TTL and
// auto scaling as not synchronized).
//
// A member that took a change shows as UPDATING in the source's
// Replicas for the transient delay, then ACTIVE. A change applied to a
// member is not sent on again: applying marks the member's table
// (replicator.applying) while its definition is recorded, and the tap
// skips that record.

// errNoSync aborts a definition change that has nothing to change.
var errNoSync = errors.New("globaltables: nothing to synchronize")

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
		if rec.Key != service.DefinitionKey || rec.Value == nil || route.legacy {
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

// changeReplica changes t's definition for the replication (Table.Change):
// the record it makes is not sent on to the other members. drainMu is
// held.
func (r *replicator) changeReplica(t service.Table, fn func(e *service.Edit) error) error {
	id := t.Info().ID
	return t.Change(func(e *service.Edit) (func(bool) error, error) {
		if err := fn(e); err != nil {
			return nil, err
		}
		// t's lock is held from here until t's definition is recorded
		// and done has run, so the mark covers that record only.
		r.mu.Lock()
		r.applying = id
		r.mu.Unlock()
		return func(bool) error {
			r.mu.Lock()
			r.applying = ""
			r.mu.Unlock()
			return nil
		}, nil
	})
}

// applyDef brings the synchronized settings of op's member to the
// definition carried (this file's list), then marks that member
// UPDATING in the source's view. drainMu is held.
func (r *replicator) applyDef(op replOp) {
	t, data := r.target(op.to)
	if data == nil {
		return
	}
	sd, err := service.ParseDefinition(op.def, t)
	var pd *service.Definition
	if err == nil && op.prev != nil {
		var p service.Definition
		p, err = service.ParseDefinition(op.prev, t)
		pd = &p
	}
	if err != nil {
		r.svc.Log().Warn("replication: a definition record does not decode", "table", op.to.name, "error", err)
		return
	}
	now := r.svc.Now()
	delay := r.svc.TransientDelay()
	err = r.changeReplica(t, func(e *service.Edit) error {
		if x, _ := partOf(e.Definition); e.Deleting() || x.GlobalVersion != globalVersion2019 {
			return errNoSync
		}
		if !syncSettings(e, sd, pd, op.to.region, now, delay) {
			return errNoSync
		}
		return nil
	})
	switch {
	case errors.Is(err, errNoSync):
		return
	case err != nil && !errors.Is(err, storage.ErrNotDurable):
		r.svc.Log().Warn("replication: a definition change failed on a replica", "table", op.to.name, "region", op.to.region, "error", err)
		return
	}
	// The source shows the member UPDATING while it takes the change.
	src, ok := r.svc.Space(op.to.accessKey, op.from).Table(op.to.name)
	if !ok {
		return
	}
	until := now.Add(delay)
	_ = r.changeReplica(src, func(e *service.Edit) error {
		x, ok := partOf(e.Definition)
		if !ok {
			return errNoSync
		}
		x.Replicas = slices.Clone(x.Replicas)
		found := false
		for i, y := range x.Replicas {
			if y.Region == op.to.region && y.statusAt(now) == "ACTIVE" {
				x.Replicas[i].Status, x.Replicas[i].Until, x.Replicas[i].Next = "UPDATING", until, "ACTIVE"
				found = true
			}
		}
		if !found {
			return errNoSync
		}
		setPart(e, x)
		return nil
	})
}

// syncSettings makes e, the definition of a member in region, carry the
// synchronized settings that changed from pd to sd, the source's
// definitions before and after its change (pd nil: unknown, every
// synchronized setting is carried). Carrying only what changed keeps two
// members that change different settings at once from undoing each
// other's change with a stale copy. It reports whether anything changed.
func syncSettings(e *service.Edit, sd service.Definition, pd *service.Definition, region string, now time.Time, delay time.Duration) bool {
	sx, _ := partOf(sd)
	own := sourceOverrides(sx, region)
	changed := syncGSIs(e, sd, pd, now, delay)
	if syncCapacity(e, sd, pd, own, now) {
		changed = true
	}
	if syncTableSettings(e, sd, pd, own) {
		changed = true
	}
	if syncWriteAutoScaling(e, sx, pd) {
		changed = true
	}
	return changed
}

// movedAtSource reports whether a synchronized setting changed at the
// source: f says whether pd, the source's definition before its change,
// differs from the one after; with pd nil (unknown) every setting moved.
func movedAtSource(pd *service.Definition, f func(service.Definition) bool) bool {
	return pd == nil || f(*pd)
}

// sourceOverrides returns the source's overrides for the member in
// region (its replica record in sx, the source's part), or none.
func sourceOverrides(sx part, region string) replicaRec {
	var own replicaRec
	for _, x := range sx.Replicas {
		if x.Region == region {
			own = x
		}
	}
	return own
}

// syncGSIs carries the source's GSIs to e: those the source created,
// built here; those it deleted, deleted here; write capacity changed.
// The attribute definitions follow the key schemas. It reports whether
// anything changed.
func syncGSIs(e *service.Edit, sd service.Definition, pd *service.Definition, now time.Time, delay time.Duration) bool {
	changed := false
	for _, x := range sd.Indexes().GSIList() {
		had := pd == nil
		if pd != nil {
			_, had = pd.Indexes().GSI(x.Name())
		}
		cur, exists := e.Indexes().GSI(x.Name())
		switch {
		case !exists && !had || !exists && pd == nil:
			e.AddGSI(sd, x.Name(), now.Add(delay))
			changed = true
		case exists && gsiWriteMoved(cur, x, pd):
			c, _ := cur.Capacity()
			w, _ := x.Capacity()
			c.Write = w.Write
			e.SetGSICapacity(x.Name(), &c)
			changed = true
		}
	}
	e.ForgetDeletedGSIs(now)
	for _, y := range e.Indexes().GSIList() {
		if _, kept := sd.Indexes().GSI(y.Name()); kept {
			continue // kept by the source
		}
		if pd != nil {
			if _, had := pd.Indexes().GSI(y.Name()); !had {
				continue // never the source's to delete
			}
		}
		e.DropGSI(y.Name(), now.Add(delay))
		changed = true
	}
	return changed
}

// gsiWriteMoved reports whether the source's GSI x has a write capacity
// other than cur, the member's, and changed it (pd nil: unknown, taken
// as changed).
func gsiWriteMoved(cur, x service.GSI, pd *service.Definition) bool {
	xc, xok := x.Capacity()
	cc, cok := cur.Capacity()
	if !xok || !cok || cc.Write == xc.Write {
		return false
	}
	if pd == nil {
		return true
	}
	p, ok := pd.Indexes().GSI(x.Name())
	if !ok {
		return false
	}
	pc, pok := p.Capacity()
	return pok && pc.Write != xc.Write
}

// syncCapacity carries the source's capacity to e: the billing mode,
// write capacity, read capacity unless the member overrides it (own),
// on-demand limits, warm throughput. It reports whether anything
// changed.
func syncCapacity(e *service.Edit, sd service.Definition, pd *service.Definition, own replicaRec, now time.Time) bool {
	changed := false
	s, src := e.Settings(), sd.Settings()
	sb := src.Billing
	if s.Billing.Mode != sb.Mode && movedAtSource(pd, func(p service.Definition) bool { return p.Settings().Billing.Mode != sb.Mode }) {
		s.Billing = sb
		if sb.Mode == "PAY_PER_REQUEST" {
			s.Capacity = tablespec.Throughput{}
			for _, x := range e.Indexes().GSIList() {
				e.SetGSICapacity(x.Name(), nil)
			}
		}
		changed = true
	}
	sc := src.Capacity
	if sb.Mode != "PAY_PER_REQUEST" && movedAtSource(pd, func(p service.Definition) bool {
		pc := p.Settings().Capacity
		return pc.Read != sc.Read || pc.Write != sc.Write
	}) {
		read, write := sc.Read, sc.Write
		if own.ReadOverride > 0 {
			read = own.ReadOverride
		}
		if c := &s.Capacity; c.Read != read || c.Write != write {
			c.Apply(read, write, now)
			changed = true
		}
	}
	if !sameOnDemand(s.OnDemand, src.OnDemand) && movedAtSource(pd, func(p service.Definition) bool { return !sameOnDemand(p.Settings().OnDemand, src.OnDemand) }) {
		s.OnDemand = src.OnDemand
		changed = true
	}
	// "the warm throughput settings you set will automatically apply to
	// all replica tables in the global table" (developer guide,
	// warm-throughput.html).
	warm := src.WarmNow()
	if s.WarmNow() != warm && movedAtSource(pd, func(p service.Definition) bool { ps := p.Settings(); return ps.WarmNow() != warm }) {
		s.Warm = warm
		changed = true
	}
	return changed
}

// syncTableSettings carries the source's TTL, encryption and table class
// (unless the member overrides the class, own) to e. It reports whether
// anything changed.
func syncTableSettings(e *service.Edit, sd service.Definition, pd *service.Definition, own replicaRec) bool {
	changed := false
	s, src := e.Settings(), sd.Settings()
	if s.TTL != src.TTL && movedAtSource(pd, func(p service.Definition) bool { return p.Settings().TTL != src.TTL }) {
		s.TTL = src.TTL
		changed = true
	}
	if !sameSSE(s.SSE, src.SSE) && movedAtSource(pd, func(p service.Definition) bool { return !sameSSE(p.Settings().SSE, src.SSE) }) {
		s.SSE = src.SSE
		changed = true
	}
	if own.TableClass == "" && s.TableClass != src.TableClass && movedAtSource(pd, func(p service.Definition) bool { return p.Settings().TableClass != src.TableClass }) {
		s.TableClass = src.TableClass
		changed = true
	}
	return changed
}

// writeScalingRules returns the write auto scaling rules of x (read rules
// are per replica).
func writeScalingRules(x part) []autoScalingRule {
	return slices.DeleteFunc(slices.Clone(x.AutoScaling), func(r autoScalingRule) bool { return !r.Write })
}

// syncWriteAutoScaling carries the write auto scaling rules of sx, the
// source's part, to e, keeping e's own read rules. It reports whether
// anything changed.
func syncWriteAutoScaling(e *service.Edit, sx part, pd *service.Definition) bool {
	x, _ := partOf(e.Definition)
	src := writeScalingRules(sx)
	if slices.Equal(src, writeScalingRules(x)) || !movedAtSource(pd, func(p service.Definition) bool {
		px, _ := partOf(p)
		return !slices.Equal(writeScalingRules(px), src)
	}) {
		return false
	}
	own := slices.DeleteFunc(slices.Clone(x.AutoScaling), func(r autoScalingRule) bool { return r.Write })
	x.AutoScaling = slices.Concat(own, src)
	setPart(e, x)
	return true
}

// sameOnDemand reports whether two OnDemandThroughput settings are equal.
func sameOnDemand(a, b *service.OnDemandThroughput) bool {
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
	t, data := r.target(op.to)
	if data == nil {
		return
	}
	now := r.svc.Now()
	until := now.Add(r.svc.TransientDelay())
	var rest []string
	err := r.changeReplica(t, func(e *service.Edit) error {
		x, _ := partOf(e.Definition)
		if !slices.ContainsFunc(x.Replicas, func(y replicaRec) bool { return y.Region == op.from }) {
			return errNoSync
		}
		x.Replicas = markDeleting(x.Replicas, op.from, now, until)
		setPart(e, x)
		rest = liveRegions(x.Replicas, now)
		return nil
	})
	if err != nil && !errors.Is(err, storage.ErrNotDurable) {
		return
	}
	r.setRoute(t.Info().ID, op.to, rest, op.legacy)
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
func sameSSE(a, b *service.SSEDescription) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// seedDef records definition d as the last one the tap saw of its table,
// so that the table's first change is carried as a change (only what it
// changed), not as its whole definition: a new replica and a member
// loaded from disk are seeded as their routes are set.
func (r *replicator) seedDef(d service.Definition) {
	b := d.Record()
	id := d.Table().Info().ID
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.defs == nil {
		r.defs = map[string][]byte{}
	}
	r.defs[id] = b
}

package globaltables

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Replication between the replicas of a global table. A replica is the
// table of the same name in another region's namespace of the same
// access key. Each namespace's DB hook has a tap (replTap) in front of
// it: every committed item write of a table with replicas (one write
// path: single items, batches, transactions, TTL, PartiQL, imports) is
// queued once per other replica with the clock at its commit, and the
// key's last-write stamp is kept (stamps.go prunes them). The same tap
// queues a member's definition changes and its table's drop (sync.go).
// Nothing re-reads a table.
//
// The queue is applied in commit order when its writes are due (their
// commit time plus the replication delay, 0 by default): at the start of
// the next request (Feature.Starting), or at once by Drain. A
// replicated write goes
// through storage's write path with OriginReplica (indexes, the stream,
// point-in-time recovery see it; the tap does not send it on), and only
// if it is newer than the key's last write on that replica: last writer
// wins by commit time, ties broken by region name, as AWS resolves
// conflicting writes to global tables.
//
// Locks: drainMu serializes applying (it is taken with no lock held,
// or by a change of a global table's membership, which holds globalMu
// first) and is held while a member's table.mu (a definition change:
// sync.go) and storage's locks are taken; mu guards the
// routes, the queue, the stamps and the last definitions and is a leaf,
// taken by the tap under storage's locks. Order: globalMu -> drainMu ->
// table.mu -> storage.Table.mu -> replicator.mu.

// replicator is a service's replication state (the feature's
// service.ServiceState).
type replicator struct {
	svc      *service.Service
	globalMu sync.Mutex // serializes changes of global tables' membership
	drainMu  sync.Mutex // serializes applying the queue

	mu       sync.Mutex
	delay    time.Duration
	routes   map[string]replRoute // by table ID: where its writes go
	creating map[replTarget]bool  // replicas being created: their writes wait
	applying string               // the table whose definition replication is changing (sync.go)
	defs     map[string][]byte    // by table ID: the last definition record of a table with replicas
	queue    []replOp
	stamps   map[string]map[storage.Key]replStamp // by table ID, the last write of each key
	// stampCount counts the stamps made since the last prune, from
	// stampsKept, the number it left (stamps.go).
	stampCount, stampsKept int
	pending                atomic.Int64 // len(queue), read without mu
	// routed: some table has had a route; set (never cleared) before the
	// first route is added, read without mu by the tap (WantsCommits).
	routed atomic.Bool
}

// replTarget names a replica: access key, region, table name.
type replTarget struct{ accessKey, region, name string }

// replRoute is where a table's writes go.
type replRoute struct {
	from   replTarget
	to     []string // the other regions
	legacy bool     // a 2017.11.29 global table (legacy.go)
}

// replStamp is a write's commit time and region, for last writer wins.
type replStamp struct {
	at     time.Time
	region string
}

// newer reports whether s wins over o.
func (s replStamp) newer(o replStamp) bool {
	return s.at.After(o.at) || s.at.Equal(o.at) && s.region > o.region
}

// replOp is one change on its way to one replica: an item write, a
// definition or a member's table dropped (sync.go) or, for a 2017.11.29
// table, the aws:rep:* attributes of a local write (legacy_attrs.go).
type replOp struct {
	kind   replOpKind
	to     replTarget
	stamp  replStamp
	due    time.Time
	key    storage.Key
	item   storage.EncodedItem // the new image; zero when deleted
	put    bool
	legacy bool   // the route's: a 2017.11.29 global table
	def    []byte // opDef: the source's whole definition record
	prev   []byte // opDef: the one before it (nil: unknown, all is carried)
	from   string // opDef, opGone: the region the change comes from
}

// replOpKind says what a replOp carries.
type replOpKind uint8

const (
	opItem  replOpKind = iota // an item write
	opDef                     // a definition change
	opGone                    // the member in from dropped its table
	opStamp                   // aws:rep:* of a local write (2017.11.29)
)

// setRoute makes table id's writes go to the regions to (none: nowhere);
// legacy marks a 2017.11.29 global table.
func (r *replicator) setRoute(id string, from replTarget, to []string, legacy bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(to) == 0 {
		delete(r.routes, id)
		delete(r.defs, id)
		return
	}
	if r.routes == nil {
		r.routes = map[string]replRoute{}
	}
	r.routed.Store(true) // before the route: WantsCommits
	r.routes[id] = replRoute{from: from, to: to, legacy: legacy}
}

// drainDue applies the queued writes that are due at now (each
// request's start: Feature.Starting; nothing to do costs one atomic
// load).
func (r *replicator) drainDue(now time.Time) {
	if r.pending.Load() == 0 {
		return
	}
	r.drainMu.Lock()
	defer r.drainMu.Unlock()
	r.drainLocked(now, false)
}

// drainLocked applies the due changes (all with force) in order; those
// to a replica being created wait for it. drainMu is held. (The queue
// is in commit order; writes share one delay, so a key's writes to a
// replica stay in order, and a 2017.11.29 table's aws:rep:* write,
// due at once, need not wait behind other tables' writes.)
func (r *replicator) drainLocked(now time.Time, force bool) int {
	r.mu.Lock()
	var ready, kept []replOp
	for _, op := range r.queue {
		if !force && op.due.After(now) || r.creating[op.to] {
			kept = append(kept, op)
			continue
		}
		ready = append(ready, op)
	}
	r.queue = kept
	r.pending.Store(int64(len(kept)))
	r.mu.Unlock()
	n := 0
	for _, op := range ready {
		switch op.kind {
		case opDef:
			r.applyDef(op)
		case opGone:
			r.applyGone(op)
		case opStamp:
			r.applyStamp(op)
		default:
			if r.apply(op) {
				n++
			}
		}
	}
	r.pruneStamps() // stamps.go
	return n
}

// apply writes op to its replica if it is newer than the key's last
// write there; it reports whether it wrote.
func (r *replicator) apply(op replOp) bool {
	t, data := r.target(op.to)
	if data == nil {
		return false // the replica is gone
	}
	if op.legacy && !op.put {
		r.markRepDeleting(t, data, op) // legacy_attrs.go
	}
	var item storage.Item
	if op.put {
		item = op.item.Item()
		if op.legacy {
			item = withRepAttrs(item, op.stamp, false) // legacy_attrs.go
		}
	}
	wrote := false
	id := t.Info().ID
	_, err := data.WriteFrom(storage.OriginReplica, op.key, func(cur storage.Item) (storage.Item, error) {
		r.mu.Lock()
		defer r.mu.Unlock()
		last, seen := r.stamps[id][op.key]
		if seen && !op.stamp.newer(last) {
			return nil, storage.ErrNoWrite
		}
		r.stampLocked(id, op.key, op.stamp)
		if !op.put && cur == nil {
			return nil, storage.ErrNoWrite
		}
		wrote = true
		return item, nil
	})
	return wrote && (err == nil || errors.Is(err, storage.ErrNotDurable))
}

// target returns the replica to names and its storage table (nil: the
// replica is gone, or still being made).
func (r *replicator) target(to replTarget) (service.Table, *storage.Table) {
	t, ok := r.svc.Space(to.accessKey, to.region).Table(to.name)
	if !ok {
		return service.Table{}, nil
	}
	return t, t.Storage()
}

// stampLocked records the last write of key in table id.
func (r *replicator) stampLocked(id string, key storage.Key, s replStamp) {
	if r.stamps == nil {
		r.stamps = map[string]map[storage.Key]replStamp{}
	}
	m := r.stamps[id]
	if m == nil {
		m = map[storage.Key]replStamp{}
		r.stamps[id] = m
	}
	m[key] = s
	r.stampCount++
}

// forget drops table id's stamps (the table is gone).
func (r *replicator) forget(id string) {
	r.mu.Lock()
	delete(r.stamps, id)
	delete(r.routes, id)
	delete(r.defs, id)
	r.mu.Unlock()
}

// replTap is a namespace's DB hook in front of the one it wraps: it
// queues the committed writes of tables with replicas.
type replTap struct {
	r     *replicator
	inner storage.Hook
	clock func() time.Time
}

// wrapReplication puts a tap in front of db's hook.
func wrapReplication(db *storage.DB, r *replicator, clock func() time.Time) {
	db.WrapHook(func(inner storage.Hook) storage.Hook { return &replTap{r: r, inner: inner, clock: clock} })
}

// Commit hands rec to the wrapped hook, then queues its writes.
func (p *replTap) Commit(rec *storage.Record) (uint64, error) {
	var wait uint64
	if p.inner != nil {
		w, err := p.inner.Commit(rec)
		if err != nil {
			return 0, err
		}
		wait = w
	}
	switch rec.Kind {
	case storage.RecordCommit, storage.RecordMeta, storage.RecordDropTable:
	default:
		return wait, nil
	}
	p.r.mu.Lock()
	defer p.r.mu.Unlock()
	if len(p.r.routes) == 0 {
		return wait, nil
	}
	if rec.Kind != storage.RecordCommit {
		p.queueCatalogLocked(rec) // sync.go
		return wait, nil
	}
	var now time.Time
	for _, w := range rec.Writes {
		route, ok := p.r.routes[w.Table]
		if !ok || w.Origin == storage.OriginReplica {
			continue
		}
		if now.IsZero() {
			now = p.clock()
		}
		stamp := replStamp{at: now, region: route.from.region}
		if last, seen := p.r.stamps[w.Table][w.Key]; seen && !stamp.newer(last) {
			// This write replaced the key's last one here, so it is
			// later, whatever the clock says: on a clock that has not
			// moved (a test's), a replicated write stamped by a region
			// that sorts after this one would otherwise win on the other
			// replicas while this one stands here.
			stamp.at = last.at.Add(time.Nanosecond)
		}
		p.r.stampLocked(w.Table, w.Key, stamp)
		for _, region := range route.to {
			p.r.queue = append(p.r.queue, replOp{
				to:    replTarget{route.from.accessKey, region, route.from.name},
				stamp: stamp, due: now.Add(p.r.delay), key: w.Key, item: w.New, put: w.HasNew, legacy: route.legacy,
			})
		}
		if route.legacy && w.HasNew {
			// 2017.11.29: DynamoDB adds aws:rep:* to the item in a write
			// of its own, due at once (legacy_attrs.go).
			p.r.queue = append(p.r.queue, replOp{kind: opStamp, to: route.from, stamp: stamp, due: now, key: w.Key, legacy: true})
		}
	}
	p.r.pending.Store(int64(len(p.r.queue)))
	return wait, nil
}

// Wait is the wrapped hook's.
func (p *replTap) Wait(wait uint64) error {
	if p.inner == nil {
		return nil
	}
	return p.inner.Wait(wait)
}

// WantsCommits reports whether the tap, or the hook it wraps, wants the
// item writes of table id (storage.CommitSelector): once any table of
// the service has had a replica, the tap hears every write (it checks
// the routes itself). setRoute sets routed before it adds the route,
// under the replicator's lock, so a write the tap did not hear of was
// answered before the route existed, when it would have queued nothing
// either (storage/hook_select.go has the argument).
func (p *replTap) WantsCommits(id string) bool {
	return p.r.routed.Load() || service.HookWants(p.inner, id)
}

package throttle

import "github.com/dynamoemu/dynamoemu/internal/faults"

// Throttle is a refused use: the error to answer and why.
type Throttle struct {
	// Kind is faults.ProvisionedThroughputExceeded (a provisioned table
	// or GSI, including its hot keys) or faults.Throttling (an on-demand
	// table's hot key); its ErrorType, Status and CancellationCode are
	// the wire's.
	Kind faults.Kind
	// Index is the GSI (or vector index) whose capacity ran out, "" for
	// the table.
	Index string
	// Reason is the ThrottlingReason's reason: resource (Table, Index),
	// operation (Read, Write) and limit (ProvisionedThroughputExceeded,
	// KeyRangeThroughputExceeded; MaxOnDemandThroughputExceeded for a
	// vector index's search limit, AWS's reason for an on-demand index
	// read past a configured maximum), as
	// "IndexWriteKeyRangeThroughputExceeded".
	Reason string
	// Message is AWS's message for it.
	Message string
}

// Admit reports whether use u must be refused now: when the bucket it
// draws on (the table's or GSI's provisioned capacity, then its partition
// key's) holds nothing. It takes nothing; Charge takes the units the
// request consumed once it has run. A table not configured is never
// throttled.
func (t *Throttler) Admit(u Use) (Throttle, bool) {
	now := t.clock().UnixNano()
	t.mu.Lock()
	defer t.mu.Unlock()
	ts := t.tables[u.Table]
	if ts == nil {
		return Throttle{}, false
	}
	if u.Vector {
		if b := ts.vs[u.Index]; b != nil {
			b.refill(now)
			if b.empty() {
				return throttleOf(OnDemand, u.Index, false, "MaxOnDemandThroughputExceeded"), true
			}
		}
		return Throttle{}, false
	}
	res := ts.resource(u.Index)
	d := dir(u.Write)
	if p := ts.rw[res]; p != nil {
		b := p[d]
		b.refill(now)
		if b.empty() {
			return throttleOf(Provisioned, res, u.Write, "ProvisionedThroughputExceeded"), true
		}
	}
	if t.perKey && u.Partition != "" {
		if b := ts.keys[keyRes{res, u.Write}][u.Partition]; b != nil {
			b.refill(now)
			if b.empty() {
				return throttleOf(ts.mode, res, u.Write, "KeyRangeThroughputExceeded"), true
			}
		}
	}
	return Throttle{}, false
}

// Charge takes units from the buckets use u draws on (they may go into
// debt).
func (t *Throttler) Charge(u Use, units float64) {
	if !(units > 0) {
		return
	}
	now := t.clock().UnixNano()
	t.mu.Lock()
	defer t.mu.Unlock()
	ts := t.tables[u.Table]
	if ts == nil {
		return
	}
	if u.Vector {
		if b := ts.vs[u.Index]; b != nil {
			b.refill(now)
			b.tokens -= units
		}
		return
	}
	res := ts.resource(u.Index)
	d := dir(u.Write)
	if p := ts.rw[res]; p != nil {
		p[d].refill(now)
		p[d].tokens -= units
	}
	if t.perKey && u.Partition != "" {
		kr := keyRes{res, u.Write}
		m := ts.keys[kr]
		if m == nil {
			m = map[string]*bucket{}
			ts.keys[kr] = m
		}
		b := m[u.Partition]
		if b == nil {
			rate := t.keyRate[d]
			b = newBucket(rate, rate, now)
			m[u.Partition] = b
			t.keyCount++
		}
		b.refill(now)
		b.tokens -= units
		if t.keyCount >= t.sweepAt {
			t.sweepLocked(now)
		}
	}
}

// minSweep is the number of per-key buckets below which none is swept.
const minSweep = 1024

// sweepLocked forgets the per-key buckets that are full again (a full
// bucket is what a new one is, so forgetting changes no answer), and sets
// the next sweep at twice what remains. So memory follows the keys used
// in about the last second. t.mu is held.
func (t *Throttler) sweepLocked(now int64) {
	for _, ts := range t.tables {
		for kr, m := range ts.keys {
			for pk, b := range m {
				b.refill(now)
				if b.full() {
					delete(m, pk)
					t.keyCount--
				}
			}
			if len(m) == 0 {
				delete(ts.keys, kr)
			}
		}
	}
	t.sweepAt = max(minSweep, 2*t.keyCount)
}

// throttleOf builds the refusal for a resource ("" the table, else a
// GSI), a direction and a limit type.
func throttleOf(mode Mode, res string, write bool, limit string) Throttle {
	th := Throttle{Kind: faults.ProvisionedThroughputExceeded, Index: res}
	if mode == OnDemand {
		th.Kind = faults.Throttling
	}
	resource, op := "Table", "Read"
	if res != "" {
		resource = "Index"
	}
	if write {
		op = "Write"
	}
	th.Reason = resource + op + limit
	if res != "" {
		th.Message = th.Kind.IndexMessage()
	} else {
		th.Message = th.Kind.Message()
	}
	return th
}

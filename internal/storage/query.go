package storage

// SortOp is the comparison of a Query's sort key condition.
type SortOp uint8

// The sort key conditions of a KeyConditionExpression.
const (
	SortAny        SortOp = iota // no condition on the sort key
	SortEQ                       // sort key = v0
	SortLT                       // sort key < v0
	SortLE                       // sort key <= v0
	SortGT                       // sort key > v0
	SortGE                       // sort key >= v0
	SortBetween                  // v0 <= sort key <= v1
	SortBeginsWith               // begins_with(sort key, v0), S or B only
)

var sortOpNames = [...]string{"ANY", "EQ", "LT", "LE", "GT", "GE", "BETWEEN", "BEGINS_WITH"}

// String returns the operator's name as in the legacy KeyConditions parameter.
func (op SortOp) String() string {
	if int(op) < len(sortOpNames) {
		return sortOpNames[op]
	}
	return "INVALID"
}

// SortCondition restricts a Query's sort key. Values[1] is used only by
// SortBetween. The values must have the sort key's kind.
type SortCondition struct {
	Op     SortOp
	Values [2]Value
}

// QueryRange selects the items of one partition for Query.
type QueryRange struct {
	Partition Value
	Sort      SortCondition
	Forward   bool // ScanIndexForward: ascending sort key order
	// ExclusiveStart, when set, continues strictly after this key in the walk
	// direction. It must be a key of the same partition; the key need not
	// exist any more.
	ExclusiveStart *Key
}

// Query visits the items of partition r.Partition that satisfy r.Sort, in
// sort key order (descending unless r.Forward), until visit returns false.
// It seeks in the partition's B-tree and never walks other partitions. It
// holds the table's read lock while visiting: visit must not call back into
// the table. Each visit gets a freshly decoded item it may keep.
//
// The emulator validates conditions first; here a condition or start key
// that does not fit the key schema (wrong kinds, a sort condition on a table
// without a sort key, BEGINS_WITH on a number, a start key of another
// partition) matches nothing.
func (t *Table) Query(r QueryRange, visit func(k Key, it Item) bool) {
	t.QueryEncoded(r, func(e EncodedItem) bool { return visit(e.Key(), e.Item()) })
}

// QueryEncoded is Query without the decoding: each visit gets the item as stored.
func (t *Table) QueryEncoded(r QueryRange, visit func(EncodedItem) bool) {
	lo, hi, ok := t.ks.queryBounds(r)
	if !ok {
		return
	}
	t.mu.RLock()
	defer t.mu.RUnlock()
	t.parts.walk(r.Partition.str, lo, hi, r.Forward, func(e entry) bool { return visit(encodedIn(&t.ks, e)) })
}

// queryBounds turns r into bounds on the encoded sort keys of its
// partition; ok is false when r matches nothing.
func (ks *KeySchema) queryBounds(r QueryRange) (lo, hi bound, ok bool) {
	if r.Partition.Kind() != ks.Partition.Kind {
		return bound{}, bound{}, false
	}
	lo, hi, ok = ks.sortBounds(r.Sort)
	if !ok {
		return bound{}, bound{}, false
	}
	if s := r.ExclusiveStart; s != nil {
		if ks.checkKey(*s) != nil || s.Partition.str != r.Partition.str {
			return bound{}, bound{}, false
		}
		start := ks.sortKeyOf(*s)
		if r.Forward {
			if !lo.set || start >= lo.key {
				lo = bound{key: start, set: true, excl: true}
			}
		} else if !hi.set || start <= hi.key {
			hi = bound{key: start, set: true, excl: true}
		}
	}
	return lo, hi, true
}

// sortBounds turns a sort condition into bounds on encoded sort keys.
func (ks *KeySchema) sortBounds(c SortCondition) (lo, hi bound, ok bool) {
	if c.Op == SortAny {
		return bound{}, bound{}, true
	}
	if !ks.HasSort() || c.Values[0].Kind() != ks.Sort.Kind {
		return bound{}, bound{}, false
	}
	v := sortKeyBytes(c.Values[0])
	switch c.Op {
	case SortEQ:
		return bound{key: v, set: true}, bound{key: v, set: true}, true
	case SortLT:
		return bound{}, bound{key: v, set: true, excl: true}, true
	case SortLE:
		return bound{}, bound{key: v, set: true}, true
	case SortGT:
		return bound{key: v, set: true, excl: true}, bound{}, true
	case SortGE:
		return bound{key: v, set: true}, bound{}, true
	case SortBetween:
		if c.Values[1].Kind() != ks.Sort.Kind {
			return bound{}, bound{}, false
		}
		return bound{key: v, set: true}, bound{key: sortKeyBytes(c.Values[1]), set: true}, true
	case SortBeginsWith:
		if ks.Sort.Kind == KindN {
			return bound{}, bound{}, false
		}
		lo = bound{key: v, set: true}
		if end, ok := prefixEnd(v); ok {
			hi = bound{key: end, set: true, excl: true}
		}
		return lo, hi, true
	}
	return bound{}, bound{}, false
}

// prefixEnd returns the least string greater than every string that starts
// with prefix; ok is false when there is none (prefix is empty or all 0xFF).
func prefixEnd(prefix string) (string, bool) {
	end, ok := bytesPrefixEnd([]byte(prefix))
	return string(end), ok
}

// bytesPrefixEnd is prefixEnd in place: b becomes the least key above
// every key that starts with it, returned as a prefix of b (empty and
// false when there is none).
func bytesPrefixEnd(b []byte) ([]byte, bool) {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] != 0xFF {
			b[i]++
			return b[:i+1], true
		}
	}
	return b[:0], false
}

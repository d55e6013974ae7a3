package expr

import (
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Evaluating a condition on stored items. A filter runs on every item a
// Scan or Query reads, most of which it rejects; decoding each into a map
// to evaluate it would cost a map, a Value per attribute and the garbage
// of both, per item. A Matcher reads instead, straight from the record,
// the attributes the condition names (one walk of the record, which keeps
// attributes sorted by name, as the condition's list is; storage.Lookup),
// follows paths into maps and lists without decoding them, and compares
// in place (storage.EncodedValue). Its answers are Eval's: the same
// rules, written once more for the encoded form (eval.go has the map
// form), and a randomized test holds the two together.

// Matcher evaluates one Condition on stored items. It keeps scratch space
// between items, so it allocates nothing per item once warm; it is for
// one goroutine (one per request: Condition.Matcher).
type Matcher struct {
	cond   *Condition
	attrs  []storage.EncodedValue // the condition's attributes of the current item
	inline [4]storage.EncodedValue
	num    []byte // size() results of the current item, as text
	// hidden marks the attributes of cond.attrs the Matcher does not
	// see (MatcherOver): missing from every item. nil: none. A pointer:
	// a slice header in line took the Matcher to the next size class,
	// 16 B more on every filtered Scan and Query (BenchmarkOps/ScanFiltered).
	hidden *[]bool
}

// Matcher returns a Matcher for the condition.
func (cond *Condition) Matcher() *Matcher {
	m := &Matcher{cond: cond}
	if len(cond.attrs) <= len(m.inline) {
		m.attrs = m.inline[:len(cond.attrs)]
	} else {
		m.attrs = make([]storage.EncodedValue, len(cond.attrs))
	}
	return m
}

// MatcherOver returns a Matcher that sees of each item only the
// top-level attributes in visible (nil: all): the others are missing, as
// they are from the item's entry in an index that projects visible. It
// answers for e what Match answers for e cut to visible, without the
// cut.
func (cond *Condition) MatcherOver(visible []string) *Matcher {
	m := cond.Matcher()
	if visible == nil {
		return m
	}
	for i, a := range cond.attrs {
		if !slices.Contains(visible, a) {
			if m.hidden == nil {
				h := make([]bool, len(cond.attrs))
				m.hidden = &h
			}
			(*m.hidden)[i] = true
		}
	}
	return m
}

// Match reports whether the stored item e satisfies the condition: what
// Eval answers for e.Item().
func (m *Matcher) Match(e storage.EncodedItem) bool {
	e.Lookup(m.cond.attrs, m.attrs)
	if m.hidden != nil {
		for i, h := range *m.hidden {
			if h {
				m.attrs[i] = storage.EncodedValue{}
			}
		}
	}
	if m.cond.terms != nil {
		return m.matchLegacy()
	}
	m.num = m.num[:0]
	return m.eval(m.cond.root)
}

// operand is a value an operand evaluates to: a Value (a placeholder's,
// an item's scalar, a size), or a composite of the item, not decoded.
type operand struct {
	val storage.Value
	enc storage.EncodedValue // valid: the operand is this, val is unset
	ok  bool                 // the operand has a value
}

func (o operand) kind() storage.Kind {
	if o.enc.IsValid() {
		return o.enc.Kind()
	}
	return o.val.Kind()
}

func (m *Matcher) eval(x Expr) bool {
	switch x := x.(type) {
	case *ParenExpr:
		return m.eval(x.X)
	case *NotExpr:
		return !m.eval(x.X)
	case *BinaryExpr:
		switch x.Op {
		case AND:
			return m.eval(x.X) && m.eval(x.Y)
		case OR:
			return m.eval(x.X) || m.eval(x.Y)
		}
		return compareOperands(x.Op, m.operand(x.X), m.operand(x.Y))
	case *BetweenExpr:
		v, lo, hi := m.operand(x.X), m.operand(x.Lo), m.operand(x.Hi)
		return v.ok && lo.ok && hi.ok && betweenOperands(v, lo, hi)
	case *InExpr:
		v := m.operand(x.X)
		if !v.ok {
			return false
		}
		for _, y := range x.List {
			if w := m.operand(y); w.ok && equalOperands(v, w) {
				return true
			}
		}
		return false
	case *CallExpr:
		return m.predicate(x)
	case *ConstExpr:
		return x.Value
	}
	return false
}

// compareOperands is compare (eval.go) on operands.
func compareOperands(op Token, a, b operand) bool {
	switch op {
	case EQ:
		return a.ok && b.ok && equalOperands(a, b)
	case NE:
		return !(a.ok && b.ok && equalOperands(a, b))
	}
	if !a.ok || !b.ok {
		return false
	}
	c, ok := compareScalars(a, b)
	if !ok {
		return false
	}
	switch op {
	case LT:
		return c < 0
	case LE:
		return c <= 0
	case GT:
		return c > 0
	case GE:
		return c >= 0
	}
	return false
}

// equalOperands is storage.Equal on operands.
func equalOperands(a, b operand) bool {
	switch {
	case a.enc.IsValid() && b.enc.IsValid():
		return a.enc.EqualEncoded(b.enc)
	case a.enc.IsValid():
		return a.enc.Equal(b.val)
	case b.enc.IsValid():
		return b.enc.Equal(a.val)
	}
	return storage.Equal(a.val, b.val)
}

// compareScalars is storage.Compare on operands: composites do not order.
func compareScalars(a, b operand) (int, bool) {
	if a.enc.IsValid() || b.enc.IsValid() {
		return 0, false
	}
	return storage.Compare(a.val, b.val)
}

func (m *Matcher) predicate(x *CallExpr) bool {
	switch x.Fun {
	case fnExists, fnNotExists:
		p, _ := pathOf(x.Args[0])
		_, ok := m.path(p)
		return ok == (x.Fun == fnExists)
	case fnType:
		v, t := m.operand(x.Args[0]), m.operand(x.Args[1])
		return v.ok && t.ok && t.kind() == storage.KindS && v.kind().String() == t.val.Str()
	case fnBeginsWith:
		a, b := m.operand(x.Args[0]), m.operand(x.Args[1])
		return a.ok && b.ok && beginsWithOperands(a, b)
	case fnContains:
		a, b := m.operand(x.Args[0]), m.operand(x.Args[1])
		return a.ok && b.ok && containsOperand(a, b)
	}
	return false
}

// betweenOperands is between (eval.go) on operands.
func betweenOperands(v, lo, hi operand) bool {
	c1, ok1 := compareScalars(lo, v)
	c2, ok2 := compareScalars(v, hi)
	return ok1 && ok2 && c1 <= 0 && c2 <= 0
}

// beginsWithOperands is beginsWith (eval.go) on operands.
func beginsWithOperands(a, b operand) bool {
	if a.kind() != b.kind() {
		return false
	}
	if k := a.kind(); k != storage.KindS && k != storage.KindB {
		return false
	}
	return strings.HasPrefix(a.val.Str(), b.val.Str())
}

// containsOperand is contains (eval.go) on operands.
func containsOperand(a, b operand) bool {
	switch k := a.kind(); k {
	case storage.KindS, storage.KindB:
		return b.kind() == k && strings.Contains(a.val.Str(), b.val.Str())
	case storage.KindSS, storage.KindNS, storage.KindBS:
		if b.kind() != memberKind(k) {
			return false
		}
		if a.enc.IsValid() {
			return a.enc.HasMember(b.val.Str())
		}
		return a.val.HasMember(b.val.Str())
	case storage.KindL:
		if !a.enc.IsValid() {
			for _, e := range a.val.List() {
				if equalOperands(operand{val: e, ok: true}, b) {
					return true
				}
			}
			return false
		}
		parts := a.enc.Parts()
		for {
			_, e, ok := parts.Next()
			if !ok {
				return false
			}
			if equalOperands(itemOperand(e), b) {
				return true
			}
		}
	}
	return false
}

// memberKind is the kind of a set's members.
func memberKind(k storage.Kind) storage.Kind {
	switch k {
	case storage.KindSS:
		return storage.KindS
	case storage.KindNS:
		return storage.KindN
	}
	return storage.KindB
}

// itemOperand is the operand of a value found in the item: scalars become
// Values (which costs nothing), composites stay encoded.
func itemOperand(v storage.EncodedValue) operand {
	switch v.Kind() {
	case storage.KindL, storage.KindM, storage.KindSS, storage.KindNS, storage.KindBS:
		return operand{enc: v, ok: true}
	}
	return operand{val: v.Value(), ok: true}
}

// path returns the value at p in the current item.
func (m *Matcher) path(p *PathExpr) (storage.EncodedValue, bool) {
	v := m.attrs[p.attr]
	if !v.IsValid() {
		return v, false
	}
	for _, s := range p.resolved[1:] {
		var ok bool
		if s.IsIndex {
			v, ok = v.Index(s.Index)
		} else {
			v, ok = v.Field(s.Name)
		}
		if !ok {
			return v, false
		}
	}
	return v, true
}

// operand is evalOperand (eval.go) on the current item.
func (m *Matcher) operand(x Expr) operand {
	switch x := x.(type) {
	case *PathExpr:
		v, ok := m.path(x)
		if !ok {
			return operand{}
		}
		return itemOperand(v)
	case *ValueExpr:
		return operand{val: m.cond.vals[x.slot], ok: true}
	case *ParenExpr:
		return m.operand(x.X)
	case *CallExpr:
		if x.Fun == fnSize {
			v := m.operand(x.Args[0])
			if !v.ok {
				return operand{}
			}
			n, ok := operandSize(v)
			if !ok {
				return operand{}
			}
			return operand{val: m.number(n), ok: true}
		}
	}
	return operand{}
}

// operandSize is sizeOf (eval.go) on an operand.
func operandSize(o operand) (int, bool) {
	if o.enc.IsValid() {
		return o.enc.Len(), true // a composite: its elements, entries or members
	}
	return sizeOf(o.val)
}

// number returns n as an N Value without allocating once warm: its text
// is appended to m.num, which Match empties for each item and only ever
// appends to within one, so every text stays as written until the next
// item (a grown buffer leaves the old one to the texts that view it).
// A string of its own per result (strconv.Itoa) took a Scan page of 500
// items through a size() filter from 636 to 2,229 B/op and 15 to 514
// allocs/op (4 interleaved runs; CPU time moved within the noise of a
// loaded machine; go test -run '^$' -bench BenchmarkScanSizeFilter
// -benchmem ./emulator/internal/benchmarks).
func (m *Matcher) number(n int) storage.Value {
	start := len(m.num)
	m.num = strconv.AppendInt(m.num, int64(n), 10)
	text := unsafe.String(&m.num[start], len(m.num)-start)
	return storage.N(storage.Number(text))
}

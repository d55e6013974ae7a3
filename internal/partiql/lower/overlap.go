package lower

import (
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/partiql"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The overlap rule of a SELECT's WHERE clause. DynamoDB plans a SELECT
// whose WHERE clause, written as an OR of AND-branches, fixes the
// partition key in every branch (pk = v, or pk IN [...]) as one read per
// branch and partition, and refuses the statement when two of those reads
// cover the same sort keys of one partition: "Overlapping conditions with
// range keys are not supported in where clause". (An OR inside an AND is
// split into branches only when it names a key attribute: disjuncts.) A
// branch without a sort
// key condition reads the whole partition, so it overlaps every other read
// of that partition (pk = 'a' AND x = 1 OR pk = 'a' AND sk = 2 is
// refused), and pk IN ['a', 'a'] reads one partition twice.
//
// A statement with a branch that does not fix the partition key is a
// Scan, and one whose sort key appears in a condition no key range
// expresses (NOT sk = v, sk <> v, NOT begins_with(sk, v), ...) is run as
// written: neither is refused.
//
// Source: public records of AWS answers (a PartiQL suite verified against
// DynamoDB in eu-west-2 and us-east-1, 2026: non-key and <> conditions
// beside a sort-key branch refused; negated sort-key branches run; a load
// script's note that DynamoDB refuses duplicate values in an IN list with
// this message). DynamoDB Local runs every such statement.

// maxOverlapBranches bounds the disjunctive form the rule looks at; a
// WHERE clause with more branches is run as written.
const maxOverlapBranches = 256

// checkOverlap applies the overlap rule to a SELECT's WHERE clause read
// with key schema ks.
func (l *lowerer) checkOverlap(ks storage.KeySchema, where partiql.Expr) *Error {
	if where == nil {
		return nil
	}
	keys := []string{ks.Partition.Name}
	if ks.HasSort() {
		keys = append(keys, ks.Sort.Name)
	}
	branches, ok := disjuncts(where, keys, true)
	if !ok {
		return nil
	}
	var reads []keyRead
	for _, b := range branches {
		parts, ok := l.branchPartitions(ks, b)
		if !ok {
			return nil // a Scan
		}
		ranges, ok := l.branchRanges(ks, b)
		if !ok {
			return nil // run as written
		}
		for _, p := range parts {
			for _, r := range ranges {
				for _, have := range reads {
					if storage.Equal(have.partition, p) && have.r.overlaps(r) {
						return errPlain(msgOverlapping)
					}
				}
				reads = append(reads, keyRead{p, r})
			}
		}
	}
	return nil
}

// keyRead is one read a SELECT is planned as: a partition and a range of
// its sort keys.
type keyRead struct {
	partition storage.Value
	r         sortRange
}

// disjuncts writes e as an OR of AND-branches (each a list of conjuncts),
// through parentheses. An OR below an AND is distributed only when it
// names a key attribute (keys): pk = 'a' AND (sk = 1 OR x = 2) is two
// branches, as AWS's answers show, while pk = 'a' AND (x = 1 OR y = 2)
// stays one branch with a filter (no public record shows AWS refusing
// it). ok is false when there would be more than maxOverlapBranches
// branches.
func disjuncts(e partiql.Expr, keys []string, top bool) ([][]partiql.Expr, bool) {
	switch x := unparen(e).(type) {
	case *partiql.Binary:
		switch {
		case x.Op == partiql.OR && (top || mentionsAny(x, keys)):
			a, ok := disjuncts(x.X, keys, top)
			if !ok {
				return nil, false
			}
			b, ok := disjuncts(x.Y, keys, top)
			if !ok || len(a)+len(b) > maxOverlapBranches {
				return nil, false
			}
			return append(a, b...), true
		case x.Op == partiql.AND:
			a, ok := disjuncts(x.X, keys, false)
			if !ok {
				return nil, false
			}
			b, ok := disjuncts(x.Y, keys, false)
			if !ok || len(a)*len(b) > maxOverlapBranches {
				return nil, false
			}
			out := make([][]partiql.Expr, 0, len(a)*len(b))
			for _, p := range a {
				for _, q := range b {
					branch := append(append([]partiql.Expr{}, p...), q...)
					out = append(out, branch)
				}
			}
			return out, true
		}
	}
	return [][]partiql.Expr{{unparen(e)}}, true
}

// mentionsAny reports whether any of names appears in e as a top-level
// attribute.
func mentionsAny(e partiql.Expr, names []string) bool {
	for _, n := range names {
		if mentions(e, n) {
			return true
		}
	}
	return false
}

// branchPartitions returns the partitions a branch reads: the value of its
// pk = v conjuncts (none when two disagree: the branch reads nothing),
// else the members of its first pk IN [...]; ok is false when it fixes no
// partition or a value does not lower (the statement's other checks word
// that).
func (l *lowerer) branchPartitions(ks storage.KeySchema, branch []partiql.Expr) ([]storage.Value, bool) {
	var eq []storage.Value
	for _, c := range branch {
		if v, ok := keyEquality(c, ks.Partition.Name); ok {
			val, err := l.value(v, valuePath{})
			if err != nil {
				return nil, false
			}
			if len(eq) > 0 && !storage.Equal(eq[0], val) {
				return []storage.Value{}, true
			}
			eq = []storage.Value{val}
		}
	}
	if eq != nil {
		return eq, true
	}
	for _, c := range branch {
		in, ok := c.(*partiql.In)
		if !ok || in.Not || in.Right != nil || !isTopName(in.X, ks.Partition.Name) || len(in.Elems) == 0 || !allValues(in.Elems) {
			continue
		}
		vals := make([]storage.Value, len(in.Elems))
		for i, e := range in.Elems {
			v, err := l.value(e, valuePath{})
			if err != nil {
				return nil, false
			}
			vals[i] = v
		}
		return vals, true
	}
	return nil, false
}

// branchRanges returns the sort key ranges a branch reads: the
// intersection of its sort key conditions (one range per member of an
// sk IN [...]), the whole partition without one. ok is false when the
// sort key appears in a conjunct no range expresses.
func (l *lowerer) branchRanges(ks storage.KeySchema, branch []partiql.Expr) ([]sortRange, bool) {
	all := []sortRange{{}}
	if !ks.HasSort() {
		return all, true
	}
	name := ks.Sort.Name
	for _, c := range branch {
		if !mentions(c, name) {
			continue
		}
		rs, ok := l.rangesOf(c, name)
		if !ok {
			return nil, false
		}
		var next []sortRange
		for _, a := range all {
			for _, b := range rs {
				next = append(next, a.intersect(b))
			}
		}
		all = next
	}
	return all, true
}

// rangesOf turns one conjunct on the sort key into the ranges it reads.
func (l *lowerer) rangesOf(c partiql.Expr, name string) ([]sortRange, bool) {
	switch c := c.(type) {
	case *partiql.Binary:
		return l.comparedRange(c, name)
	case *partiql.Between:
		return l.betweenRange(c, name)
	case *partiql.Call:
		return l.prefixRange(c, name)
	case *partiql.In:
		return l.inRanges(c, name)
	}
	return nil, false
}

// rangeValue is the value of e, a value of the statement; false when it
// has none.
func (l *lowerer) rangeValue(e partiql.Expr) (storage.Value, bool) {
	v, err := l.value(e, valuePath{})
	return v, err == nil
}

// comparedRange is the range of sk op v or v op sk.
func (l *lowerer) comparedRange(c *partiql.Binary, name string) ([]sortRange, bool) {
	x, y, op := c.X, c.Y, c.Op
	if isTopName(y, name) && isValue(x) {
		x, y, op = y, x, flipComparison(op)
	}
	if !isTopName(x, name) || !isValue(y) {
		return nil, false
	}
	v, ok := l.rangeValue(y)
	if !ok {
		return nil, false
	}
	switch op {
	case partiql.EQ:
		return []sortRange{{lo: bound{v, true, true}, hi: bound{v, true, true}}}, true
	case partiql.LT:
		return []sortRange{{hi: bound{v, false, true}}}, true
	case partiql.LE:
		return []sortRange{{hi: bound{v, true, true}}}, true
	case partiql.GT:
		return []sortRange{{lo: bound{v, false, true}}}, true
	case partiql.GE:
		return []sortRange{{lo: bound{v, true, true}}}, true
	}
	return nil, false
}

// betweenRange is the range of sk BETWEEN lo AND hi.
func (l *lowerer) betweenRange(c *partiql.Between, name string) ([]sortRange, bool) {
	if c.Not || !isTopName(c.X, name) || !isValue(c.Lo) || !isValue(c.Hi) {
		return nil, false
	}
	lo, ok1 := l.rangeValue(c.Lo)
	hi, ok2 := l.rangeValue(c.Hi)
	if !ok1 || !ok2 {
		return nil, false
	}
	return []sortRange{{lo: bound{lo, true, true}, hi: bound{hi, true, true}}}, true
}

// prefixRange is the range of begins_with(sk, p), p a string or binary.
func (l *lowerer) prefixRange(c *partiql.Call, name string) ([]sortRange, bool) {
	if !strings.EqualFold(c.Fun, "begins_with") || len(c.Args) != 2 || !isTopName(c.Args[0], name) || !isValue(c.Args[1]) {
		return nil, false
	}
	p, ok := l.rangeValue(c.Args[1])
	if !ok || (p.Kind() != storage.KindS && p.Kind() != storage.KindB) {
		return nil, false
	}
	r := sortRange{lo: bound{p, true, true}}
	if next, ok := prefixEnd(p); ok {
		r.hi = bound{next, false, true}
	}
	return []sortRange{r}, true
}

// inRanges are the ranges of sk IN [v...], one a value.
func (l *lowerer) inRanges(c *partiql.In, name string) ([]sortRange, bool) {
	if c.Not || c.Right != nil || !isTopName(c.X, name) || len(c.Elems) == 0 || !allValues(c.Elems) {
		return nil, false
	}
	out := make([]sortRange, len(c.Elems))
	for i, e := range c.Elems {
		v, ok := l.rangeValue(e)
		if !ok {
			return nil, false
		}
		out[i] = sortRange{lo: bound{v, true, true}, hi: bound{v, true, true}}
	}
	return out, true
}

// flipComparison is op with its operands swapped (v < sk is sk > v).
func flipComparison(op partiql.Token) partiql.Token {
	switch op {
	case partiql.LT:
		return partiql.GT
	case partiql.LE:
		return partiql.GE
	case partiql.GT:
		return partiql.LT
	case partiql.GE:
		return partiql.LE
	}
	return op
}

// prefixEnd is the least value greater than every value that begins with
// p (p's bytes with the last one below 0xff incremented); ok is false when
// there is none.
func prefixEnd(p storage.Value) (storage.Value, bool) {
	b := []byte(p.Str())
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b = append(b[:i], b[i]+1)
			if p.Kind() == storage.KindB {
				return storage.B(b), true
			}
			return storage.S(string(b)), true
		}
	}
	return storage.Value{}, false
}

// mentions reports whether the top-level attribute name appears anywhere
// in e.
func mentions(e partiql.Expr, name string) bool {
	switch x := e.(type) {
	case *partiql.Path:
		return len(x.Elems) > 0 && !x.Elems[0].IsIndex && x.Elems[0].Name.Text == name
	case *partiql.Binary:
		return mentions(x.X, name) || mentions(x.Y, name)
	case *partiql.Unary:
		return mentions(x.X, name)
	case *partiql.Paren:
		return mentions(x.X, name)
	case *partiql.Between:
		return mentions(x.X, name) || mentions(x.Lo, name) || mentions(x.Hi, name)
	case *partiql.In:
		if mentions(x.X, name) || (x.Right != nil && mentions(x.Right, name)) {
			return true
		}
		for _, el := range x.Elems {
			if mentions(el, name) {
				return true
			}
		}
	case *partiql.Is:
		return mentions(x.X, name)
	case *partiql.Call:
		for _, a := range x.Args {
			if mentions(a, name) {
				return true
			}
		}
	}
	return false
}

// bound is one end of a sort key range; set is false for no bound.
type bound struct {
	v         storage.Value
	inclusive bool
	set       bool
}

// sortRange is a range of sort key values; the zero value is every value.
type sortRange struct {
	lo, hi bound
}

// intersect is the range of values in both r and o.
func (r sortRange) intersect(o sortRange) sortRange {
	out := r
	if o.lo.set && (!out.lo.set || tighterLo(o.lo, out.lo)) {
		out.lo = o.lo
	}
	if o.hi.set && (!out.hi.set || tighterHi(o.hi, out.hi)) {
		out.hi = o.hi
	}
	return out
}

func tighterLo(a, b bound) bool {
	c, ok := storage.Compare(a.v, b.v)
	return ok && (c > 0 || (c == 0 && !a.inclusive))
}

func tighterHi(a, b bound) bool {
	c, ok := storage.Compare(a.v, b.v)
	return ok && (c < 0 || (c == 0 && !a.inclusive))
}

// empty reports whether no value lies in r. Bounds of different types are
// not compared (the statement's key type check words that).
func (r sortRange) empty() bool {
	if !r.lo.set || !r.hi.set {
		return false
	}
	c, ok := storage.Compare(r.lo.v, r.hi.v)
	return ok && (c > 0 || (c == 0 && !(r.lo.inclusive && r.hi.inclusive)))
}

// overlaps reports whether some value lies in both r and o; an empty
// range overlaps nothing.
func (r sortRange) overlaps(o sortRange) bool {
	return !r.empty() && !o.empty() && !r.intersect(o).empty()
}

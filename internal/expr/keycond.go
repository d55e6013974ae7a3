package expr

import (
	"github.com/dynamoemu/dynamoemu/internal/lease"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// KeyCondition is a compiled KeyConditionExpression (or KeyConditions): an
// equality on the partition key and an optional sort-key range.
type KeyCondition struct {
	lease.Owned // a pooled one is used until Release
	Partition   storage.Value
	Sort        storage.SortCondition // Op == SortAny when there is none
}

const paramKeyCondition = "KeyConditionExpression"

// anyKeyTerms is a bound on the terms of a key condition that no
// expression reaches: the count is checked against the key schema later.
const anyKeyTerms = 1 << 16

// Messages of key-condition shape errors (no "Invalid ..." prefix, but
// for msgKeyOnePerKey in an expression: see keyTerms).
const (
	msgKeyMissed       = "Query condition missed key schema element"
	msgKeyNotSupported = "Query key condition not supported"
	msgKeyOperator     = "Invalid operator used in KeyConditionExpression: %s"
	msgKeyLength       = "Conditions can be of length 1 or 2 only"
	msgKeyNested       = "KeyConditionExpressions cannot contain nested operations"
	msgKeyMultiNames   = "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition"
	msgKeyScalar       = "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: %s"
	// msgKeyNestedAttr: a nested path on an attribute that is not a key
	// (DynamoDB Local's and dynalite's wording, which record AWS's).
	msgKeyNestedAttr   = "KeyConditionExpressions cannot have conditions on nested attributes"
	msgKeyOnePerKey    = "KeyConditionExpressions must only contain one condition per key"
	msgKeyTypeMismatch = "One or more parameter values were invalid: Condition parameter type does not match schema type"
	// msgKeyCount: a KeyConditionExpression with more conditions than the
	// key has attributes (AWS's answer, eu-west-2, October 2026, recorded
	// in paritysuite/dynamodb-conformance tests/tier3/error-messages/
	// queryKeyConditionOperands.test.ts; older records and DynamoDB Local
	// say msgKeyLength, which the legacy KeyConditions keep).
	msgKeyCount = "The number of query conditions (%d) exceeds the number of key attributes defined in the schema (%d)"
)

// keyTerm is one condition of a key condition: path op value(s).
type keyTerm struct {
	pos    int
	name   string
	op     storage.SortOp
	values [2]storage.Value // values[0] invalid: none (legacy NULL, NOT_NULL)
	// slots are, for a term of an expression, the slots of its values
	// (nslots of them), which bind sets values from.
	slots  [2]int
	nslots int
	// unindexable: a legacy KeyConditions operator no key can use (NE, IN,
	// CONTAINS, ...); rejected once the term is bound to a key attribute.
	unindexable bool
	// nested: the path has more than one element; an error once it is
	// known whether its first element is a key attribute.
	nested bool
}

// KeyCondition compiles a KeyConditionExpression against the key schema of
// the table or index being queried.
func (c *Compiler) KeyCondition(text string, ks storage.KeySchema) (*KeyCondition, error) {
	lease.Check(c)
	var buf [4]keyTerm
	terms, pos, err := c.keyTerms(text, anyKeyTerms, buf[:0])
	if err != nil {
		return nil, err
	}
	if len(terms) > 2 {
		attrs := 1
		if ks.HasSort() {
			attrs = 2
		}
		return nil, &Error{Pos: pos, Msg: sprintf(msgKeyCount, len(terms), attrs)}
	}
	kc, kerr := bindKeySchema(terms, ks)
	if kerr != nil {
		return nil, kerr
	}
	return kc, nil
}

// bindKeySchema binds the terms of a key condition, values bound, to the
// key schema.
func bindKeySchema(terms []keyTerm, ks storage.KeySchema) (*KeyCondition, *Error) {
	kc, kerr := bindKeyTerms(terms, ks)
	if kerr != nil {
		if kerr.Msg == msgKeyMissed {
			// AWS names the element in the expression's message: "Query
			// condition missed key schema element: pk".
			kerr.Msg += ": " + missedKey(terms, ks)
		}
		return nil, kerr
	}
	return kc, nil
}

// keyProgram is a compiled KeyConditionExpression without its values:
// its tree (for a cache hit's value checks) and its terms, whose values
// are slots. Binding it to a key schema is cheap and done per request.
type keyProgram struct {
	root     Expr
	terms    []keyTerm // values unset
	slots    []string
	nameKeys []string
}

// keyTerms compiles a KeyConditionExpression (from the cache when it is
// there) into at most maxTerms terms bound to this request's values,
// appended to dst, and the position of the expression.
func (c *Compiler) keyTerms(text string, maxTerms int, dst []keyTerm) ([]keyTerm, int, error) {
	if c.err != nil {
		return nil, 0, c.err
	}
	key := cacheKey{kind: kindKeyCondition, text: text}
	if e := c.lookup(key); e != nil {
		p := e.prog.(*keyProgram)
		var buf [8]storage.Value
		if len(p.terms) <= maxTerms {
			if vals, ok := c.rebind(e, buf[:0], paramKeyCondition, p.root, nil); ok {
				return bindTerms(append(dst, p.terms...), vals), p.root.Pos(), nil
			}
		}
	}
	x, k, err := c.compileCondition(paramKeyCondition, text)
	if err != nil {
		return nil, 0, err
	}
	terms, kerr := keyTerms(paramKeyCondition, x, maxTerms)
	if kerr != nil {
		return nil, 0, kerr
	}
	c.store(key, &keyProgram{root: x, terms: terms, slots: k.slots, nameKeys: k.nameKeys}, k.nameKeys, k.slots, programBytes(text, x))
	return bindTerms(append(dst, terms...), k.vals), x.Pos(), nil
}

// bindTerms sets the values of terms (copies of a program's) from their
// slots.
func bindTerms(terms []keyTerm, vals []storage.Value) []keyTerm {
	for i := range terms {
		t := &terms[i]
		for j := range t.nslots {
			t.values[j] = vals[t.slots[j]]
		}
	}
	return terms
}

// missedKey names the key schema element a key condition lacks: the
// partition key unless a term names it, else the sort key.
func missedKey(terms []keyTerm, ks storage.KeySchema) string {
	for _, t := range terms {
		if t.name == ks.Partition.Name {
			if ks.HasSort() {
				return ks.Sort.Name
			}
		}
	}
	return ks.Partition.Name
}

func unparen(x Expr) Expr {
	for {
		p, ok := x.(*ParenExpr)
		if !ok {
			return x
		}
		x = p.X
	}
}

// keyTerms checks the shape of a key condition and extracts its terms, at
// most maxTerms of them.
func keyTerms(param string, x Expr, maxTerms int) ([]keyTerm, *Error) {
	// Operators first, in source order.
	var bad *Error
	walk(x, func(n Expr) bool {
		if bad != nil {
			return false
		}
		op := ""
		switch n := n.(type) {
		case *BinaryExpr:
			if n.Op == NE || n.Op == OR {
				op = n.Op.String()
			}
		case *NotExpr:
			op = "NOT"
		case *InExpr:
			op = "IN"
		case *CallExpr:
			if n.Fun != fnBeginsWith && n.Fun != fnSize {
				op = n.Fun
			}
		}
		if op != "" {
			bad = &Error{Pos: n.Pos(), Msg: sprintf(msgKeyOperator, op)}
		}
		return true
	})
	if bad != nil {
		return nil, bad
	}
	var conds []Expr
	var flatten func(Expr)
	flatten = func(e Expr) {
		e = unparen(e)
		if b, ok := e.(*BinaryExpr); ok && b.Op == AND {
			flatten(b.X)
			flatten(b.Y)
			return
		}
		conds = append(conds, e)
	}
	flatten(x)
	terms := make([]keyTerm, 0, 2)
	seen := map[string]bool{}
	for _, e := range conds {
		t, err := keyTermOf(e)
		if err != nil {
			return nil, err
		}
		if seen[t.name] {
			// In AWS's words since 2026 (the record of msgKeyCount):
			// "Invalid KeyConditionExpression: KeyConditionExpressions
			// must only contain one condition per key"; DynamoDB Local
			// leaves the prefix out.
			return nil, exprError(param, t.pos, msgKeyOnePerKey)
		}
		seen[t.name] = true
		terms = append(terms, t)
	}
	if len(terms) > maxTerms {
		return nil, &Error{Pos: x.Pos(), Msg: sprintf(msgKeyCount, len(terms), maxTerms)}
	}
	return terms, nil
}

// flipped is comparison op with its operands swapped (a < b is b > a);
// ILLEGAL for an operator a key condition does not take.
func flipped(op Token) Token {
	switch op {
	case EQ:
		return EQ
	case LT:
		return GT
	case LE:
		return GE
	case GT:
		return LT
	case GE:
		return LE
	}
	return ILLEGAL
}

// sortOp is the sort key condition of comparison op (SortAny for an
// operator a key condition does not take).
func sortOp(op Token) storage.SortOp {
	switch op {
	case EQ:
		return storage.SortEQ
	case LT:
		return storage.SortLT
	case LE:
		return storage.SortLE
	case GT:
		return storage.SortGT
	case GE:
		return storage.SortGE
	}
	return storage.SortAny
}

func keyTermOf(e Expr) (keyTerm, *Error) {
	var operands []Expr
	t := keyTerm{pos: e.Pos()}
	switch e := e.(type) {
	case *BinaryExpr:
		operands = []Expr{e.X, e.Y}
		t.op = sortOp(e.Op)
	case *BetweenExpr:
		operands = []Expr{e.X, e.Lo, e.Hi}
		t.op = storage.SortBetween
	case *CallExpr:
		operands = e.Args
		t.op = storage.SortBeginsWith
	}
	var path *PathExpr
	for i, o := range operands {
		o = unparen(o)
		switch o := o.(type) {
		case *PathExpr:
			if path != nil {
				return t, &Error{Pos: o.Pos(), Msg: msgKeyMultiNames}
			}
			path = o
			if i == 1 && len(operands) == 2 {
				if b, ok := e.(*BinaryExpr); ok {
					t.op = sortOp(flipped(b.Op))
				}
			}
		case *ValueExpr:
			if t.nslots < len(t.slots) {
				t.slots[t.nslots] = o.slot
				t.nslots++
			}
		default:
			return t, &Error{Pos: o.Pos(), Msg: msgKeyNested}
		}
	}
	if path == nil {
		return t, &Error{Pos: e.Pos(), Msg: msgKeyMissed}
	}
	t.name = path.resolved[0].Name
	t.nested = len(path.resolved) > 1
	return t, nil
}

func bindKeyTerms(terms []keyTerm, ks storage.KeySchema) (*KeyCondition, *Error) {
	if len(terms) == 2 && terms[0].name == terms[1].name {
		// Legacy KeyConditions name each attribute once (a map), so this
		// is a tree compiled for PartiQL: its message stands alone.
		return nil, &Error{Pos: terms[1].pos, Msg: msgKeyOnePerKey}
	}
	var part, sort *keyTerm
	for i := range terms {
		t := &terms[i]
		if t.nested {
			if t.name == ks.Partition.Name || ks.HasSort() && t.name == ks.Sort.Name {
				return nil, &Error{Pos: t.pos, Msg: sprintf(msgKeyScalar, t.name)}
			}
			return nil, &Error{Pos: t.pos, Msg: msgKeyNestedAttr}
		}
		switch {
		case t.name == ks.Partition.Name:
			part = t
		case ks.HasSort() && t.name == ks.Sort.Name:
			sort = t
		case len(terms) == 2 && !ks.HasSort():
			return nil, &Error{Pos: t.pos, Msg: msgKeyNotSupported}
		default:
			return nil, &Error{Pos: t.pos, Msg: msgKeyMissed}
		}
	}
	if part == nil {
		return nil, &Error{Pos: terms[0].pos, Msg: msgKeyMissed}
	}
	// Each key's values are checked before its operator: "pk < :n" with a
	// number for a string key is a type mismatch, not an unsupported
	// condition.
	if !part.values[0].IsValid() {
		return nil, &Error{Pos: part.pos, Msg: msgLegacyHashScalar}
	}
	if part.values[0].Kind() != ks.Partition.Kind {
		return nil, &Error{Pos: part.pos, Msg: msgKeyTypeMismatch}
	}
	if part.op != storage.SortEQ || part.unindexable {
		return nil, &Error{Pos: part.pos, Msg: msgKeyNotSupported}
	}
	kc := newKeyCondition(part.values[0]) // keycond_pool.go
	if sort != nil {
		if !sort.values[0].IsValid() {
			return nil, &Error{Pos: sort.pos, Msg: msgLegacyRangeScalar}
		}
		for _, v := range sort.values {
			if v.IsValid() && v.Kind() != ks.Sort.Kind {
				return nil, &Error{Pos: sort.pos, Msg: msgKeyTypeMismatch}
			}
		}
		if sort.unindexable {
			return nil, &Error{Pos: sort.pos, Msg: msgLegacyNotIndexed}
		}
		kc.Sort = storage.SortCondition{Op: sort.op, Values: sort.values}
	}
	return kc, nil
}

// Match reports whether a key (partition and sort values) satisfies the
// condition; handy for index scans and tests.
func (kc *KeyCondition) Match(partition, sortKey storage.Value) bool {
	lease.Check(kc)
	if !storage.Equal(partition, kc.Partition) {
		return false
	}
	s := kc.Sort
	c := func(i int) (int, bool) { return storage.Compare(sortKey, s.Values[i]) }
	switch s.Op {
	case storage.SortAny:
		return true
	case storage.SortEQ:
		r, ok := c(0)
		return ok && r == 0
	case storage.SortLT:
		r, ok := c(0)
		return ok && r < 0
	case storage.SortLE:
		r, ok := c(0)
		return ok && r <= 0
	case storage.SortGT:
		r, ok := c(0)
		return ok && r > 0
	case storage.SortGE:
		r, ok := c(0)
		return ok && r >= 0
	case storage.SortBetween:
		lo, ok1 := c(0)
		hi, ok2 := c(1)
		return ok1 && ok2 && lo >= 0 && hi <= 0
	case storage.SortBeginsWith:
		return sortKey.Kind() == s.Values[0].Kind() && len(sortKey.Str()) >= len(s.Values[0].Str()) &&
			sortKey.Str()[:len(s.Values[0].Str())] == s.Values[0].Str()
	}
	return false
}

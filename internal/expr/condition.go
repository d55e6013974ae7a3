package expr

import (
	"github.com/dynamoemu/dynamoemu/internal/lease"
	"slices"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// condProgram is a compiled condition-language expression without its
// values: the resolved tree (paths resolved, :value placeholders bound to
// slots), what it names, and what evaluation needs. It is immutable once
// built, so one program serves every request that compiles the same text
// with the same #names (cache.go), each with its own values.
type condProgram struct {
	root Expr
	// slots[i] is the placeholder (or, for legacy conditions, the
	// invented name) whose value is slot i.
	slots []string
	// nameKeys are the #name placeholders the expression resolved.
	nameKeys []string
	// attrs are the top-level attributes the expression reads, sorted
	// and distinct; every PathExpr's attr indexes them.
	attrs []string
	// terms, for a legacy QueryFilter or ScanFilter (Filter), are its
	// conditions, terms[i] on attrs[i], joined by join (AND or OR):
	// root is nil, String builds the tree (legacy_filter.go).
	terms []legacyTerm
	join  Token
}

// newCondProgram finishes a resolved tree: it lists the top-level
// attributes read and numbers each path's.
func newCondProgram(root Expr, slots, nameKeys []string) *condProgram {
	return newCondProgramOf(root, slots, nameKeys, nil)
}

// newCondProgramOf is newCondProgram for a tree whose top-level
// attributes, sorted and distinct, attrs already lists (nil: found by a
// walk of the tree).
func newCondProgramOf(root Expr, slots, nameKeys, attrs []string) *condProgram {
	p := &condProgram{root: root, slots: slots, nameKeys: nameKeys, attrs: attrs}
	if attrs == nil {
		walk(root, func(x Expr) bool {
			if path, ok := x.(*PathExpr); ok && len(path.resolved) > 0 {
				p.attrs = append(p.attrs, path.resolved[0].Name)
			}
			return true
		})
		// Sorted, then the repeats dropped: a search of the names so
		// far for each path made a legacy ScanFilter of 32,000
		// conditions take 1.4 s.
		slices.Sort(p.attrs)
		p.attrs = slices.Compact(p.attrs)
	}
	walk(root, func(x Expr) bool {
		if path, ok := x.(*PathExpr); ok && len(path.resolved) > 0 {
			path.attr, _ = slices.BinarySearch(p.attrs, path.resolved[0].Name)
		}
		return true
	})
	return p
}

// Condition is a compiled ConditionExpression or FilterExpression: a
// program and this request's values. It is immutable and may be evaluated
// concurrently.
type Condition struct {
	*condProgram
	vals   []storage.Value
	inline [2]storage.Value // vals' storage when there are few
}

// bindOwned is bind for values that are the Condition's own: nothing
// else holds vals, so it is not copied.
func (p *condProgram) bindOwned(vals []storage.Value) *Condition {
	if len(vals) <= 2 { // bind's inline room
		return p.bind(vals)
	}
	return &Condition{condProgram: p, vals: vals}
}

// bind returns the Condition of program p with values vals (copied).
func (p *condProgram) bind(vals []storage.Value) *Condition {
	c := &Condition{condProgram: p}
	if len(vals) <= len(c.inline) {
		c.vals = c.inline[:len(vals):len(vals)]
	} else {
		c.vals = make([]storage.Value, len(vals))
	}
	copy(c.vals, vals)
	return c
}

// compileCondition parses and checks a condition-language expression: its
// resolved tree, its values by slot and the #names it used.
func (c *Compiler) compileCondition(param, text string) (Expr, *checker, *Error) {
	if c.err != nil {
		return nil, nil, c.err
	}
	x, err := parseCondition(param, text)
	if err != nil {
		return nil, nil, err
	}
	return c.checkCondition(param, x)
}

// checkCondition runs the checks that follow parsing on a condition tree,
// parsed or built by a caller (compile_ast.go), in DynamoDB's order, and
// binds its values to slots.
func (c *Compiler) checkCondition(param string, x Expr) (Expr, *checker, *Error) {
	k := newChecker(c, param, ctxCondition)
	if err := k.passA(x, true); err != nil {
		return nil, nil, err
	}
	if k.ops > maxOperators {
		return nil, nil, exprError(param, 0, sprintf(msgTooManyOps, maxOperatorsMsg))
	}
	if err := k.passB(x); err != nil {
		return nil, nil, err
	}
	return x, k, nil
}

// Condition compiles a ConditionExpression or FilterExpression; param is
// the request parameter's name, used in messages ("Invalid <param>: ...").
func (c *Compiler) Condition(param, text string) (*Condition, error) {
	lease.Check(c)
	if c.err != nil {
		return nil, c.err
	}
	key := cacheKey{kind: kindCondition, text: text}
	if e := c.lookup(key); e != nil {
		p := e.prog.(*condProgram)
		var buf [8]storage.Value
		if vals, ok := c.rebind(e, buf[:0], param, p.root, nil); ok {
			return p.bind(vals), nil
		}
	}
	x, k, err := c.compileCondition(param, text)
	if err != nil {
		return nil, err
	}
	p := newCondProgram(x, k.slots, k.nameKeys)
	c.store(key, p, k.nameKeys, p.slots, programBytes(text, x))
	return p.bind(k.vals), nil
}

// String returns the canonical source of the condition.
func (cond *Condition) String() string {
	if cond.terms != nil {
		return cond.legacyTree().String()
	}
	return cond.root.String()
}

// Attributes returns the top-level attribute names the condition reads,
// sorted (used to reject key attributes in a FilterExpression). The slice
// is the caller's.
func (cond *Condition) Attributes() []string {
	return append(make([]string, 0, len(cond.attrs)), cond.attrs...)
}

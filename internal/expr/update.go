package expr

import (
	"errors"
	"github.com/dynamoemu/dynamoemu/internal/lease"
	"github.com/dynamoemu/dynamoemu/internal/number"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Update is a compiled UpdateExpression (or AttributeUpdates): a program
// and this request's values. It is immutable and may be applied
// concurrently.
type Update struct {
	*updateProgram
	vals   []storage.Value
	inline [2]storage.Value // vals' storage when there are few
}

// updateProgram is a compiled update without its values (see
// condProgram): immutable, shared through the cache.
type updateProgram struct {
	src     *UpdateExpr
	actions []*compiledAction
	paths   []Path      // target paths in source order
	tree    *updateNode // the actions merged by path (apply.go)

	attrs []string // the top-level attributes of paths, in order, without repeats

	// targets are attrs sorted; reads the top-level attributes the update
	// writes or reads, sorted and distinct (update_reads.go).
	targets, reads []string
}

type compiledAction struct {
	op    Token // SET, REMOVE, ADD, DELETE
	path  Path
	value Expr // SET: value expression; ADD/DELETE: the operand
	// legacy AttributeUpdates: ADD of a list appends, ADD/DELETE report
	// legacy messages.
	legacy bool
}

// Update compiles an UpdateExpression.
func (c *Compiler) Update(text string) (*Update, error) {
	lease.Check(c)
	if c.err != nil {
		return nil, c.err
	}
	key := cacheKey{kind: kindUpdate, text: text}
	if e := c.lookup(key); e != nil {
		p := e.prog.(*updateProgram)
		var buf [8]storage.Value
		if vals, ok := c.rebind(e, buf[:0], paramUpdate, nil, p.src); ok {
			u := &Update{updateProgram: p}
			if len(vals) <= len(u.inline) {
				u.vals = u.inline[:len(vals):len(vals)]
			} else {
				u.vals = make([]storage.Value, len(vals))
			}
			copy(u.vals, vals)
			return u, nil
		}
	}
	u, k, err := c.compileUpdate(text, nil)
	if err != nil {
		return nil, err
	}
	c.store(key, u.updateProgram, k.nameKeys, k.slots, programBytes(text, u.src.values()...))
	return u, nil
}

// recheckUpdate runs the checks of compileUpdate that look at values, in
// recheck mode: those of pass B and of ADD and DELETE operands.
func (k *checker) recheckUpdate(u *UpdateExpr) *Error {
	for _, cl := range u.Clauses {
		for _, a := range cl.Actions {
			if a.Value == nil {
				continue
			}
			if err := k.passB(a.Value); err != nil {
				return err
			}
			if err := k.checkAddDelete(a); err != nil {
				return err
			}
		}
	}
	return nil
}

// values returns the value expressions of the update's actions.
func (u *UpdateExpr) values() []Expr {
	var out []Expr
	for _, cl := range u.Clauses {
		for _, a := range cl.Actions {
			if a.Value != nil {
				out = append(out, a.Value)
			}
		}
	}
	return out
}

// UpdateInOrder compiles text as Update does, but takes its actions in
// the order order gives (order[k] is the position in the text, counting
// actions from 0, of the k-th): overlapping paths are looked for, and the
// failing action to report chosen, in that order. A caller that builds
// the text from actions listed otherwise (a PartiQL UPDATE lists SET and
// REMOVE actions one by one, in any mix) keeps their order this way.
// order must be a permutation of the text's actions.
func (c *Compiler) UpdateInOrder(text string, order []int) (*Update, error) {
	lease.Check(c)
	u, _, err := c.compileUpdate(text, order)
	if err != nil {
		return nil, err
	}
	return u, nil
}

func (c *Compiler) compileUpdate(text string, order []int) (*Update, *checker, *Error) {
	if c.err != nil {
		return nil, nil, c.err
	}
	x, err := parseUpdate(text)
	if err != nil {
		return nil, nil, err
	}
	// Each section once: a rule of the text (a tree built by a caller may
	// list an action per clause, compile_ast.go).
	seen := map[Token]bool{}
	for _, cl := range x.Clauses {
		if seen[cl.Op] {
			return nil, nil, exprError(paramUpdate, cl.Offset, sprintf(msgSectionTwice, cl.Op.String()))
		}
		seen[cl.Op] = true
	}
	return c.checkUpdate(paramUpdate, x, order)
}

// checkUpdate runs the checks that follow parsing on an update tree,
// parsed or built by a caller, and compiles it.
func (c *Compiler) checkUpdate(param string, x *UpdateExpr, order []int) (*Update, *checker, *Error) {
	k := newChecker(c, param, ctxUpdate)
	for _, cl := range x.Clauses {
		for _, a := range cl.Actions {
			if err := k.checkPathSyntax(a.Path); err != nil {
				return nil, nil, err
			}
			if a.Value != nil {
				if err := k.passA(a.Value, false); err != nil {
					return nil, nil, err
				}
			}
		}
	}
	u := &Update{updateProgram: &updateProgram{src: x}}
	var pos []int
	for _, cl := range x.Clauses {
		for _, a := range cl.Actions {
			if err := k.resolvePath(a.Path); err != nil {
				return nil, nil, err
			}
			if a.Value != nil {
				if err := k.passB(a.Value); err != nil {
					return nil, nil, err
				}
			}
			if err := k.checkAddDelete(a); err != nil {
				return nil, nil, err
			}
			u.actions = append(u.actions, &compiledAction{op: a.Op, path: a.Path.resolved, value: a.Value})
			u.paths = append(u.paths, a.Path.resolved)
			pos = append(pos, a.Path.Pos())
		}
	}
	if order != nil {
		u.actions, u.paths, pos = reorder(u.actions, order), reorder(u.paths, order), reorder(pos, order)
	}
	if err := checkOverlaps(param, u.paths, pos); err != nil {
		return nil, nil, err
	}
	u.tree = buildTree(u.actions)
	u.setAttributes()
	u.vals = k.vals
	return u, k, nil
}

// reorder returns xs in order (order[k]: the index in xs of the k-th); it
// panics unless order is a permutation of xs's indexes (a caller's bug).
func reorder[T any](xs []T, order []int) []T {
	if len(order) != len(xs) {
		panic(sprintf("expr: update order has %d actions, the text %d", len(order), len(xs)))
	}
	out := make([]T, len(xs))
	seen := make([]bool, len(xs))
	for k, i := range order {
		if i < 0 || i >= len(xs) || seen[i] {
			panic(sprintf("expr: update order %v is not a permutation", order))
		}
		seen[i] = true
		out[k] = xs[i]
	}
	return out
}

// typeName is the operand type wording of ADD/DELETE errors.
func typeName(k storage.Kind) string {
	switch k {
	case storage.KindS:
		return "STRING"
	case storage.KindN:
		return "NUMBER"
	case storage.KindB:
		return "BINARY"
	case storage.KindBOOL:
		return "BOOLEAN"
	case storage.KindNULL:
		return "NULL"
	case storage.KindL:
		return "LIST"
	case storage.KindM:
		return "MAP"
	case storage.KindSS:
		return "STRING_SET"
	case storage.KindNS:
		return "NUMBER_SET"
	case storage.KindBS:
		return "BINARY_SET"
	}
	return ""
}

func (k *checker) checkAddDelete(a *UpdateAction) *Error {
	v, ok := k.constant(a.Value)
	if !ok {
		return nil
	}
	switch a.Op {
	case ADD:
		if v.Kind() != storage.KindN && !v.Kind().IsSet() {
			return exprError(k.param, a.Value.Pos(), sprintf(msgUpdateOperand, "ADD", typeName(v.Kind()), typeSetAdd))
		}
	case DELETE:
		if !v.Kind().IsSet() {
			return exprError(k.param, a.Value.Pos(), sprintf(msgUpdateOperand, "DELETE", typeName(v.Kind()), typeSetDelete))
		}
	}
	return nil
}

// String returns the canonical source of the update.
func (u *Update) String() string {
	if u.src == nil {
		return ""
	}
	return u.src.String()
}

// UpdatedPaths returns the document paths the update writes or removes, in
// source order. Project an item's old and new images on them (ProjectPaths)
// for ReturnValues UPDATED_OLD and UPDATED_NEW. The paths are shared (a
// compiled update may serve many requests): do not modify them.
func (u *Update) UpdatedPaths() []Path { return u.paths }

// Values returns the values the update's actions name, by slot (none
// for a nil update). The slice is the update's own: do not modify it.
func (u *Update) Values() []storage.Value {
	if u == nil {
		return nil
	}
	return u.vals
}

// Attributes returns the distinct top-level attribute names the update
// targets, in source order (used to reject updates of key attributes).
// The slice is shared (made once per compiled program): do not modify it.
func (u *Update) Attributes() []string { return u.attrs }

// topAttributes returns the distinct top-level attribute names of paths,
// in order.
func topAttributes(paths []Path) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range paths {
		if !seen[p[0].Name] {
			seen[p[0].Name] = true
			out = append(out, p[0].Name)
		}
	}
	return out
}

// UpdatedOld projects the item before the update onto the updated paths.
func (u *Update) UpdatedOld(old storage.Item) storage.Item { return ProjectPaths(old, u.paths) }

// UpdatedNew projects the item after the update onto the updated paths.
func (u *Update) UpdatedNew(newItem storage.Item) storage.Item { return ProjectPaths(newItem, u.paths) }

func updateErr(msg string) *Error { return &Error{Pos: -1, Msg: msg} }

// addValues implements ADD on an existing value: numbers add, sets union,
// and (legacy AttributeUpdates only) lists append.
func addValues(cur, v storage.Value, legacy bool) (storage.Value, *Error) {
	mismatch := MsgOperandDataType
	if legacy {
		mismatch = "Type mismatch for attribute to update"
	}
	switch {
	case cur.Kind() != v.Kind():
		return storage.Value{}, updateErr(mismatch)
	case v.Kind() == storage.KindN:
		n, err := number.Add(cur.Number(), v.Number())
		if err != nil {
			return storage.Value{}, &Error{Pos: -1, Msg: err.Error(), Err: err}
		}
		return storage.N(n), nil
	case v.Kind().IsSet():
		members := append([]string(nil), cur.Members()...)
		for _, m := range v.Members() {
			if !cur.HasMember(m) {
				members = append(members, m)
			}
		}
		return storage.SetOf(v.Kind(), members), nil
	case v.Kind() == storage.KindL && legacy:
		l := append(append([]storage.Value(nil), cur.List()...), v.List()...)
		return storage.L(l), nil
	}
	return storage.Value{}, updateErr(mismatch)
}

// evalUpdateValue computes a SET right-hand side against the old item.
func evalUpdateValue(x Expr, old storage.Item, vals []storage.Value) (storage.Value, *Error) {
	switch x := x.(type) {
	case *ParenExpr:
		return evalUpdateValue(x.X, old, vals)
	case *ValueExpr:
		return vals[x.slot], nil
	case *PathExpr:
		v, ok := x.resolved.Get(old)
		if !ok {
			return storage.Value{}, updateErr(MsgMissingAttribute)
		}
		return v, nil
	case *BinaryExpr:
		a, err := evalUpdateValue(x.X, old, vals)
		if err != nil {
			return a, err
		}
		b, err := evalUpdateValue(x.Y, old, vals)
		if err != nil {
			return b, err
		}
		if a.Kind() != storage.KindN || b.Kind() != storage.KindN {
			return storage.Value{}, updateErr(MsgOperandDataType)
		}
		var n storage.Number
		var nerr error
		if x.Op == PLUS {
			n, nerr = number.Add(a.Number(), b.Number())
		} else {
			n, nerr = number.Sub(a.Number(), b.Number())
		}
		if nerr != nil {
			return storage.Value{}, numberError(nerr)
		}
		return storage.N(n), nil
	case *CallExpr:
		switch x.Fun {
		case fnIfNotExists:
			p, _ := pathOf(x.Args[0])
			if v, ok := p.resolved.Get(old); ok {
				return v, nil
			}
			return evalUpdateValue(x.Args[1], old, vals)
		case fnListAppend:
			a, err := evalUpdateValue(x.Args[0], old, vals)
			if err != nil {
				return a, err
			}
			b, err := evalUpdateValue(x.Args[1], old, vals)
			if err != nil {
				return b, err
			}
			if a.Kind() != storage.KindL || b.Kind() != storage.KindL {
				return storage.Value{}, updateErr(MsgOperandDataType)
			}
			l := make([]storage.Value, 0, a.Len()+b.Len())
			l = append(append(l, a.List()...), b.List()...)
			return storage.L(l), nil
		}
	}
	return storage.Value{}, updateErr(MsgOperandDataType)
}

func numberError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Pos: -1, Msg: err.Error(), Err: err}
}

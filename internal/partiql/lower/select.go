package lower

import (
	"slices"

	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/lex"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Target is what a SELECT reads: the key schema of the table, or of the
// index it names. Multi marks an index keyed on several HASH or several
// RANGE attributes, which PartiQL refuses (AWS: "PartiQL statements cannot
// be executed on tables with multi-attribute HASH keys or multi-attribute
// RANGE keys."); Keys is then unused.
type Target struct {
	Keys  storage.KeySchema
	Multi bool
}

// Select is a SELECT lowered against its table or index.
type Select struct {
	// Keys are the key conditions of the partitions to read, one per
	// partition, in statement order (pk = v, or one per member of pk IN
	// [...], each with the sort key condition the WHERE clause gives);
	// none: a Scan.
	Keys []*expr.KeyCondition
	// None: the WHERE clause fixes the partitions to read, but no key
	// condition can match an item (each failed to compile): read nothing.
	None bool
	// Equality: the partition key is fixed by pk = value (one partition).
	Equality bool
	// Filter is the whole WHERE clause; nil without one.
	Filter *expr.Condition
	// Projection is the SELECT list as a ProjectionExpression (what
	// ExecuteTransaction applies, and what an index read checks against
	// the index's projected attributes); nil for SELECT *.
	Projection *expr.Projection
	// Columns are the SELECT list's paths and the names their values get
	// in a result item; nil for SELECT *.
	Columns []Column
	// Forward is false for ORDER BY <sort key> DESC.
	Forward bool
}

// Column is one path of a SELECT list and the name its value gets in the
// result: the path's last name with the list indexes after it ("c" for
// m.l[1].c, "l[0]" for m.l[0]), as DynamoDB Local answers.
type Column struct {
	Path expr.Path
	Name string
}

// Project builds the result item of a SELECT list from an item.
func (s *Select) Project(it storage.Item) storage.Item { return project(s.Columns, it) }

// Names returns the top-level attributes the SELECT list reads (for
// reading only those from a stored item).
func (s *Select) Names() []string { return columnNames(s.Columns) }

func project(cols []Column, it storage.Item) storage.Item {
	out := storage.Item{}
	for _, c := range cols {
		if v, ok := c.Path.Get(it); ok {
			out[c.Name] = v
		}
	}
	return out
}

func columnNames(cols []Column) []string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Path[0].Name
	}
	return names
}

// CheckKeys runs check (the caller's rules for key values, such as no
// empty string) on each key condition. With Equality the first error is
// the statement's; otherwise a key condition that fails matches no item
// and is dropped, and None is set once none is left.
func (s *Select) CheckKeys(check func(*expr.KeyCondition) error) error {
	kept := s.Keys[:0]
	for _, kc := range s.Keys {
		if err := check(kc); err != nil {
			if s.Equality {
				return err
			}
			continue
		}
		kept = append(kept, kc)
	}
	if len(s.Keys) > 0 && len(kept) == 0 {
		s.None = true
	}
	s.Keys = kept
	return nil
}

// LowerSelect lowers a SELECT for ExecuteStatement against the key schema
// of what it reads, in DynamoDB's order: the SELECT list (paths only),
// the WHERE clause (its values, functions and operators), the
// multi-attribute key refusal, the key conditions (a key value of the
// wrong type), ORDER BY's rules, then the compiled key conditions (one
// that does not compile reads nothing: the filter decides) and the filter.
func LowerSelect(b Binding, s *partiql.Select, t Target) (*Select, error) {
	l := &lowerer{b}
	out, err := l.lowerSelect(s, t)
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (l *lowerer) lowerSelect(s *partiql.Select, t Target) (*Select, *Error) {
	out := &Select{Forward: true}
	aggregate := slices.ContainsFunc(s.Projection, func(e partiql.Expr) bool {
		c, ok := e.(*partiql.Call)
		return ok && c.Star
	})
	if !s.Star && !aggregate {
		var err *Error
		if out.Columns, out.Projection, err = l.projection(s.Projection); err != nil {
			return nil, err
		}
	}
	var filter expr.Expr
	if s.Where != nil {
		var err *Error
		if filter, err = l.condition(s.Where); err != nil {
			return nil, err
		}
	}
	if t.Multi {
		return nil, errPlain(msgMultiKey)
	}
	if aggregate {
		// COUNT(*) and the like: refused as AWS refuses them, after the
		// multi-attribute key refusal (AWS's answers as recorded by
		// paritysuite/dynamodb-conformance, tests/tier3/error-messages/
		// partiqlMultiAttributeIndex.test.ts, October 2026), as a path
		// component at the function's name ("SELECT COUNT(*) FROM t":
		// "Unexpected path component at 1:8:5", AWS eu-west-2 as captured
		// and published by nubo-db/dynoxide, tests/partiql.rs).
		return nil, l.aggregateErr(s.Projection)
	}
	ks := t.Keys
	trees, equality, err := l.keyConditions(ks, s.Where)
	if err != nil {
		return nil, err
	}
	out.Equality = equality
	if err := l.checkOverlap(ks, s.Where); err != nil {
		return nil, err
	}
	if err := checkOrderBy(s, ks, equality); err != nil {
		return nil, err
	}
	for _, o := range s.OrderBy {
		if ks.HasSort() && isTopName(o.Path, ks.Sort.Name) && o.Dir == partiql.DESC {
			out.Forward = false
		}
	}
	for _, x := range trees {
		kc, err := expr.NewCompiler(nil, nil).CompileKeyCondition("", x, ks)
		if err != nil {
			continue // the filter, compiled next, words the error
		}
		dup := false
		for _, have := range out.Keys {
			dup = dup || storage.Equal(have.Partition, kc.Partition)
		}
		if !dup {
			out.Keys = append(out.Keys, kc)
		}
	}
	out.None = len(trees) > 0 && len(out.Keys) == 0
	if filter != nil {
		cond, err := expr.NewCompiler(nil, nil).CompileCondition("", filter)
		if err != nil {
			return nil, exprErr(err)
		}
		out.Filter = cond
	}
	return out, nil
}

// exprErr turns an error of expr's compiler into the lowering's.
func exprErr(err error) *Error {
	ee, ok := err.(*expr.Error)
	if !ok {
		return &Error{Msg: err.Error(), Pos: -1, Err: err}
	}
	return &Error{Msg: ee.Msg, Pos: ee.Pos, Err: ee}
}

// projection lowers a SELECT list: paths only (AWS: "Unexpected path
// component at 1:8:16" for attribute_exists(x)), which a
// ProjectionExpression could list (no overlaps, not nested too deep).
func (l *lowerer) projection(list []partiql.Expr) ([]Column, *expr.Projection, *Error) {
	cols := make([]Column, len(list))
	proj := &expr.ProjectionExpr{Paths: make([]*expr.PathExpr, len(list))}
	for i, e := range list {
		p, ok := e.(*partiql.Path)
		if !ok {
			return nil, nil, l.errAt(msgUnexpectedPathPart, e, lex.UTF16Len(nodeHead(e)))
		}
		x, err := l.path(p)
		if err != nil {
			return nil, nil, err
		}
		proj.Paths[i] = x
		name := ""
		for _, el := range p.Elems {
			if el.IsIndex {
				name += "[" + el.Index + "]"
			} else {
				name = el.Name.Text
			}
		}
		cols[i].Name = name
	}
	compiled, err := expr.NewCompiler(nil, nil).CompileProjection("", proj)
	if err != nil {
		return nil, nil, exprErr(err)
	}
	for i, p := range compiled.Paths() {
		cols[i].Path = p
	}
	return cols, compiled, nil
}

// AggregateError is the refusal of s's aggregate (COUNT(*)), nil when its
// SELECT list has none: what AWS answers, rather than that the table is
// missing, for an aggregate over a table that does not exist (AWS
// eu-west-2 as captured and published by nubo-db/dynoxide, CHANGELOG
// 0.13: "fired before the table-existence check"; DynamoDB Local agrees).
func AggregateError(b Binding, s *partiql.Select) error {
	l := &lowerer{b}
	if err := l.aggregateErr(s.Projection); err != nil {
		return err
	}
	return nil
}

// aggregateErr refuses the first aggregate (COUNT(*)) of a SELECT list
// as the path component it is not.
func (l *lowerer) aggregateErr(list []partiql.Expr) *Error {
	for _, e := range list {
		if c, ok := e.(*partiql.Call); ok && c.Star {
			return l.errAt(msgUnexpectedPathPart, e, lex.UTF16Len(c.Fun))
		}
	}
	return nil
}

// nodeHead is the text a node starts with, for the length of its place.
func nodeHead(e partiql.Expr) string {
	if c, ok := e.(*partiql.Call); ok {
		return c.Fun
	}
	return e.String()[:1]
}

// checkOrderBy applies DynamoDB's rules: ORDER BY needs a WHERE clause
// that fixes the partition key, and orders by key attributes only.
func checkOrderBy(s *partiql.Select, ks storage.KeySchema, hasKey bool) *Error {
	if len(s.OrderBy) == 0 {
		return nil
	}
	if s.Where == nil {
		return errPlain(msgOrderByNoWhere)
	}
	if !hasKey {
		return errPlain(msgOrderByNoHashKey)
	}
	for _, o := range s.OrderBy {
		if !isTopName(o.Path, ks.Partition.Name) && !(ks.HasSort() && isTopName(o.Path, ks.Sort.Name)) {
			return errPlain(sprintf(msgOrderByNotKey, o.Path.String()))
		}
	}
	return nil
}

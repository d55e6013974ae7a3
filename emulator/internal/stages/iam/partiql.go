package iam

import (
	"slices"
	"strings"
	"sync"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
	"github.com/dynamoemu/dynamoemu/internal/partiql/lower"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A PartiQL request's condition keys, per statement: the stage parses
// the request's statements (the PartiQL feature's inputs give them,
// Bindings) and reads the one the use is of: the statement on the use's
// table (and index) that does what the use does, and, of several such
// (a batch, a transaction), the one whose key is the use's. Its
// attributes are the names its SELECT list (every one for SELECT *),
// WHERE clause (but its key conditions, which name the key as a Key or
// KeyConditionExpression does), ORDER BY, SET and REMOVE actions and
// INSERTed item name; its dynamodb:Select is SPECIFIC_ATTRIBUTES for a SELECT list,
// else as a Query's default; its dynamodb:ReturnValues, an UPDATE's or
// DELETE's RETURNING.

// statements is a PartiQL request's input.
type statements interface{ Bindings() []lower.Binding }

// statementOf is one statement of a request, parsed (st nil: it does
// not parse), and the key it names, read once it is asked for.
type statementOf struct {
	b     lower.Binding
	st    partiql.Statement
	keyed sync.Once
	key   storage.Item
}

// statementsOf are the statements of req's request, in, parsed once per
// request: the uses of a transaction of n statements ask n times.
func (req *request) statementsOf(in statements) []*statementOf {
	req.parsed.Do(func() {
		for _, b := range in.Bindings() {
			req.stmts = append(req.stmts, &statementOf{b: b, st: parsedStatement(b.Src)})
		}
	})
	return req.stmts
}

// statement sets the keys of the statement of in the use u is of.
func (f *useFacts) statement(u *service.TableUse, req *request, in statements) {
	var cands []*statementOf
	for _, c := range req.statementsOf(in) {
		if c.st != nil && statementIsOf(c.st, u) {
			cands = append(cands, c)
		}
	}
	if len(cands) > 1 {
		cands = ofKey(cands, u)
	}
	f.attrsSet = true
	if u.Op() == "ExecuteTransaction" {
		f.enclosing = "ExecuteTransaction"
	}
	if actionOf(u.Op(), u.Access()) == "PartiQLSelect" {
		full := !u.Key().Partition.IsValid() && u.Parts() == nil
		f.fullScan = map[bool]string{true: "true", false: "false"}[full]
	}
	for _, c := range cands {
		f.statementNames(u, c)
	}
}

// statementNames adds the names, Select and ReturnValues of c.
func (f *useFacts) statementNames(u *service.TableUse, c *statementOf) {
	keys := keyNames(u)
	switch s := c.st.(type) {
	case *partiql.Select:
		for _, x := range s.Projection {
			f.partiqlNames(x)
		}
		f.whereNames(s.Where, keys)
		for _, o := range s.OrderBy {
			f.partiqlNames(o.Path)
		}
		f.read(u, nil, !s.Star)
	case *partiql.Exists:
		f.whereNames(s.Query.Where, keys)
	case *partiql.Insert:
		if item, err := lower.LowerInsert(c.b, s, u.Table().Schema()); err == nil {
			f.a.item(item)
		}
	case *partiql.Update:
		for _, a := range s.Actions {
			f.partiqlNames(a.Path)
			f.partiqlNames(a.Value)
		}
		f.whereNames(s.Where, keys)
		f.rv = returning(s.Returning)
	case *partiql.Delete:
		f.whereNames(s.Where, keys)
		f.rv = returning(s.Returning)
	}
}

// partiqlNames adds the top-level name of every path of x.
func (f *useFacts) partiqlNames(x partiql.Expr) {
	partiql.Walk(x, func(e partiql.Expr) bool {
		if p, ok := e.(*partiql.Path); ok && len(p.Elems) > 0 && !p.Elems[0].IsIndex {
			f.a.add(p.Elems[0].Name.Text)
		}
		return true
	})
}

// whereNames adds the names of a WHERE clause but those of its key
// conditions: the conjuncts of its top-level AND that compare a key
// attribute of keys with values (=, <, <=, >, >=, BETWEEN, IN,
// begins_with).
func (f *useFacts) whereNames(where partiql.Expr, keys []string) {
	for _, c := range conjuncts(where, nil) {
		if !keyCondition(c, keys) {
			f.partiqlNames(c)
		}
	}
}

// conjuncts appends the operands of x's top-level ANDs to out.
func conjuncts(x partiql.Expr, out []partiql.Expr) []partiql.Expr {
	switch e := x.(type) {
	case nil:
		return out
	case *partiql.Paren:
		return conjuncts(e.X, out)
	case *partiql.Binary:
		if e.Op == partiql.AND {
			return conjuncts(e.Y, conjuncts(e.X, out))
		}
	}
	return append(out, x)
}

// keyCondition reports whether x tests a key attribute of keys against
// values alone.
func keyCondition(x partiql.Expr, keys []string) bool {
	key := func(e partiql.Expr) bool {
		p, ok := e.(*partiql.Path)
		return ok && len(p.Elems) == 1 && !p.Elems[0].IsIndex && slices.Contains(keys, p.Elems[0].Name.Text)
	}
	values := func(es ...partiql.Expr) bool {
		for _, e := range es {
			has := false
			partiql.Walk(e, func(n partiql.Expr) bool {
				_, p := n.(*partiql.Path)
				has = has || p
				return !has
			})
			if has {
				return false
			}
		}
		return true
	}
	switch e := x.(type) {
	case *partiql.Binary:
		switch e.Op {
		case partiql.EQ, partiql.LT, partiql.LE, partiql.GT, partiql.GE:
			return key(e.X) && values(e.Y)
		}
	case *partiql.Between:
		return !e.Not && key(e.X) && values(e.Lo, e.Hi)
	case *partiql.In:
		return !e.Not && key(e.X) && values(append(append([]partiql.Expr(nil), e.Elems...), e.Right)...)
	case *partiql.Call:
		return strings.EqualFold(e.Fun, "begins_with") && len(e.Args) == 2 && key(e.Args[0]) && values(e.Args[1])
	}
	return false
}

// keyNames are the key attributes of the table the use is of, and of
// the index it reads.
func keyNames(u *service.TableUse) []string {
	ks := u.Table().Schema()
	out := []string{ks.Partition.Name, ks.Sort.Name}
	if x := indexOf(u); x != nil {
		for _, e := range x.KeySchema {
			out = append(out, e.Name)
		}
	}
	return out
}

// returning is dynamodb:ReturnValues of a RETURNING clause (nil: NONE).
func returning(r *partiql.Returning) string {
	if r == nil {
		return "NONE"
	}
	which := "UPDATED_"
	if r.Which == partiql.ALL {
		which = "ALL_"
	}
	if r.Image == partiql.OLD {
		return which + "OLD"
	}
	return which + "NEW"
}

// statementIsOf reports whether st is on the use's table (and index)
// and does what the use does: a SELECT or EXISTS reads, an INSERT puts,
// an UPDATE updates, a DELETE deletes.
func statementIsOf(st partiql.Statement, u *service.TableUse) bool {
	var target partiql.Target
	var does bool
	switch s := st.(type) {
	case *partiql.Select:
		target, does = s.From, !u.Write()
	case *partiql.Exists:
		target, does = s.Query.From, !u.Write()
	case *partiql.Insert:
		target, does = s.Into, u.Access() == insights.Put
	case *partiql.Update:
		target, does = s.Table, u.Access() == insights.Update
	case *partiql.Delete:
		target, does = s.From, u.Access() == insights.Delete
	}
	index := ""
	if target.Index != nil {
		index = target.Index.Text
	}
	return does && target.Table.Text == u.Table().Info().Name && index == u.Index()
}

// ofKey are the statements of cands whose key is the use's (all of
// them when none can be told by its key).
func ofKey(cands []*statementOf, u *service.TableUse) []*statementOf {
	var out []*statementOf
	ks := u.Table().Schema()
	for _, c := range cands {
		c.keyed.Do(func() { c.key = statementKey(c, ks) })
		if c.key != nil && keyIs(u, c.key) {
			out = append(out, c)
		}
	}
	if out == nil {
		return cands
	}
	return out
}

// statementKey is the key (or item) a single-item statement names on
// the table of key schema ks (nil: none, or it does not lower).
func statementKey(c *statementOf, ks storage.KeySchema) storage.Item {
	switch s := c.st.(type) {
	case *partiql.Select:
		if g, err := lower.LowerTxGet(c.b, s, ks); err == nil {
			return g.Key
		}
	case *partiql.Exists:
		if d, err := lower.LowerExists(c.b, s, ks); err == nil {
			return d.Key
		}
	case *partiql.Insert:
		if it, err := lower.LowerInsert(c.b, s, ks); err == nil {
			return it
		}
	case *partiql.Update:
		if up, err := lower.LowerUpdate(c.b, s, ks); err == nil {
			return up.Key
		}
	case *partiql.Delete:
		if d, err := lower.LowerDelete(c.b, s, ks); err == nil {
			return d.Key
		}
	}
	return nil
}

// stmts caches statements parsed, by text (nil: it does not parse): a
// bounded map behind a leaf lock, as the policies' cache.
var stmts struct {
	mu sync.Mutex // guards m
	m  map[string]partiql.Statement
}

// parsedStatement is the statement text parsed (nil: it does not).
func parsedStatement(text string) partiql.Statement {
	stmts.mu.Lock()
	defer stmts.mu.Unlock()
	if st, ok := stmts.m[text]; ok {
		return st
	}
	st, err := partiql.Parse(text)
	if err != nil {
		st = nil
	}
	if stmts.m == nil || len(stmts.m) >= maxCached {
		stmts.m = map[string]partiql.Statement{}
	}
	stmts.m[text] = st
	return st
}

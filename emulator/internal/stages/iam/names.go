package iam

import (
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/expr"
)

// attrs gathers a use's dynamodb:Attributes: the top-level attribute
// names it names in a projection, a filter, a condition, an update or
// an item it writes, each once; every when it reads whole items (it
// names no attribute and returns any: iampolicy.Request.Unbounded).
// The key it is given (Key, a key condition) is not among them: the
// developer guide's examples 2 and 5 allow attributes that leave out
// the table's sort key, or all its keys, and allow GetItem, Query and
// UpdateItem.
type attrs struct {
	list  []string
	every bool
}

func (a *attrs) add(name string) {
	if !slices.Contains(a.list, name) {
		a.list = append(a.list, name)
	}
}

func (a *attrs) addAll(names []string) {
	for _, n := range names {
		a.add(n)
	}
}

// path adds a document path's top-level name, a #placeholder resolved
// by names.
func (a *attrs) path(p *expr.PathExpr, names map[string]string) {
	if p == nil || len(p.Elems) == 0 {
		return
	}
	name := p.Elems[0].Name
	if strings.HasPrefix(name, "#") && !p.Elems[0].Resolved {
		v, ok := names[name]
		if !ok {
			return
		}
		name = v
	}
	a.add(name)
}

// tree adds the names of every path of a condition or operand.
func (a *attrs) tree(x expr.Expr, names map[string]string) {
	switch x := x.(type) {
	case *expr.PathExpr:
		a.path(x, names)
	case *expr.CallExpr:
		for _, arg := range x.Args {
			a.tree(arg, names)
		}
	case *expr.ParenExpr:
		a.tree(x.X, names)
	case *expr.BinaryExpr:
		a.tree(x.X, names)
		a.tree(x.Y, names)
	case *expr.NotExpr:
		a.tree(x.X, names)
	case *expr.BetweenExpr:
		a.tree(x.X, names)
		a.tree(x.Lo, names)
		a.tree(x.Hi, names)
	case *expr.InExpr:
		a.tree(x.X, names)
		for _, e := range x.List {
			a.tree(e, names)
		}
	}
}

// condition adds the names a ConditionExpression or FilterExpression
// tests (param names it, for the parser).
func (a *attrs) condition(param string, src *string, names map[string]string) {
	if src == nil {
		return
	}
	if x, err := expr.ParseCondition(param, *src); err == nil {
		a.tree(x, names)
	}
}

// update adds the names an UpdateExpression writes and reads.
func (a *attrs) update(src *string, names map[string]string) {
	if src == nil {
		return
	}
	u, err := expr.ParseUpdate(*src)
	if err != nil {
		return
	}
	for _, c := range u.Clauses {
		for _, act := range c.Actions {
			a.path(act.Path, names)
			if act.Value != nil {
				a.tree(act.Value, names)
			}
		}
	}
}

// projection adds the names a read returns: its ProjectionExpression,
// else its legacy AttributesToGet; it reports whether the read
// projects.
func (a *attrs) projection(src *string, toGet []string, names map[string]string) bool {
	if src != nil {
		if p, err := expr.ParseProjection(*src); err == nil {
			for _, path := range p.Paths {
				a.path(path, names)
			}
		}
		return true
	}
	a.addAll(toGet)
	return len(toGet) > 0
}

// item adds the names of an item a write puts (of an item cut past the
// item size limit, every name: wire.ItemNames).
func (a *attrs) item(item map[string]storageValue) {
	names := wire.ItemNames(item)
	slices.Sort(names)
	a.addAll(names)
}

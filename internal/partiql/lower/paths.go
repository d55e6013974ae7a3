package lower

import (
	"strconv"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
)

// maxListIndex is the largest list index expr takes; a larger one is out
// of range, as in an expression.
const maxListIndex = 1<<31 - 1

// path lowers a document path: every name resolved (PartiQL names are
// attribute names, DynamoDB's reserved words included), list indexes
// checked. A negative index (or one past 2^63-1) is DynamoDB Local's range
// error, placed at the digits after the minus; one past 2^31-1 is expr's
// (no place).
func (l *lowerer) path(p *partiql.Path) (*expr.PathExpr, *Error) {
	out := &expr.PathExpr{Elems: make([]expr.PathElem, 0, len(p.Elems))}
	for _, e := range p.Elems {
		if e.IsIndex {
			n, err := strconv.Atoi(e.Index)
			if err != nil || n < 0 {
				digits := strings.TrimPrefix(e.Index, "-")
				line, col, ln := l.at(e.Offset+len(e.Index)-len(digits), len(digits))
				return nil, errf(e.Offset, msgListIndexRange, e.Index, line, col, ln)
			}
			if n > maxListIndex {
				n = -1 // expr words the range error
			}
			out.Elems = append(out.Elems, expr.PathElem{Offset: e.Offset, Index: n, IsIndex: true, Lit: e.Index})
			continue
		}
		if e.Name.Text == "" {
			return nil, &Error{Msg: msgEmptyPathPart, Pos: e.Offset}
		}
		out.Elems = append(out.Elems, expr.PathElem{Offset: e.Offset, Name: e.Name.Text, Resolved: true})
	}
	return out, nil
}

// isTopName reports whether e is the one-element path name.
func isTopName(e partiql.Expr, name string) bool {
	p, ok := e.(*partiql.Path)
	return ok && len(p.Elems) == 1 && !p.Elems[0].IsIndex && p.Elems[0].Name.Text == name
}

// unparen returns e without the parentheses around it.
func unparen(e partiql.Expr) partiql.Expr {
	for {
		p, ok := e.(*partiql.Paren)
		if !ok {
			return e
		}
		e = p.X
	}
}

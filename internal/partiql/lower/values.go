package lower

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/lex"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Literals ('s', 1.5, TRUE, NULL, [..], {..}, <<..>>) and ? parameters as
// attribute values.

// Binding is one statement's text and the values of its ? parameters, in
// order. The text gives the places in messages ("at 1:53:7"); a caller
// that has checked the count (ParamCount) may give more parameters than
// the statement uses (DynamoDB Local ignores extra ones).
type Binding struct {
	Src    string
	Params []storage.Value
}

// lowerer lowers one statement.
type lowerer struct {
	Binding
}

// at returns the place of byte offset pos with the given length, for an
// "at %d:%d:%d" message.
func (l *lowerer) at(pos, length int) (int, int, int) { return place(l.Src, pos, length) }

// errAt words format with args and the place of n (length units long).
func (l *lowerer) errAt(format string, n partiql.Node, length int, args ...any) *Error {
	line, col, ln := l.at(n.Pos(), length)
	return errf(n.Pos(), format, append(args, line, col, ln)...)
}

// valuePath is the place of a value inside a literal, for messages: the
// steps under "root" (a map key, or a list index with isIndex).
type valuePath struct {
	steps []valueStep
}

type valueStep struct {
	key     string
	index   int
	isIndex bool
}

func (p valuePath) key(k string) valuePath {
	return valuePath{append(append([]valueStep(nil), p.steps...), valueStep{key: k})}
}

func (p valuePath) index(i int) valuePath {
	return valuePath{append(append([]valueStep(nil), p.steps...), valueStep{index: i, isIndex: true})}
}

func (p valuePath) isRoot() bool { return len(p.steps) == 0 }

// dotted renders the place as DynamoDB Local's "Unsupported data type"
// messages do: root, root.k, root.0.
func (p valuePath) dotted() string {
	var b strings.Builder
	b.WriteString("root")
	for _, s := range p.steps {
		b.WriteByte('.')
		if s.isIndex {
			b.WriteString(strconv.Itoa(s.index))
		} else {
			b.WriteString(s.key)
		}
	}
	return b.String()
}

// bracketed renders the place as AWS's number messages do: root, root.k,
// root[1] (a public record of AWS answers: "... under root[1]").
func (p valuePath) bracketed() string {
	var b strings.Builder
	b.WriteString("root")
	for _, s := range p.steps {
		if s.isIndex {
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		} else {
			b.WriteString("." + s.key)
		}
	}
	return b.String()
}

// isValue reports whether e is a literal, a parameter or a collection
// literal: something that lowers to a value.
func isValue(e partiql.Expr) bool {
	switch e := e.(type) {
	case *partiql.Literal, *partiql.Param, *partiql.ListLit, *partiql.TupleLit, *partiql.BagLit:
		return true
	case *partiql.Unary:
		return e.Op == partiql.MINUS || e.Op == partiql.PLUS
	}
	return false
}

// value turns a literal, parameter or collection literal into a Value. A ?
// is allowed only at the root; MISSING is "MISSING" at the root,
// "LiteralMissing" below (DynamoDB Local's words).
func (l *lowerer) value(e partiql.Expr, at valuePath) (storage.Value, *Error) {
	switch e := e.(type) {
	case *partiql.Param:
		if !at.isRoot() {
			return storage.Value{}, l.errAt(msgUnsupportedType, e, 1, "Parameter", at.dotted())
		}
		if e.N >= len(l.Params) {
			return storage.Value{}, errPlain(msgParamCount)
		}
		return l.Params[e.N], nil
	case *partiql.Literal:
		switch e.Tok {
		case partiql.STRING:
			return storage.S(e.Text), nil
		case partiql.NUMBER:
			return l.number(e, e.Text, at)
		case partiql.TRUE, partiql.FALSE:
			return storage.Bool(e.Tok == partiql.TRUE), nil
		case partiql.NULL:
			return storage.Null(), nil
		case partiql.MISSING:
			what := "MISSING"
			if !at.isRoot() {
				what = "LiteralMissing"
			}
			return storage.Value{}, l.errAt(msgUnsupportedType, e, len("MISSING"), what, at.dotted())
		}
	case *partiql.Unary:
		if lit, ok := e.X.(*partiql.Literal); ok && lit.Tok == partiql.NUMBER && (e.Op == partiql.PLUS || e.Op == partiql.MINUS) {
			text := lit.Text
			if e.Op == partiql.MINUS {
				text = "-" + text
			}
			return l.number(e, text, at)
		}
	case *partiql.ListLit:
		elems := make([]storage.Value, len(e.Elems))
		for i, el := range e.Elems {
			v, err := l.value(el, at.index(i))
			if err != nil {
				return storage.Value{}, err
			}
			elems[i] = v
		}
		return storage.L(elems), nil
	case *partiql.TupleLit:
		m, err := l.fields(e, at.key)
		if err != nil {
			return storage.Value{}, err
		}
		return storage.M(m), nil
	case *partiql.BagLit:
		return l.bag(e, at, true)
	case *partiql.Call:
		return storage.Value{}, l.errAt(msgUnsupportedType, e, lex.UTF16Len(e.Fun), strings.ToLower(e.Fun), at.dotted())
	}
	return storage.Value{}, l.errAt(msgUnsupportedExpr, e, 1)
}

// number parses a number literal: past DynamoDB's range or precision it is
// AWS's number message followed by the value's place ("Number overflow.
// ... under root.x"; DynamoDB Local gives no place).
func (l *lowerer) number(e partiql.Node, text string, at valuePath) (storage.Value, *Error) {
	n, err := storage.ParseNumber(text)
	if err != nil {
		return storage.Value{}, &Error{Msg: err.Error() + " under " + at.bracketed(), Pos: e.Pos(), Err: err}
	}
	return storage.N(n), nil
}

// item turns an INSERT's VALUE into the item: a tuple literal whose
// attributes are each at the root for messages.
func (l *lowerer) item(e partiql.Expr) (storage.Item, *Error) {
	t, ok := e.(*partiql.TupleLit)
	if !ok {
		return nil, l.errAt(msgInsertNotTuple, e, 1)
	}
	m, err := l.fields(t, func(string) valuePath { return valuePath{} })
	return storage.Item(m), err
}

func (l *lowerer) fields(e *partiql.TupleLit, at func(string) valuePath) (map[string]storage.Value, *Error) {
	m := make(map[string]storage.Value, len(e.Fields))
	for _, f := range e.Fields {
		k, err := l.tupleKey(f.Key)
		if err != nil {
			return nil, err
		}
		v, err := l.value(f.Value, at(k))
		if err != nil {
			return nil, err
		}
		m[k] = v
	}
	return m, nil
}

func (l *lowerer) tupleKey(e partiql.Expr) (string, *Error) {
	switch k := e.(type) {
	case *partiql.Literal:
		if k.Tok == partiql.STRING {
			return k.Text, nil
		}
	case *partiql.Param:
		v, err := l.value(k, valuePath{})
		if err == nil && v.Kind() == storage.KindS {
			return v.Str(), nil
		}
	}
	return "", l.errAt(msgTupleKey, e, 1)
}

// bag turns <<...>> into a string or number set. placed says whether an
// empty bag's message has a place (DynamoDB Local's); the set of a set_add
// has none (AWS's).
func (l *lowerer) bag(e *partiql.BagLit, at valuePath, placed bool) (storage.Value, *Error) {
	if len(e.Elems) == 0 {
		if !placed {
			return storage.Value{}, &Error{Msg: msgEmptyBagPlain, Pos: e.Offset}
		}
		return storage.Value{}, l.errAt(msgEmptyBag, e, 2)
	}
	var kind storage.Kind
	members := make([]string, 0, len(e.Elems))
	written := make([]string, 0, len(e.Elems))
	for _, el := range e.Elems {
		if _, ok := el.(*partiql.Param); ok {
			return storage.Value{}, l.errAt(msgBagTypeAt, el, 1)
		}
		v, err := l.value(el, at)
		if err != nil {
			return storage.Value{}, err
		}
		k := v.Kind()
		if k != storage.KindS && k != storage.KindN || len(members) > 0 && kind != k {
			return storage.Value{}, errPlain(msgBagType)
		}
		kind = k
		members = append(members, v.Str())
		if lit, ok := el.(*partiql.Literal); ok && lit.Tok == partiql.STRING {
			written = append(written, lit.Text)
		} else {
			written = append(written, strings.TrimPrefix(el.String(), "+"))
		}
	}
	seen := make(map[string]bool, len(members))
	for _, m := range members {
		if seen[m] {
			return storage.Value{}, &Error{Msg: fmt.Sprintf(msgBagDuplicates, "["+strings.Join(written, ", ")+"]"), Pos: e.Offset}
		}
		seen[m] = true
	}
	if kind == storage.KindS {
		return storage.SS(members), nil
	}
	return storage.SetOf(storage.KindNS, members), nil
}

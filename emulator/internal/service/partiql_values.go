package service

import (
	"strconv"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/partiql"
	"github.com/dynamoemu/dynamoemu/storage"
)

// PartiQL literals ('s', 1.5, TRUE, NULL, [..], {..}, <<..>>) and ?
// parameters as attribute values, with DynamoDB Local's messages for what
// cannot be stored.

// literal turns a literal, parameter or collection literal into a Value.
// key names the place for messages as DynamoDB Local does: "root" for the
// value itself (and for each attribute of an INSERT's tuple, see item),
// "root.k" and "root.0" inside maps and lists. A ? is allowed only at the
// root; MISSING is "MISSING" at the root, "LiteralMissing" below.
func (x *translator) literal(e partiql.Expr, key string) (storage.Value, error) {
	switch e := e.(type) {
	case *partiql.Param:
		if key != "root" {
			line, col, ln := x.at(e.Offset, 1)
			return storage.Value{}, apierr.Validationf(apierr.MsgUnsupportedType, "Parameter", key, line, col, ln)
		}
		if e.N >= len(x.params) {
			return storage.Value{}, apierr.Validation(apierr.MsgParamCount)
		}
		return x.params[e.N], nil
	case *partiql.Literal:
		switch e.Tok {
		case partiql.STRING:
			return storage.S(e.Text), nil
		case partiql.NUMBER:
			n, err := storage.ParseNumber(e.Text)
			if err != nil {
				return storage.Value{}, err
			}
			return storage.N(n), nil
		case partiql.TRUE, partiql.FALSE:
			return storage.Bool(e.Tok == partiql.TRUE), nil
		case partiql.NULL:
			return storage.Null(), nil
		case partiql.MISSING:
			line, col, ln := x.at(e.Offset, len("MISSING"))
			what := "MISSING"
			if key != "root" {
				what = "LiteralMissing"
			}
			return storage.Value{}, apierr.Validationf(apierr.MsgUnsupportedType, what, key, line, col, ln)
		}
	case *partiql.Unary:
		if lit, ok := e.X.(*partiql.Literal); ok && lit.Tok == partiql.NUMBER && (e.Op == partiql.PLUS || e.Op == partiql.MINUS) {
			text := lit.Text
			if e.Op == partiql.MINUS {
				text = "-" + text
			}
			return x.literal(&partiql.Literal{Offset: e.Offset, Tok: partiql.NUMBER, Text: text}, key)
		}
	case *partiql.ListLit:
		elems := make([]storage.Value, len(e.Elems))
		for i, el := range e.Elems {
			v, err := x.literal(el, key+"."+strconv.Itoa(i))
			if err != nil {
				return storage.Value{}, err
			}
			elems[i] = v
		}
		return storage.L(elems), nil
	case *partiql.TupleLit:
		m, err := x.fields(e, func(k string) string { return key + "." + k })
		if err != nil {
			return storage.Value{}, err
		}
		return storage.M(m), nil
	case *partiql.BagLit:
		return x.bag(e, key)
	}
	return storage.Value{}, x.errAt(apierr.MsgUnsupportedExpr, e, 1)
}

// item turns an INSERT's VALUE into the item: a tuple literal whose
// attributes are each at the root for messages.
func (x *translator) item(e partiql.Expr) (storage.Item, error) {
	t, ok := e.(*partiql.TupleLit)
	if !ok {
		return nil, x.errAt(apierr.MsgInsertNotTuple, e, 1)
	}
	m, err := x.fields(t, func(string) string { return "root" })
	return storage.Item(m), err
}

func (x *translator) fields(e *partiql.TupleLit, keyOf func(string) string) (map[string]storage.Value, error) {
	m := make(map[string]storage.Value, len(e.Fields))
	for _, f := range e.Fields {
		k, err := x.tupleKey(f.Key)
		if err != nil {
			return nil, err
		}
		v, err := x.literal(f.Value, keyOf(k))
		if err != nil {
			return nil, err
		}
		m[k] = v
	}
	return m, nil
}

func (x *translator) tupleKey(e partiql.Expr) (string, error) {
	switch k := e.(type) {
	case *partiql.Literal:
		if k.Tok == partiql.STRING {
			return k.Text, nil
		}
	case *partiql.Param:
		v, err := x.literal(k, "root")
		if err == nil && v.Kind() == storage.KindS {
			return v.Str(), nil
		}
	}
	return "", x.errAt(apierr.MsgTupleKey, e, 1)
}

// bag turns <<...>> into a string or number set.
func (x *translator) bag(e *partiql.BagLit, key string) (storage.Value, error) {
	if len(e.Elems) == 0 {
		return storage.Value{}, x.errAt(apierr.MsgEmptyBag, e, 2)
	}
	var kind storage.Kind
	members := make([]string, 0, len(e.Elems))
	for _, el := range e.Elems {
		if _, ok := el.(*partiql.Param); ok {
			return storage.Value{}, x.errAt(apierr.MsgBagTypeAt, el, 1)
		}
		v, err := x.literal(el, key)
		if err != nil {
			return storage.Value{}, err
		}
		k := v.Kind()
		switch k {
		case storage.KindS:
		case storage.KindN:
		default:
			return storage.Value{}, apierr.Validation(apierr.MsgBagType)
		}
		if kind != k && len(members) > 0 {
			return storage.Value{}, apierr.Validation(apierr.MsgBagType)
		}
		kind = k
		members = append(members, v.Str())
	}
	if kind == storage.KindS {
		return storage.SS(members), nil
	}
	return storage.SetOf(storage.KindNS, members), nil
}

package service

import (
	"strconv"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/expr"
	"github.com/dynamoemu/dynamoemu/partiql"
	"github.com/dynamoemu/dynamoemu/storage"
)

// The SELECT list of a PartiQL statement.

// projected is one path of a SELECT list and the name its value gets in
// the result: the path's last name, with the list indexes after it
// ("c" for m.l[1].c, "l[0]" for m.l[0]), as DynamoDB Local answers.
type projected struct {
	path  *partiql.Path
	alias string
}

// projection checks a SELECT list: paths only, which a
// ProjectionExpression could list (no overlaps, not nested too deep). It
// returns the list and its ProjectionExpression (which ExecuteTransaction
// applies: there a SELECT list shapes items as a ProjectionExpression does).
func (x *translator) projection(list []partiql.Expr) ([]projected, *expr.Projection, error) {
	out := make([]projected, len(list))
	texts := make([]string, len(list))
	for i, e := range list {
		p, ok := e.(*partiql.Path)
		if !ok {
			line, col, ln := x.at(e.Pos(), utf16Len(nodeHead(e)))
			return nil, nil, apierr.Validationf(apierr.MsgUnexpectedPathPart, line, col, ln)
		}
		text, err := x.path(p)
		if err != nil {
			return nil, nil, err
		}
		texts[i] = text
		alias := ""
		for _, el := range p.Elems {
			if el.IsIndex {
				alias += "[" + el.Index + "]"
			} else {
				alias = el.Name.Text
			}
		}
		out[i] = projected{path: p, alias: alias}
	}
	proj, err := x.compiler().Projection(strings.Join(texts, ", "))
	if err != nil {
		return nil, nil, exprError(err)
	}
	return out, proj, nil
}

// project builds the result item of a SELECT list from an item.
func project(list []projected, it storage.Item) storage.Item {
	out := storage.Item{}
	for _, p := range list {
		if v, ok := walkPath(it, p.path); ok {
			out[p.alias] = v
		}
	}
	return out
}

// walkPath returns the value at path p in it.
func walkPath(it storage.Item, p *partiql.Path) (storage.Value, bool) {
	v, ok := it[p.Elems[0].Name.Text]
	for _, el := range p.Elems[1:] {
		if !ok {
			break
		}
		switch {
		case el.IsIndex:
			n, err := strconv.Atoi(el.Index)
			if err != nil || v.Kind() != storage.KindL || n < 0 || n >= len(v.List()) {
				return storage.Value{}, false
			}
			v = v.List()[n]
		case v.Kind() == storage.KindM:
			v, ok = v.Map()[el.Name.Text]
		default:
			return storage.Value{}, false
		}
	}
	return v, ok
}

// nodeHead is the text a node starts with, for the length in a place.
func nodeHead(e partiql.Expr) string {
	if c, ok := e.(*partiql.Call); ok {
		return c.Fun
	}
	return e.String()[:1]
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

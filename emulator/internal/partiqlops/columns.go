package partiqlops

import (
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/partiql/lower"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A SELECT list on stored items. Each column is the value at a path of
// the item, answered as a top-level attribute under the column's name (a
// later column of the same name wins: lower.Select.Project's rule). The
// values are found in the record (storage.EncodedValue's Field and Index)
// and copied, with their names in order, into one buffer per page, which
// the response writes out as it writes stored items: no map per item.
// TestPartiQLColumnsEncoded holds it to lower.Select.Project.

// columnValue is one column's value in an item, by its answer's name.
type columnValue struct {
	name string
	v    storage.EncodedValue
}

// projectColumns returns the items' columns, each item a record of its
// own in one shared buffer.
func projectColumns(cols []lower.Column, items []storage.EncodedItem) []storage.EncodedItem {
	var buf []byte
	ends := make([]int, len(items))
	vals := make([]columnValue, 0, len(cols))
	for i, e := range items {
		vals = columnValues(vals[:0], cols, e)
		var mark int
		buf, mark = storage.AppendItemStart(buf)
		for _, cv := range vals {
			buf = storage.AppendName(buf, cv.name)
			buf = cv.v.AppendTo(buf)
		}
		buf = storage.FinishCount(buf, mark, len(vals))
		ends[i] = len(buf)
	}
	body := string(buf)
	out := make([]storage.EncodedItem, len(items))
	start := 0
	for i, end := range ends {
		out[i] = storage.EncodedItemOf(body[start:end])
		start = end
	}
	return out
}

// columnValues appends to dst the columns e has, by name, sorted, a later
// column replacing an earlier one of the same name.
func columnValues(dst []columnValue, cols []lower.Column, e storage.EncodedItem) []columnValue {
	for _, c := range cols {
		v, ok := encodedPath(e, c.Path)
		if !ok {
			continue
		}
		replaced := false
		for i := range dst {
			if dst[i].name == c.Name {
				dst[i].v, replaced = v, true
			}
		}
		if !replaced {
			dst = append(dst, columnValue{c.Name, v})
		}
	}
	// Insertion sort: SELECT lists are short.
	for i := 1; i < len(dst); i++ {
		for j := i; j > 0 && dst[j].name < dst[j-1].name; j-- {
			dst[j], dst[j-1] = dst[j-1], dst[j]
		}
	}
	return dst
}

// encodedPath is expr.Path.Get on a stored item.
func encodedPath(e storage.EncodedItem, p expr.Path) (storage.EncodedValue, bool) {
	if len(p) == 0 {
		return storage.EncodedValue{}, false
	}
	v, ok := e.Attr(p[0].Name)
	for _, s := range p[1:] {
		if !ok {
			break
		}
		if s.IsIndex {
			v, ok = v.Index(s.Index)
		} else {
			v, ok = v.Field(s.Name)
		}
	}
	return v, ok
}

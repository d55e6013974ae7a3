package service

import (
	"slices"
	"strings"
)

// tableList is a namespace's catalog: its tables in name order (UTF-8
// bytes), found by binary search. A sorted slice rather than a map: a
// namespace holds few tables (a branch often one), for which a map's
// smallest table of slots costs 25 times a slice's one pointer, and
// ListTables wants them in this order anyway. Namespace.mu guards it.
type tableList []*table

// find returns where the table called name is, or would go.
func (l tableList) find(name string) (int, bool) {
	return slices.BinarySearchFunc(l, name, func(t *table, name string) int { return strings.Compare(t.name, name) })
}

// get returns the table called name, or nil.
func (l tableList) get(name string) *table {
	if i, ok := l.find(name); ok {
		return l[i]
	}
	return nil
}

// put adds t, replacing a table of its name.
func (l *tableList) put(t *table) {
	i, ok := l.find(t.name)
	if ok {
		(*l)[i] = t
		return
	}
	*l = slices.Insert(*l, i, t)
}

// remove takes t out if it is there (not another table of its name).
func (l *tableList) remove(t *table) {
	if i, ok := l.find(t.name); ok && (*l)[i] == t {
		*l = slices.Delete(*l, i, i+1)
	}
}

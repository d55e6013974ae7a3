package insights

import (
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Declares reports whether the design declares a table of that name.
func (d *Design) Declares(table string) bool { return d.table(table) != nil }

// MatchItem returns the entity of the design's table whose templates an
// item matches, or "" and each entity's templates it was compared to
// ("Like (PK={id} SK_GSI1PK={post_id} ...)"), for the conventions' rule
// D1. An item matches an entity when it has every attribute the entity
// gives a template for, each a string or number (binary as base64)
// matching its template, and none of the table's or its indexes' other
// key attributes: such an attribute would put the item in an index its
// entity is not in. The first entity declared wins.
func (d *Design) MatchItem(table string, item storage.Item) (entity string, compared []string) {
	t := d.table(table)
	if t == nil {
		return "", nil
	}
	for _, e := range t.Entities {
		if t.itemIs(e, item) {
			return e.Name, nil
		}
	}
	for _, e := range t.Entities {
		compared = append(compared, e.Name+" ("+t.templatesText(e)+")")
	}
	return "", compared
}

// itemIs reports whether item matches entity e of t.
func (t *DesignTable) itemIs(e *Entity, item storage.Item) bool {
	for _, a := range t.keyAttrs() {
		tmpl, want := e.Attrs[a]
		v, has := item[a]
		if !want {
			if has {
				return false
			}
			continue
		}
		if !has || (v.Kind() != storage.KindS && v.Kind() != storage.KindN && v.Kind() != storage.KindB) || !tmpl.match(matchText(v), false) {
			return false
		}
	}
	return true
}

// keyAttrs are the key attributes of t and of its indexes, each once, in
// declaration order.
func (t *DesignTable) keyAttrs() []string {
	var out []string
	add := func(a string) {
		for _, o := range out {
			if o == a {
				return
			}
		}
		if a != "" {
			out = append(out, a)
		}
	}
	add(t.Key.Partition)
	add(t.Key.Sort)
	for _, x := range t.Indexes {
		add(x.Key.Partition)
		add(x.Key.Sort)
	}
	return out
}

// templatesText renders e's templates in t's key attribute order.
func (t *DesignTable) templatesText(e *Entity) string {
	var parts []string
	for _, a := range t.keyAttrs() {
		if tmpl, ok := e.Attrs[a]; ok {
			parts = append(parts, a+"="+tmpl.String())
		}
	}
	return strings.Join(parts, " ")
}

package insights

import (
	"slices"
	"strings"
)

// Patterns derived from a table's entities, for a JSON design that
// records none (a Workbench model without dynamoemu's block, a OneTable
// schema without saved queries): what the keys the entities have make
// cheap. Per entity, in order:
//
//   - get ENTITY by the table's full key (its templates);
//   - query ENTITY by the table's partition key when it has several
//     items in a partition (its sort key template has a variable its
//     partition key template lacks: a post's comments), with sk
//     begins_with its sort key template's leading text when another
//     entity may share its partitions (none when that text is empty:
//     the query could not tell them apart);
//   - per index that holds it (it has templates for the index's key):
//     query ENTITY on INDEX where pk = its template, and a sort key
//     condition when another entity of the index may share its
//     partitions and its sort key template tells them apart: sk = the
//     template when it is a constant, sk begins_with the template's
//     leading text when that is not empty, none otherwise. An entity
//     alone in its partitions needs no sort key condition, and a query
//     by the partition key alone is one of its patterns.
//
// Patterns of the same access and key condition are one pattern of
// several entities (a comment and a like keyed alike: get-Comment-Like),
// so that no two derived patterns are ambiguous. Derived patterns carry
// Derived; a report shows them as the design's.
func derivePatterns(t *DesignTable) {
	add := func(pt *Pattern, entity string) {
		for _, prev := range t.Patterns {
			if prev.sameCondition(pt) {
				prev.Entities = append(prev.Entities, entity)
				return
			}
		}
		pt.Entities = []string{entity}
		pt.Derived = true
		t.Patterns = append(t.Patterns, pt)
	}
	defer func() {
		for _, pt := range t.Patterns {
			pt.Name = pt.Access.String() + "-" + strings.Join(pt.Entities, "-")
			if pt.Index != "" {
				pt.Name += "-" + pt.Index
			}
		}
	}()
	for _, e := range t.Entities {
		if e.inKey(t.Key) {
			pt := &Pattern{Access: Get, PK: e.Attrs[t.Key.Partition], HasPK: true, At: e.At}
			if t.Key.Sort != "" {
				pt.SortOp, pt.SK = SortEQ, e.Attrs[t.Key.Sort]
			}
			add(pt, e.Name)
		}
		if pt := collectionQuery(t, e); pt != nil {
			add(pt, e.Name)
		}
		for _, x := range t.Indexes {
			if !e.inKey(x.Key) {
				continue
			}
			pt := &Pattern{Access: Query, Index: x.Name, PK: e.Attrs[x.Key.Partition], HasPK: true, At: e.At}
			if x.Key.Sort != "" && sharesPartition(t, x, e) {
				sk := e.Attrs[x.Key.Sort]
				switch {
				case sk.literal():
					pt.SortOp, pt.SK = SortEQ, sk
				case sk.lead() != "":
					pt.SortOp, pt.SK = SortBeginsWith, knownTemplate(sk.lead())
				}
			}
			add(pt, e.Name)
		}
	}
}

// sharesPartition reports whether another entity of index x may have
// items in the partitions of e's: their partition key templates overlap.
func sharesPartition(t *DesignTable, x *IndexDef, e *Entity) bool {
	for _, o := range t.Entities {
		if o != e && o.inKey(x.Key) && overlap(o.Attrs[x.Key.Partition], e.Attrs[x.Key.Partition]) {
			return true
		}
	}
	return false
}

// collectionQuery is the query of entity e's items in one of its table
// partitions, or nil (see derivePatterns).
func collectionQuery(t *DesignTable, e *Entity) *Pattern {
	if t.Key.Sort == "" || !e.inKey(t.Key) {
		return nil
	}
	pk, sk := e.Attrs[t.Key.Partition], e.Attrs[t.Key.Sort]
	many := false
	for _, v := range sk.vars {
		many = many || !slices.Contains(pk.vars, v)
	}
	if !many {
		return nil
	}
	pt := &Pattern{Access: Query, PK: pk, HasPK: true, At: e.At}
	shared := false
	for _, o := range t.Entities {
		shared = shared || o != e && o.inKey(t.Key) && overlap(o.Attrs[t.Key.Partition], pk)
	}
	if shared {
		if sk.lead() == "" {
			return nil
		}
		pt.SortOp, pt.SK = SortBeginsWith, knownTemplate(sk.lead())
	}
	return pt
}

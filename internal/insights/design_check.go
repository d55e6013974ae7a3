package insights

import (
	"fmt"
	"slices"
	"strings"
)

// Finding kinds. The first six come from the design alone (Check), the
// others from the traffic.
const (
	// FindingScanPattern: a pattern is served by a Scan.
	FindingScanPattern = "scan-pattern"
	// FindingMixedEntities: a read pattern's key condition may also return
	// items of an entity it does not name (on the same key or index, the
	// other entity's templates can produce keys the condition selects).
	FindingMixedEntities = "mixed-entities"
	// FindingEntityNotInIndex: a pattern names an entity that lacks a
	// template for a key attribute of the pattern's index, so the
	// (sparse) index never holds it.
	FindingEntityNotInIndex = "entity-not-in-index"
	// FindingPatternMissesEntity: a pattern's key condition can never
	// select an entity it names.
	FindingPatternMissesEntity = "pattern-misses-entity"
	// FindingUnusedIndex: no pattern uses an index.
	FindingUnusedIndex = "unused-index"
	// FindingAmbiguousPatterns: two patterns have the same access and key
	// condition, so the traffic cannot tell them apart (requests count
	// for the first).
	FindingAmbiguousPatterns = "ambiguous-patterns"
	// FindingScanRequest: a Scan request that no pattern declares.
	FindingScanRequest = "scan-request"
	// FindingUnmatchedRequest: requests that match no pattern (reads; and
	// writes, on tables whose design declares write patterns).
	FindingUnmatchedRequest = "unmatched-request"
	// FindingUnexercisedPattern: a pattern no request has used.
	FindingUnexercisedPattern = "unexercised-pattern"
	// FindingFromTraffic: what the design's format cannot say was taken
	// from the traffic: a table's name, its access patterns.
	FindingFromTraffic = "from-traffic"
)

// Check returns what the design says about itself: patterns served by
// Scan, patterns that may mix entity types, entities a pattern can never
// return, indexes no pattern uses. Table by table, in declaration order.
func (d *Design) Check() []Finding {
	var out []Finding
	for _, t := range d.Tables {
		out = append(out, t.check()...)
	}
	return out
}

// check is Check for one table.
func (t *DesignTable) check() []Finding {
	var out []Finding
	add := func(kind string, pt *Pattern, entity, detail string) {
		out = append(out, Finding{Kind: kind, Table: t.Name, Index: pt.Index, Pattern: pt.Name, Entity: entity, Detail: detail})
	}
	for i, pt := range t.Patterns {
		key, _ := t.keyOf(pt.Index)
		for _, prev := range t.Patterns[:i] {
			if prev.sameCondition(pt) {
				add(FindingAmbiguousPatterns, pt, "", fmt.Sprintf("pattern %q has the key condition of pattern %q (%s %s on %s): requests count for %q", pt.Name, prev.Name, pt.Access, pt.conditionText(), pt.ServedBy(), prev.Name))
				break
			}
		}
		if pt.Access == Scan {
			add(FindingScanPattern, pt, "", fmt.Sprintf("pattern %q is served by a %s: every read walks the whole %s", pt.Name, pt.ServedBy(), strings.TrimPrefix(pt.ServedBy(), "Scan of ")))
		}
		for _, name := range pt.Entities {
			e := t.entity(name)
			if !e.inKey(key) {
				add(FindingEntityNotInIndex, pt, name, fmt.Sprintf("entity %q has no template for %s, so %s never holds it", name, missingAttrs(e, key), pt.ServedBy()))
			} else if !pt.mayReturn(e, key) {
				add(FindingPatternMissesEntity, pt, name, fmt.Sprintf("the condition %q never selects entity %q (its keys are %s)", pt.conditionText(), name, e.keyText(key)))
			}
		}
		if pt.Access.IsWrite() {
			continue
		}
		for _, e := range t.Entities {
			if slices.Contains(pt.Entities, e.Name) || !e.inKey(key) || !pt.mayReturn(e, key) {
				continue
			}
			add(FindingMixedEntities, pt, e.Name, fmt.Sprintf("pattern %q (%s on %s) may also return %q items (keys %s): give the entities different key prefixes or attributes", pt.Name, pt.conditionText(), pt.ServedBy(), e.Name, e.keyText(key)))
		}
	}
	for _, x := range t.Indexes {
		used := slices.ContainsFunc(t.Patterns, func(pt *Pattern) bool { return pt.Index == x.Name })
		if !used && !t.FromTraffic {
			out = append(out, Finding{Kind: FindingUnusedIndex, Table: t.Name, Index: x.Name, Detail: fmt.Sprintf("no pattern uses index %q: it costs writes and storage for nothing", x.Name)})
		}
	}
	return out
}

// inKey reports whether the entity has a template for every attribute of
// key, so that it is in the table or (sparse) index with that key.
func (e *Entity) inKey(key KeyDef) bool {
	_, pk := e.Attrs[key.Partition]
	_, sk := e.Attrs[key.Sort]
	return pk && (key.Sort == "" || sk)
}

// missingAttrs names the attributes of key the entity has no template
// for.
func missingAttrs(e *Entity, key KeyDef) string {
	var miss []string
	for _, a := range []string{key.Partition, key.Sort} {
		if _, ok := e.Attrs[a]; a != "" && !ok {
			miss = append(miss, a)
		}
	}
	return strings.Join(miss, " and ")
}

// keyText renders an entity's templates for key.
func (e *Entity) keyText(key KeyDef) string {
	s := key.Partition + "=" + e.Attrs[key.Partition].String()
	if key.Sort != "" {
		s += " " + key.Sort + "=" + e.Attrs[key.Sort].String()
	}
	return s
}

// mayReturn reports whether the pattern's key condition may select items
// of entity e (which is in key).
func (pt *Pattern) mayReturn(e *Entity, key KeyDef) bool {
	if pt.HasPK && !overlap(pt.PK, e.Attrs[key.Partition]) {
		return false
	}
	if pt.SortOp == SortNone {
		return true
	}
	sk := e.Attrs[key.Sort]
	switch pt.SortOp {
	case SortEQ:
		return overlap(pt.SK, sk)
	case SortBeginsWith:
		if sk.literal() {
			return pt.SK.match(sk.text, true)
		}
		return compatible(pt.SK.lead(), sk.lead(), strings.HasPrefix)
	}
	return condSpan(pt.SortOp, pt.SK, pt.SK2).meets(spanOf(sk))
}

// condSpan is the range of sort keys a range condition may select.
func condSpan(op SortOp, a, b Template) span {
	sa := spanOf(a)
	switch op {
	case SortGT, SortGE:
		return span{lo: sa.lo, inf: true}
	case SortLT, SortLE:
		return span{lo: "", hi: sa.hi, inf: sa.inf}
	}
	sb := spanOf(b)
	return span{lo: sa.lo, hi: sb.hi, inf: sb.inf}
}

// sameCondition reports whether two patterns serve the same requests.
func (pt *Pattern) sameCondition(o *Pattern) bool {
	return pt.Access == o.Access && pt.Index == o.Index && pt.HasPK == o.HasPK && pt.PK.text == o.PK.text &&
		pt.SortOp == o.SortOp && pt.SK.text == o.SK.text && pt.SK2.text == o.SK2.text
}

package insights

import "strings"

// The pattern nearest to a request no pattern serves, so that a reader
// (design_match, explain, the console's query builder) can tell its
// author which pattern the request was likely meant for: ranked first by
// what the request names of the patterns' keys (a key attribute whose
// value fits a pattern's template, literal prefix and all; an attribute
// a pattern's template holds as a variable), then by its access and
// index. A Scan names no key: it gets only a pattern whose key (or
// what its key is made of) the Scan's filter names, else none, so that a
// design without key templates (the key attributes' names only) does not
// point a Scan on userId at a pattern that merely reads.

// NamedAttr is an attribute a request names (in its key, its item, its
// key condition or its filter) and the value it gives it ("": none, as
// in attribute_exists; Prefix: the value is a begins_with prefix).
type NamedAttr struct {
	Attr, Value string
	Prefix      bool
	// Partition: the attribute is the partition key of the table or
	// index the request uses.
	Partition bool
}

// NearestPattern is the pattern nearest to a request.
type NearestPattern struct {
	Pattern *Pattern
	// Key is the key of the table or index that serves it.
	Key KeyDef
	// By is what of the request points at the pattern: its partition
	// key attribute ("GSI1PK") or a variable of its partition key
	// template ("userId"); "" when only the access and index do.
	By string
	// Value is the partition key value the pattern reads for the
	// request, when the request gives it ("USER#u7").
	Value string
}

// Nearest returns the pattern of q's table nearest to q (see the top of
// the file), or false when the table has none.
func (d *Design) Nearest(q *Request, named []NamedAttr) (NearestPattern, bool) {
	t := d.File(q).Table
	if t == nil {
		return NearestPattern{}, false
	}
	var best NearestPattern
	bestScore := 0
	for _, pt := range t.Patterns {
		key, _ := t.keyOf(pt.Index)
		np := NearestPattern{Pattern: pt, Key: key}
		score, keyScore := 0, 0
		if pt.HasPK {
			for _, n := range named {
				keyScore += np.nameScore(n)
			}
		}
		if q.Access == Scan && keyScore == 0 {
			continue // a Scan names no key of this pattern
		}
		score += keyScore
		score += accessScore(pt, q)
		if best.Pattern == nil || score > bestScore {
			best, bestScore = np, score
		}
	}
	return best, best.Pattern != nil
}

// nameScore scores how well the request's named attribute n fits np's
// pattern, setting np.By and np.Value when n reads its partition key.
func (np *NearestPattern) nameScore(n NamedAttr) int {
	pt, key := np.Pattern, np.Key
	switch {
	case n.Attr == key.Partition && n.Value == "":
		np.By = n.Attr
		return 600 // named without a value: attribute_exists(GSI1PK)
	case n.Attr == key.Partition:
		// The partition key attribute: its value fits the
		// template, the more literal text the better; one
		// that does not fit is still this key's request.
		if pt.PK.match(n.Value, n.Prefix) || n.Prefix && strings.HasPrefix(pt.PK.lead(), n.Value) {
			np.By = n.Attr
			if !n.Prefix {
				np.Value = n.Value
			}
			return 1000 + 10*pt.PK.weight()
		}
		return 200
	case n.Value == "":
	case n.Partition && pt.PK.weight() > 0 && pt.PK.match(n.Value, n.Prefix):
		// The request's partition key value fits the
		// pattern's, on another attribute: the table for an
		// index, or another index.
		return 300 + 10*pt.PK.weight()
	case key.Sort != "" && n.Attr == key.Sort && pt.SortOp != SortNone:
		if pt.SK.match(n.Value, n.Prefix || pt.SortOp == SortBeginsWith) || strings.HasPrefix(n.Value, pt.SK.lead()) && pt.SK.lead() != "" {
			return 100 + pt.SK.weight()
		}
		return 20
	case pt.PK.hasVar(n.Attr):
		// An attribute the partition key is made of.
		if np.By == "" {
			np.By = n.Attr
			if v, ok := pt.PK.with(n.Attr, n.Value); ok && !n.Prefix {
				np.Value = v
			}
		}
		return 500
	case pt.SortOp != SortNone && pt.SK.hasVar(n.Attr):
		return 50
	}
	return 0
}

// accessScore scores pattern pt's access and index against q's: the
// same access first, then a read for a read (a query for a Scan or
// Query: they read many items), never a write for a read.
func accessScore(pt *Pattern, q *Request) int {
	score := 0
	switch {
	case pt.Access == q.Access:
		score += 30
	case pt.Access.IsWrite() != q.Access.IsWrite():
		score -= 600
	case pt.Access == Query:
		score += 20
	default:
		score += 10
	}
	if pt.Index == q.Index {
		score += 5
	}
	return score
}

// hasVar reports whether the template has variable name.
func (t Template) hasVar(name string) bool {
	for _, v := range t.vars {
		if v == name {
			return true
		}
	}
	return false
}

// with returns the template's value with its one variable, name, set to
// v; false when it has other variables.
func (t Template) with(name, v string) (string, bool) {
	if len(t.vars) != 1 || t.vars[0] != name || v == "" {
		return "", false
	}
	return t.lits[0] + v + t.lits[1], true
}

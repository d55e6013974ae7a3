package mcp

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sync"

	"github.com/dynamoemu/dynamoemu/internal/insights"
)

// The nearest pattern: a request no pattern serves gets the pattern it
// comes nearest to and why that one does not serve it, so that an agent
// can rewrite the request (a Scan filtered on the attribute an index's
// partition key holds becomes a Query of that index).

// filterWords matches the words of a filter expression: attribute names,
// #placeholders, functions and keywords (only names that are key
// attributes are looked for among them).
var filterWords = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`#?[A-Za-z_][A-Za-z0-9_.\-]*`) })

// filterAttrs returns the attribute names a request's FilterExpression
// (or legacy ScanFilter and QueryFilter) names.
func filterAttrs(req json.RawMessage) map[string]bool {
	var in struct {
		FilterExpression         string
		ExpressionAttributeNames map[string]string
		ScanFilter, QueryFilter  map[string]json.RawMessage
	}
	_ = json.Unmarshal(req, &in)
	out := map[string]bool{}
	for _, w := range filterWords().FindAllString(in.FilterExpression, -1) {
		if name, ok := in.ExpressionAttributeNames[w]; ok {
			w = name
		}
		out[w] = true
	}
	for _, f := range []map[string]json.RawMessage{in.ScanFilter, in.QueryFilter} {
		for name := range f {
			out[name] = true
		}
	}
	return out
}

// nearestPattern says, for a request no pattern of d serves (mv), the
// pattern it comes nearest to and why that one does not serve it; "" when
// a pattern serves it or the table declares none.
func nearestPattern(d *insights.Design, mv insights.MatchView, req json.RawMessage) string {
	if d == nil || mv.Pattern != "" || len(mv.Candidates) == 0 {
		return ""
	}
	var t *insights.DesignTable
	for _, dt := range d.Tables {
		if dt.Name == mv.Table {
			t = dt
		}
	}
	if t == nil {
		return ""
	}
	keyOf := func(index string) insights.KeyDef {
		if index == "" {
			return t.Key
		}
		for _, x := range t.Indexes {
			if x.Name == index {
				return x.Key
			}
		}
		return insights.KeyDef{}
	}
	on := func(index string) string {
		if index == "" {
			return "the table's key"
		}
		return "index " + index
	}
	// A read that filters on the attribute a pattern's partition key
	// holds: that pattern reads those items by key.
	if mv.Access == insights.Scan.String() || mv.Access == insights.Query.String() {
		attrs := filterAttrs(req)
		for _, pt := range t.Patterns {
			pk := keyOf(pt.Index).Partition
			if (pt.Access == insights.Query || pt.Access == insights.Get) && pk != "" && attrs[pk] {
				return fmt.Sprintf("%s: a %s on %s with pk = %s (attribute %s); this request filters on %s instead, reading and paying for the items the filter drops. Use a Query of %s with KeyConditionExpression %q",
					pt.Name, pt.Access, on(pt.Index), pt.PK, pk, pk, on(pt.Index), pk+" = :v")
			}
		}
	}
	// Else the pattern whose verdict is nearest: the same access on the
	// same key or index (the key does not fit), then the same access.
	rank := func(pt *insights.Pattern) int {
		switch {
		case pt.Access.String() == mv.Access && pt.Index == mv.Index:
			return 0
		case pt.Access.String() == mv.Access:
			return 1
		case pt.Index == mv.Index:
			return 2
		}
		return 3
	}
	best := -1
	for i, pt := range t.Patterns {
		if best < 0 || rank(pt) < rank(t.Patterns[best]) {
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	pt := t.Patterns[best]
	why := ""
	for _, c := range mv.Candidates {
		if c.Pattern == pt.Name {
			why = c.Why
		}
	}
	return fmt.Sprintf("%s (a %s on %s): %s", pt.Name, pt.Access, on(pt.Index), why)
}

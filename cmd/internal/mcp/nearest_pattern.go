package mcp

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The nearest pattern: a request no pattern serves gets the pattern it
// comes nearest to and why that one does not serve it, so that an agent
// can rewrite the request (a Scan filtered on the attribute an index's
// partition key holds becomes a Query of that index). insights.Design.
// Nearest ranks the patterns by what the request names of their keys
// (namedAttrs): its key's attributes and values, its filter's
// comparisons, a put's item.

// filterTerms match a filter expression's terms: NAME op :value,
// begins_with(NAME, :value), and any other name (attribute_exists(NAME)).
var filterTerms = sync.OnceValue(func() [3]*regexp.Regexp {
	return [3]*regexp.Regexp{
		regexp.MustCompile(`(?i)begins_with\s*\(\s*(#?[A-Za-z_][\w.\-]*)\s*,\s*(:[\w\-]+)\s*\)`),
		regexp.MustCompile(`(#?[A-Za-z_][\w.\-]*)\s*=\s*(:[\w\-]+)`),
		regexp.MustCompile(`#?[A-Za-z_][A-Za-z0-9_.\-]*`),
	}
})

// namedAttrs returns what use u of request req names of attributes: its
// key condition's (the attributes of the key it uses), a put's item's,
// and its filter's comparisons and names.
func namedAttrs(u use, req json.RawMessage) []insights.NamedAttr {
	var out []insights.NamedAttr
	ks := u.table.KeySchema
	if x := u.table.index(u.q.Index); x != nil {
		ks = x.keys
	}
	pk, sk, _ := key(ks)
	k := u.q.Key
	if k.Partition.IsValid() {
		out = append(out, insights.NamedAttr{Attr: pk, Value: textOf(k.Partition), Partition: true})
	}
	if sk != "" && k.SortOp != insights.SortNone && k.Sort.IsValid() {
		out = append(out, insights.NamedAttr{Attr: sk, Value: textOf(k.Sort), Prefix: k.SortOp == insights.SortBeginsWith})
	}
	for _, name := range sortedNames(u.item) {
		if name != pk && name != sk {
			if v := textOf(u.item[name]); v != "" {
				out = append(out, insights.NamedAttr{Attr: name, Value: v})
			}
		}
	}
	if u.q.Access != insights.Scan && u.q.Access != insights.Query {
		return out
	}
	var in struct {
		FilterExpression          string
		ExpressionAttributeNames  map[string]string
		ExpressionAttributeValues map[string]json.RawMessage
		ScanFilter, QueryFilter   map[string]struct {
			ComparisonOperator string
			AttributeValueList []json.RawMessage
		}
	}
	_ = json.Unmarshal(req, &in)
	name := func(s string) string {
		if n, ok := in.ExpressionAttributeNames[s]; ok {
			return n
		}
		return s
	}
	value := func(ph string) string {
		v, err := valueOf(in.ExpressionAttributeValues[ph])
		if err != nil {
			return ""
		}
		return textOf(v)
	}
	res := filterTerms()
	rest := in.FilterExpression
	for _, m := range res[0].FindAllStringSubmatch(rest, -1) {
		out = append(out, insights.NamedAttr{Attr: name(m[1]), Value: value(m[2]), Prefix: true})
	}
	rest = res[0].ReplaceAllString(rest, " ")
	for _, m := range res[1].FindAllStringSubmatch(rest, -1) {
		out = append(out, insights.NamedAttr{Attr: name(m[1]), Value: value(m[2])})
	}
	rest = res[1].ReplaceAllString(rest, " ")
	for _, w := range res[2].FindAllString(rest, -1) {
		out = append(out, insights.NamedAttr{Attr: name(w)})
	}
	for _, f := range []map[string]struct {
		ComparisonOperator string
		AttributeValueList []json.RawMessage
	}{in.ScanFilter, in.QueryFilter} {
		for _, attr := range sortedNames(f) {
			c := f[attr]
			n := insights.NamedAttr{Attr: attr, Prefix: c.ComparisonOperator == "BEGINS_WITH"}
			if len(c.AttributeValueList) == 1 && (c.ComparisonOperator == "EQ" || n.Prefix) {
				if v, err := valueOf(c.AttributeValueList[0]); err == nil {
					n.Value = textOf(v)
				}
			}
			out = append(out, n)
		}
	}
	return out
}

// textOf is a value's text as templates match it (S and N; B in base64).
func textOf(v storage.Value) string {
	if !v.IsValid() {
		return ""
	}
	switch v.Kind() {
	case storage.KindS, storage.KindN:
		return v.Str()
	case storage.KindB:
		return base64.StdEncoding.EncodeToString(v.Bytes())
	}
	return ""
}

// nearestPattern says, for use u of request req, which no pattern of d
// serves (mv), the pattern it comes nearest to and why that one does not
// serve it; "" when a pattern serves it or the table declares none.
func nearestPattern(d *insights.Design, u use, mv insights.MatchView, req json.RawMessage) string {
	if d == nil || mv.Pattern != "" || len(mv.Candidates) == 0 {
		return ""
	}
	np, ok := d.Nearest(&u.q, namedAttrs(u, req))
	if !ok {
		return ""
	}
	pt := np.Pattern
	on := func(index string) string {
		if index == "" {
			return "the table's key"
		}
		return "index " + index
	}
	// A read that filters on what a pattern's partition key holds: that
	// pattern reads those items by key.
	if np.By != "" && (u.q.Access == insights.Scan || u.q.Access == insights.Query && u.q.Filter) && pt.Access == insights.Query {
		what := np.By
		if np.By != np.Key.Partition {
			what = fmt.Sprintf("%s (which %s, %s, is made of)", np.By, np.Key.Partition, pt.PK)
		}
		cond, values := np.Key.Partition+" = :v", ""
		if np.Value != "" {
			values = fmt.Sprintf(":v = %q", np.Value)
		}
		if sk := np.Key.Sort; sk != "" {
			switch pt.SortOp {
			case insights.SortNone:
			case insights.SortBeginsWith:
				cond += " AND begins_with(" + sk + ", :s)"
				if pt.SK.Literal() {
					values += fmt.Sprintf(", :s = %q", pt.SK.String())
				}
			case insights.SortBetween:
				cond += " AND " + sk + " BETWEEN :s AND :s2"
			default:
				cond += " AND " + sk + " " + pt.SortOp.String() + " :s"
			}
		}
		text := fmt.Sprintf("%s: a %s on %s where %s; this request filters on %s instead, reading and paying for the items the filter drops. Use a Query of %s with KeyConditionExpression %q",
			pt.Name, pt.Access, on(pt.Index), pt.Condition(), what, on(pt.Index), cond)
		if values = strings.TrimPrefix(values, ", "); values != "" {
			text += " (" + values + ")"
		}
		return text
	}
	why := ""
	for _, c := range mv.Candidates {
		if c.Pattern == pt.Name {
			why = c.Why
		}
	}
	return fmt.Sprintf("%s (a %s on %s): %s", pt.Name, pt.Access, on(pt.Index), why)
}

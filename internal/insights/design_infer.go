package insights

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"
)

// Key templates inferred from what a format gives of a key attribute
// when it gives no template: its own values (a NoSQL Workbench facet's
// sample items, the example values of a data model's commands) and the
// variables a format names (a facet's key alias, a command's
// placeholder). Every reader that infers a template does it here
// (inferKey), the same way:
//
//   - a value is read as literal text around the values of the item's
//     attributes that are no key attribute of the table or its indexes
//     (values of two characters or more: a "1" would be found
//     anywhere): a post whose GSI1SK is "POST#2024-05-01" and whose
//     createdAt is "2024-05-01" gives "POST#{createdAt}". Another key
//     attribute is never read so: a GSI1PK "TAG#go" beside an SK
//     "TAG#go" is a tag's key, not the item's sort key;
//   - when every value reads the same way, that is the template; when
//     they read differently, the one reading that fits every value;
//   - a value no attribute explains is a constant when every value is
//     the same and it is a word ("PROFILE"), or two items or more of an
//     entity agree ("77fcab6b" for a single example is an id, not a
//     constant), unless the format declares a variable there;
//   - else the values' common leading type tag ("USER#" of "USER#u7")
//     followed by a variable named by the format (the alias, the
//     placeholder) or the attribute; no such tag, the variable alone.

// sampleItem is one sample item's string values (S and N), by attribute.
type sampleItem map[string]string

// sampleItems reads items (DynamoDB JSON) into their string values; an
// item or value of another shape is left out, as is its attribute.
func sampleItems(items []json.RawMessage) []sampleItem {
	var out []sampleItem
	for _, raw := range items {
		var m map[string]map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			continue
		}
		it := sampleItem{}
		for attr, av := range m {
			for _, typ := range []string{"S", "N"} {
				var s string
				if v, ok := av[typ]; ok && json.Unmarshal(v, &s) == nil && s != "" {
					it[attr] = s
				}
			}
		}
		out = append(out, it)
	}
	return out
}

// keyEvidence is what a format gives of one key attribute.
type keyEvidence struct {
	attr string
	// items hold the attribute's values: an entity's sample items, or
	// the items that hold a command's example value.
	items []sampleItem
	// keyAttr reports whether an attribute is a key attribute of the
	// table or one of its indexes: never read into a template.
	keyAttr func(string) bool
	// name names the variable where no attribute does ("" the
	// attribute's own name).
	name string
	// example: the values are one example's (a command's), so that
	// items agreeing on it say nothing of a constant.
	example bool
	// variable: the format declares a variable there (a Workbench
	// alias that names one): never a constant.
	variable bool
}

// inferKey infers the template of a key attribute (see the top of the
// file); ok is false when it found nothing but the bare variable.
func inferKey(ev keyEvidence) (t Template, ok bool) {
	name := ev.name
	if !isName(name) {
		name = ev.attr
	}
	fallback := varTemplate(name, "v")
	var values, readings []string
	for _, it := range ev.items {
		v, ok := it[ev.attr]
		if !ok {
			continue
		}
		if strings.ContainsAny(v, "{}") {
			return fallback, false // braces would be read as a template's
		}
		values = append(values, v)
		readings = append(readings, composeTemplate(ev.attr, v, it, ev.keyAttr))
	}
	if len(values) == 0 {
		return fallback, false
	}
	same := true
	for _, r := range readings[1:] {
		same = same && r == readings[0]
	}
	if same && strings.Contains(readings[0], "{") {
		if t, err := parseTemplate(readings[0]); err == nil {
			return t, true
		}
	}
	if same && !ev.variable && (isWord(values[0]) || !ev.example && len(values) >= 2) && !strings.ContainsAny(values[0], "{}") {
		if t, err := parseTemplate(values[0]); err == nil {
			return t, true
		}
	}
	if t, ok := fittingReading(readings, values); ok {
		return t, true
	}
	if tag := typeTag(values); tag != "" {
		if t, err := parseTemplate(tag + "{" + name + "}"); err == nil {
			return t, true
		}
	}
	return fallback, false
}

// fittingReading returns the reading (a template with variables) that
// fits every value, the most frequent first; false when none does.
func fittingReading(readings, values []string) (Template, bool) {
	counts := map[string]int{}
	for _, r := range readings {
		if strings.Contains(r, "{") {
			counts[r]++
		}
	}
	var distinct []string
	for _, r := range readings {
		if counts[r] > 0 && !slices.Contains(distinct, r) {
			distinct = append(distinct, r)
		}
	}
	slices.SortStableFunc(distinct, func(a, b string) int { return counts[b] - counts[a] })
	for _, r := range distinct {
		t, err := parseTemplate(r)
		if err != nil {
			continue
		}
		fits := true
		for _, v := range values {
			fits = fits && t.match(v, false)
		}
		if fits {
			return t, true
		}
	}
	return Template{}, false
}

// typeTag returns the leading type tag every value shares and goes on
// after: words each ended by a separator ("USER#", "ORG#acme#USER#",
// "Post_"), or "". One value alone has only #, | and : as separators:
// an e-mail's "ann." is no tag.
func typeTag(values []string) string {
	common := values[0]
	distinct := false
	for _, v := range values[1:] {
		n := 0
		for n < len(common) && n < len(v) && common[n] == v[n] {
			n++
		}
		distinct = distinct || v != values[0]
		common = common[:n]
	}
	seps := "#|:"
	if distinct {
		seps = "#|:_/.-"
	}
	end := 0
	for i := 0; i < len(common); {
		j := i
		for j < len(common) && (common[j] >= 'a' && common[j] <= 'z' || common[j] >= 'A' && common[j] <= 'Z') {
			j++
		}
		if j == i || j == len(common) || !strings.ContainsRune(seps, rune(common[j])) {
			break
		}
		i, end = j+1, j+1
	}
	for _, v := range values {
		if len(v) <= end || strings.ContainsAny(v[:end], "{}") {
			return ""
		}
	}
	return common[:end]
}

// composeTemplate writes v as literal text around the values of it's
// attributes that are not key attributes (keyAttr; nil: every other
// attribute), longest values first, each attribute once; braces in
// literal text make it no template (the variable is used then).
func composeTemplate(attr, v string, it sampleItem, keyAttr func(string) bool) string {
	if strings.ContainsAny(v, "{}") {
		return "{" + attr + "}"
	}
	type src struct{ name, value string }
	var srcs []src
	for a, val := range it {
		if a == attr || len(val) < 2 || !isName(a) || keyAttr != nil && keyAttr(a) {
			continue
		}
		srcs = append(srcs, src{a, val})
	}
	compare := func(x, y src) int {
		if len(x.value) != len(y.value) {
			return len(y.value) - len(x.value)
		}
		return strings.Compare(x.name, y.name)
	}
	sort.Slice(srcs, func(i, j int) bool { return compare(srcs[i], srcs[j]) < 0 })
	// Segments of v: literal text, or a variable already placed.
	type seg struct {
		text  string
		isVar bool
	}
	segs := []seg{{text: v}}
	used := map[string]bool{}
	for _, s := range srcs {
		if used[s.name] {
			continue
		}
		for i, g := range segs {
			if g.isVar {
				continue
			}
			j := strings.Index(g.text, s.value)
			if j < 0 {
				continue
			}
			// Two variables side by side cannot be told apart.
			if j == 0 && i > 0 && segs[i-1].isVar || j+len(s.value) == len(g.text) && i+1 < len(segs) && segs[i+1].isVar {
				continue
			}
			repl := []seg{}
			if j > 0 {
				repl = append(repl, seg{text: g.text[:j]})
			}
			repl = append(repl, seg{text: s.name, isVar: true})
			if rest := g.text[j+len(s.value):]; rest != "" {
				repl = append(repl, seg{text: rest})
			}
			segs = slices.Replace(segs, i, i+1, repl...)
			used[s.name] = true
			break
		}
	}
	var b strings.Builder
	for _, g := range segs {
		if g.isVar {
			b.WriteString("{" + g.text + "}")
		} else {
			b.WriteString(g.text)
		}
	}
	return b.String()
}

// isWord reports whether s is ASCII letters and underscores: a type tag
// such as "post", never an id.
func isWord(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return s != ""
}

// entityItems returns the sample items of entity e: those its table key
// templates match and, when several entities' keys match an item, whose
// attributes are all the entity's (attrs, nil: any).
func entityItems(items []sampleItem, key KeyDef, e *Entity, attrs []string, others []*Entity, otherAttrs [][]string) []sampleItem {
	var out []sampleItem
	for _, it := range items {
		if !keyFits(it, key, e) || !hasOnly(it, key, attrs) {
			continue
		}
		// An earlier entity that fits as well takes the item.
		taken := false
		for i, o := range others {
			if keyFits(it, key, o) && hasOnly(it, key, otherAttrs[i]) {
				taken = true
				break
			}
		}
		if !taken {
			out = append(out, it)
		}
	}
	return out
}

// keyFits reports whether the item's table key values fit e's templates.
func keyFits(it sampleItem, key KeyDef, e *Entity) bool {
	for _, a := range []string{key.Partition, key.Sort} {
		if a == "" {
			continue
		}
		v, ok := it[a]
		t, has := e.Attrs[a]
		if !ok || !has || !t.match(v, false) {
			return false
		}
	}
	return true
}

// hasOnly reports whether every attribute of the item but the table's
// key is in attrs (nil: no list, any attribute).
func hasOnly(it sampleItem, key KeyDef, attrs []string) bool {
	if attrs == nil {
		return true
	}
	for a := range it {
		if a != key.Partition && a != key.Sort && !slices.Contains(attrs, a) {
			return false
		}
	}
	return true
}

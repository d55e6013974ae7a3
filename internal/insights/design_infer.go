package insights

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"
)

// Key templates inferred from sample items, for a format that gives an
// entity's items but not the template of every key attribute (a NoSQL
// Workbench facet's index keys). A sample item's key value is read as
// literal text around the values of the item's other attributes: a post
// whose GSI1SK is "Post_2021-12-03T10:06:57.650Z" and whose created_at is
// "2021-12-03T10:06:57.650Z" gives "Post_{created_at}" (values of two
// characters or more: a "1" would be found anywhere). A value that
// holds no other attribute's value is a constant when every sample item
// of the entity holds it and it is a word ("post") or two items or more
// agree, else a variable named by the attribute. Items that disagree, or
// no items, give the variable.

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

// inferTemplate infers the template of key attribute attr from the
// entity's sample items. vars names, for attributes whose value is a
// variable of another template (the table's key "{id}"), that variable.
func inferTemplate(attr string, items []sampleItem, vars map[string]string) Template {
	fallback := knownTemplate("{" + attr + "}")
	if !isName(attr) {
		fallback = Template{}
	}
	var got string
	var values []string
	for _, it := range items {
		v, ok := it[attr]
		if !ok {
			continue
		}
		values = append(values, v)
		t := composeTemplate(attr, v, it, vars)
		switch {
		case got == "":
			got = t
		case got != t:
			return fallback
		}
	}
	if got == "" {
		return fallback
	}
	if !strings.Contains(got, "{") {
		// No other attribute's value: a constant only if every item
		// agrees and it looks like one.
		if len(values) < 2 && !isWord(got) {
			return fallback
		}
	}
	t, err := parseTemplate(got)
	if err != nil {
		return fallback
	}
	return t
}

// composeTemplate writes v as literal text around the values of it's
// other attributes, longest values first, each attribute once; braces in
// literal text make it no template (the variable is used then).
func composeTemplate(attr, v string, it sampleItem, vars map[string]string) string {
	if strings.ContainsAny(v, "{}") {
		return "{" + attr + "}"
	}
	type src struct{ name, value string }
	var srcs []src
	for a, val := range it {
		if a == attr || len(val) < 2 {
			continue
		}
		name := a
		if n, ok := vars[a]; ok {
			name = n
		}
		if !isName(name) {
			continue
		}
		srcs = append(srcs, src{name, val})
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

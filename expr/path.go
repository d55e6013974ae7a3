package expr

import (
	"strconv"
	"strings"

	"github.com/dynamoemu/dynamoemu/storage"
)

// PathStep is one element of a resolved document path: a map key / top-level
// attribute name, or a list index.
type PathStep struct {
	Name    string
	Index   int
	IsIndex bool
}

// Path is a resolved document path (placeholders replaced by names).
// Path[0] is always a name: the top-level attribute.
type Path []PathStep

// String renders the path in expression syntax: a.b[2].c.
func (p Path) String() string {
	var b strings.Builder
	for i, s := range p {
		switch {
		case s.IsIndex:
			b.WriteString("[" + strconv.Itoa(s.Index) + "]")
		case i > 0:
			b.WriteString("." + s.Name)
		default:
			b.WriteString(s.Name)
		}
	}
	return b.String()
}

// message renders the path as DynamoDB's messages do: [a, b, [2]].
func (p Path) message() string {
	parts := make([]string, len(p))
	for i, s := range p {
		if s.IsIndex {
			parts[i] = "[" + strconv.Itoa(s.Index) + "]"
		} else {
			parts[i] = s.Name
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func (p Path) equal(q Path) bool {
	if len(p) != len(q) {
		return false
	}
	for i := range p {
		if p[i] != q[i] {
			return false
		}
	}
	return true
}

// Get returns the value at p in item and whether it exists.
func (p Path) Get(item storage.Item) (storage.Value, bool) {
	if len(p) == 0 || item == nil {
		return storage.Value{}, false
	}
	v, ok := item[p[0].Name]
	if !ok {
		return storage.Value{}, false
	}
	for _, s := range p[1:] {
		if v, ok = step(v, s); !ok {
			return storage.Value{}, false
		}
	}
	return v, true
}

func step(v storage.Value, s PathStep) (storage.Value, bool) {
	if s.IsIndex {
		if v.Kind() != storage.KindL || s.Index >= len(v.List()) {
			return storage.Value{}, false
		}
		return v.List()[s.Index], true
	}
	if v.Kind() != storage.KindM {
		return storage.Value{}, false
	}
	w, ok := v.Map()[s.Name]
	return w, ok
}

// overlapKind compares two paths: 0 independent, 1 one is a prefix of the
// other (overlap), 2 they share a prefix and then differ in element kind
// (conflict: one indexes a list where the other names a map key).
func overlapKind(p, q Path) int {
	for i := 0; i < len(p) && i < len(q); i++ {
		a, b := p[i], q[i]
		if a.IsIndex != b.IsIndex {
			return 2
		}
		if a != b {
			return 0
		}
	}
	return 1
}

// checkOverlaps reports the first pair of paths that overlap or conflict,
// in DynamoDB's wording.
func checkOverlaps(param string, paths []Path, pos []int) *Error {
	for j := range paths {
		for i := 0; i < j; i++ {
			switch overlapKind(paths[i], paths[j]) {
			case 1:
				return exprError(param, pos[j], sprintf(msgOverlap, paths[i].message(), paths[j].message()))
			case 2:
				return exprError(param, pos[j], sprintf(msgConflict, paths[i].message(), paths[j].message()))
			}
		}
	}
	return nil
}

// setIn returns a copy of container with v stored at steps (len >= 1).
// Intermediate containers must exist; a list index at or past the end
// appends.
func setIn(container storage.Value, steps []PathStep, v storage.Value) (storage.Value, bool) {
	s := steps[0]
	switch {
	case s.IsIndex && container.Kind() == storage.KindL:
		list := container.List()
		if len(steps) == 1 {
			out := make([]storage.Value, len(list), len(list)+1)
			copy(out, list)
			if s.Index >= len(list) {
				out = append(out, v)
			} else {
				out[s.Index] = v
			}
			return storage.L(out), true
		}
		if s.Index >= len(list) {
			return storage.Value{}, false
		}
		child, ok := setIn(list[s.Index], steps[1:], v)
		if !ok {
			return storage.Value{}, false
		}
		out := append([]storage.Value(nil), list...)
		out[s.Index] = child
		return storage.L(out), true
	case !s.IsIndex && container.Kind() == storage.KindM:
		m := container.Map()
		if len(steps) == 1 {
			return storage.M(withEntry(m, s.Name, v)), true
		}
		cur, ok := m[s.Name]
		if !ok {
			return storage.Value{}, false
		}
		child, ok := setIn(cur, steps[1:], v)
		if !ok {
			return storage.Value{}, false
		}
		return storage.M(withEntry(m, s.Name, child)), true
	}
	return storage.Value{}, false
}

func withEntry(m map[string]storage.Value, k string, v storage.Value) map[string]storage.Value {
	out := make(map[string]storage.Value, len(m)+1)
	for key, val := range m {
		out[key] = val
	}
	out[k] = v
	return out
}

// removeIn returns a copy of container without the element at steps.
// changed is false when the element is absent; ok is false when a parent on
// the way is missing or of the wrong type.
func removeIn(container storage.Value, steps []PathStep) (out storage.Value, changed, ok bool) {
	s := steps[0]
	switch {
	case s.IsIndex && container.Kind() == storage.KindL:
		list := container.List()
		if s.Index >= len(list) {
			if len(steps) == 1 {
				return container, false, true
			}
			return storage.Value{}, false, false
		}
		if len(steps) == 1 {
			nl := make([]storage.Value, 0, len(list)-1)
			nl = append(nl, list[:s.Index]...)
			nl = append(nl, list[s.Index+1:]...)
			return storage.L(nl), true, true
		}
		child, changed, ok := removeIn(list[s.Index], steps[1:])
		if !ok || !changed {
			return container, false, ok
		}
		nl := append([]storage.Value(nil), list...)
		nl[s.Index] = child
		return storage.L(nl), true, true
	case !s.IsIndex && container.Kind() == storage.KindM:
		m := container.Map()
		cur, exists := m[s.Name]
		if len(steps) == 1 {
			if !exists {
				return container, false, true
			}
			nm := make(map[string]storage.Value, len(m))
			for k, v := range m {
				if k != s.Name {
					nm[k] = v
				}
			}
			return storage.M(nm), true, true
		}
		if !exists {
			return storage.Value{}, false, false
		}
		child, changed, ok := removeIn(cur, steps[1:])
		if !ok || !changed {
			return container, false, ok
		}
		return storage.M(withEntry(m, s.Name, child)), true, true
	}
	return storage.Value{}, false, false
}

package expr

import (
	"strconv"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/storage"
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

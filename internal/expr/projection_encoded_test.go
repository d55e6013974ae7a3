package expr

import (
	"fmt"
	"slices"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"

	"github.com/stretchr/testify/require"
)

// TestProjTrieOrder: a trie of many paths merged in any order is the
// one merged in theirs (newProjTrie sorts them first).
func TestProjTrieOrder(t *testing.T) {
	var paths []Path
	for i := range 200 {
		n := fmt.Sprint("a", (i*37)%200)
		paths = append(paths, Path{{Name: n}}, Path{{Name: "m"}, {Name: n}}, Path{{Name: "l"}, {Index: (i * 53) % 200, IsIndex: true}})
	}
	want := &projTrie{}
	for _, p := range paths[:16] { // few: merged as they come
		n := want
		for _, s := range p {
			n = n.child(s)
		}
		n.leaf = true
	}
	require.Equal(t, want, newProjTrie(paths[:16]))
	got := newProjTrie(paths)
	require.Len(t, got.names, 202)
	require.True(t, slices.IsSorted(got.names))
	require.Len(t, got.fields[slices.Index(got.names, "m")].names, 200)
	l := got.fields[slices.Index(got.names, "l")]
	require.Len(t, l.elems, 200)
	require.True(t, slices.IsSortedFunc(l.elems, func(a, b projElem) int { return a.index - b.index }))
}

// TestCondProgramAttrs: a condition's top-level attributes are listed
// once each, sorted, and every path points at its own.
func TestCondProgramAttrs(t *testing.T) {
	var terms []Expr
	for i := range 100 {
		terms = append(terms, &PathExpr{resolved: Path{{Name: fmt.Sprint("a", (i*7)%50)}}})
	}
	p := newCondProgram(&CallExpr{Fun: "f", Args: terms}, nil, nil)
	require.Len(t, p.attrs, 50)
	require.True(t, slices.IsSorted(p.attrs))
	for _, x := range terms {
		pe := x.(*PathExpr)
		require.Equal(t, pe.resolved[0].Name, p.attrs[pe.attr])
	}
}

// TestProjectorManyNames: a projection of more top-level names than a
// Projector looks up in one walk (projectorNames) projects what Apply
// does, key attributes and names in every run included.
func TestProjectorManyNames(t *testing.T) {
	item := storage.Item{"pk": storage.S("p"), "sk": storage.N("1")}
	for i := range 3 * projectorNames {
		item[fmt.Sprintf("a%04d", i)] = storage.S(fmt.Sprint(i))
	}
	enc := store(t, []storage.Item{item})[0]
	cases := []struct {
		name  string
		names func() []string
	}{
		{"every third, keys and missing names", func() []string {
			names := []string{"sk", "zz", "pk"}
			for i := 0; i < 5*projectorNames; i += 3 {
				names = append(names, fmt.Sprintf("a%04d", i))
			}
			return names
		}},
		{"one run exactly", func() []string {
			names := make([]string, 0, projectorNames)
			for i := range projectorNames {
				names = append(names, fmt.Sprintf("a%04d", 2*projectorNames+i))
			}
			return names
		}},
		{"one past a run, the last only found", func() []string {
			names := []string{"a0000"}
			for i := range projectorNames {
				names = append(names, fmt.Sprintf("b%04d", i))
			}
			return names
		}},
	}
	var buf []byte
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			proj, err := AttributesToGet(tc.names())
			require.NoError(t, err)
			checkProjected(t, tc.name, proj.Projector(), &buf, enc, proj.Apply(item))
		})
	}
}

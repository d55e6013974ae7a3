package expr

import (
	"cmp"
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Projecting stored items without decoding them: a Projector copies the
// projected parts of a record into a new record (storage's encoding),
// which the caller writes out as it writes a stored item (an
// storage.ItemReader over storage.EncodedItemOf). The result is what
// Apply gives for the decoded item (ProjectPaths' rules: missing paths
// are skipped, maps keep only their projected entries, lists their
// projected elements in index order, a path that is a prefix of another
// takes the whole value).

// projTrie is a projection's paths merged into a tree, built at
// compilation and immutable: at each node, the names (sorted) and list
// indexes (ascending) the paths continue with; leaf when a path ends
// there, which takes the whole value whatever continues.
type projTrie struct {
	leaf   bool
	names  []string
	fields []*projTrie // fields[i] continues with names[i]
	elems  []projElem
	// allLeaves: every name ends its path, and fields is nil (the root
	// of AttributesToGet: a pointer a name was 0.7 times the bytes of a
	// 4 MB GetItem's names, BenchmarkOversizeMemory).
	allLeaves bool
	// list, for the root of AttributesToGetList, holds the names sorted
	// in place of names.
	list *NameList
}

// rootNames is how many names the node continues with.
func (n *projTrie) rootNames() int {
	if n.list != nil {
		return n.list.Len()
	}
	return len(n.names)
}

// leafTrie is the node that ends a path, for a node of allLeaves.
var leafTrie = &projTrie{leaf: true}

// field is the node that continues with names[i].
func (n *projTrie) field(i int) *projTrie {
	if n.allLeaves {
		return leafTrie
	}
	return n.fields[i]
}

type projElem struct {
	index int
	node  *projTrie
}

// newProjTrie merges paths into a trie. Many paths are merged in their
// order (stepCmp), so that each goes after the others at every node:
// in any other, each insert shifted the names after it, which made an
// AttributesToGet of 256,000 names take 22 s.
// They are sorted as pointers: the server has that sort already, and a
// sort of Path values would add its own copy of the sort (8 kB).
func newProjTrie(paths []Path) *projTrie {
	root := &projTrie{}
	add := func(p Path) {
		n := root
		for _, s := range p {
			n = n.child(s)
		}
		n.leaf = true
	}
	if len(paths) <= 16 {
		for _, p := range paths {
			add(p)
		}
		return root
	}
	sorted := make([]*Path, len(paths))
	for i := range paths {
		sorted[i] = &paths[i]
	}
	slices.SortFunc(sorted, func(a, b *Path) int { return slices.CompareFunc(*a, *b, stepCmp) })
	for _, p := range sorted {
		add(*p)
	}
	return root
}

func (n *projTrie) child(s PathStep) *projTrie {
	if s.IsIndex {
		i, found := slices.BinarySearchFunc(n.elems, s.Index, func(e projElem, idx int) int { return e.index - idx })
		if !found {
			n.elems = slices.Insert(n.elems, i, projElem{index: s.Index, node: &projTrie{}})
		}
		return n.elems[i].node
	}
	i, found := slices.BinarySearch(n.names, s.Name)
	if !found {
		n.names = slices.Insert(n.names, i, s.Name)
		n.fields = slices.Insert(n.fields, i, &projTrie{})
	}
	return n.fields[i]
}

// Projector applies one Projection to stored items, keeping scratch space
// between items; it is for one goroutine (one per request).
type Projector struct {
	trie   *projTrie
	vals   []storage.EncodedValue
	inline [8]storage.EncodedValue
	names  []string // a NameList's names, a run of len(vals) at a time
}

// projectorNames is the most top-level names a Projector looks up in one
// walk of a record: more (an AttributesToGet of thousands) are looked
// up that many at a time, so that its scratch space is not a value a
// name (32 bytes each of a 4 MB GetItem's 381,295 names, three times
// the body's bytes: BenchmarkOversizeMemory).
const projectorNames = 256

// Projector returns a Projector for the projection.
func (p *Projection) Projector() *Projector {
	pr := &Projector{trie: p.trie}
	n := min(p.trie.rootNames(), projectorNames)
	if n <= len(pr.inline) {
		pr.vals = pr.inline[:n]
	} else {
		pr.vals = make([]storage.EncodedValue, n)
	}
	if p.trie.list != nil {
		pr.names = make([]string, n)
	}
	return pr
}

// Append appends to dst the projection of the stored item e in storage's
// item encoding, key attributes among the others: read it with
// storage.EncodedItemOf. It is Apply(e.Item()), encoded, and allocates
// nothing but dst's growth.
func (pr *Projector) Append(dst []byte, e storage.EncodedItem) []byte {
	root := pr.trie
	dst, mark := storage.AppendItemStart(dst)
	count := 0
	for off := 0; off < root.rootNames(); off += len(pr.vals) {
		names := pr.run(off)
		e.Lookup(names, pr.vals)
		for i, name := range names {
			if !pr.vals[i].IsValid() {
				continue
			}
			start := len(dst)
			var ok bool
			if dst, ok = appendProjected(storage.AppendName(dst, name), root.field(off+i), pr.vals[i]); ok {
				count++
			} else {
				dst = dst[:start]
			}
		}
	}
	return storage.FinishCount(dst, mark, count)
}

// run returns the root's names from off, at most len(pr.vals) of them.
func (pr *Projector) run(off int) []string {
	root := pr.trie
	if root.list == nil {
		return root.names[off:min(off+len(pr.vals), len(root.names))]
	}
	names := pr.names[:min(len(pr.vals), root.list.Len()-off)]
	for i := range names {
		names[i] = root.list.At(off + i)
	}
	return names
}

// appendProjected appends the parts of v under trie node n; false (and
// dst as it was) when nothing of v is projected.
func appendProjected(dst []byte, n *projTrie, v storage.EncodedValue) ([]byte, bool) {
	if n.leaf {
		return v.AppendTo(dst), true
	}
	start := len(dst)
	switch {
	case v.Kind() == storage.KindM && len(n.names) > 0:
		dst, mark := storage.AppendMapStart(dst)
		count, j := 0, 0
		parts := v.Parts()
		for j < len(n.names) {
			name, w, ok := parts.Next()
			if !ok {
				break
			}
			for j < len(n.names) && n.names[j] < name {
				j++
			}
			if j == len(n.names) || n.names[j] != name {
				continue
			}
			entry := len(dst)
			var wrote bool
			if dst, wrote = appendProjected(storage.AppendName(dst, name), n.field(j), w); wrote {
				count++
			} else {
				dst = dst[:entry]
			}
			j++
		}
		if count > 0 {
			return storage.FinishCount(dst, mark, count), true
		}
	case v.Kind() == storage.KindL && len(n.elems) > 0:
		dst, mark := storage.AppendListStart(dst)
		count, j := 0, 0
		parts := v.Parts()
		for i := 0; j < len(n.elems); i++ {
			_, w, ok := parts.Next()
			if !ok {
				break
			}
			if n.elems[j].index != i {
				continue
			}
			var wrote bool
			elem := len(dst)
			if dst, wrote = appendProjected(dst, n.elems[j].node, w); wrote {
				count++
			} else {
				dst = dst[:elem]
			}
			j++
		}
		if count > 0 {
			return storage.FinishCount(dst, mark, count), true
		}
	}
	return dst[:start], false
}

// stepCmp orders path steps: list indexes before names, each in their
// order.
func stepCmp(a, b PathStep) int {
	switch {
	case a.IsIndex != b.IsIndex:
		if a.IsIndex {
			return -1
		}
		return 1
	case a.IsIndex:
		return cmp.Compare(a.Index, b.Index)
	}
	return strings.Compare(a.Name, b.Name)
}

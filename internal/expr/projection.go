package expr

import (
	"sort"
	"sync"

	"github.com/dynamoemu/dynamoemu/internal/lease"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Projection is a compiled ProjectionExpression (or AttributesToGet).
type Projection struct {
	src    *ProjectionExpr // nil for legacy: String builds it
	legacy bool            // from AttributesToGet: every path one name
	paths  []Path          // for legacy, made by Paths from names
	trie   *projTrie       // the paths merged, for Projector (projection_encoded.go)
	// names, for legacy, are AttributesToGet's names in their order: a
	// GetItem needs only the trie, so their paths (a step and a path, 56
	// bytes a name: 21 MB of a 4 MB GetItem's 381,295 names) are made the
	// first time Paths is called (BenchmarkOversizeMemory: peak 13.9 ->
	// 8.8 times the body).
	names []string
	// order, when names is nil, is each source name's place in the
	// trie's sorted names (AttributesToGetOwned: 4 bytes a name where
	// names, a copy beside the sorted ones, took 16).
	order []int32
	// list, when names and order are nil, is a NameList's source order
	// (AttributesToGetList: the trie reads the list itself).
	list      *listOrder
	pathsOnce sync.Once
}

// legacyNames returns how many names AttributesToGet had.
func (p *Projection) legacyNames() int {
	switch {
	case p.names != nil:
		return len(p.names)
	case p.list != nil:
		return p.list.list.Len()
	}
	return len(p.order)
}

// legacyName returns AttributesToGet's i-th name, in source order.
func (p *Projection) legacyName(i int) string {
	switch {
	case p.names != nil:
		return p.names[i]
	case p.list != nil:
		return p.list.name(i)
	}
	return p.trie.names[p.order[i]]
}

// Projection compiles a ProjectionExpression.
func (c *Compiler) Projection(text string) (*Projection, error) {
	lease.Check(c)
	if c.err != nil {
		return nil, c.err
	}
	key := cacheKey{kind: kindProjection, text: text}
	if e := c.lookup(key); e != nil {
		// A projection holds no values: a hit is the shared compiled one.
		if _, ok := c.rebind(e, nil, paramProjection, nil, nil); ok {
			return e.prog.(*Projection), nil
		}
	}
	proj, k, err := c.compileProjection(text)
	if err != nil {
		return nil, err
	}
	c.store(key, proj, k.nameKeys, nil, programBytes(text)+int64(len(proj.paths))*128)
	return proj, nil
}

func (c *Compiler) compileProjection(text string) (*Projection, *checker, *Error) {
	x, err := parseProjection(text)
	if err != nil {
		return nil, nil, err
	}
	return c.checkProjection(paramProjection, x)
}

// checkProjection runs the checks that follow parsing on a projection
// tree, parsed or built by a caller, and compiles it.
func (c *Compiler) checkProjection(param string, x *ProjectionExpr) (*Projection, *checker, *Error) {
	k := newChecker(c, param, ctxProjection)
	for _, p := range x.Paths {
		if err := k.checkPathSyntax(p); err != nil {
			return nil, nil, err
		}
	}
	proj := &Projection{src: x}
	pos := make([]int, len(x.Paths))
	for i, p := range x.Paths {
		if err := k.resolvePath(p); err != nil {
			return nil, nil, err
		}
		proj.paths = append(proj.paths, p.resolved)
		pos[i] = p.Pos()
	}
	if err := checkOverlaps(param, proj.paths, pos); err != nil {
		return nil, nil, err
	}
	proj.trie = newProjTrie(proj.paths)
	return proj, k, nil
}

// Paths returns the projected paths in source order. They are shared (a
// compiled projection may serve many requests): do not modify them.
func (p *Projection) Paths() []Path {
	if p.legacy {
		p.pathsOnce.Do(func() {
			n := p.legacyNames()
			steps := make([]PathStep, n)
			p.paths = make([]Path, n)
			for i := range n {
				steps[i].Name = p.legacyName(i)
				p.paths[i] = steps[i : i+1 : i+1]
			}
		})
	}
	return p.paths
}

// String returns the canonical source of the projection.
func (p *Projection) String() string {
	if p.src != nil {
		return p.src.String()
	}
	if p.legacy {
		src := ProjectionExpr{Paths: make([]*PathExpr, p.legacyNames())}
		for i := range src.Paths {
			src.Paths[i] = legacyPath(p.legacyName(i))
		}
		return src.String()
	}
	return Path(nil).String()
}

// Apply returns the parts of item named by the projection (nil item gives
// nil). Nested map paths keep their enclosing maps; list elements picked by
// index keep their relative order in a shorter list.
func (p *Projection) Apply(item storage.Item) storage.Item { return ProjectPaths(item, p.Paths()) }

// projNode accumulates the projected parts of one value.
type projNode struct {
	leaf     *storage.Value
	fields   map[string]*projNode
	elements map[int]*projNode
}

// ProjectPaths returns the parts of item at the given paths. Missing paths
// are skipped. Returns nil for a nil item.
func ProjectPaths(item storage.Item, paths []Path) storage.Item {
	if item == nil {
		return nil
	}
	root := &projNode{fields: map[string]*projNode{}}
	for _, p := range paths {
		v, ok := p.Get(item)
		if !ok {
			continue
		}
		n := root
		for i, s := range p {
			last := i == len(p)-1
			var child *projNode
			if s.IsIndex {
				if n.elements == nil {
					n.elements = map[int]*projNode{}
				}
				child = n.elements[s.Index]
				if child == nil {
					child = &projNode{}
					n.elements[s.Index] = child
				}
			} else {
				if n.fields == nil {
					n.fields = map[string]*projNode{}
				}
				child = n.fields[s.Name]
				if child == nil {
					child = &projNode{}
					n.fields[s.Name] = child
				}
			}
			if last {
				vv := v
				child.leaf = &vv
			}
			n = child
		}
	}
	out := storage.Item{}
	for name, n := range root.fields {
		out[name] = n.value()
	}
	return out
}

func (n *projNode) value() storage.Value {
	if n.leaf != nil {
		return *n.leaf
	}
	if n.elements != nil {
		idx := make([]int, 0, len(n.elements))
		for i := range n.elements {
			idx = append(idx, i)
		}
		sort.Ints(idx)
		l := make([]storage.Value, len(idx))
		for j, i := range idx {
			l[j] = n.elements[i].value()
		}
		return storage.L(l)
	}
	m := make(map[string]storage.Value, len(n.fields))
	for k, c := range n.fields {
		m[k] = c.value()
	}
	return storage.M(m)
}

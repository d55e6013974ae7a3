package vector

import (
	"hash/fnv"
	"math"
	"slices"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The approximate index, an emulator option (Options.Approximate): a
// hierarchical navigable small world graph (HNSW, Malkov and Yashunin,
// 2016) per index partition, over the partition's rows in the slabs (the
// graph keeps no vectors of its own). Node ids are stable while rows move:
// a chunk keeps each row's node id, a node its row. A deleted node is
// unlinked from the nodes it links to, which are reconnected among its
// neighbours; links into it from elsewhere dangle and are skipped, and
// once as many dead ids as live ones pile up the graph is rebuilt.
//
// A node's level comes from a hash of its table key, so the same items
// give the same levels whatever the order they came in.

// approxMinRows is the partition size below which an approximate index
// searches exactly anyway: scoring every row is as fast. A variable for
// tests.
var approxMinRows = 1000

// hnsw is one partition's graph, guarded by the table's lock.
type hnsw struct {
	x     *index
	p     *vpart
	nodes []hnode
	live  int
	entry int32 // -1 when empty
	top   int   // the entry's level
}

// hnode is one node: its row (-1 once deleted), level and links per level.
type hnode struct {
	row   int32
	level int32
	links [][]int32
}

// hc is a node and its key (index.key) to the query at hand.
type hc struct {
	key float64
	id  int32
}

func newHNSW(x *index, p *vpart) *hnsw { return &hnsw{x: x, p: p, entry: -1} }

// rowOf returns node id's chunk and index.
func (g *hnsw) rowOf(id int32) (*vchunk, int) { return g.p.at(int(g.nodes[id].row)) }

func (g *hnsw) keyTo(q []float32, qinv float64, id int32) float64 {
	c, i := g.rowOf(id)
	return g.x.key(q, qinv, c, i)
}

// levelOf draws a node's level from its table key: floor(-ln(u) / ln(M)).
func (g *hnsw) levelOf(r storage.ItemRef) int {
	h := fnv.New64a()
	h.Write([]byte(r.PartitionKey()))
	h.Write([]byte{0})
	h.Write([]byte(r.SortKey()))
	u := (float64(h.Sum64()>>11) + 0.5) / (1 << 53)
	return min(int(-math.Log(u)/math.Log(float64(g.x.opts.M))), 16)
}

func (g *hnsw) maxLinks(level int) int {
	if level == 0 {
		return 2 * g.x.opts.M
	}
	return g.x.opts.M
}

// insert adds the row r of the partition, returning its node id.
func (g *hnsw) insert(r int) int32 {
	c, i := g.p.at(r)
	id := int32(len(g.nodes))
	level := g.levelOf(c.refs[i])
	g.nodes = append(g.nodes, hnode{row: int32(r), level: int32(level), links: make([][]int32, level+1)})
	g.live++
	if g.entry < 0 {
		g.entry, g.top = id, level
		return id
	}
	q, qinv := g.x.vec(c, i), g.x.invOf(c, i)
	ep := []hc{{g.keyTo(q, qinv, g.entry), g.entry}}
	for l := g.top; l > level; l-- {
		ep = g.searchLayer(q, qinv, ep, 1, l)
	}
	for l := min(level, g.top); l >= 0; l-- {
		w := g.searchLayer(q, qinv, ep, g.x.opts.EfConstruction, l)
		links := g.selectNeighbors(w, g.x.opts.M, make([]int32, 0, g.maxLinks(l)))
		g.nodes[id].links[l] = links
		for _, n := range links {
			g.link(n, id, l)
		}
		ep = w
	}
	if level > g.top {
		g.entry, g.top = id, level
	}
	return id
}

// link adds a link from node a to node b on level l, keeping a's closest
// maxLinks(l) links when it has more.
func (g *hnsw) link(a, b int32, l int) {
	n := &g.nodes[a]
	n.links[l] = append(n.links[l], b)
	if len(n.links[l]) <= g.maxLinks(l) {
		return
	}
	n.links[l] = g.closest(a, n.links[l], g.maxLinks(l))
}

// closest returns up to m of the live nodes ids (a and repeats left
// out) to link node a to, chosen by selectNeighbors.
func (g *hnsw) closest(a int32, ids []int32, m int) []int32 {
	c, i := g.rowOf(a)
	q, qinv := g.x.vec(c, i), g.x.invOf(c, i)
	cs := make([]hc, 0, len(ids))
	for _, id := range ids {
		if id != a && g.nodes[id].row >= 0 && !slices.ContainsFunc(cs, func(x hc) bool { return x.id == id }) {
			cs = append(cs, hc{g.keyTo(q, qinv, id), id})
		}
	}
	slices.SortFunc(cs, cmpHC)
	return g.selectNeighbors(cs, m, make([]int32, 0, g.maxLinks(0)))
}

// selectNeighbors appends to out up to m of the candidates cs (sorted
// nearest first to the node being linked) by the paper's heuristic
// (its algorithm 4): a candidate is taken when it is nearer the node
// than any candidate already taken, so links spread in all directions
// instead of crowding one cluster; the places left are filled with the
// nearest of those passed over.
func (g *hnsw) selectNeighbors(cs []hc, m int, out []int32) []int32 {
	if len(cs) <= m {
		for _, x := range cs {
			out = append(out, x.id)
		}
		return out
	}
	var passed []int32
	for _, x := range cs {
		if len(out) == m {
			break
		}
		c, i := g.rowOf(x.id)
		v, inv := g.x.vec(c, i), g.x.invOf(c, i)
		good := true
		for _, y := range out {
			if g.keyTo(v, inv, y) < x.key {
				good = false
				break
			}
		}
		if good {
			out = append(out, x.id)
		} else {
			passed = append(passed, x.id)
		}
	}
	for _, id := range passed {
		if len(out) == m {
			break
		}
		out = append(out, id)
	}
	return out
}

func cmpHC(a, b hc) int {
	switch {
	case a.key < b.key:
		return -1
	case a.key > b.key:
		return 1
	}
	return int(a.id) - int(b.id)
}

// remove deletes node id: the nodes it links to drop their link to it and
// are reconnected among its neighbours.
func (g *hnsw) remove(id int32) {
	n := &g.nodes[id]
	for l, links := range n.links {
		for _, nb := range links {
			m := &g.nodes[nb]
			if m.row < 0 || int(m.level) < l {
				continue
			}
			kept := slices.DeleteFunc(m.links[l], func(x int32) bool { return x == id || g.nodes[x].row < 0 })
			m.links[l] = g.closest(nb, append(kept, links...), g.maxLinks(l))
		}
	}
	n.row, n.links = -1, nil
	g.live--
	if g.entry == id {
		g.entry, g.top = -1, 0
		for j := range g.nodes {
			if g.nodes[j].row >= 0 && (g.entry < 0 || int(g.nodes[j].level) > g.top) {
				g.entry, g.top = int32(j), int(g.nodes[j].level)
			}
		}
	}
}

// searchLayer returns the ef nodes nearest q found on level l from the
// entry points ep, nearest first.
func (g *hnsw) searchLayer(q []float32, qinv float64, ep []hc, ef, l int) []hc {
	visited := make([]uint64, (len(g.nodes)+63)/64)
	seen := func(id int32) bool {
		w, b := id/64, uint64(1)<<(id%64)
		s := visited[w]&b != 0
		visited[w] |= b
		return s
	}
	var cand, res hcHeap // cand: nearest first; res: farthest first
	cand.max, res.max = false, true
	for _, e := range ep {
		seen(e.id)
		cand.push(e)
		res.push(e)
	}
	for res.len() > ef {
		res.pop()
	}
	for cand.len() > 0 {
		c := cand.pop()
		if res.len() >= ef && c.key > res.top().key {
			break
		}
		for _, nb := range g.nodes[c.id].links[l] {
			if seen(nb) {
				continue
			}
			if g.nodes[nb].row < 0 {
				continue // a dangling link to a deleted node
			}
			k := g.keyTo(q, qinv, nb)
			if res.len() < ef || k < res.top().key {
				cand.push(hc{k, nb})
				res.push(hc{k, nb})
				if res.len() > ef {
					res.pop()
				}
			}
		}
	}
	out := res.s
	slices.SortFunc(out, cmpHC)
	return out
}

// search returns about the ef nodes nearest q.
func (g *hnsw) search(q []float32, qinv float64, ef int) []hc {
	if g.entry < 0 {
		return nil
	}
	ep := []hc{{g.keyTo(q, qinv, g.entry), g.entry}}
	for l := g.top; l > 0; l-- {
		ep = g.searchLayer(q, qinv, ep, 1, l)
	}
	return g.searchLayer(q, qinv, ep, ef, 0)
}

// hcHeap is a binary heap of hc, a min-heap by key or a max-heap when max.
type hcHeap struct {
	s   []hc
	max bool
}

func (h *hcHeap) len() int { return len(h.s) }
func (h *hcHeap) top() hc  { return h.s[0] }

func (h *hcHeap) less(i, j int) bool {
	if h.max {
		return h.s[i].key > h.s[j].key
	}
	return h.s[i].key < h.s[j].key
}

func (h *hcHeap) push(x hc) {
	h.s = append(h.s, x)
	for i := len(h.s) - 1; i > 0; {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		h.s[i], h.s[p] = h.s[p], h.s[i]
		i = p
	}
}

func (h *hcHeap) pop() hc {
	x := h.s[0]
	n := len(h.s) - 1
	h.s[0] = h.s[n]
	h.s = h.s[:n]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < n && h.less(l, m) {
			m = l
		}
		if r < n && h.less(r, m) {
			m = r
		}
		if m == i {
			break
		}
		h.s[i], h.s[m] = h.s[m], h.s[i]
		i = m
	}
	return x
}

// compact rebuilds the graph once dead nodes outnumber live ones (and a
// thousand more), so dangling links and dead ids do not pile up.
func (g *hnsw) compact() {
	if len(g.nodes) <= 2*g.live+1024 {
		return
	}
	fresh := newHNSW(g.x, g.p)
	for r := range g.p.n {
		c, i := g.p.at(r)
		c.node[i] = fresh.insert(r)
	}
	*g = *fresh
}

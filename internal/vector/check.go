package vector

import (
	"fmt"
	"math"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Check verifies x against its own bookkeeping and against a fresh
// backfill of the stored items (refill fills the index it is given), for
// tests: the fresh index, exact, must hold the same rows (vector bit for
// bit, partition, filter values, projected size, record), and loc, the
// partitions, the chunks, the filter codes and the graph must agree with
// each other.
func (x *index) Check(refill func(storage.VectorIndex)) error {
	if err := x.checkShape(); err != nil {
		return err
	}
	want := newIndex(x.ks, x.def, Options{})
	refill(want)
	if want.count != x.count || want.psize != x.psize || want.vsize != x.vsize || len(want.loc) != len(x.loc) {
		return fmt.Errorf("%d rows of %d projected bytes (%d keys), items give %d of %d (%d keys)",
			x.count, x.psize, len(x.loc), want.count, want.psize, len(want.loc))
	}
	for key, w := range want.loc {
		g, ok := x.loc[key]
		if !ok {
			return fmt.Errorf("key %q/%q missing", key.pk, key.sk)
		}
		if g.p.hash != w.p.hash {
			return fmt.Errorf("key %q/%q in partition %q, want %q", key.pk, key.sk, g.p.hash, w.p.hash)
		}
		gc, gi := g.p.at(g.row)
		wc, wi := w.p.at(w.row)
		gv, wv := x.vec(gc, gi), want.vec(wc, wi)
		for j := range gv {
			if math.Float32bits(gv[j]) != math.Float32bits(wv[j]) {
				return fmt.Errorf("key %q/%q: element %d is %v, want %v", key.pk, key.sk, j, gv[j], wv[j])
			}
		}
		if gc.inv != nil && gc.inv[gi] != wc.inv[wi] {
			return fmt.Errorf("key %q/%q: inverse norm %v, want %v", key.pk, key.sk, gc.inv[gi], wc.inv[wi])
		}
		for f := range x.nf {
			gs := x.codes[f].value(gc.codes[gi*x.nf+f])
			ws := want.codes[f].value(wc.codes[wi*want.nf+f])
			if (gc.codes[gi*x.nf+f] == 0) != (wc.codes[wi*want.nf+f] == 0) || gs != ws {
				return fmt.Errorf("key %q/%q: filter %d is %q, want %q", key.pk, key.sk, f, gs, ws)
			}
		}
		if gc.psize[gi] != wc.psize[wi] || gc.vsz[gi] != wc.vsz[wi] || !gc.refs[gi].Same(wc.refs[wi]) {
			return fmt.Errorf("key %q/%q: row's size or record differs from the item's", key.pk, key.sk)
		}
	}
	return nil
}

// checkShape verifies x's own bookkeeping.
func (x *index) checkShape() error {
	rows := 0
	used := make([][]int32, x.nf)
	for f := range used {
		used[f] = make([]int32, max(len(x.codes[f].vals), 1))
	}
	for hash, p := range x.parts {
		if p.hash != hash || p.n == 0 {
			return fmt.Errorf("partition %q: hash %q, %d rows", hash, p.hash, p.n)
		}
		if err := p.checkGraph(x.opts.Approximate); err != nil {
			return fmt.Errorf("partition %q: %w", hash, err)
		}
		if need := (p.n + vchunkRows - 1) / vchunkRows; len(p.chunks) < need || len(p.chunks) > need+1 {
			return fmt.Errorf("partition %q: %d chunks for %d rows", hash, len(p.chunks), p.n)
		}
		for r := range p.n {
			c, i := p.at(r)
			if i >= c.n {
				return fmt.Errorf("partition %q: row %d beyond its chunk's %d", hash, r, c.n)
			}
			ref := c.refs[i]
			key := vkey{ref.PartitionKey(), ref.SortKey()}
			if at := x.loc[key]; at.p != p || at.row != r {
				return fmt.Errorf("partition %q: row %d's key %q/%q located at %q row %d", hash, r, key.pk, key.sk, at.p.hashOr(), at.row)
			}
			for f := range x.nf {
				used[f][c.codes[i*x.nf+f]]++
			}
			rows++
		}
	}
	if rows != x.count || rows != len(x.loc) {
		return fmt.Errorf("%d rows, count %d, %d keys", rows, x.count, len(x.loc))
	}
	for f := range x.nf {
		c := &x.codes[f]
		for id := 1; id < len(c.vals); id++ {
			if used[f][id] != c.refs[id] {
				return fmt.Errorf("filter %d code %d: %d rows, %d counted", f, id, used[f][id], c.refs[id])
			}
			if c.refs[id] > 0 && c.ids[c.vals[id]] != uint32(id) {
				return fmt.Errorf("filter %d code %d: value %q maps to %d", f, id, c.vals[id], c.ids[c.vals[id]])
			}
		}
		if len(c.ids)+len(c.free) != max(len(c.vals)-1, 0) {
			return fmt.Errorf("filter %d: %d values, %d free, %d codes", f, len(c.ids), len(c.free), len(c.vals)-1)
		}
	}
	return nil
}

func (p *vpart) hashOr() string {
	if p == nil {
		return "<none>"
	}
	return p.hash
}

// checkGraph verifies that the graph's nodes and the rows point at each
// other and that live nodes link only to nodes of their level or above.
func (p *vpart) checkGraph(approximate bool) error {
	g := p.graph
	if (g != nil) != approximate {
		return fmt.Errorf("graph %v, approximate %v", g != nil, approximate)
	}
	if g == nil {
		return nil
	}
	if g.live != p.n {
		return fmt.Errorf("graph of %d live nodes for %d rows", g.live, p.n)
	}
	for r := range p.n {
		c, i := p.at(r)
		if id := c.node[i]; int(id) >= len(g.nodes) || g.nodes[id].row != int32(r) {
			return fmt.Errorf("row %d's node %d points elsewhere", r, id)
		}
	}
	top := -1
	for id, n := range g.nodes {
		if n.row < 0 {
			continue
		}
		top = max(top, int(n.level))
		for l, links := range n.links {
			for _, nb := range links {
				if int(g.nodes[nb].level) < l {
					return fmt.Errorf("node %d links on level %d to node %d of level %d", id, l, nb, g.nodes[nb].level)
				}
			}
			if len(links) > g.maxLinks(l) {
				return fmt.Errorf("node %d has %d links on level %d", id, len(links), l)
			}
		}
	}
	if g.entry < 0 || g.nodes[g.entry].row < 0 || g.top != top || int(g.nodes[g.entry].level) != top {
		return fmt.Errorf("entry %d at level %d, top level %d", g.entry, g.top, top)
	}
	return nil
}

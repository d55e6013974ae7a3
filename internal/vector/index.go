package vector

import (
	"math"
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A vector index's entries. Each index partition (one per HASH value, or
// one in all without a HASH element) keeps its rows in chunks of up to
// vchunkRows rows; a chunk holds its rows' vectors back to back in one
// []float32 (the slab the search loops over), beside them each row's
// inverse norm (COSINE), inline filter codes, projected size and where
// the table stores its item (storage.ItemRef). Every chunk but the last
// is full, so row r of a partition is row r%vchunkRows of chunk
// r/vchunkRows; a removed row is filled by the partition's last row (its
// place in loc updated). The float slabs hold no pointers, so the garbage
// collector does not scan them.
//
// loc finds a table key's row; a write looks its key up there and
// overwrites, moves or removes the row, parsing the new image's vector
// straight into the slab: no allocation per write but the key's first.

// vchunkRows is the rows a full chunk holds. A partition's first chunk
// grows to it by doubling, so small partitions stay small; later chunks
// are allocated whole, so a large index never copies its slab to grow.
const vchunkRows = 1024

// index is one vector index's entries (a storage.VectorIndex), guarded
// by its table's lock.
type index struct {
	ks    storage.KeySchema
	def   storage.VectorIndexDef
	opts  Options // normal()
	dims  int
	nf    int               // len(def.Filters)
	parts map[string]*vpart // HASH value (Value.Str()) -> partition; "" without HASH
	loc   map[vkey]vloc     // table key -> its row
	codes []vcodes          // per inline filter: its values' codes
	count int               // rows
	psize int64             // sum of the rows' projected sizes
	vsize int64             // sum of the rows' vector attribute sizes (ValueSize of the list)
	sized []string          // attributes a projected row holds (not for All)
	reads []string          // attributes a backfill decodes
	scr   []float32         // a scratch row: with a graph, a rewritten vector is parsed here first
	_     [0]func()         // not comparable
}

// vkey is a table key: the partition key's Str and the encoded sort key.
type vkey struct{ pk, sk string }

// vloc is a row: its partition and index in it.
type vloc struct {
	p   *vpart
	row int
}

// vpart is one index partition's rows.
type vpart struct {
	hash   string // its HASH value's Str ("" without HASH)
	chunks []*vchunk
	n      int   // rows
	graph  *hnsw // the approximate index (hnsw.go); nil unless Approximate
}

// vchunk holds up to cap rows of a partition, n of them used. Slices are
// allocated at full capacity (vecs cap*dims, codes cap*nf) and reallocated
// only while the first chunk grows.
type vchunk struct {
	n, cap int
	vecs   []float32         // row i is vecs[i*dims : (i+1)*dims]
	inv    []float64         // COSINE: 1/|row| (0 for a zero vector); nil otherwise
	codes  []uint32          // row i's inline filter codes: codes[i*nf : (i+1)*nf], 0 when absent
	psize  []uint32          // projected size of each row
	vsz    []uint32          // ValueSize of each row's vector attribute
	refs   []storage.ItemRef // where the table stores each row's item
	node   []int32           // each row's graph node (hnsw.go); nil unless Approximate
}

// vcodes interns one inline filter attribute's values, so a row keeps a
// uint32 per filter and a search compares integers. Code 0 means absent;
// a value's code is freed when its last row goes.
type vcodes struct {
	ids  map[string]uint32 // value Str -> code
	vals []string          // code -> value Str
	refs []int32           // code -> rows holding it
	free []uint32
}

func (c *vcodes) intern(s string) uint32 {
	if id, ok := c.ids[s]; ok {
		c.refs[id]++
		return id
	}
	if c.ids == nil {
		c.ids = make(map[string]uint32)
		c.vals, c.refs = []string{""}, []int32{0}
	}
	s = strings.Clone(s) // the item's text may share a large request buffer
	var id uint32
	if n := len(c.free); n > 0 {
		id, c.free = c.free[n-1], c.free[:n-1]
		c.vals[id], c.refs[id] = s, 1
	} else {
		id = uint32(len(c.vals))
		c.vals, c.refs = append(c.vals, s), append(c.refs, 1)
	}
	c.ids[s] = id
	return id
}

// value returns the value Str of code id ("" for 0, absent).
func (c *vcodes) value(id uint32) string {
	if id == 0 {
		return ""
	}
	return c.vals[id]
}

func (c *vcodes) release(id uint32) {
	if id == 0 {
		return
	}
	if c.refs[id]--; c.refs[id] == 0 {
		delete(c.ids, c.vals[id])
		c.vals[id] = ""
		c.free = append(c.free, id)
	}
}

func newIndex(ks storage.KeySchema, def storage.VectorIndexDef, opts Options) *index {
	opts = opts.normal()
	x := &index{
		ks:    ks,
		def:   def,
		opts:  opts,
		dims:  def.Dimensions,
		nf:    len(def.Filters),
		parts: make(map[string]*vpart),
		loc:   make(map[vkey]vloc),
		codes: make([]vcodes, len(def.Filters)),
		scr:   make([]float32, def.Dimensions),
	}
	add := func(list []string, name string) []string {
		if name != "" && !slices.Contains(list, name) {
			list = append(list, name)
		}
		return list
	}
	if !def.Projection.All {
		x.sized = add(x.sized, ks.Partition.Name)
		x.sized = add(x.sized, ks.Sort.Name)
		for _, a := range def.SchemaAttrs() {
			x.sized = add(x.sized, a.Name)
		}
		for _, n := range def.Projection.NonKey {
			if n != def.Attribute { // the vector is counted as 4 bytes a dimension
				x.sized = add(x.sized, n)
			}
		}
	}
	x.reads = add(nil, def.Attribute)
	for _, a := range def.SchemaAttrs() {
		x.reads = add(x.reads, a.Name)
	}
	for _, n := range x.sized {
		x.reads = add(x.reads, n)
	}
	return x
}

// at returns the chunk and the index in it of row r of p.
func (p *vpart) at(r int) (*vchunk, int) { return p.chunks[r/vchunkRows], r % vchunkRows }

// reserve makes room for one more row in p and returns its chunk and
// index; the row counts only once the caller counts it.
func (x *index) reserve(p *vpart) (*vchunk, int) {
	ci := p.n / vchunkRows
	if ci == len(p.chunks) {
		capRows := vchunkRows
		if ci == 0 {
			capRows = 4
		}
		p.chunks = append(p.chunks, x.newChunk(capRows))
	}
	c := p.chunks[ci]
	if c.n == c.cap {
		x.growChunk(c, min(2*c.cap, vchunkRows))
	}
	return c, c.n
}

func (x *index) newChunk(capRows int) *vchunk {
	c := &vchunk{cap: capRows}
	c.vecs = make([]float32, capRows*x.dims)
	if x.def.Distance == storage.Cosine {
		c.inv = make([]float64, capRows)
	}
	c.codes = make([]uint32, capRows*x.nf)
	c.psize = make([]uint32, capRows)
	c.vsz = make([]uint32, capRows)
	c.refs = make([]storage.ItemRef, capRows)
	if x.opts.Approximate {
		c.node = make([]int32, capRows)
	}
	return c
}

func (x *index) growChunk(c *vchunk, capRows int) {
	g := x.newChunk(capRows)
	copy(g.vecs, c.vecs)
	copy(g.inv, c.inv)
	copy(g.codes, c.codes)
	copy(g.psize, c.psize)
	copy(g.vsz, c.vsz)
	copy(g.refs, c.refs)
	copy(g.node, c.node)
	g.n = c.n
	*c = *g
}

// vec returns row i's vector in c.
func (x *index) vec(c *vchunk, i int) []float32 { return c.vecs[i*x.dims : (i+1)*x.dims] }

// place returns where the item's new image belongs: its HASH value and its
// vector attribute, ok false when it is not to be indexed by its attribute
// kinds and counts alone (its numbers are checked as they are parsed).
func (x *index) place(it storage.Item) (hash string, v storage.Value, ok bool) {
	v, ok = it[x.def.Attribute]
	if !ok || v.Kind() != storage.KindL || len(v.List()) != x.dims {
		return "", storage.Value{}, false
	}
	if x.def.HasHash() {
		h, ok := it[x.def.Hash.Name]
		if !ok || h.Kind() != x.def.Hash.Kind {
			return "", storage.Value{}, false
		}
		hash = h.Str()
	}
	return hash, v, true
}

// Reads returns the attributes Put reads of an item.
func (x *index) Reads() []string { return x.reads }

// Put moves the vector of the item at at's key from its old image to its
// new one nu (nil: deleted), stored at at.
func (x *index) Put(at storage.ItemRef, nu storage.Item) {
	pk, sk := at.PartitionKey(), at.SortKey()
	key := vkey{pk, sk}
	row, had := x.loc[key]
	var hash string
	var v storage.Value
	ok := false
	if nu != nil {
		hash, v, ok = x.place(nu)
	}
	if !ok {
		if had {
			x.removeRow(row)
			delete(x.loc, key)
		}
		return
	}
	if had && row.p.hash == hash {
		// Same partition: overwrite the row in place, parsing straight
		// into it (a vector that does not fit removes the row anyway).
		// With a graph, parse into scratch first: its node is rebuilt
		// only when the vector changed.
		c, i := row.p.at(row.row)
		g := row.p.graph
		dst := x.vec(c, i)
		if g != nil {
			dst = x.scr
		}
		if !vectorInto(dst, v) {
			x.removeRow(row)
			delete(x.loc, key)
			return
		}
		moved := g != nil && !sameBits(x.vec(c, i), x.scr)
		if moved {
			copy(x.vec(c, i), x.scr)
		}
		x.fillRow(c, i, false, at, nu)
		if moved {
			g.remove(c.node[i])
			c.node[i] = g.insert(row.row)
			g.compact()
		}
		return
	}
	p := x.parts[hash]
	if p == nil {
		p = &vpart{hash: strings.Clone(hash)}
	}
	c, i := x.reserve(p)
	if !vectorInto(x.vec(c, i), v) {
		if had {
			x.removeRow(row)
			delete(x.loc, key)
		}
		return // p, if new, was never stored
	}
	if had {
		x.removeRow(row) // another partition: p's rows do not move
	}
	// Clone: pk and sk are pieces of the record (or of a request), which
	// a later write replaces or compaction moves, and assigning to a map
	// replaces an existing string key too.
	key.pk, key.sk = strings.Clone(pk), strings.Clone(sk)
	x.count++
	if p.n == 0 {
		x.parts[p.hash] = p
	}
	c.n++
	p.n++
	x.fillRow(c, i, true, at, nu)
	x.loc[key] = vloc{p: p, row: p.n - 1}
	if x.opts.Approximate {
		if p.graph == nil {
			p.graph = newHNSW(x, p)
		}
		c.node[i] = p.graph.insert(p.n - 1)
	}
}

// sameBits reports whether a and b hold the same float32s bit for bit
// (slices.Equal takes -0 for 0, and the row must hold what a backfill would).
func sameBits(a, b []float32) bool {
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

// fillRow sets row i of c, whose vector is in place, from the new image
// nu stored at at; fresh says the row held nothing before (else what it
// held is released, after the new codes are taken, so an unchanged value
// keeps its code).
func (x *index) fillRow(c *vchunk, i int, fresh bool, at storage.ItemRef, nu storage.Item) {
	if c.inv != nil {
		vec := x.vec(c, i)
		if n := math.Sqrt(float64(dot(vec, vec))); n > 0 {
			c.inv[i] = 1 / n // the search's own loop, so a vector's score against itself is 0
		} else {
			c.inv[i] = 0
		}
	}
	for f, a := range x.def.Filters {
		var code uint32
		if v, ok := nu[a.Name]; ok && v.Kind() == a.Kind {
			code = x.codes[f].intern(v.Str())
		}
		if !fresh {
			x.codes[f].release(c.codes[i*x.nf+f])
		}
		c.codes[i*x.nf+f] = code
	}
	if !fresh {
		x.psize -= int64(c.psize[i])
		x.vsize -= int64(c.vsz[i])
	}
	ps := uint32(x.projectedSize(nu, at.Size()))
	c.psize[i] = ps
	x.psize += int64(ps)
	vs := uint32(storage.ValueSize(nu[x.def.Attribute]))
	c.vsz[i] = vs
	x.vsize += int64(vs)
	c.refs[i] = at
}

// releaseRow gives up what row i of c holds beyond its vector: its filter
// codes and its share of the projected size.
func (x *index) releaseRow(c *vchunk, i int) {
	for f := range x.nf {
		x.codes[f].release(c.codes[i*x.nf+f])
	}
	x.psize -= int64(c.psize[i])
	x.vsize -= int64(c.vsz[i])
}

// projectedSize is the size of a row's projected attributes (ItemSize of
// them), the vector itself not counted (Stats counts 4 bytes a dimension):
// for an All projection the item's size, vector included, as AWS's formula
// is not documented (VECTOR_SPEC.md).
func (x *index) projectedSize(it storage.Item, itemSize int) int {
	if x.def.Projection.All {
		return itemSize
	}
	n := 0
	for _, name := range x.sized {
		if v, ok := it[name]; ok {
			n += len(name) + storage.ValueSize(v)
		}
	}
	return n
}

// removeRow deletes row at, moving its partition's last row into its
// place; the caller deletes at's key from loc.
func (x *index) removeRow(at vloc) {
	p := at.p
	c, i := p.at(at.row)
	x.releaseRow(c, i)
	if p.graph != nil {
		p.graph.remove(c.node[i]) // before the rows move: it reads its neighbours' vectors
	}
	last := p.n - 1
	lc, li := p.at(last)
	if at.row != last {
		copy(x.vec(c, i), x.vec(lc, li))
		if c.inv != nil {
			c.inv[i] = lc.inv[li]
		}
		copy(c.codes[i*x.nf:(i+1)*x.nf], lc.codes[li*x.nf:(li+1)*x.nf])
		c.psize[i] = lc.psize[li]
		c.vsz[i] = lc.vsz[li]
		c.refs[i] = lc.refs[li]
		if p.graph != nil {
			c.node[i] = lc.node[li]
			p.graph.nodes[c.node[i]].row = int32(at.row)
		}
		r := c.refs[i]
		x.loc[vkey{strings.Clone(r.PartitionKey()), strings.Clone(r.SortKey())}] = at // clone: see Put
	}
	lc.refs[li] = storage.ItemRef{} // let the record go
	lc.n--
	p.n--
	// Keep at most one empty chunk at the end, so a partition whose size
	// swings around a chunk boundary does not allocate a chunk each time.
	if used := (p.n + vchunkRows - 1) / vchunkRows; len(p.chunks) > used+1 {
		p.chunks[len(p.chunks)-1] = nil
		p.chunks = p.chunks[:len(p.chunks)-1]
	}
	if p.n == 0 {
		delete(x.parts, p.hash)
	} else if p.graph != nil {
		p.graph.compact()
	}
	x.count--
}

// Stats returns the index's figures: its size is 4 bytes a dimension per
// vector plus the projected attributes' sizes (see projectedSize).
func (x *index) Stats() storage.VectorStats {
	return storage.VectorStats{Count: x.count, Size: int64(x.count)*int64(4*x.dims) + x.psize, Lists: x.vsize}
}

// Moved points the row of at's item, if it has one, at at: the same
// record in another place (slab compaction).
func (x *index) Moved(at storage.ItemRef) {
	row, ok := x.loc[vkey{at.PartitionKey(), at.SortKey()}]
	if !ok {
		return
	}
	c, i := row.p.at(row.row)
	c.refs[i] = at
}

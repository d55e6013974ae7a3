package storage

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// A vector index's entries. Each index partition (one per HASH value, or
// one in all without a HASH element) keeps its rows in chunks of up to
// vchunkRows rows; a chunk holds its rows' vectors back to back in one
// []float32 (the slab the search loops over), beside them each row's
// inverse norm (COSINE), inline filter codes, projected size and the
// table record it belongs to. Every chunk but the last is full, so row r
// of a partition is row r%vchunkRows of chunk r/vchunkRows; a removed row
// is filled by the partition's last row (its place in loc updated). The
// slabs hold no pointers, so the garbage collector does not scan them.
//
// loc finds a table key's row; a write looks its key up there and
// overwrites, moves or removes the row, parsing the new image's vector
// straight into the slab: no allocation per write but the key's first.

// vchunkRows is the rows a full chunk holds. A partition's first chunk
// grows to it by doubling, so small partitions stay small; later chunks
// are allocated whole, so a large index never copies its slab to grow.
const vchunkRows = 1024

// vindex is one vector index, guarded by its table's mu.
type vindex struct {
	def   VectorIndexDef
	opts  VectorIndexOptions // with defaults when Approximate
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
	graph  *hnsw // the approximate index (vector_hnsw.go); nil unless Approximate
}

// vchunk holds up to cap rows of a partition, n of them used. Slices are
// allocated at full capacity (vecs cap*dims, codes cap*nf) and reallocated
// only while the first chunk grows.
type vchunk struct {
	n, cap int
	vecs   []float32 // row i is vecs[i*dims : (i+1)*dims]
	inv    []float64 // COSINE: 1/|row| (0 for a zero vector); nil otherwise
	codes  []uint32  // row i's inline filter codes: codes[i*nf : (i+1)*nf], 0 when absent
	psize  []uint32  // projected size of each row
	vsz    []uint32  // ValueSize of each row's vector attribute
	refs   []vref    // the table record of each row
	node   []int32   // each row's graph node (vector_hnsw.go); nil unless Approximate
}

// vref is the table record a row belongs to: the partition key's string
// (Value.Str(), a piece of the record, which names its key) and the
// stored entry (the sort key and the item). It names no *partition:
// copy-on-write snapshots (cow.go) replace a table's partitions, and slab
// compaction (slab.go) moves records and repoints rows (repointRow).
type vref struct {
	pk string
	e  entry
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

func newVindex(ks KeySchema, def VectorIndexDef, opts VectorIndexOptions) *vindex {
	opts = opts.normal()
	x := &vindex{
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
		for _, a := range def.schemaAttrs() {
			x.sized = add(x.sized, a.Name)
		}
		for _, n := range def.Projection.NonKey {
			if n != def.Attribute { // the vector is counted as 4 bytes a dimension
				x.sized = add(x.sized, n)
			}
		}
	}
	x.reads = add(nil, def.Attribute)
	for _, a := range def.schemaAttrs() {
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
// index; the row counts only once commitRow is called.
func (x *vindex) reserve(p *vpart) (*vchunk, int) {
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

func (x *vindex) newChunk(capRows int) *vchunk {
	c := &vchunk{cap: capRows}
	c.vecs = make([]float32, capRows*x.dims)
	if x.def.Distance == Cosine {
		c.inv = make([]float64, capRows)
	}
	c.codes = make([]uint32, capRows*x.nf)
	c.psize = make([]uint32, capRows)
	c.vsz = make([]uint32, capRows)
	c.refs = make([]vref, capRows)
	if x.opts.Approximate {
		c.node = make([]int32, capRows)
	}
	return c
}

func (x *vindex) growChunk(c *vchunk, capRows int) {
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
func (x *vindex) vec(c *vchunk, i int) []float32 { return c.vecs[i*x.dims : (i+1)*x.dims] }

// place returns where the item's new image belongs: its HASH value and its
// vector attribute, ok false when it is not to be indexed by its attribute
// kinds and counts alone (its numbers are checked as they are parsed).
func (x *vindex) place(it Item) (hash string, v Value, ok bool) {
	v, ok = it[x.def.Attribute]
	if !ok || v.kind != KindL || len(v.c.list) != x.dims {
		return "", Value{}, false
	}
	if x.def.HasHash() {
		h, ok := it[x.def.Hash.Name]
		if !ok || h.kind != x.def.Hash.Kind {
			return "", Value{}, false
		}
		hash = h.str
	}
	return hash, v, true
}

// replace moves the vector of the item with table key (pk, sk) from its
// old image to its new one nu (nil: deleted); e is the new stored entry
// and nuSize its size.
func (x *vindex) replace(pk, sk string, e entry, nu Item, nuSize int) {
	key := vkey{pk, sk}
	at, had := x.loc[key]
	var hash string
	var v Value
	ok := false
	if nu != nil {
		hash, v, ok = x.place(nu)
	}
	if !ok {
		if had {
			x.removeRow(at)
			delete(x.loc, key)
		}
		return
	}
	if had && at.p.hash == hash {
		// Same partition: overwrite the row in place, parsing straight
		// into it (a vector that does not fit removes the row anyway).
		// With a graph, parse into scratch first: its node is rebuilt
		// only when the vector changed.
		c, i := at.p.at(at.row)
		g := at.p.graph
		dst := x.vec(c, i)
		if g != nil {
			dst = x.scr
		}
		if !vectorInto(dst, v) {
			x.removeRow(at)
			delete(x.loc, key)
			return
		}
		moved := g != nil && !sameBits(x.vec(c, i), x.scr)
		if moved {
			copy(x.vec(c, i), x.scr)
		}
		x.fillRow(c, i, false, pk, e, nu, nuSize)
		if moved {
			g.remove(c.node[i])
			c.node[i] = g.insert(at.row)
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
			x.removeRow(at)
			delete(x.loc, key)
		}
		return // p, if new, was never stored
	}
	if had {
		x.removeRow(at) // another partition: p's rows do not move
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
	x.fillRow(c, i, true, pk, e, nu, nuSize)
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

// fillRow sets row i of c, whose vector is in place, from the new image;
// fresh says the row held nothing before (else what it held is released,
// after the new codes are taken, so an unchanged value keeps its code).
func (x *vindex) fillRow(c *vchunk, i int, fresh bool, pk string, e entry, nu Item, nuSize int) {
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
		if v, ok := nu[a.Name]; ok && v.kind == a.Kind {
			code = x.codes[f].intern(v.str)
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
	ps := uint32(x.projectedSize(nu, nuSize))
	c.psize[i] = ps
	x.psize += int64(ps)
	vs := uint32(ValueSize(nu[x.def.Attribute]))
	c.vsz[i] = vs
	x.vsize += int64(vs)
	c.refs[i] = vref{pk: pk, e: e}
}

// releaseRow gives up what row i of c holds beyond its vector: its filter
// codes and its share of the projected size.
func (x *vindex) releaseRow(c *vchunk, i int) {
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
func (x *vindex) projectedSize(it Item, itemSize int) int {
	if x.def.Projection.All {
		return itemSize
	}
	n := 0
	for _, name := range x.sized {
		if v, ok := it[name]; ok {
			n += len(name) + ValueSize(v)
		}
	}
	return n
}

// removeRow deletes row at, moving its partition's last row into its
// place; the caller deletes at's key from loc.
func (x *vindex) removeRow(at vloc) {
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
		x.loc[vkey{strings.Clone(r.pk), strings.Clone(r.e.sortKey())}] = at // clone: see replace
	}
	lc.refs[li] = vref{} // let the record go
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

// AddVectorIndex adds a vector index to t and fills it from the items
// stored (a backfill, under the write lock). def must pass Validate.
func (t *Table) AddVectorIndex(def VectorIndexDef) error {
	return t.addVectorIndex(def, nil)
}

// AddVectorIndexWith is AddVectorIndex with the emulator's options. The
// index is recorded (RecordAddVectorIndex: the definition, not the
// options, which are the caller's to give again on a replay) or, when the
// hook refuses it, taken away again.
func (t *Table) AddVectorIndexWith(def VectorIndexDef, opts VectorIndexOptions) error {
	return t.addVectorIndex(def, &opts)
}

// addVectorIndex is AddVectorIndexWith with opts, or with the table's
// options (SetVectorIndexOptions) when opts is nil.
func (t *Table) addVectorIndex(def VectorIndexDef, opts *VectorIndexOptions) error {
	if err := def.Validate(); err != nil {
		return err
	}
	def = def.clone()
	res, err := t.addVectorIndexLocking(def, opts)
	if err != nil {
		return err
	}
	return res.finish()
}

func (t *Table) addVectorIndexLocking(def VectorIndexDef, opts *VectorIndexOptions) (hookResult, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.vindexLocked(def.Name) != nil {
		return hookResult{}, fmt.Errorf("%w: %q", ErrVectorIndexExists, def.Name)
	}
	if opts == nil {
		opts = t.vectorOptions()
	}
	x := newVindex(t.ks, def, *opts)
	t.backfillLocked(x)
	prev := t.vindexes
	t.stamp = 0
	t.vindexes = append(slices.Clip(t.vindexes), x)
	rec := def.clone()
	return t.hookVectorIndexLocked(RecordAddVectorIndex, &rec, prev)
}

// backfillLocked fills x from the stored items.
func (t *Table) backfillLocked(x *vindex) {
	t.parts.ascend(0, "", func(p *partition) bool {
		p.walk(bound{}, bound{}, true, func(e entry) bool {
			it := t.encodedOf(t.keyOf(e), e).Attributes(x.reads)
			x.replace(e.pk(), e.sortKey(), e, it, int(e.size))
			return true
		})
		return true
	})
}

// DropVectorIndex removes the vector index called name and its entries,
// and records it (RecordDropVectorIndex).
func (t *Table) DropVectorIndex(name string) error {
	res, err := t.dropVectorIndexLocking(name)
	if err != nil {
		return err
	}
	return res.finish()
}

func (t *Table) dropVectorIndexLocking(name string) (hookResult, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	i := slices.IndexFunc(t.vindexes, func(x *vindex) bool { return x.def.Name == name })
	if i < 0 {
		return hookResult{}, fmt.Errorf("%w: %q", ErrNoVectorIndex, name)
	}
	prev := t.vindexes
	t.stamp = 0
	t.vindexes = slices.Delete(slices.Clone(t.vindexes), i, i+1)
	return t.hookVectorIndexLocked(RecordDropVectorIndex, &VectorIndexDef{Name: name}, prev)
}

// hookVectorIndexLocked records a vector index change made under the
// write lock, or when the hook fails puts back the vector indexes there
// were before it.
func (t *Table) hookVectorIndexLocked(kind RecordKind, def *VectorIndexDef, prev []*vindex) (hookResult, error) {
	if t.hook == nil {
		return hookResult{}, nil
	}
	res, err := callHook(t.hook, &Record{Kind: kind, Table: t.uid, VectorIndex: def})
	if err != nil {
		t.vindexes = prev
	}
	return res, err
}

// VectorIndexes returns the definitions of t's vector indexes, in the
// order they were added; the caller owns the slices.
func (t *Table) VectorIndexes() []VectorIndexDef {
	t.mu.RLock()
	defer t.mu.RUnlock()
	defs := make([]VectorIndexDef, len(t.vindexes))
	for i, x := range t.vindexes {
		defs[i] = x.def.clone()
	}
	return defs
}

// VectorIndexStats returns the number of vectors in the index called name
// and its size: 4 bytes a dimension per vector plus the projected
// attributes' sizes (see projectedSize).
func (t *Table) VectorIndexStats(name string) (count int, size int64, err error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	x := t.vindexLocked(name)
	if x == nil {
		return 0, 0, fmt.Errorf("%w: %q", ErrNoVectorIndex, name)
	}
	return x.count, x.stats(), nil
}

// BilledSizeBytes is SizeBytes with each vector an index holds counted
// four bytes a dimension instead of its list's size, as AWS bills a
// vector attribute toward the item's size whatever numbers it holds
// (the service's vector_capacity.go). An attribute two indexes share is
// counted once, by the first.
func (t *Table) BilledSizeBytes() int64 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	size := t.size
	for i, x := range t.vindexes {
		if slices.ContainsFunc(t.vindexes[:i], func(y *vindex) bool { return y.def.Attribute == x.def.Attribute }) {
			continue
		}
		size += int64(x.count)*int64(4*x.dims) - x.vsize
	}
	return size
}

// stats is the index's size as VectorIndexStats reports it.
func (x *vindex) stats() int64 { return int64(x.count)*int64(4*x.dims) + x.psize }

func (t *Table) vindexLocked(name string) *vindex {
	for _, x := range t.vindexes {
		if x.def.Name == name {
			return x
		}
	}
	return nil
}

// repointRow points the row of the item with table key (pk, sk), if it
// has one, at moved, the same record in another place (slab compaction).
func (x *vindex) repointRow(pk, sk string, moved entry) {
	at, ok := x.loc[vkey{pk, sk}]
	if !ok {
		return
	}
	c, i := at.p.at(at.row)
	c.refs[i] = vref{pk: moved.pk(), e: moved}
}

// updateVectorIndexesLocked applies one item write to every vector index.
func (t *Table) updateVectorIndexesLocked(pk, sk string, e entry, nu Item, nuSize int) {
	for _, x := range t.vindexes {
		x.replace(pk, sk, e, nu, nuSize)
	}
}

package storage

// SetVectorIndexOptions sets the options t's vector indexes search with
// (exact, or approximate: VectorIndexOptions.Approximate), which are the
// emulator's choice and not part of an index's definition, so nothing is
// recorded: every vector index t has is built anew from the stored items
// with opts and replaces the old one, and AddVectorIndex builds later ones
// with them. It costs what a backfill of each index costs.
func (t *Table) SetVectorIndexOptions(opts VectorIndexOptions) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.vopts = opts
	if len(t.vindexes) == 0 {
		return
	}
	next := make([]*vindex, len(t.vindexes))
	for i, x := range t.vindexes {
		y := newVindex(t.ks, x.def, opts)
		t.backfillLocked(y)
		next[i] = y
	}
	t.vindexes = next
}

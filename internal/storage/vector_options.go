package storage

import "slices"

// SetVectorIndexOptions sets the options t's vector indexes search with
// (exact, or approximate: VectorIndexOptions.Approximate), which are the
// emulator's choice and not part of an index's definition, so nothing is
// recorded: every vector index t has that was built with other options is
// built anew from the stored items with opts and replaces the old one
// (what a backfill of it costs); one built with them already is kept.
// AddVectorIndex builds later ones with them.
func (t *Table) SetVectorIndexOptions(opts VectorIndexOptions) {
	opts = opts.normal()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.vopts = &opts
	var next []*vindex
	for i, x := range t.vindexes {
		if x.opts == opts {
			continue
		}
		if next == nil {
			next = append([]*vindex(nil), t.vindexes...)
		}
		y := newVindex(t.ks, x.def, opts)
		t.backfillLocked(y)
		next[i] = y
	}
	if next != nil {
		t.vindexes = next
	}
}

// normal returns o as an index built with it keeps it: the defaults
// filled in when approximate, nothing else when exact.
func (o VectorIndexOptions) normal() VectorIndexOptions {
	if !o.Approximate {
		return VectorIndexOptions{}
	}
	return o.withDefaults()
}

// SetVectorIndexOptions sets the options the vector indexes of db's
// tables are built with: of the tables it has (Table.SetVectorIndexOptions)
// and of every table CreateTable or RestoreTable makes later, which build
// theirs with them at once. Set it before loading tables into db (a
// store's load, Apply), so that each index is built once.
func (db *DB) SetVectorIndexOptions(opts VectorIndexOptions) {
	opts = opts.normal()
	db.mu.Lock()
	db.vopts = &opts
	tables := slices.Clone(db.tables)
	db.mu.Unlock()
	for _, t := range tables {
		t.SetVectorIndexOptions(opts)
	}
}

// vectorOptions returns the options t builds vector indexes with, which
// the caller must not change; t.mu is held or t not shared yet.
func (t *Table) vectorOptions() *VectorIndexOptions {
	if t.vopts == nil {
		return &VectorIndexOptions{}
	}
	return t.vopts
}

// vectorOptions returns the options db's new tables build vector indexes
// with (SetVectorIndexOptions; nil: the defaults), which the caller must
// not change.
func (db *DB) vectorOptions() *VectorIndexOptions {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return db.vopts
}

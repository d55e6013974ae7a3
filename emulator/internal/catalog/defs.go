package catalog

import (
	"sync"
	"weak"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Defs are the definitions shared between tables restored from one
// record: a branch (a namespace filled from another's snapshot) shares
// its tables' storage with the base, and its definitions too. A
// published definition (M) is never modified (a change copies it), so
// the tables whose records hold the same bytes can publish the same
// one: Defs keep, by record, the fixed fields decoded (F) and a weak
// pointer to the definition, which the tables publishing it keep alive.
type Defs[F, M any] struct {
	mu   sync.Mutex
	defs map[string]def[F, M] // guarded by mu
}

// def is a decoded record: the table's fixed fields and its definition
// while a table holds it.
type def[F, M any] struct {
	fixed  F
	schema storage.KeySchema
	m      weak.Pointer[M]
}

// defsSweep is how many records Defs holds before it forgets the ones no
// table holds any more.
const defsSweep = 256

// Decode returns the fixed fields and definition of record b of a table
// of key schema ks: those decoded already while a table holds the
// definition, else what decode returns, kept for the next.
func (d *Defs[F, M]) Decode(b []byte, ks storage.KeySchema, decode func() (F, *M, error)) (F, *M, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if e, ok := d.defs[string(b)]; ok && e.schema == ks {
		if m := e.m.Value(); m != nil {
			return e.fixed, m, nil
		}
	}
	f, m, err := decode()
	if err != nil {
		return f, nil, err
	}
	if len(d.defs) >= defsSweep {
		for k, e := range d.defs {
			if e.m.Value() == nil {
				delete(d.defs, k)
			}
		}
	}
	if d.defs == nil {
		d.defs = make(map[string]def[F, M])
	}
	d.defs[string(b)] = def[F, M]{fixed: f, schema: ks, m: weak.Make(m)}
	return f, m, nil
}

package catalog

import (
	"sync"
	"weak"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Defs are the definitions shared between tables restored from one
// record: a branch (a namespace filled from another's snapshot) shares
// its tables' storage with the base, and its definitions too. A
// published Def is never modified (a change copies it), so the tables
// whose records hold the same bytes can publish the same one: Defs keep,
// by record, the fixed fields decoded and a weak pointer to the
// definition, which the tables publishing it keep alive.
type Defs struct {
	mu   sync.Mutex
	defs map[string]sharedDef // guarded by mu
}

// sharedDef is a decoded record: the table's fixed fields and its
// definition while a table holds it.
type sharedDef struct {
	fixed  Fixed
	schema storage.KeySchema
	m      weak.Pointer[Def]
}

// defsSweep is how many records Defs holds before it forgets the ones no
// table holds any more.
const defsSweep = 256

// Decode is the package's Decode for a table of key schema ks restored
// from record b another table may have published already (a branch's):
// the definition is decoded once and published by each, and the fixed
// fields' strings and key schema are shared.
func (d *Defs) Decode(b []byte, ks storage.KeySchema, features []string, extMembers map[string][]string) (Fixed, *Def, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if e, ok := d.defs[string(b)]; ok && e.schema == ks {
		if m := e.m.Value(); m != nil {
			return e.fixed, m, nil
		}
	}
	f, m, err := Decode(b, features, extMembers)
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
		d.defs = make(map[string]sharedDef)
	}
	d.defs[string(b)] = sharedDef{fixed: f, schema: ks, m: weak.Make(m)}
	return f, m, nil
}

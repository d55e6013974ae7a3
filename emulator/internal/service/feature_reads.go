package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
)

// What a feature that reads tables the way the data plane does asks of
// the core: the data plane's checks of table and index names, its
// lookup of a table, and a table's secondary indexes.

// LookupDataTable returns the table name names as the data plane looks
// it up: a missing table, or one still CREATING, is
// ResourceNotFoundException "Requested resource not found".
func (c Call) LookupDataTable(name string) (Table, error) {
	t, err := c.c.lookupTable(name)
	if err != nil {
		return Table{}, err
	}
	return Table{t: t}, nil
}

// Live reports whether the table is still its namespace's table of its
// name (false: deleted, perhaps made again).
func (t Table) Live() bool { return t.t.ns.getTable(t.t.name) == t.t }

// Indexes are the table's secondary indexes (GSIs, LSIs) in its
// published definition. Read them, never change them.
func (t Table) Indexes() (gsis, lsis []*tablespec.IndexDef) { return t.t.indexes() }

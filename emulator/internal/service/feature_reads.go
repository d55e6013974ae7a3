package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
)

// What a feature that reads tables the way the data plane does asks of
// the core: the data plane's checks of table and index names, its
// lookup of a table, and a table's secondary indexes.

// TableNameViolations returns the violations of a TableName member as
// the data plane reports them (at most two: pattern and length; "" for
// none; null for a missing one).
func TableNameViolations(name *string) (string, string) { return tableNameViolations(name) }

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

// HasSortKey reports whether the table's key has a sort key.
func (t Table) HasSortKey() bool { return t.t.schema.HasSort() }

// GlobalIndex reports whether the table has a global secondary index
// named name, and whether its key has a sort key.
func (t Table) GlobalIndex(name string) (hasSort, ok bool) {
	gsis, _ := t.t.indexes()
	for _, x := range gsis {
		if x.Name == name {
			return x.Schema.HasSort(), true
		}
	}
	return false, false
}

// Indexes are the table's secondary indexes (GSIs, LSIs) in its
// published definition. Read them, never change them.
func (t Table) Indexes() (gsis, lsis []*tablespec.IndexDef) { return t.t.indexes() }

package tablespec

import "time"

// GSI is a global secondary index of a table's definition, as a feature
// or a stage reads it.
type GSI struct{ x *IndexDef }

// GSIOf is x as a GSI.
func GSIOf(x *IndexDef) GSI { return GSI{x} }

// Name is the index's name.
func (g GSI) Name() string { return g.x.Name }

// Capacity is the index's provisioned throughput, or false for an index
// of an on-demand table.
func (g GSI) Capacity() (Throughput, bool) {
	if g.x.Throughput == nil {
		return Throughput{}, false
	}
	return *g.x.Throughput, true
}

// StatusAt is the index's IndexStatus at now (CREATING, ACTIVE).
func (g GSI) StatusAt(now time.Time) string { return g.x.StatusAt(now) }

// Keys are the names of the index's first HASH and RANGE attributes
// (sort "": none).
func (g GSI) Keys() (partition, sort string) {
	return g.x.Schema.Partition.Name, g.x.Schema.Sort.Name
}

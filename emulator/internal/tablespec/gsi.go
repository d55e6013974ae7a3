package tablespec

import "time"

// GSI is a global secondary index of a table's definition, as a feature
// or a stage reads it.
type GSI struct{ x *IndexDef }

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

// GSIList is the GSIs of m (those being deleted not included), in the
// definition's order.
func (m *Indexes) GSIList() []GSI {
	out := make([]GSI, len(m.GSIs))
	for i, x := range m.GSIs {
		out[i] = GSI{x}
	}
	return out
}

// GSI returns the GSI of m called name, or false.
func (m *Indexes) GSI(name string) (GSI, bool) {
	if i := m.GSIIndex(name); i >= 0 {
		return GSI{m.GSIs[i]}, true
	}
	return GSI{}, false
}

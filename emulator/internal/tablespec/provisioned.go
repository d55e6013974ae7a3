package tablespec

import "time"

// Provisioned is provisioned throughput (a table's or a GSI's) as a
// feature reads and changes it: read and write capacity units, with the
// history of changes DescribeTable reports (the last increase and
// decrease, the decreases today).
type Provisioned struct{ tp Throughput }

// NewProvisioned is read and write units with no history.
func NewProvisioned(read, write int64) Provisioned {
	return Provisioned{Throughput{Read: read, Write: write}}
}

// ProvisionedOf is tp as a Provisioned.
func ProvisionedOf(tp Throughput) Provisioned { return Provisioned{tp} }

// Throughput is c as the definition keeps it.
func (c Provisioned) Throughput() Throughput { return c.tp }

// Read is the read capacity units.
func (c Provisioned) Read() int64 { return c.tp.Read }

// Write is the write capacity units.
func (c Provisioned) Write() int64 { return c.tp.Write }

// WithRead is c with read units, its history unchanged.
func (c Provisioned) WithRead(n int64) Provisioned {
	c.tp.Read = n
	return c
}

// WithWrite is c with write units, its history unchanged.
func (c Provisioned) WithWrite(n int64) Provisioned {
	c.tp.Write = n
	return c
}

// Changed is c changed to read and write units at now, as UpdateTable
// changes it: an increase or a decrease goes in its history.
func (c Provisioned) Changed(read, write int64, now time.Time) Provisioned {
	c.tp.Apply(read, write, now)
	return c
}

// GSI is a global secondary index of a table's definition, as a feature
// or a stage reads it.
type GSI struct{ x *IndexDef }

// GSIOf is x as a GSI.
func GSIOf(x *IndexDef) GSI { return GSI{x} }

// Name is the index's name.
func (g GSI) Name() string { return g.x.Name }

// Capacity is the index's provisioned throughput, or false for an index
// of an on-demand table.
func (g GSI) Capacity() (Provisioned, bool) {
	if g.x.Throughput == nil {
		return Provisioned{}, false
	}
	return Provisioned{*g.x.Throughput}, true
}

// StatusAt is the index's IndexStatus at now (CREATING, ACTIVE).
func (g GSI) StatusAt(now time.Time) string { return g.x.StatusAt(now) }

// Keys are the names of the index's first HASH and RANGE attributes
// (sort "": none).
func (g GSI) Keys() (partition, sort string) {
	return g.x.Schema.Partition.Name, g.x.Schema.Sort.Name
}

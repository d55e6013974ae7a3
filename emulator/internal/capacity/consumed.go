package capacity

import "github.com/dynamoemu/dynamoemu/internal/shapes"

// ConsumedCapacity is the ConsumedCapacity member of a data-plane
// response, and Capacity a table's or one index's part of it (INDEXES
// mode): internal/shapes declares them.
type (
	ConsumedCapacity = shapes.ConsumedCapacity[*float64]
	Capacity         = shapes.Capacity[*float64]
	VectorCapacity   = shapes.VectorCapacity
)

// Consumed is the ConsumedCapacity member, in mode (TOTAL or INDEXES), of
// u on the table called table: CapacityUnits the table's and its
// indexes' units; in INDEXES mode the table's part under Table, each
// index's under GlobalSecondaryIndexes or LocalSecondaryIndexes, and each
// vector index's VectorWriteRequestBytes under VectorIndexes. A
// transaction's units (u.Tx) are also its ReadCapacityUnits or
// WriteCapacityUnits, as AWS reports for transactions only.
func Consumed(table, mode string, u *Usage) *ConsumedCapacity {
	total := u.Table
	for _, v := range u.Indexes {
		total += v
	}
	cc := &ConsumedCapacity{TableName: table, CapacityUnits: total}
	if u.Tx {
		units := u.Table
		if u.Write {
			cc.WriteCapacityUnits = &units
		} else {
			cc.ReadCapacityUnits = &units
		}
	}
	if mode != "INDEXES" {
		return cc
	}
	cc.Table = &Capacity{CapacityUnits: u.Table, ReadCapacityUnits: cc.ReadCapacityUnits, WriteCapacityUnits: cc.WriteCapacityUnits}
	for x, v := range u.Indexes {
		m := &cc.GlobalSecondaryIndexes
		if x.Local {
			m = &cc.LocalSecondaryIndexes
		}
		if *m == nil {
			*m = make(map[string]Capacity)
		}
		(*m)[x.Name] = Capacity{CapacityUnits: v}
	}
	for name, b := range u.Vectors {
		if cc.VectorIndexes == nil {
			cc.VectorIndexes = make(map[string]VectorCapacity)
		}
		v := cc.VectorIndexes[name]
		v.VectorWriteRequestBytes += b
		cc.VectorIndexes[name] = v
	}
	return cc
}

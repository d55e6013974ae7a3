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
// WriteCapacityUnits, as AWS reports for transactions only: the total's,
// the table's and each index's (AWS, eu-west-2, as captured and published
// by nubo-db/dynoxide, tests/transactional_index_consumed_capacity.rs).
func Consumed(table, mode string, u *Usage) *ConsumedCapacity {
	total := u.Table
	for _, v := range u.Indexes {
		total += v
	}
	cc := &ConsumedCapacity{TableName: table, CapacityUnits: total}
	cc.ReadCapacityUnits, cc.WriteCapacityUnits = u.axis(total)
	if mode != "INDEXES" {
		return cc
	}
	cc.Table = &Capacity{CapacityUnits: u.Table}
	cc.Table.ReadCapacityUnits, cc.Table.WriteCapacityUnits = u.axis(u.Table)
	for x, v := range u.Indexes {
		m := &cc.GlobalSecondaryIndexes
		if x.Local {
			m = &cc.LocalSecondaryIndexes
		}
		if *m == nil {
			*m = make(map[string]Capacity)
		}
		arm := Capacity{CapacityUnits: v}
		arm.ReadCapacityUnits, arm.WriteCapacityUnits = u.axis(v)
		(*m)[x.Name] = arm
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

// axis is units as a transaction's ReadCapacityUnits or
// WriteCapacityUnits (the one its kind reports; both nil outside a
// transaction).
func (u *Usage) axis(units float64) (read, write *float64) {
	switch {
	case !u.Tx:
		return nil, nil
	case u.Write:
		return nil, &units
	}
	return &units, nil
}

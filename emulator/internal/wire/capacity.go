package wire

import "github.com/dynamoemu/dynamoemu/internal/shapes"

// The answers' ConsumedCapacity member, encoded without encoding/json,
// as json.Marshal encodes the shape (the service's encode_test.go holds
// the two together).

// appendCapacity appends c's JSON.
func appendCapacity(b []byte, c *shapes.Capacity[*float64]) []byte {
	b = AppendMember(append(b, '{'), true, "CapacityUnits")
	b = AppendFloat(b, c.CapacityUnits)
	if c.ReadCapacityUnits != nil {
		b = AppendFloat(AppendMember(b, false, "ReadCapacityUnits"), *c.ReadCapacityUnits)
	}
	if c.WriteCapacityUnits != nil {
		b = AppendFloat(AppendMember(b, false, "WriteCapacityUnits"), *c.WriteCapacityUnits)
	}
	return append(b, '}')
}

// AppendConsumedList appends ccs as a JSON array.
func AppendConsumedList(b []byte, ccs []*shapes.ConsumedCapacity[*float64]) []byte {
	b = append(b, '[')
	for i, cc := range ccs {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendConsumed(b, cc)
	}
	return append(b, ']')
}

// AppendConsumed appends c's JSON: its members in the shape's order,
// each left out where encoding/json's omitempty leaves it out.
func AppendConsumed(b []byte, c *shapes.ConsumedCapacity[*float64]) []byte {
	b = append(b, '{')
	first := true
	if c.TableName != "" {
		b = AppendString(AppendMember(b, true, "TableName"), c.TableName)
		first = false
	}
	b = AppendFloat(AppendMember(b, first, "CapacityUnits"), c.CapacityUnits)
	if c.ReadCapacityUnits != nil {
		b = AppendFloat(AppendMember(b, false, "ReadCapacityUnits"), *c.ReadCapacityUnits)
	}
	if c.WriteCapacityUnits != nil {
		b = AppendFloat(AppendMember(b, false, "WriteCapacityUnits"), *c.WriteCapacityUnits)
	}
	if c.Table != nil {
		b = appendCapacity(AppendMember(b, false, "Table"), c.Table)
	}
	if len(c.LocalSecondaryIndexes) > 0 {
		b = AppendMarshal(AppendMember(b, false, "LocalSecondaryIndexes"), c.LocalSecondaryIndexes)
	}
	if len(c.GlobalSecondaryIndexes) > 0 {
		b = AppendMarshal(AppendMember(b, false, "GlobalSecondaryIndexes"), c.GlobalSecondaryIndexes)
	}
	if len(c.VectorIndexes) > 0 {
		b = AppendMarshal(AppendMember(b, false, "VectorIndexes"), c.VectorIndexes)
	}
	return append(b, '}')
}

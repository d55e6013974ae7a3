package emulator

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/dynamoemu/dynamoemu/storage"
)

// Response encoding without encoding/json for the data-plane outputs. Each
// appendJSON writes what json.Marshal wrote for the same value (same members,
// order and number format), except that it does not escape <, > and & in
// strings as \u003c, \u003e and \u0026: both are the same JSON, and AWS
// does not escape them either. encode_test.go holds the two together.

// jsonAppender is an output that encodes itself; register's adapter prefers
// it to encoding/json.
type jsonAppender interface {
	// appendJSON appends the JSON form of the output to b.
	appendJSON(b []byte) []byte
}

// appendMember appends the member name (with a separating comma unless it
// is the first member of its object) and a colon.
func appendMember(b []byte, first bool, name string) []byte {
	if !first {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, name...)
	return append(b, '"', ':')
}

// appendWireItem appends w as WireItem.MarshalJSON does.
func appendWireItem(b []byte, w WireItem) []byte {
	if w == nil {
		return append(b, "null"...)
	}
	return appendItem(b, w)
}

// appendMarshal appends json.Marshal(v) for the rarely used members that
// have no appendJSON (json.Marshal cannot fail on them).
func appendMarshal(b []byte, v any) []byte {
	out, err := json.Marshal(v)
	if err != nil {
		panic("emulator: encoding " + err.Error())
	}
	return append(b, out...)
}

// appendFloat appends f as encoding/json formats a float64.
func appendFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

func (c *Capacity) appendJSON(b []byte) []byte {
	b = appendMember(append(b, '{'), true, "CapacityUnits")
	b = appendFloat(b, c.CapacityUnits)
	if c.ReadCapacityUnits != nil {
		b = appendFloat(appendMember(b, false, "ReadCapacityUnits"), *c.ReadCapacityUnits)
	}
	if c.WriteCapacityUnits != nil {
		b = appendFloat(appendMember(b, false, "WriteCapacityUnits"), *c.WriteCapacityUnits)
	}
	return append(b, '}')
}

func (c *ConsumedCapacity) appendJSON(b []byte) []byte {
	b = append(b, '{')
	first := true
	if c.TableName != "" {
		b = appendString(appendMember(b, true, "TableName"), c.TableName)
		first = false
	}
	b = appendFloat(appendMember(b, first, "CapacityUnits"), c.CapacityUnits)
	if c.ReadCapacityUnits != nil {
		b = appendFloat(appendMember(b, false, "ReadCapacityUnits"), *c.ReadCapacityUnits)
	}
	if c.WriteCapacityUnits != nil {
		b = appendFloat(appendMember(b, false, "WriteCapacityUnits"), *c.WriteCapacityUnits)
	}
	if c.Table != nil {
		b = c.Table.appendJSON(appendMember(b, false, "Table"))
	}
	if len(c.LocalSecondaryIndexes) > 0 {
		b = appendMarshal(appendMember(b, false, "LocalSecondaryIndexes"), c.LocalSecondaryIndexes)
	}
	if len(c.GlobalSecondaryIndexes) > 0 {
		b = appendMarshal(appendMember(b, false, "GlobalSecondaryIndexes"), c.GlobalSecondaryIndexes)
	}
	return append(b, '}')
}

func (o *GetItemOutput) appendJSON(b []byte) []byte {
	b = append(b, '{')
	first := true
	switch {
	case o.hasStored:
		b = appendStoredItem(appendMember(b, true, "Item"), o.stored)
		first = false
	case o.Item != nil:
		b = appendWireItem(appendMember(b, true, "Item"), *o.Item)
		first = false
	}
	if o.ConsumedCapacity != nil {
		b = o.ConsumedCapacity.appendJSON(appendMember(b, first, "ConsumedCapacity"))
	}
	return append(b, '}')
}

// appendWriteOutput encodes the shape PutItem, DeleteItem and UpdateItem
// answer with.
func appendWriteOutput(b []byte, attrs WireItem, cc *ConsumedCapacity, icm *ItemCollectionMetrics) []byte {
	b = append(b, '{')
	first := true
	if len(attrs) > 0 {
		b = appendItem(appendMember(b, true, "Attributes"), attrs)
		first = false
	}
	if cc != nil {
		b = cc.appendJSON(appendMember(b, first, "ConsumedCapacity"))
		first = false
	}
	if icm != nil {
		b = icm.appendJSON(appendMember(b, first, "ItemCollectionMetrics"))
	}
	return append(b, '}')
}

func (m *ItemCollectionMetrics) appendJSON(b []byte) []byte {
	b = append(b, '{')
	first := true
	if len(m.ItemCollectionKey) > 0 {
		b = appendItem(appendMember(b, true, "ItemCollectionKey"), m.ItemCollectionKey)
		first = false
	}
	if len(m.SizeEstimateRangeGB) > 0 {
		b = append(appendMember(b, first, "SizeEstimateRangeGB"), '[')
		for i, f := range m.SizeEstimateRangeGB {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendFloat(b, f)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func (o *PutItemOutput) appendJSON(b []byte) []byte {
	return appendWriteOutput(b, o.Attributes, o.ConsumedCapacity, o.ItemCollectionMetrics)
}

func (o *DeleteItemOutput) appendJSON(b []byte) []byte {
	return appendWriteOutput(b, o.Attributes, o.ConsumedCapacity, o.ItemCollectionMetrics)
}

func (o *UpdateItemOutput) appendJSON(b []byte) []byte {
	return appendWriteOutput(b, o.Attributes, o.ConsumedCapacity, o.ItemCollectionMetrics)
}

// appendJSON encodes the page in AWS's member order, items appended
// straight from storage values.
func (o *pageOutput) appendJSON(b []byte) []byte {
	b = append(b, '{')
	if !o.countOnly {
		b = append(b, `"Items":[`...)
		for i, it := range o.Items {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendItem(b, it)
		}
		for i, e := range o.stored {
			if i > 0 || len(o.Items) > 0 {
				b = append(b, ',')
			}
			b = appendStoredItem(b, e)
		}
		b = append(b, "],"...)
	}
	b = append(b, `"Count":`...)
	b = strconv.AppendInt(b, int64(o.Count), 10)
	b = append(b, `,"ScannedCount":`...)
	b = strconv.AppendInt(b, int64(o.ScannedCount), 10)
	if o.LastEvaluatedKey != nil {
		b = append(b, `,"LastEvaluatedKey":`...)
		b = appendItem(b, o.LastEvaluatedKey)
	}
	if o.ConsumedCapacity != nil {
		b = append(b, `,"ConsumedCapacity":`...)
		b = o.ConsumedCapacity.appendJSON(b)
	}
	return append(b, '}')
}

// appendStoredItem appends the JSON form of a stored item straight from its
// record, byte for byte what appendItem appends for its decoded form (the
// record keeps attributes and map entries in appendItem's sorted order). A
// corrupt record is a bug in storage: it panics, as decoding one does.
func appendStoredItem(b []byte, e storage.EncodedItem) []byte {
	r := e.Reader()
	b = append(b, '{')
	for n := 0; ; n++ {
		name, ok := r.Next()
		if !ok {
			break
		}
		if n > 0 {
			b = append(b, ',')
		}
		b = appendString(b, name)
		b = append(b, ':')
		b = appendStoredValue(b, &r)
	}
	if err := r.Err(); err != nil {
		panic("emulator: " + err.Error())
	}
	return append(b, '}')
}

// appendStoredValue appends the next value of r as appendValue does.
func appendStoredValue(b []byte, r *storage.ItemReader) []byte {
	h := r.Head()
	switch h.Kind {
	case storage.KindS:
		b = append(b, `{"S":`...)
		b = appendString(b, h.Str)
	case storage.KindN:
		b = append(b, `{"N":"`...)
		b = append(b, h.Str...) // canonical number text needs no escaping
		b = append(b, '"')
	case storage.KindB:
		b = append(b, `{"B":`...)
		b = appendBase64(b, h.Str)
	case storage.KindBOOL:
		if h.Bool {
			b = append(b, `{"BOOL":true`...)
		} else {
			b = append(b, `{"BOOL":false`...)
		}
	case storage.KindNULL:
		b = append(b, `{"NULL":true`...)
	case storage.KindL:
		b = append(b, `{"L":[`...)
		for i := 0; i < h.Len; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendStoredValue(b, r)
		}
		b = append(b, ']')
	case storage.KindM:
		b = append(b, `{"M":{`...)
		for i := 0; i < h.Len; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, r.EntryName())
			b = append(b, ':')
			b = appendStoredValue(b, r)
		}
		b = append(b, '}')
	case storage.KindSS, storage.KindNS, storage.KindBS:
		b = append(b, '{', '"')
		b = append(b, h.Kind.String()...)
		b = append(b, `":[`...)
		for i := 0; i < h.Len; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendSetMember(b, h.Kind, r.Member())
		}
		b = append(b, ']')
	default:
		return append(b, "null"...) // only after a corrupt record, which panics
	}
	return append(b, '}')
}

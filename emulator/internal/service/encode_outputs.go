package service

import (
	"strconv"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
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

// JSONAppender is a feature's output that encodes itself (Op): the
// adapter appends its JSON to the response buffer instead of encoding
// it with encoding/json.
type JSONAppender interface {
	// AppendJSON appends the JSON form of the output to b.
	AppendJSON(b []byte) []byte
}

func (o *GetItemOutput) appendJSON(b []byte) []byte {
	b = append(b, '{')
	first := true
	switch {
	case o.hasStored:
		b = wire.AppendStoredItem(wire.AppendMember(b, true, "Item"), o.stored)
		first = false
	case o.Item != nil:
		b = wire.AppendWireItem(wire.AppendMember(b, true, "Item"), *o.Item)
		first = false
	}
	if o.ConsumedCapacity != nil {
		b = wire.AppendConsumed(wire.AppendMember(b, first, "ConsumedCapacity"), o.ConsumedCapacity)
	}
	return append(b, '}')
}

// appendWriteOutput encodes the shape PutItem, DeleteItem and UpdateItem
// answer with.
func appendWriteOutput(b []byte, attrs wire.WireItem, cc *ConsumedCapacity, icm *ItemCollectionMetrics) []byte {
	b = append(b, '{')
	first := true
	if len(attrs) > 0 {
		b = wire.AppendItem(wire.AppendMember(b, true, "Attributes"), attrs)
		first = false
	}
	if cc != nil {
		b = wire.AppendConsumed(wire.AppendMember(b, first, "ConsumedCapacity"), cc)
		first = false
	}
	if icm != nil {
		b = icm.appendJSON(wire.AppendMember(b, first, "ItemCollectionMetrics"))
	}
	return append(b, '}')
}

func (m *ItemCollectionMetrics) appendJSON(b []byte) []byte {
	b = append(b, '{')
	first := true
	if len(m.ItemCollectionKey) > 0 {
		b = wire.AppendItem(wire.AppendMember(b, true, "ItemCollectionKey"), m.ItemCollectionKey)
		first = false
	}
	if len(m.SizeEstimateRangeGB) > 0 {
		b = append(wire.AppendMember(b, first, "SizeEstimateRangeGB"), '[')
		for i, f := range m.SizeEstimateRangeGB {
			if i > 0 {
				b = append(b, ',')
			}
			b = wire.AppendFloat(b, f)
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
			b = wire.AppendItem(b, it)
		}
		for i, e := range o.stored {
			if i > 0 || len(o.Items) > 0 {
				b = append(b, ',')
			}
			b = wire.AppendStoredItem(b, e)
		}
		b = append(b, "],"...)
	}
	b = append(b, `"Count":`...)
	b = strconv.AppendInt(b, int64(o.Count), 10)
	b = append(b, `,"ScannedCount":`...)
	b = strconv.AppendInt(b, int64(o.ScannedCount), 10)
	if o.LastEvaluatedKey != nil {
		b = append(b, `,"LastEvaluatedKey":`...)
		b = wire.AppendItem(b, o.LastEvaluatedKey)
	}
	if o.ConsumedCapacity != nil {
		b = append(b, `,"ConsumedCapacity":`...)
		b = wire.AppendConsumed(b, o.ConsumedCapacity)
	}
	return append(b, '}')
}

// AppendJSON encodes the response without reflection, whole items straight
// from their stored records: the answer of TransactGetItems and of any
// feature's read transaction (Call.TransactGet) encodes itself
// (JSONAppender).
func (o *TransactGetItemsOutput) AppendJSON(b []byte) []byte {
	b = append(b, `{"Responses":[`...)
	for i, r := range o.Responses {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		switch {
		case r.hasStored:
			b = wire.AppendStoredItem(wire.AppendMember(b, true, "Item"), r.stored)
		case r.Item != nil:
			b = wire.AppendWireItem(wire.AppendMember(b, true, "Item"), *r.Item)
		}
		b = append(b, '}')
	}
	b = append(b, ']')
	if o.ConsumedCapacity != nil {
		b = wire.AppendConsumedList(append(b, `,"ConsumedCapacity":`...), o.ConsumedCapacity)
	}
	return append(b, '}')
}

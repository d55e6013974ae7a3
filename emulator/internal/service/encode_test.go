package service

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TestAppendJSONMatchesMarshal: every appendJSON writes what encoding/json
// writes for the same value, up to the HTML escaping encoding/json adds.
func TestAppendJSONMatchesMarshal(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	item := wire.WireItem{
		"s":    storage.S("a<b>&c\u2028d\xffe\"\\\n"),
		"n":    storage.N("-12.5"),
		"b":    storage.BString("\x00\xff<"),
		"t":    storage.Bool(true),
		"f":    storage.Bool(false),
		"null": storage.Null(),
		"l":    storage.L([]storage.Value{storage.S("x"), storage.L(nil), storage.M(nil)}),
		"m":    storage.M(map[string]storage.Value{"z": storage.N("1"), "a&": storage.SS([]string{"<", ">"})}),
		"ns":   storage.NS([]storage.Number{"1", "2.5"}),
		"bs":   storage.BS([][]byte{{1}, {2, 3}}),
		"<k>":  storage.S(""),
	}
	caps := []*ConsumedCapacity{
		nil,
		{TableName: "t", CapacityUnits: 0.5},
		{CapacityUnits: 1},
		{TableName: "tbl", CapacityUnits: 1e21, ReadCapacityUnits: f(1e-7), WriteCapacityUnits: f(123456789.25),
			Table: &Capacity{CapacityUnits: 2, ReadCapacityUnits: f(0), WriteCapacityUnits: f(3)}},
		{TableName: "tbl", CapacityUnits: 4, Table: &Capacity{CapacityUnits: 4},
			LocalSecondaryIndexes:  map[string]Capacity{"l2": {CapacityUnits: 1}, "l1": {CapacityUnits: 0.5}},
			GlobalSecondaryIndexes: map[string]Capacity{"g": {CapacityUnits: 1, WriteCapacityUnits: f(1)}}},
	}
	var outs []jsonAppender
	icm := &ItemCollectionMetrics{ItemCollectionKey: wire.WireItem{"pk": storage.S("a")}, SizeEstimateRangeGB: []float64{0, 1}}
	icms := []*ItemCollectionMetrics{
		icm,
		{ItemCollectionKey: wire.WireItem{"n<&>": storage.N("-1.5E+10")}, SizeEstimateRangeGB: []float64{9, 10}},
		{ItemCollectionKey: wire.WireItem{"b": storage.BString("\x00\xff")}, SizeEstimateRangeGB: []float64{0.5, 1e-7, 1e21, 123456789.25}},
		{SizeEstimateRangeGB: []float64{0}},
		{ItemCollectionKey: wire.WireItem{"pk": storage.S("x")}},
		{ItemCollectionKey: wire.WireItem{}, SizeEstimateRangeGB: []float64{}},
		{},
	}
	for _, m := range icms {
		outs = append(outs, m,
			&PutItemOutput{ItemCollectionMetrics: m},
			&UpdateItemOutput{Attributes: item, ItemCollectionMetrics: m},
			&DeleteItemOutput{ConsumedCapacity: &ConsumedCapacity{TableName: "t", CapacityUnits: 1}, ItemCollectionMetrics: m})
	}
	empty := wire.WireItem{}
	var nilItem wire.WireItem
	for _, cc := range caps {
		outs = append(outs,
			&GetItemOutput{ConsumedCapacity: cc},
			&GetItemOutput{Item: &item, ConsumedCapacity: cc},
			&GetItemOutput{Item: &empty, ConsumedCapacity: cc},
			&GetItemOutput{Item: &nilItem, ConsumedCapacity: cc},
			&PutItemOutput{ConsumedCapacity: cc},
			&PutItemOutput{Attributes: item, ConsumedCapacity: cc, ItemCollectionMetrics: icm},
			&DeleteItemOutput{Attributes: empty, ConsumedCapacity: cc},
			&DeleteItemOutput{ItemCollectionMetrics: icm},
			&UpdateItemOutput{Attributes: item, ConsumedCapacity: cc},
			&UpdateItemOutput{ConsumedCapacity: cc, ItemCollectionMetrics: icm},
			&pageOutput{Items: []storage.Item{item, {}}, Count: 2, ScannedCount: 3, LastEvaluatedKey: storage.Item{"pk": storage.S("a")}, ConsumedCapacity: cc},
			&pageOutput{countOnly: true, Count: 1, ScannedCount: 1, ConsumedCapacity: cc},
		)
		if cc != nil {
			outs = append(outs, consumedAppender{cc})
		}
	}
	for _, out := range outs {
		want, err := json.Marshal(out)
		if err != nil {
			t.Fatalf("%T: %v", out, err)
		}
		raw := out.appendJSON([]byte("prefix"))
		if !bytes.HasPrefix(raw, []byte("prefix")) {
			t.Fatalf("%T: appendJSON dropped what was in the buffer", out)
		}
		raw = raw[len("prefix"):]
		if !json.Valid(raw) {
			t.Errorf("%T: invalid JSON %s", out, raw)
		}
		var got bytes.Buffer
		json.HTMLEscape(&got, raw)
		if got.String() != string(want) {
			t.Errorf("%T:\n got %s\nwant %s", out, got.String(), want)
		}
	}
}

// consumedAppender encodes a ConsumedCapacity as its answers do.
type consumedAppender struct{ *ConsumedCapacity }

func (c consumedAppender) appendJSON(b []byte) []byte {
	return wire.AppendConsumed(b, c.ConsumedCapacity)
}

func BenchmarkEncodeGetItemOutput(b *testing.B) {
	item := wire.WireItem{"pk": storage.S("user#0000001"), "sk": storage.N("1"), "status": storage.S("active"),
		"tags": storage.SS([]string{"red", "green"}), "price": storage.N("1234.5"), "flag": storage.Bool(true)}
	out := &GetItemOutput{Item: &item}
	b.Run("appendJSON", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			buf = out.appendJSON(buf[:0])
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(out); err != nil {
				b.Fatal(err)
			}
		}
	})
}

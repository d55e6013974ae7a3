package mcp

import (
	"context"
	"slices"

	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/shapes"
)

// What the tools need to know of a table: its key schemas, read with
// DescribeTable.

// keyElem is one element of a KeySchema (KeyType HASH or RANGE).
type keyElem = shapes.KeySchemaElement[string]

// indexDesc is what the tools read of a secondary index of a tableDesc:
// its key schema and projection type, and whether it is an LSI.
type indexDesc struct {
	keys       []keyElem
	projection string
	local      bool
}

// tableDesc is what the tools know of a table: DescribeTable's answer,
// or the design's table.
type tableDesc struct {
	shapes.TableDescription
	// fromDesign: the table is not in the namespace yet; this is the
	// design's table (its keys and indexes, key types taken for S).
	fromDesign bool
}

// designTable is the design's table called name as a tableDesc, or nil:
// design_match and explain judge a request on the design alone before
// the table exists.
func designTable(d *insights.Design, name string) *tableDesc {
	if d == nil {
		return nil
	}
	ks := func(k insights.KeyDef) []keyElem {
		out := []keyElem{{AttributeName: k.Partition, KeyType: "HASH"}}
		if k.Sort != "" {
			out = append(out, keyElem{AttributeName: k.Sort, KeyType: "RANGE"})
		}
		return out
	}
	for _, t := range d.Tables {
		// A table the format does not name (OneTable, ElectroDB) answers
		// for the name asked, as the report's first request names it.
		if t.Name != name && (t.Name != "" || !d.Declares(name)) {
			continue
		}
		td := &tableDesc{TableDescription: shapes.TableDescription{TableName: name, KeySchema: ks(t.Key)}, fromDesign: true}
		for _, x := range t.Indexes {
			td.GlobalSecondaryIndexes = append(td.GlobalSecondaryIndexes, shapes.GlobalSecondaryIndexDescription{
				IndexName: x.Name, KeySchema: ks(x.Key), Projection: shapes.Projection[string]{ProjectionType: "ALL"}})
		}
		return td
	}
	return nil
}

// describe returns table's description.
func (s *Server) describe(ctx context.Context, table string) (*tableDesc, error) {
	var out struct{ Table shapes.TableDescription }
	if _, err := s.eng.callJSON(ctx, apiDynamoDB, "DescribeTable", map[string]string{"TableName": table}, &out); err != nil {
		return nil, err
	}
	return &tableDesc{TableDescription: out.Table}, nil
}

// keyNames names the attributes of a key schema, partition first.
func (d *tableDesc) keyNames(ks []keyElem) []string {
	var names []string
	for _, kt := range []string{"HASH", "RANGE"} {
		for _, k := range ks {
			if k.KeyType == kt {
				names = append(names, k.AttributeName)
			}
		}
	}
	return names
}

// key returns the partition and sort key attributes of a key schema ("":
// none) and whether it has one attribute of each at most (a
// multi-attribute key has more).
func key(ks []keyElem) (pk, sk string, single bool) {
	n := map[string]int{}
	for _, k := range ks {
		n[k.KeyType]++
		if k.KeyType == "HASH" && pk == "" {
			pk = k.AttributeName
		}
		if k.KeyType == "RANGE" && sk == "" {
			sk = k.AttributeName
		}
	}
	return pk, sk, n["HASH"] <= 1 && n["RANGE"] <= 1
}

// index returns the secondary index called name, or nil.
func (d *tableDesc) index(name string) *indexDesc {
	for _, x := range d.GlobalSecondaryIndexes {
		if x.IndexName == name {
			return &indexDesc{keys: x.KeySchema, projection: x.Projection.ProjectionType}
		}
	}
	for _, x := range d.LocalSecondaryIndexes {
		if x.IndexName == name {
			return &indexDesc{keys: x.KeySchema, projection: x.Projection.ProjectionType, local: true}
		}
	}
	return nil
}

// sortedNames returns a map's keys in order.
func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func contains(list []string, s string) bool { return slices.Contains(list, s) }

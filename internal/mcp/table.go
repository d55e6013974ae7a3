package mcp

import (
	"context"
	"slices"
)

// What the tools need to know of a table: its key schemas, read with
// DescribeTable.

// keyElem is one element of a KeySchema.
type keyElem struct {
	AttributeName string
	KeyType       string // HASH or RANGE
}

// indexDesc is a secondary index of a tableDesc.
type indexDesc struct {
	IndexName  string
	KeySchema  []keyElem
	Projection struct{ ProjectionType string }
	local      bool
}

// tableDesc is the part of DescribeTable's Table the tools read.
type tableDesc struct {
	TableName            string
	TableArn             string
	KeySchema            []keyElem
	AttributeDefinitions []struct{ AttributeName, AttributeType string }
	GlobalSecondaryIndexes,
	LocalSecondaryIndexes []indexDesc
	LatestStreamArn string
}

// describe returns table's description.
func (s *Server) describe(ctx context.Context, table string) (*tableDesc, error) {
	var out struct{ Table tableDesc }
	if _, err := s.eng.callJSON(ctx, apiDynamoDB, "DescribeTable", map[string]string{"TableName": table}, &out); err != nil {
		return nil, err
	}
	for i := range out.Table.LocalSecondaryIndexes {
		out.Table.LocalSecondaryIndexes[i].local = true
	}
	return &out.Table, nil
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
	for _, xs := range [][]indexDesc{d.GlobalSecondaryIndexes, d.LocalSecondaryIndexes} {
		for i := range xs {
			if xs[i].IndexName == name {
				return &xs[i]
			}
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

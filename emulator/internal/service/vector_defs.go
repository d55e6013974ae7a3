package service

import "github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"

// Vector index definitions (storage/VECTOR_SPEC.md is the
// spec): CreateTable's VectorIndexes and UpdateTable's VectorIndexUpdates
// Create are validated here, in AWS's model-constraint form first, then
// one rule at a time; the result is a vectorIndexDef in the table's
// definition and a storage.VectorIndexDef in its storage, which keeps the
// index inside the one write path.

// describeVector describes vector index x in status (ACTIVE, CREATING or
// DELETING): counts and sizes of an ACTIVE index, as for GSIs, and
// Backfilling while one added by UpdateTable is CREATING (an index
// created with its table reports none; VECTOR_SPEC.md).
func (t *table) describeVector(x *tablespec.VectorIndexDef, status string) VectorIndexDescription {
	d := VectorIndexDescription{
		IndexName:        x.Name,
		IndexArn:         x.ARN,
		VectorAttribute:  VectorAttributeDesc{AttributeName: x.Attr},
		Dimensions:       x.Dims,
		DistanceFunction: x.Distance,
		Projection:       tablespec.DescribeProjection(x.Projection),
		IndexStatus:      status,
	}
	for _, e := range x.Schema {
		d.SearchSchema = append(d.SearchSchema, SearchSchemaElemDesc{AttributeName: e.Name, SearchSchemaElementType: e.Type})
	}
	switch {
	case status == tablespec.IndexActive && t.data != nil:
		var count, size int64
		if n, sz, err := t.data.VectorIndexStats(x.Name); err == nil {
			count, size = int64(n), sz
		}
		d.ItemCount, d.IndexSizeBytes = &count, &size
		if x.Backfill {
			f := false
			d.Backfilling = &f
		}
	case status == tablespec.IndexCreating && x.Backfill:
		b := true
		d.Backfilling = &b
	}
	return d
}

// vectorIndexes returns the table's vector index definitions, which the
// caller must not modify. It takes no lock (see table.meta).
func (t *table) vectorIndexes() []*tablespec.VectorIndexDef { return t.meta.Load().Vectors }

// vectorIndex returns the table's vector index called name, or nil.
func (t *table) vectorIndex(name string) *tablespec.VectorIndexDef {
	for _, x := range t.vectorIndexes() {
		if x.Name == name {
			return x
		}
	}
	return nil
}

package service

import (
	"slices"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Vector index definitions (storage/VECTOR_SPEC.md is the
// spec): CreateTable's VectorIndexes and UpdateTable's VectorIndexUpdates
// Create are validated here, in AWS's model-constraint form first, then
// one rule at a time; the result is a vectorIndexDef in the table's
// definition and a storage.VectorIndexDef in its storage, which keeps the
// index inside the one write path.

// Vector index limits (storage's, which follow AWS's quotas).
const (
	maxVectorIndexes       = storage.MaxVectorIndexes
	maxVectorDimensions    = storage.MaxVectorDimensions
	maxVectorInlineFilters = storage.MaxVectorInlineFilters
	maxVectorProjected     = tablespec.MaxNonKeyPerIndex // the vector, the inline filters and NonKeyAttributes share it
)

// SearchSchemaElementType values.
const (
	searchHash   = tablespec.SearchHash
	searchFilter = tablespec.SearchFilter
)

// vectorIndexDef is a vector index as DescribeTable reports it; its
// vectors live in the table's storage under its name.
type vectorIndexDef struct {
	name       string
	arn        string // <table arn>/index/<name>
	attr       string // VectorAttribute.AttributeName
	dims       int64
	distance   string       // COSINE, EUCLIDEAN or DOT_PRODUCT
	schema     []searchElem // SearchSchema, in the order given
	projection projection   // as given
	activeAt   time.Time    // CREATING until then
	backfill   bool         // added by UpdateTable: Backfilling while CREATING
	goneAt     time.Time    // a deleted index is DELETING until then
	def        storage.VectorIndexDef
	defs       []storage.VectorIndexDef // {def}, for storage.CheckVectorItem
}

// searchElem is one SearchSchema element with its attribute's kind.
type searchElem struct {
	name, typ string
	kind      storage.Kind
}

// statusAt is the IndexStatus of x at now.
func (x *vectorIndexDef) statusAt(now time.Time) string {
	if now.Before(x.activeAt) {
		return indexCreating
	}
	return indexActive
}

// build fills x.def and x.defs from the other fields.
func (x *vectorIndexDef) build() {
	d, _ := storage.ParseDistanceFunction(x.distance)
	x.def = storage.VectorIndexDef{Name: x.name, Attribute: x.attr, Dimensions: int(x.dims), Distance: d,
		Projection: storage.Projection{All: x.projection.typ == projectionAll}}
	if x.projection.typ == projectionInclude {
		x.def.Projection.NonKey = x.projection.nonKey
	}
	for _, e := range x.schema {
		a := storage.KeyAttr{Name: e.name, Kind: e.kind}
		if e.typ == searchHash {
			x.def.Hash = a
		} else {
			x.def.Filters = append(x.def.Filters, a)
		}
	}
	x.defs = []storage.VectorIndexDef{x.def}
}

// projected returns the attributes a search returns by default: nil for
// ALL (every attribute but the vector), else the table's keys, the search
// schema's attributes and NonKeyAttributes. The vector attribute is
// returned only when a ProjectionExpression names it (VECTOR_SPEC.md).
func (x *vectorIndexDef) projected(ks storage.KeySchema) []string {
	if x.projection.typ == projectionAll {
		return nil
	}
	names := []string{ks.Partition.Name}
	if ks.HasSort() {
		names = append(names, ks.Sort.Name)
	}
	add := func(n string) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	for _, e := range x.schema {
		add(e.name)
	}
	for _, n := range x.projection.nonKey {
		add(n)
	}
	return names
}

// schemaElem returns the search schema element on attribute name, or nil.
func (x *vectorIndexDef) schemaElem(name string) *searchElem {
	for i := range x.schema {
		if x.schema[i].name == name {
			return &x.schema[i]
		}
	}
	return nil
}

// checkVectorIndex validates one constraint-checked VectorIndex against
// the table's attribute definitions and key schema, and returns its
// definition (no ARN or times yet).
func checkVectorIndex(v *VectorIndex, attrDefs []attrDef, tableKeys []keyElem) (*vectorIndexDef, error) {
	name := *v.IndexName
	x := &vectorIndexDef{name: name, attr: *v.VectorAttribute.AttributeName, dims: *v.Dimensions, distance: *v.DistanceFunction}
	if x.dims > maxVectorDimensions {
		return nil, apierr.Validationf(apierr.MsgVectorDimensionsMax, name, x.dims)
	}
	if slices.ContainsFunc(tableKeys, func(k keyElem) bool { return k.name == x.attr }) {
		return nil, apierr.Validationf(apierr.MsgVectorAttrIsKey, x.attr, name)
	}
	if v.SearchSchema != nil && len(v.SearchSchema) == 0 {
		return nil, apierr.Validationf(apierr.MsgSearchSchemaEmpty, name)
	}
	hashes, filters := 0, 0
	for _, e := range v.SearchSchema {
		n, typ := *e.AttributeName, *e.SearchSchemaElementType
		i := slices.IndexFunc(attrDefs, func(a attrDef) bool { return a.name == n })
		if i < 0 {
			return nil, apierr.Validation(apierr.MsgSearchSchemaNotDefined)
		}
		if n == x.attr {
			return nil, apierr.Validationf(apierr.MsgSearchSchemaIsVector, name, n)
		}
		if x.schemaElem(n) != nil {
			return nil, apierr.Validationf(apierr.MsgSearchSchemaTwice, name, n)
		}
		if typ == searchHash {
			hashes++
		} else {
			filters++
		}
		x.schema = append(x.schema, searchElem{name: n, typ: typ, kind: storage.KindFromString(attrDefs[i].typ)})
	}
	if hashes > 1 {
		return nil, apierr.Validationf(apierr.MsgSearchSchemaHashTwice, name)
	}
	if filters > maxVectorInlineFilters {
		return nil, apierr.Validationf(apierr.MsgSearchSchemaFilters, name)
	}
	tmp := &indexDef{}
	if err := checkProjection(tmp, v.Projection); err != nil {
		return nil, err
	}
	x.projection = tmp.projection
	if n := 1 + filters + len(x.projection.nonKey); n > maxVectorProjected {
		return nil, apierr.Validationf(apierr.MsgVectorProjectedLimit, name, n)
	}
	x.build()
	return x, nil
}

// checkVectorDims applies "if multiple vector indexes reference the same
// attribute, they must all use the same number of dimensions" (AWS's API
// reference, CreateVectorIndexAction) to a table's vector indexes.
func checkVectorDims(xs []*vectorIndexDef) error {
	for i, x := range xs {
		for _, y := range xs[:i] {
			if x.attr == y.attr && x.dims != y.dims {
				return apierr.Validationf(apierr.MsgVectorDimensionsMismatch, x.attr, y.dims, y.name, x.dims, x.name)
			}
		}
	}
	return nil
}

// setVectorIndexes validates CreateTable's VectorIndexes (after the
// secondary indexes, whose names seen holds) into def.vectors.
func (def *tableDef) setVectorIndexes(in *CreateTableInput, seen map[string]bool) error {
	if in.VectorIndexes == nil {
		return nil
	}
	if def.billingMode != "PAY_PER_REQUEST" {
		return apierr.Validation(apierr.MsgVectorOnDemandOnly)
	}
	if len(in.VectorIndexes) == 0 {
		return apierr.Validation(apierr.MsgVectorIndexListEmpty)
	}
	for i := range in.VectorIndexes {
		x, err := checkVectorIndex(&in.VectorIndexes[i], def.attrDefs, def.keySchema)
		if err != nil {
			return err
		}
		if seen[x.name] {
			return apierr.Validation(apierr.MsgDuplicateIndex(x.name))
		}
		seen[x.name] = true
		def.vectors = append(def.vectors, x)
	}
	if len(def.vectors) > maxVectorIndexes {
		return apierr.Validation(apierr.MsgVectorIndexLimit)
	}
	return checkVectorDims(def.vectors)
}

// vectorStorageDefs returns the storage definitions of xs.
func vectorStorageDefs(xs []*vectorIndexDef) []storage.VectorIndexDef {
	var out []storage.VectorIndexDef
	for _, x := range xs {
		out = append(out, x.def)
	}
	return out
}

// describeVector describes vector index x in status (ACTIVE, CREATING or
// DELETING): counts and sizes of an ACTIVE index, as for GSIs, and
// Backfilling while one added by UpdateTable is CREATING (an index
// created with its table reports none; VECTOR_SPEC.md).
func (t *table) describeVector(x *vectorIndexDef, status string) VectorIndexDescription {
	d := VectorIndexDescription{
		IndexName:        x.name,
		IndexArn:         x.arn,
		VectorAttribute:  VectorAttributeDesc{AttributeName: x.attr},
		Dimensions:       x.dims,
		DistanceFunction: x.distance,
		Projection:       projectionDesc(x.projection),
		IndexStatus:      status,
	}
	for _, e := range x.schema {
		d.SearchSchema = append(d.SearchSchema, SearchSchemaElemDesc{AttributeName: e.name, SearchSchemaElementType: e.typ})
	}
	switch {
	case status == indexActive && t.data != nil:
		var count, size int64
		if n, sz, err := t.data.VectorIndexStats(x.name); err == nil {
			count, size = int64(n), sz
		}
		d.ItemCount, d.IndexSizeBytes = &count, &size
		if x.backfill {
			f := false
			d.Backfilling = &f
		}
	case status == indexCreating && x.backfill:
		b := true
		d.Backfilling = &b
	}
	return d
}

// vectorIndexes returns the table's vector index definitions, which the
// caller must not modify. It takes no lock (see table.meta).
func (t *table) vectorIndexes() []*vectorIndexDef { return t.meta.Load().vectors }

// vectorIndex returns the table's vector index called name, or nil.
func (t *table) vectorIndex(name string) *vectorIndexDef {
	for _, x := range t.vectorIndexes() {
		if x.name == name {
			return x
		}
	}
	return nil
}

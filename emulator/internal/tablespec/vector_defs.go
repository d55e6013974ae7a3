package tablespec

import (
	"slices"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Vector index limits (storage's, which follow AWS's quotas).
const (
	MaxVectorIndexes       = storage.MaxVectorIndexes
	MaxVectorDimensions    = storage.MaxVectorDimensions
	MaxVectorInlineFilters = storage.MaxVectorInlineFilters
	MaxVectorProjected     = MaxNonKeyPerIndex // the vector, the inline filters and NonKeyAttributes share it
)

// VectorIndexDef is a vector index as DescribeTable reports it; its
// Vectors live in the table's storage under its name.
type VectorIndexDef struct {
	Name       string
	ARN        string // <table arn>/index/<name>
	Attr       string // VectorAttribute.AttributeName
	Dims       int64
	Distance   string          // COSINE, EUCLIDEAN or DOT_PRODUCT
	Schema     []SearchElem    // SearchSchema, in the order given
	Projection IndexProjection // as given
	ActiveAt   time.Time       // CREATING until then
	Backfill   bool            // added by UpdateTable: Backfilling while CREATING
	GoneAt     time.Time       // a deleted index is DELETING until then
	Def        storage.VectorIndexDef
	Defs       []storage.VectorIndexDef // {def}, for vector.CheckItem
}

// SearchElem is one SearchSchema element with its attribute's kind.
type SearchElem struct {
	Name, Type string
	Kind       storage.Kind
}

// StatusAt is the IndexStatus of x at now.
func (x *VectorIndexDef) StatusAt(now time.Time) string {
	if now.Before(x.ActiveAt) {
		return IndexCreating
	}
	return IndexActive
}

// Build fills x.def and x.defs from the other fields.
func (x *VectorIndexDef) Build() {
	d, _ := storage.ParseDistanceFunction(x.Distance)
	x.Def = storage.VectorIndexDef{Name: x.Name, Attribute: x.Attr, Dimensions: int(x.Dims), Distance: d,
		Projection: storage.Projection{All: x.Projection.Type == ProjectionAll}}
	if x.Projection.Type == ProjectionInclude {
		x.Def.Projection.NonKey = x.Projection.NonKey
	}
	for _, e := range x.Schema {
		a := storage.KeyAttr{Name: e.Name, Kind: e.Kind}
		if e.Type == SearchHash {
			x.Def.Hash = a
		} else {
			x.Def.Filters = append(x.Def.Filters, a)
		}
	}
	x.Defs = []storage.VectorIndexDef{x.Def}
}

// Projected returns the attributes a search returns by default: nil for
// ALL (every attribute but the vector), else the table's keys, the search
// schema's attributes and NonKeyAttributes. The vector attribute is
// returned only when a ProjectionExpression names it (VECTOR_SPEC.md).
func (x *VectorIndexDef) Projected(ks storage.KeySchema) []string {
	if x.Projection.Type == ProjectionAll {
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
	for _, e := range x.Schema {
		add(e.Name)
	}
	for _, n := range x.Projection.NonKey {
		add(n)
	}
	return names
}

// SchemaElem returns the search schema element on attribute name, or nil.
func (x *VectorIndexDef) SchemaElem(name string) *SearchElem {
	for i := range x.Schema {
		if x.Schema[i].Name == name {
			return &x.Schema[i]
		}
	}
	return nil
}

// CheckVectorIndex validates one constraint-checked VectorIndex against
// the table's attribute definitions and key schema, and returns its
// definition (no ARN or times yet).
func CheckVectorIndex(v *VectorIndex, attrDefs []AttrDef, tableKeys []KeyElem) (*VectorIndexDef, error) {
	name := *v.IndexName
	x := &VectorIndexDef{Name: name, Attr: *v.VectorAttribute.AttributeName, Dims: *v.Dimensions, Distance: *v.DistanceFunction}
	if x.Dims > MaxVectorDimensions {
		return nil, apierr.Validationf(apierr.MsgVectorDimensionsMax, name, x.Dims)
	}
	if slices.ContainsFunc(tableKeys, func(k KeyElem) bool { return k.Name == x.Attr }) {
		return nil, apierr.Validationf(apierr.MsgVectorAttrIsKey, x.Attr, name)
	}
	if v.SearchSchema != nil && len(v.SearchSchema) == 0 {
		return nil, apierr.Validationf(apierr.MsgSearchSchemaEmpty, name)
	}
	hashes, filters := 0, 0
	for _, e := range v.SearchSchema {
		n, typ := *e.AttributeName, *e.SearchSchemaElementType
		i := slices.IndexFunc(attrDefs, func(a AttrDef) bool { return a.Name == n })
		if i < 0 {
			return nil, apierr.Validation(apierr.MsgSearchSchemaNotDefined)
		}
		if n == x.Attr {
			return nil, apierr.Validationf(apierr.MsgSearchSchemaIsVector, name, n)
		}
		if x.SchemaElem(n) != nil {
			return nil, apierr.Validationf(apierr.MsgSearchSchemaTwice, name, n)
		}
		if typ == SearchHash {
			hashes++
		} else {
			filters++
		}
		x.Schema = append(x.Schema, SearchElem{Name: n, Type: typ, Kind: storage.KindFromString(attrDefs[i].Type)})
	}
	if hashes > 1 {
		return nil, apierr.Validationf(apierr.MsgSearchSchemaHashTwice, name)
	}
	if filters > MaxVectorInlineFilters {
		return nil, apierr.Validationf(apierr.MsgSearchSchemaFilters, name)
	}
	tmp := &IndexDef{}
	if err := CheckProjection(tmp, v.Projection); err != nil {
		return nil, err
	}
	x.Projection = tmp.Projection
	if n := 1 + filters + len(x.Projection.NonKey); n > MaxVectorProjected {
		return nil, apierr.Validationf(apierr.MsgVectorProjectedLimit, name, n)
	}
	x.Build()
	return x, nil
}

// CheckVectorDims applies "if multiple vector indexes reference the same
// attribute, they must all use the same number of dimensions" (AWS's API
// reference, CreateVectorIndexAction) to a table's vector indexes.
func CheckVectorDims(xs []*VectorIndexDef) error {
	for i, x := range xs {
		for _, y := range xs[:i] {
			if x.Attr == y.Attr && x.Dims != y.Dims {
				return apierr.Validationf(apierr.MsgVectorDimensionsMismatch, x.Attr, y.Dims, y.Name, x.Dims, x.Name)
			}
		}
	}
	return nil
}

// setVectorIndexes validates CreateTable's VectorIndexes (after the
// secondary indexes, whose names seen holds) into def.vectors.
func (def *TableDef) setVectorIndexes(in *CreateTableInput, seen map[string]bool) error {
	if in.VectorIndexes == nil {
		return nil
	}
	if def.BillingMode != "PAY_PER_REQUEST" {
		return apierr.Validation(apierr.MsgVectorOnDemandOnly)
	}
	if len(in.VectorIndexes) == 0 {
		return apierr.Validation(apierr.MsgVectorIndexListEmpty)
	}
	for i := range in.VectorIndexes {
		x, err := CheckVectorIndex(&in.VectorIndexes[i], def.AttrDefs, def.KeySchema)
		if err != nil {
			return err
		}
		if seen[x.Name] {
			return apierr.Validation(apierr.MsgDuplicateIndex(x.Name))
		}
		seen[x.Name] = true
		def.Vectors = append(def.Vectors, x)
	}
	if len(def.Vectors) > MaxVectorIndexes {
		return apierr.Validation(apierr.MsgVectorIndexLimit)
	}
	return CheckVectorDims(def.Vectors)
}

// VectorStorageDefs returns the storage definitions of xs.
func VectorStorageDefs(xs []*VectorIndexDef) []storage.VectorIndexDef {
	var out []storage.VectorIndexDef
	for _, x := range xs {
		out = append(out, x.Def)
	}
	return out
}

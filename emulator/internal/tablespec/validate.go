package tablespec

import (
	"slices"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Limits of a table definition.
const (
	MaxNonKeyPerTable = 100 // NonKeyAttributes summed over a table's indexes (AWS's documented limit)
	MaxLSIs           = 5
	MaxGSIs           = 20
	MaxCapacityUnit   = 1_000_000_000_000 // larger values are "out of bounds"
)

// TableDef is a validated CreateTable request: everything a new table
// needs, in the emulator's own types.
type TableDef struct {
	Name               string
	AttrDefs           []AttrDef
	KeySchema          []KeyElem
	Schema             storage.KeySchema
	BillingMode        string // PROVISIONED or PAY_PER_REQUEST
	Throughput         *Throughput
	OnDemand           *OnDemandThroughput
	Warm               Warm // the WarmThroughput asked for (zero: none)
	LSIs               []*IndexDef
	GSIs               []*IndexDef
	Vectors            []*VectorIndexDef
	Stream             *StreamSpecification
	SSE                *SSESpecification
	TableClass         string
	DeletionProtection bool
	Tags               []TagPair
}

// ValidateCreateTable checks a CreateTable request in AWS's order: the
// required name, all model constraints at once (the name's among them), then
// the semantic rules one at a time.
func ValidateCreateTable(in *CreateTableInput) (*TableDef, error) {
	if in.TableName == nil {
		return nil, apierr.Validation(apierr.MsgTableNameRequired)
	}
	if err := CreateTableConstraints(in); err != nil {
		return nil, err
	}
	def := &TableDef{Name: *in.TableName, BillingMode: "PROVISIONED"}
	if in.BillingMode != nil {
		def.BillingMode = *in.BillingMode
	}
	if err := def.setThroughput(in.ProvisionedThroughput); err != nil {
		return nil, err
	}
	if err := def.setKeys(in); err != nil {
		return nil, err
	}
	if err := def.setIndexes(in); err != nil {
		return nil, err
	}
	if err := ValidateStream(in.StreamSpecification, apierr.MsgCreateStreamViewTypeRequired, apierr.MsgCreateStreamViewTypeWhenDisabled); err != nil {
		return nil, err
	}
	var err error
	if def.OnDemand, err = CreateOnDemand(in.OnDemandThroughput, def.BillingMode); err != nil {
		return nil, err
	}
	if def.Warm, err = CheckCreateWarm(in.WarmThroughput, "", def.Throughput); err != nil {
		return nil, err
	}
	for i, x := range in.GlobalSecondaryIndexes {
		g := def.GSIs[i]
		if g.Warm, err = CheckCreateWarm(x.WarmThroughput, g.Name, g.Throughput); err != nil {
			return nil, err
		}
	}
	def.Stream = in.StreamSpecification
	def.SSE = in.SSESpecification
	if in.TableClass != nil {
		def.TableClass = *in.TableClass
	}
	if in.DeletionProtectionEnabled != nil {
		def.DeletionProtection = *in.DeletionProtectionEnabled
	}
	if len(in.Tags) > MaxTags {
		return nil, apierr.Validation(apierr.MsgTagLimit)
	}
	tags, err := ValidateTags(in.Tags)
	if err != nil {
		return nil, err
	}
	def.Tags = tags
	return def, nil
}

// setThroughput applies the billing-mode rules to the table's throughput.
func (def *TableDef) setThroughput(pt *ProvisionedThroughput) error {
	if def.BillingMode == "PAY_PER_REQUEST" {
		if pt != nil {
			return apierr.Validation(apierr.MsgPPRWithThroughput)
		}
		return nil
	}
	if pt == nil {
		return apierr.Validation(apierr.MsgProvisionedNeedsThroughput)
	}
	tp, err := BoundedThroughput(pt)
	if err != nil {
		return err
	}
	def.Throughput = tp
	return nil
}

// BoundedThroughput converts a constraint-checked ProvisionedThroughput,
// rejecting values above AWS's absolute bound. (AWS's default per-table
// quota of 40,000 units is an account setting and is not enforced;
// DynamoDB Local rejects more with "Cannot increase provisioned throughput
// to more than 40,000 units per table".)
func BoundedThroughput(pt *ProvisionedThroughput) (*Throughput, error) {
	if r := *pt.ReadCapacityUnits; r > MaxCapacityUnit {
		return nil, apierr.Validation(apierr.MsgThroughputOutOfBounds(r, "ReadCapacityUnits"))
	}
	if w := *pt.WriteCapacityUnits; w > MaxCapacityUnit {
		return nil, apierr.Validation(apierr.MsgThroughputOutOfBounds(w, "WriteCapacityUnits"))
	}
	return &Throughput{Read: *pt.ReadCapacityUnits, Write: *pt.WriteCapacityUnits}, nil
}

// setKeys validates the table's KeySchema against AttributeDefinitions.
func (def *TableDef) setKeys(in *CreateTableInput) error {
	defNames := make([]string, len(in.AttributeDefinitions))
	for i, d := range in.AttributeDefinitions {
		defNames[i] = *d.AttributeName
		def.AttrDefs = append(def.AttrDefs, AttrDef{Name: *d.AttributeName, Type: *d.AttributeType})
	}
	for i, name := range defNames {
		if slices.Contains(defNames[:i], name) {
			return apierr.Validation(apierr.MsgDuplicateAttribute(name))
		}
	}
	keys, err := CheckKeySchema(in.KeySchema, defNames)
	if err != nil {
		return err
	}
	if in.LocalSecondaryIndexes == nil && in.GlobalSecondaryIndexes == nil && in.VectorIndexes == nil && len(keys) != len(defNames) {
		return apierr.Validation(apierr.MsgKeyCountMismatch)
	}
	def.KeySchema = keys
	def.Schema = def.StorageSchema(keys)
	return nil
}

// CheckKeySchema applies the rules every KeySchema (table or index)
// follows, in AWS's order, and returns it in the emulator's types.
func CheckKeySchema(ks []KeySchemaElement, defNames []string) ([]KeyElem, error) {
	keys := make([]KeyElem, len(ks))
	names := make([]string, len(ks))
	for i, e := range ks {
		keys[i] = KeyElem{Name: *e.AttributeName, KeyType: *e.KeyType}
		names[i] = *e.AttributeName
	}
	if len(names) > len(defNames) {
		return nil, apierr.Validation(apierr.MsgKeyNoDefinition)
	}
	for _, n := range names {
		if !slices.Contains(defNames, n) {
			return nil, apierr.Validation(apierr.MsgKeysNotDefined(names, defNames))
		}
	}
	if len(keys) == 2 && keys[0].Name == keys[1].Name {
		return nil, apierr.Validation(apierr.MsgKeySameName)
	}
	if keys[0].KeyType != "HASH" {
		return nil, apierr.Validation(apierr.MsgKeyFirstNotHash)
	}
	if len(keys) == 2 && keys[1].KeyType != "RANGE" {
		return nil, apierr.Validation(apierr.MsgKeySecondNotRange)
	}
	return keys, nil
}

// StorageSchema maps validated key elements to a storage.KeySchema.
func (def *TableDef) StorageSchema(keys []KeyElem) storage.KeySchema {
	kind := func(name string) storage.Kind {
		for _, d := range def.AttrDefs {
			if d.Name == name {
				return storage.KindFromString(d.Type)
			}
		}
		return storage.KindInvalid
	}
	var ks storage.KeySchema
	ks.Partition = storage.KeyAttr{Name: keys[0].Name, Kind: kind(keys[0].Name)}
	if len(keys) == 2 {
		ks.Sort = storage.KeyAttr{Name: keys[1].Name, Kind: kind(keys[1].Name)}
	}
	return ks
}

// setIndexes validates LocalSecondaryIndexes and GlobalSecondaryIndexes.
func (def *TableDef) setIndexes(in *CreateTableInput) error {
	defNames := make([]string, len(def.AttrDefs))
	for i, d := range def.AttrDefs {
		defNames[i] = d.Name
	}
	seen := map[string]bool{}
	if err := def.setLSIs(in, defNames, seen); err != nil {
		return err
	}
	if err := def.setGSIs(in, defNames, seen); err != nil {
		return err
	}
	if err := def.setVectorIndexes(in, seen); err != nil {
		return err
	}
	if def.LSIs == nil && def.GSIs == nil && def.Vectors == nil {
		return nil
	}
	if ProjectedNonKeyCount(def.LSIs, def.GSIs) > MaxNonKeyPerTable {
		return apierr.Validation(apierr.MsgTooManyProjected)
	}
	return def.checkDefinitionsUsed(defNames)
}

// setLSIs validates LocalSecondaryIndexes, if given, and adds them to
// def; seen holds the index names taken.
func (def *TableDef) setLSIs(in *CreateTableInput, defNames []string, seen map[string]bool) error {
	if in.LocalSecondaryIndexes == nil {
		return nil
	}
	if len(in.LocalSecondaryIndexes) == 0 {
		return apierr.Validation(apierr.MsgLSIListEmpty)
	}
	if len(def.KeySchema) != 2 {
		return apierr.Validation(apierr.MsgLSINeedsTableRange)
	}
	for _, x := range in.LocalSecondaryIndexes {
		idx, err := def.checkIndex(*x.IndexName, x.KeySchema, x.Projection, defNames)
		if err != nil {
			return err
		}
		if len(idx.KeySchema) != 2 {
			return apierr.Validation(apierr.MsgIndexNoRange(idx.Name))
		}
		idx.Local = true
		if h := idx.KeySchema[0].Name; h != def.KeySchema[0].Name {
			return apierr.Validation(apierr.MsgLSIHashMismatch(idx.Name, h, def.KeySchema[0].Name))
		}
		if err := CheckProjection(idx, x.Projection); err != nil {
			return err
		}
		if seen[idx.Name] {
			return apierr.Validation(apierr.MsgDuplicateIndex(idx.Name))
		}
		seen[idx.Name] = true
		def.LSIs = append(def.LSIs, idx)
	}
	if len(def.LSIs) > MaxLSIs {
		return apierr.Validation(apierr.MsgLSILimit)
	}
	return nil
}

// setGSIs validates GlobalSecondaryIndexes, if given, and adds them to
// def; seen holds the index names taken.
func (def *TableDef) setGSIs(in *CreateTableInput, defNames []string, seen map[string]bool) error {
	if in.GlobalSecondaryIndexes == nil {
		return nil
	}
	if len(in.GlobalSecondaryIndexes) == 0 {
		return apierr.Validation(apierr.MsgGSIListEmpty)
	}
	for _, x := range in.GlobalSecondaryIndexes {
		idx, err := def.CheckGSI(*x.IndexName, x.KeySchema, defNames)
		if err != nil {
			return err
		}
		if err := CheckProjection(idx, x.Projection); err != nil {
			return err
		}
		if err := def.GSIThroughput(idx, x.ProvisionedThroughput); err != nil {
			return err
		}
		idx.OnDemand = x.OnDemandThroughput
		if seen[idx.Name] {
			return apierr.Validation(apierr.MsgDuplicateIndex(idx.Name))
		}
		seen[idx.Name] = true
		def.GSIs = append(def.GSIs, idx)
	}
	if len(def.GSIs) > MaxGSIs {
		return apierr.Validation(apierr.MsgGSILimit)
	}
	return nil
}

// checkDefinitionsUsed refuses a table with indexes whose attribute
// definitions (defNames) are not all used by some key schema.
func (def *TableDef) checkDefinitionsUsed(defNames []string) error {
	var used []string
	for _, ks := range def.allKeySchemas() {
		for _, k := range ks {
			if !slices.Contains(used, k.Name) {
				used = append(used, k.Name)
			}
		}
	}
	if len(used) != len(defNames) {
		// AWS lists "keys used" in hash-set order; this lists them in
		// order of first use (table, then LSIs, then GSIs).
		return apierr.Validation(apierr.MsgUnusedDefinitions(defNames, used))
	}
	return nil
}

// allKeySchemas returns the table's key schema followed by its indexes'.
func (def *TableDef) allKeySchemas() [][]KeyElem {
	out := [][]KeyElem{def.KeySchema}
	for _, x := range def.LSIs {
		out = append(out, x.KeySchema)
	}
	for _, x := range def.GSIs {
		out = append(out, x.KeySchema)
	}
	for _, x := range def.Vectors { // search schema attributes use definitions too
		var ks []KeyElem
		for _, e := range x.Schema {
			ks = append(ks, KeyElem{Name: e.Name, KeyType: e.Type})
		}
		out = append(out, ks)
	}
	return out
}

// CheckGSI validates a global secondary index's key schema, which may
// have several partition and sort key attributes.
func (def *TableDef) CheckGSI(name string, ks []KeySchemaElement, defNames []string) (*IndexDef, error) {
	if !MultiAttrKeySchema(ks) {
		return def.checkIndex(name, ks, nil, defNames)
	}
	keys, err := CheckMultiKeySchema(ks, defNames)
	if err != nil {
		return nil, err
	}
	x := &IndexDef{Name: name, KeySchema: keys}
	x.SetAttrs(def.AttrDefs)
	x.Schema = storage.KeySchema{Partition: x.PartAttrs[0]}
	if len(x.SortAttrs) > 0 {
		x.Schema.Sort = x.SortAttrs[0]
	}
	return x, nil
}

// checkIndex validates an index's key schema.
func (def *TableDef) checkIndex(name string, ks []KeySchemaElement, proj *Projection, defNames []string) (*IndexDef, error) {
	keys, err := CheckKeySchema(ks, defNames)
	if err != nil {
		return nil, err
	}
	x := &IndexDef{Name: name, KeySchema: keys, Schema: def.StorageSchema(keys)}
	x.SetAttrs(def.AttrDefs)
	return x, nil
}

// CheckProjection validates and records an index's Projection.
func CheckProjection(idx *IndexDef, p *Projection) error {
	if p.ProjectionType == nil {
		return apierr.Validation(apierr.MsgUnknownProjection)
	}
	if p.NonKeyAttributes != nil && *p.ProjectionType != "INCLUDE" {
		return apierr.Validation(apierr.MsgProjectionNonKey(*p.ProjectionType))
	}
	if err := CheckIncludeProjection(p); err != nil {
		return err
	}
	for i, n := range p.NonKeyAttributes {
		if slices.Contains(p.NonKeyAttributes[:i], n) {
			return apierr.Validation(apierr.MsgDuplicateNonKey(n))
		}
	}
	idx.Projection = IndexProjection{Type: *p.ProjectionType, NonKey: slices.Clone(p.NonKeyAttributes)}
	return nil
}

// GSIThroughput applies the billing-mode rules to a GSI's throughput.
func (def *TableDef) GSIThroughput(idx *IndexDef, pt *ProvisionedThroughput) error {
	if def.BillingMode == "PAY_PER_REQUEST" {
		if pt != nil {
			return apierr.Validation(apierr.MsgGSIPPRWithThroughput(idx.Name))
		}
		return nil
	}
	if pt == nil {
		return apierr.Validation(apierr.MsgGSINeedsThroughput(idx.Name))
	}
	tp, err := BoundedThroughput(pt)
	if err != nil {
		return err
	}
	idx.Throughput = tp
	return nil
}

// ProjectedNonKeyCount sums the NonKeyAttributes of indexes, an attribute
// Projected into two indexes counting twice, as AWS counts them.
func ProjectedNonKeyCount(lists ...[]*IndexDef) int {
	n := 0
	for _, list := range lists {
		for _, x := range list {
			n += len(x.Projection.NonKey)
		}
	}
	return n
}

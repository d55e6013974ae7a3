package service

import (
	"slices"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Limits of a table definition.
const (
	maxNonKeyPerTable = 100 // NonKeyAttributes summed over a table's indexes (AWS's documented limit)
	maxLSIs           = 5
	maxGSIs           = 20
	maxCapacityUnit   = 1_000_000_000_000 // larger values are "out of bounds"
)

// tableDef is a validated CreateTable request: everything a new table
// needs, in the emulator's own types.
type tableDef struct {
	name               string
	attrDefs           []attrDef
	keySchema          []keyElem
	schema             storage.KeySchema
	billingMode        string // PROVISIONED or PAY_PER_REQUEST
	throughput         *throughput
	onDemand           *OnDemandThroughput
	lsis               []*indexDef
	gsis               []*indexDef
	vectors            []*vectorIndexDef
	stream             *StreamSpecification
	sse                *SSESpecification
	tableClass         string
	deletionProtection bool
	tags               []tagPair
}

// validateCreateTable checks a CreateTable request in AWS's order: the
// required name, all model constraints at once (the name's among them), then
// the semantic rules one at a time.
func validateCreateTable(in *CreateTableInput) (*tableDef, error) {
	if in.TableName == nil {
		return nil, apierr.Validation(apierr.MsgTableNameRequired)
	}
	if err := tablespec.CreateTableConstraints(in); err != nil {
		return nil, err
	}
	def := &tableDef{name: *in.TableName, billingMode: "PROVISIONED"}
	if in.BillingMode != nil {
		def.billingMode = *in.BillingMode
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
	if err := tablespec.ValidateStream(in.StreamSpecification, apierr.MsgCreateStreamViewTypeRequired, apierr.MsgCreateStreamViewTypeWhenDisabled); err != nil {
		return nil, err
	}
	def.onDemand = in.OnDemandThroughput
	def.stream = in.StreamSpecification
	def.sse = in.SSESpecification
	if in.TableClass != nil {
		def.tableClass = *in.TableClass
	}
	if in.DeletionProtectionEnabled != nil {
		def.deletionProtection = *in.DeletionProtectionEnabled
	}
	if len(in.Tags) > MaxTags {
		return nil, apierr.Validation(apierr.MsgTagLimit)
	}
	tags, err := validateTags(in.Tags)
	if err != nil {
		return nil, err
	}
	def.tags = tags
	return def, nil
}

// setThroughput applies the billing-mode rules to the table's throughput.
func (def *tableDef) setThroughput(pt *ProvisionedThroughput) error {
	if def.billingMode == "PAY_PER_REQUEST" {
		if pt != nil {
			return apierr.Validation(apierr.MsgPPRWithThroughput)
		}
		return nil
	}
	if pt == nil {
		return apierr.Validation(apierr.MsgProvisionedNeedsThroughput)
	}
	tp, err := boundedThroughput(pt)
	if err != nil {
		return err
	}
	def.throughput = tp
	return nil
}

// boundedThroughput converts a constraint-checked ProvisionedThroughput,
// rejecting values above AWS's absolute bound. (AWS's default per-table
// quota of 40,000 units is an account setting and is not enforced;
// DynamoDB Local rejects more with "Cannot increase provisioned throughput
// to more than 40,000 units per table".)
func boundedThroughput(pt *ProvisionedThroughput) (*throughput, error) {
	if r := *pt.ReadCapacityUnits; r > maxCapacityUnit {
		return nil, apierr.Validation(apierr.MsgThroughputOutOfBounds(r, "ReadCapacityUnits"))
	}
	if w := *pt.WriteCapacityUnits; w > maxCapacityUnit {
		return nil, apierr.Validation(apierr.MsgThroughputOutOfBounds(w, "WriteCapacityUnits"))
	}
	return &throughput{read: *pt.ReadCapacityUnits, write: *pt.WriteCapacityUnits}, nil
}

// setKeys validates the table's KeySchema against AttributeDefinitions.
func (def *tableDef) setKeys(in *CreateTableInput) error {
	defNames := make([]string, len(in.AttributeDefinitions))
	for i, d := range in.AttributeDefinitions {
		defNames[i] = *d.AttributeName
		def.attrDefs = append(def.attrDefs, attrDef{name: *d.AttributeName, typ: *d.AttributeType})
	}
	for i, name := range defNames {
		if slices.Contains(defNames[:i], name) {
			return apierr.Validation(apierr.MsgDuplicateAttribute(name))
		}
	}
	keys, err := checkKeySchema(in.KeySchema, defNames)
	if err != nil {
		return err
	}
	if in.LocalSecondaryIndexes == nil && in.GlobalSecondaryIndexes == nil && in.VectorIndexes == nil && len(keys) != len(defNames) {
		return apierr.Validation(apierr.MsgKeyCountMismatch)
	}
	def.keySchema = keys
	def.schema = def.storageSchema(keys)
	return nil
}

// checkKeySchema applies the rules every KeySchema (table or index)
// follows, in AWS's order, and returns it in the emulator's types.
func checkKeySchema(ks []KeySchemaElement, defNames []string) ([]keyElem, error) {
	keys := make([]keyElem, len(ks))
	names := make([]string, len(ks))
	for i, e := range ks {
		keys[i] = keyElem{name: *e.AttributeName, keyType: *e.KeyType}
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
	if len(keys) == 2 && keys[0].name == keys[1].name {
		return nil, apierr.Validation(apierr.MsgKeySameName)
	}
	if keys[0].keyType != "HASH" {
		return nil, apierr.Validation(apierr.MsgKeyFirstNotHash)
	}
	if len(keys) == 2 && keys[1].keyType != "RANGE" {
		return nil, apierr.Validation(apierr.MsgKeySecondNotRange)
	}
	return keys, nil
}

// storageSchema maps validated key elements to a storage.KeySchema.
func (def *tableDef) storageSchema(keys []keyElem) storage.KeySchema {
	kind := func(name string) storage.Kind {
		for _, d := range def.attrDefs {
			if d.name == name {
				return storage.KindFromString(d.typ)
			}
		}
		return storage.KindInvalid
	}
	var ks storage.KeySchema
	ks.Partition = storage.KeyAttr{Name: keys[0].name, Kind: kind(keys[0].name)}
	if len(keys) == 2 {
		ks.Sort = storage.KeyAttr{Name: keys[1].name, Kind: kind(keys[1].name)}
	}
	return ks
}

// setIndexes validates LocalSecondaryIndexes and GlobalSecondaryIndexes.
func (def *tableDef) setIndexes(in *CreateTableInput) error {
	defNames := make([]string, len(def.attrDefs))
	for i, d := range def.attrDefs {
		defNames[i] = d.name
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
	if def.lsis == nil && def.gsis == nil && def.vectors == nil {
		return nil
	}
	if projectedNonKeyCount(def.lsis, def.gsis) > maxNonKeyPerTable {
		return apierr.Validation(apierr.MsgTooManyProjected)
	}
	return def.checkDefinitionsUsed(defNames)
}

// setLSIs validates LocalSecondaryIndexes, if given, and adds them to
// def; seen holds the index names taken.
func (def *tableDef) setLSIs(in *CreateTableInput, defNames []string, seen map[string]bool) error {
	if in.LocalSecondaryIndexes == nil {
		return nil
	}
	if len(in.LocalSecondaryIndexes) == 0 {
		return apierr.Validation(apierr.MsgLSIListEmpty)
	}
	if len(def.keySchema) != 2 {
		return apierr.Validation(apierr.MsgLSINeedsTableRange)
	}
	for _, x := range in.LocalSecondaryIndexes {
		idx, err := def.checkIndex(*x.IndexName, x.KeySchema, x.Projection, defNames)
		if err != nil {
			return err
		}
		if len(idx.keySchema) != 2 {
			return apierr.Validation(apierr.MsgIndexNoRange(idx.name))
		}
		idx.local = true
		if h := idx.keySchema[0].name; h != def.keySchema[0].name {
			return apierr.Validation(apierr.MsgLSIHashMismatch(idx.name, h, def.keySchema[0].name))
		}
		if err := checkProjection(idx, x.Projection); err != nil {
			return err
		}
		if seen[idx.name] {
			return apierr.Validation(apierr.MsgDuplicateIndex(idx.name))
		}
		seen[idx.name] = true
		def.lsis = append(def.lsis, idx)
	}
	if len(def.lsis) > maxLSIs {
		return apierr.Validation(apierr.MsgLSILimit)
	}
	return nil
}

// setGSIs validates GlobalSecondaryIndexes, if given, and adds them to
// def; seen holds the index names taken.
func (def *tableDef) setGSIs(in *CreateTableInput, defNames []string, seen map[string]bool) error {
	if in.GlobalSecondaryIndexes == nil {
		return nil
	}
	if len(in.GlobalSecondaryIndexes) == 0 {
		return apierr.Validation(apierr.MsgGSIListEmpty)
	}
	for _, x := range in.GlobalSecondaryIndexes {
		idx, err := def.checkGSI(*x.IndexName, x.KeySchema, defNames)
		if err != nil {
			return err
		}
		if err := checkProjection(idx, x.Projection); err != nil {
			return err
		}
		if err := def.gsiThroughput(idx, x.ProvisionedThroughput); err != nil {
			return err
		}
		idx.onDemand = x.OnDemandThroughput
		if seen[idx.name] {
			return apierr.Validation(apierr.MsgDuplicateIndex(idx.name))
		}
		seen[idx.name] = true
		def.gsis = append(def.gsis, idx)
	}
	if len(def.gsis) > maxGSIs {
		return apierr.Validation(apierr.MsgGSILimit)
	}
	return nil
}

// checkDefinitionsUsed refuses a table with indexes whose attribute
// definitions (defNames) are not all used by some key schema.
func (def *tableDef) checkDefinitionsUsed(defNames []string) error {
	var used []string
	for _, ks := range def.allKeySchemas() {
		for _, k := range ks {
			if !slices.Contains(used, k.name) {
				used = append(used, k.name)
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
func (def *tableDef) allKeySchemas() [][]keyElem {
	out := [][]keyElem{def.keySchema}
	for _, x := range def.lsis {
		out = append(out, x.keySchema)
	}
	for _, x := range def.gsis {
		out = append(out, x.keySchema)
	}
	for _, x := range def.vectors { // search schema attributes use definitions too
		var ks []keyElem
		for _, e := range x.schema {
			ks = append(ks, keyElem{name: e.name, keyType: e.typ})
		}
		out = append(out, ks)
	}
	return out
}

// checkGSI validates a global secondary index's key schema, which may
// have several partition and sort key attributes.
func (def *tableDef) checkGSI(name string, ks []KeySchemaElement, defNames []string) (*indexDef, error) {
	if !multiAttrKeySchema(ks) {
		return def.checkIndex(name, ks, nil, defNames)
	}
	keys, err := checkMultiKeySchema(ks, defNames)
	if err != nil {
		return nil, err
	}
	x := &indexDef{name: name, keySchema: keys}
	x.setAttrs(def.attrDefs)
	x.schema = storage.KeySchema{Partition: x.partAttrs[0]}
	if len(x.sortAttrs) > 0 {
		x.schema.Sort = x.sortAttrs[0]
	}
	return x, nil
}

// checkIndex validates an index's key schema.
func (def *tableDef) checkIndex(name string, ks []KeySchemaElement, proj *Projection, defNames []string) (*indexDef, error) {
	keys, err := checkKeySchema(ks, defNames)
	if err != nil {
		return nil, err
	}
	x := &indexDef{name: name, keySchema: keys, schema: def.storageSchema(keys)}
	x.setAttrs(def.attrDefs)
	return x, nil
}

// checkProjection validates and records an index's Projection.
func checkProjection(idx *indexDef, p *Projection) error {
	if p.ProjectionType == nil {
		return apierr.Validation(apierr.MsgUnknownProjection)
	}
	if p.NonKeyAttributes != nil && *p.ProjectionType != "INCLUDE" {
		return apierr.Validation(apierr.MsgProjectionNonKey(*p.ProjectionType))
	}
	if err := tablespec.CheckIncludeProjection(p); err != nil {
		return err
	}
	for i, n := range p.NonKeyAttributes {
		if slices.Contains(p.NonKeyAttributes[:i], n) {
			return apierr.Validation(apierr.MsgDuplicateNonKey)
		}
	}
	idx.projection = projection{typ: *p.ProjectionType, nonKey: slices.Clone(p.NonKeyAttributes)}
	return nil
}

// gsiThroughput applies the billing-mode rules to a GSI's throughput.
func (def *tableDef) gsiThroughput(idx *indexDef, pt *ProvisionedThroughput) error {
	if def.billingMode == "PAY_PER_REQUEST" {
		if pt != nil {
			return apierr.Validation(apierr.MsgGSIPPRWithThroughput(idx.name))
		}
		return nil
	}
	if pt == nil {
		return apierr.Validation(apierr.MsgGSINeedsThroughput(idx.name))
	}
	tp, err := boundedThroughput(pt)
	if err != nil {
		return err
	}
	idx.throughput = tp
	return nil
}

// projectedNonKeyCount sums the NonKeyAttributes of indexes, an attribute
// projected into two indexes counting twice, as AWS counts them.
func projectedNonKeyCount(lists ...[]*indexDef) int {
	n := 0
	for _, list := range lists {
		for _, x := range list {
			n += len(x.projection.nonKey)
		}
	}
	return n
}

package tablespec

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Limits a request's wire form is checked against.
const (
	MaxNonKeyPerIndex = 20 // NonKeyAttributes of one index
	// MaxGSIKeyAttrs is the most elements a GSI's KeySchema may have.
	MaxGSIKeyAttrs = 2 * storage.MaxIndexPartitionAttrs
)

// SearchSchemaElementType values.
const (
	SearchHash   = "HASH"
	SearchFilter = "INLINE_FILTER"
)

// CreateTableConstraints reports every model-constraint violation of a
// CreateTable request, in the order AWS lists them.
func CreateTableConstraints(in *CreateTableInput) error {
	var cs apierr.Constraints
	if apierr.NotNull(&cs, nilIfNoSlice(in.AttributeDefinitions), "attributeDefinitions") {
		AttrDefsConstraints(&cs, in.AttributeDefinitions)
	}
	// A bad name is a model constraint like the others, reported with them
	// and before any semantic check of the key schema: "1 validation error
	// detected: Value 'ab' at 'tableName' failed to satisfy constraint:
	// Member must have length greater than or equal to 3" (AWS's recorded
	// answers; DynamoDB Local answers "Invalid table/index name. ...").
	apierr.NameConstraints(&cs, *in.TableName, "tableName")
	apierr.Enum(&cs, in.BillingMode, "billingMode", "PROVISIONED", "PAY_PER_REQUEST")
	ThroughputConstraints(&cs, in.ProvisionedThroughput, "provisionedThroughput")
	KeySchemaConstraints(&cs, in.KeySchema, "keySchema")
	// Global secondary indexes before local ones, whatever order the
	// request lists them in (AWS's record; the service's validation_order.go).
	for i, x := range in.GlobalSecondaryIndexes {
		p := "globalSecondaryIndexes." + strconv.Itoa(i+1) + ".member."
		IndexConstraints(&cs, x.IndexName, x.KeySchema, x.Projection, p, MaxGSIKeyAttrs)
		ThroughputConstraints(&cs, x.ProvisionedThroughput, p+"provisionedThroughput")
	}
	for i, x := range in.LocalSecondaryIndexes {
		p := "localSecondaryIndexes." + strconv.Itoa(i+1) + ".member."
		IndexConstraints(&cs, x.IndexName, x.KeySchema, x.Projection, p, 2)
	}
	for i := range in.VectorIndexes {
		VectorIndexConstraints(&cs, &in.VectorIndexes[i], "vectorIndexes."+strconv.Itoa(i+1)+".member.")
	}
	StreamConstraints(&cs, in.StreamSpecification)
	SSEConstraints(&cs, in.SSESpecification)
	apierr.Enum(&cs, in.TableClass, "tableClass", "STANDARD", "STANDARD_INFREQUENT_ACCESS")
	// Tags are checked after the model, with their own messages (the
	// service's validateTags), as AWS does.
	return cs.Err()
}

// nilIfNoSlice turns "member absent" (a nil slice) into a nil pointer so
// notNull can check it; an empty JSON list is present.
func nilIfNoSlice[T any](s []T) *[]T {
	if s == nil {
		return nil
	}
	return &s
}

// ThroughputConstraints adds the model faults of a ProvisionedThroughput
// at path (nil: none).
func ThroughputConstraints(cs *apierr.Constraints, pt *ProvisionedThroughput, path string) {
	if pt == nil {
		return
	}
	if apierr.NotNull(cs, pt.WriteCapacityUnits, path+".writeCapacityUnits") && *pt.WriteCapacityUnits < 1 {
		cs.Add(apierr.QuoteInt(*pt.WriteCapacityUnits), path+".writeCapacityUnits", apierr.ValGE(1))
	}
	if apierr.NotNull(cs, pt.ReadCapacityUnits, path+".readCapacityUnits") && *pt.ReadCapacityUnits < 1 {
		cs.Add(apierr.QuoteInt(*pt.ReadCapacityUnits), path+".readCapacityUnits", apierr.ValGE(1))
	}
}

// KeySchemaConstraints adds the model faults of a table's KeySchema at
// path.
func KeySchemaConstraints(cs *apierr.Constraints, ks []KeySchemaElement, path string) {
	KeySchemaConstraintsMax(cs, ks, path, 2)
}

// KeySchemaConstraintsMax is KeySchemaConstraints for a key schema of at
// most maxLen elements: a GSI's may have 8 (four partition key and four
// sort key attributes; AWS's API reference).
func KeySchemaConstraintsMax(cs *apierr.Constraints, ks []KeySchemaElement, path string, maxLen int) {
	if !apierr.NotNull(cs, nilIfNoSlice(ks), path) {
		return
	}
	if len(ks) < 1 {
		cs.Add("'[]'", path, apierr.LenGE(1))
	}
	if len(ks) > maxLen {
		cs.Add(keySchemaValue(ks), path, apierr.LenLE(maxLen))
	}
	for i, e := range ks {
		p := path + "." + strconv.Itoa(i+1) + ".member."
		if apierr.NotNull(cs, e.AttributeName, p+"attributeName") {
			AttrNameConstraints(cs, *e.AttributeName, p+"attributeName")
		}
		if apierr.NotNull(cs, e.KeyType, p+"keyType") {
			apierr.Enum(cs, e.KeyType, p+"keyType", "HASH", "RANGE")
		}
	}
}

// AttrNameConstraints checks a key attribute name against the model:
// 1 to 255 characters. (An empty name would otherwise reach storage, which
// refuses a nameless key.) DynamoDB Local: "Names of key attributes and
// attributes projected into an index must be between 1 and 255 characters,
// inclusive".
func AttrNameConstraints(cs *apierr.Constraints, name, path string) {
	n := utf8.RuneCountInString(name)
	if n < 1 {
		cs.Add(apierr.Quote(name), path, apierr.LenGE(1))
	}
	if n > 255 {
		cs.Add(apierr.Quote(name), path, apierr.LenLE(255))
	}
}

// keySchemaValue renders a KeySchema list for a constraint message as AWS
// does, with camelCase field names: "[KeySchemaElement(attributeName=pk,
// keyType=HASH), ...]" (AWS's recorded answers; AWS has also printed Java
// object identities here, "KeySchemaElement@64f4fb9").
func keySchemaValue(ks []KeySchemaElement) string {
	items := make([]string, len(ks))
	for i, e := range ks {
		items[i] = "KeySchemaElement(attributeName=" + Deref(e.AttributeName) + ", keyType=" + Deref(e.KeyType) + ")"
	}
	return apierr.ListValue(items)
}

// Deref is *p, or "null" for nil, as AWS renders an absent member in a
// message.
func Deref(p *string) string {
	if p == nil {
		return "null"
	}
	return *p
}

// IndexConstraints adds the model faults of a secondary index's name,
// KeySchema (of at most maxKeys elements) and Projection, under path p.
func IndexConstraints(cs *apierr.Constraints, name *string, ks []KeySchemaElement, proj *Projection, p string, maxKeys int) {
	if apierr.NotNull(cs, name, p+"indexName") {
		apierr.NameConstraints(cs, *name, p+"indexName")
	}
	KeySchemaConstraintsMax(cs, ks, p+"keySchema", maxKeys)
	if apierr.NotNull(cs, proj, p+"projection") {
		apierr.Enum(cs, proj.ProjectionType, p+"projection.projectionType", "ALL", "INCLUDE", "KEYS_ONLY")
		if proj.NonKeyAttributes != nil && len(proj.NonKeyAttributes) < 1 {
			cs.Add("'[]'", p+"projection.nonKeyAttributes", apierr.LenGE(1))
		}
		// AWS's API reference: "Array Members: ... Maximum number of 20
		// items" (and public reports quote AWS's member constraint);
		// DynamoDB Local lets longer lists through.
		if len(proj.NonKeyAttributes) > MaxNonKeyPerIndex {
			cs.Add(apierr.Quote("["+strings.Join(proj.NonKeyAttributes, ", ")+"]"), p+"projection.nonKeyAttributes", apierr.LenLE(MaxNonKeyPerIndex))
		}
		if slices.ContainsFunc(proj.NonKeyAttributes, func(n string) bool { return n == "" || utf8.RuneCountInString(n) > 255 }) {
			cs.Add(apierr.Quote("["+strings.Join(proj.NonKeyAttributes, ", ")+"]"), p+"projection.nonKeyAttributes", apierr.NonKeyNameConstraint)
		}
	}
}

// StreamConstraints adds the model faults of a StreamSpecification.
func StreamConstraints(cs *apierr.Constraints, s *StreamSpecification) {
	if s == nil {
		return
	}
	apierr.NotNull(cs, s.StreamEnabled, "streamSpecification.streamEnabled")
	apierr.Enum(cs, s.StreamViewType, "streamSpecification.streamViewType", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY")
}

// SSEConstraints adds the model faults of an SSESpecification.
func SSEConstraints(cs *apierr.Constraints, s *SSESpecification) {
	if s == nil {
		return
	}
	apierr.Enum(cs, s.SSEType, "sSESpecification.sSEType", "AES256", "KMS")
}

// ValidateStream checks the StreamSpecification rules beyond the model;
// needType and typeWhenDisabled are the operation's messages for a stream
// enabled without a view type and disabled with one.
func ValidateStream(s *StreamSpecification, needType, typeWhenDisabled string) error {
	if s == nil || s.StreamEnabled == nil {
		return nil
	}
	if *s.StreamEnabled && s.StreamViewType == nil {
		return apierr.Validation(needType)
	}
	if !*s.StreamEnabled && s.StreamViewType != nil {
		return apierr.Validation(typeWhenDisabled)
	}
	return nil
}

// CheckIncludeProjection refuses an INCLUDE projection without
// NonKeyAttributes (CreateTable's indexes and UpdateTable's Create).
func CheckIncludeProjection(p *Projection) error {
	if p != nil && p.ProjectionType != nil && *p.ProjectionType == "INCLUDE" && len(p.NonKeyAttributes) == 0 {
		return apierr.Validation(apierr.MsgIncludeWithoutNonKey)
	}
	return nil
}

// VectorIndexConstraints records the model-constraint violations of one
// VectorIndex at path p ("vectorIndexes.1.member.").
func VectorIndexConstraints(cs *apierr.Constraints, v *VectorIndex, p string) {
	if apierr.NotNull(cs, v.IndexName, p+"indexName") {
		apierr.NameConstraints(cs, *v.IndexName, p+"indexName")
	}
	if apierr.NotNull(cs, v.VectorAttribute, p+"vectorAttribute") &&
		apierr.NotNull(cs, v.VectorAttribute.AttributeName, p+"vectorAttribute.attributeName") {
		AttrNameConstraints(cs, *v.VectorAttribute.AttributeName, p+"vectorAttribute.attributeName")
	}
	if apierr.NotNull(cs, v.Dimensions, p+"dimensions") && *v.Dimensions < 1 {
		cs.Add(apierr.QuoteInt(*v.Dimensions), p+"dimensions", apierr.ValGE(1))
	}
	if apierr.NotNull(cs, v.DistanceFunction, p+"distanceFunction") {
		apierr.Enum(cs, v.DistanceFunction, p+"distanceFunction", "COSINE", "DOT_PRODUCT", "EUCLIDEAN")
	}
	if apierr.NotNull(cs, v.Projection, p+"projection") {
		proj := v.Projection
		apierr.Enum(cs, proj.ProjectionType, p+"projection.projectionType", "ALL", "INCLUDE", "KEYS_ONLY")
		if proj.NonKeyAttributes != nil && len(proj.NonKeyAttributes) < 1 {
			cs.Add("'[]'", p+"projection.nonKeyAttributes", apierr.LenGE(1))
		}
	}
	for i, e := range v.SearchSchema {
		q := p + "searchSchema." + strconv.Itoa(i+1) + ".member."
		if apierr.NotNull(cs, e.AttributeName, q+"attributeName") {
			AttrNameConstraints(cs, *e.AttributeName, q+"attributeName")
		}
		if apierr.NotNull(cs, e.SearchSchemaElementType, q+"searchSchemaElementType") {
			apierr.Enum(cs, e.SearchSchemaElementType, q+"searchSchemaElementType", SearchHash, SearchFilter)
		}
	}
}

// AttrDefsConstraints records the model-constraint violations of
// AttributeDefinitions (CreateTable's and UpdateTable's).
func AttrDefsConstraints(cs *apierr.Constraints, defs []AttributeDefinition) {
	for i, d := range defs {
		p := "attributeDefinitions." + strconv.Itoa(i+1) + ".member."
		if apierr.NotNull(cs, d.AttributeName, p+"attributeName") {
			AttrNameConstraints(cs, *d.AttributeName, p+"attributeName")
		}
		if apierr.NotNull(cs, d.AttributeType, p+"attributeType") {
			apierr.Enum(cs, d.AttributeType, p+"attributeType", "B", "N", "S")
		}
	}
}

package apierr

import (
	"strconv"
	"strings"
)

// Error message text of secondary index definitions and index keys: index
// key sizes, projections, UpdateTable's index refusals. AWS's wording with
// the source of each.

// MsgIndexKeyTooLarge: a write gives a secondary index key attribute a
// value longer than an index key may be (2048 bytes for a partition key,
// 1024 for a sort key). AWS's recorded answer (a PutItem on a table with a
// GSI, wellcomecollection/platform#2285): "One or more parameter values
// were invalid: Size limit exceeded for Index Key componentId Actual Size:
// 2175 bytes Max Size: 2048 bytes IndexName: work-sets-index". The sort
// key form is the same sentence with 1024 (no recorded answer found).
// DynamoDB Local: "One or more parameter values were invalid: Size limit
// exceeded".
func MsgIndexKeyTooLarge(attr string, size, limit int, index string) string {
	return msgInvalidParams + "Size limit exceeded for Index Key " + attr + " Actual Size: " +
		strconv.Itoa(size) + " bytes Max Size: " + strconv.Itoa(limit) + " bytes IndexName: " + index
}

// MsgGSIUpdateTwoActions: one GlobalSecondaryIndexUpdate holding more than
// one of Create, Update and Delete. AWS's answer as recorded by a
// characterisation of AWS for the ACK DynamoDB controller (DDB-TABLE-160,
// verified 2026-10-08: "One entry carrying both Update and Delete"; a
// Create with a Delete is taken to be refused the same way, as ScyllaDB's
// test against AWS expects a ValidationException naming "one").
// DynamoDB Local counts the two actions and answers LimitExceededException.
const MsgGSIUpdateTwoActions = msgInvalidParams + "Only one global secondary index action is allowed per GlobalSecondaryIndexUpdate object"

// MsgDuplicateNonKey: an index projection naming one attribute twice in
// NonKeyAttributes. Records disagree; the newer is followed: ScyllaDB's
// AWS-verified test_gsi.py (test_gsi_projection_error_duplicate, 2022)
// expects "Duplicate" in AWS's answer, where a 2019 report
// (guregu/dynamo#88) quotes "Cannot have two attributes with the same
// name", DynamoDB Local's words today. AWS's whole text was not found:
// this one is shaped as AWS words a duplicate in AttributesToGet
// ("Duplicate value in attribute name: a", dynalite's AWS-derived tests).
func MsgDuplicateNonKey(name string) string {
	return msgInvalidParams + "Duplicate value in NonKeyAttributes: " + name
}

// NonKeyNameConstraint is the member constraint of a NonKeyAttributes
// list whose names are not all 1 to 255 characters long: AWS's model
// (API reference, Projection: "Length Constraints: Minimum length of 1.
// Maximum length of 255") checked by its request validator, which words a
// list member's constraints as "Member must satisfy constraint: [...]"
// (the form of AWS's recorded answers for list members elsewhere; no
// DynamoDB record found). DynamoDB Local: "Names of key attributes and
// attributes projected into an index must be between 1 and 255
// characters, inclusive".
const NonKeyNameConstraint = "Member must satisfy constraint: [Member must have length less than or equal to 255, Member must have length greater than or equal to 1]"

// MsgAttributeRedefined: UpdateTable creates an index whose key attribute
// the request defines with another type than the table has (a table or
// index key). AWS's answer as quoted by ScyllaDB's test run against AWS
// (test_gsi_updatetable.py, test_gsi_key_type_conflict_on_update); the
// schemas are the existing element and the new one, "key{name:type:KEYTYPE}".
// DynamoDB Local: "invalid attribute, SchemaElement redefined should be of
// same type as previously defined".
func MsgAttributeRedefined(existing, proposed string) string {
	return msgInvalidParams + "Attributes cannot be redefined. Please check that your attribute has the same type as previously defined. " +
		"Existing schema: Schema:[" + existing + "] New schema: Schema:[" + proposed + "]"
}

// SchemaElement renders one key element as AWS's redefinition message
// does: "SchemaElement: key{xyz:S:HASH}".
func SchemaElement(name, typ, keyType string) string {
	return "SchemaElement: key{" + strings.Join([]string{name, typ, keyType}, ":") + "}"
}

// MsgIncludeWithoutNonKey: an index projection of type INCLUDE without
// NonKeyAttributes. AWS's words in eu-west-2, June 2026, as the Parity
// Suite recorded them (paritysuite/dynamodb-conformance, reported in
// nubo-db/dynoxide#116), the newer record; ScyllaDB's AWS-verified
// test_gsi.py expects "NonKeyAttributes" in it. DynamoDB Local and the
// older records: "If Projection type INCLUDE is specified, some non-key
// attributes to include in the projection must be specified as well".
const MsgIncludeWithoutNonKey = msgInvalidParams + "ProjectionType is INCLUDE, but NonKeyAttributes is not specified"

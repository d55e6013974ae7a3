package conformance

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"
)

// TestReadEmptyAttributesToGet: AttributesToGet has at least one member
// in AWS's model, so Query and Scan refuse [] as GetItem does (AWS's
// answers as recorded by dynalite's AWS-verified tests, test/query.js and
// test/scan.js: "Value '[]' at 'attributesToGet' ..."). DynamoDB Local
// 3.3.0 answers the request.
func TestReadEmptyAttributesToGet(t *testing.T) {
	AWSDiffers(t, "DynamoDB Local takes AttributesToGet [] in Query and Scan; AWS refuses it (dynalite's AWS-verified test/query.js, test/scan.js)")
	c := newClient(t)
	table := createTable(t, c, tableDef(keyDef{"pk", "S"}, keyDef{}))
	const want = "1 validation error detected: Value '[]' at 'attributesToGet' failed to satisfy constraint: Member must have length greater than or equal to 1"
	_, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, AttributesToGet: []string{},
		KeyConditions: map[string]types.Condition{"pk": {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{s("a")}}}})
	requireValidation(t, err, want)
	_, err = c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, AttributesToGet: []string{}})
	requireValidation(t, err, want)
	_, err = c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: item{"pk": s("a")}, AttributesToGet: []string{}})
	requireValidation(t, err, want)
}

// TestScanCapacitySumsItems: a Scan's read units are the sum of the sizes
// of the items it read, rounded up to 4 KB once, not per item (AWS's
// developer guide, read-write-operations.html: a Query's or a Scan's
// items count as one read of their total size; DynamoDB Local agrees).
// Five items of about 1.5 KB: 2 units strongly consistent, 1 eventually;
// one small item: 0.5.
//
// A record disagrees for a whole table: ScyllaDB's AWS-verified
// test_returnconsumedcapacity.py (test_scan_consumed_capacity, March
// 2026) has AWS charge 4 units strongly consistent and 2 eventually for
// a Scan of a new table holding one tiny item, "and nobody knows why".
// No record states AWS's rule (a minimum per partition of a new
// on-demand table would fit it, but none says so), so the emulator keeps
// the documented one and this test the cases the guide covers.
func TestScanCapacitySumsItems(t *testing.T) {
	c := newClient(t)
	table := createTable(t, c, tableDef(keyDef{"pk", "S"}, keyDef{}))
	for _, k := range []string{"a", "b", "c", "d", "e"} {
		mustPut(t, c, table, item{"pk": s(k), "pad": s(strings.Repeat("y", 1500))})
	}
	for _, tc := range []struct {
		name       string
		consistent bool
		limit      int32
		want       float64
	}{
		{"eventually consistent", false, 0, 1},
		{"strongly consistent", true, 0, 2},
		{"one item", false, 1, 0.5},
		{"three items, strongly consistent", true, 3, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := &dynamodb.ScanInput{TableName: &table, ConsistentRead: aws.Bool(tc.consistent), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
			if tc.limit > 0 {
				in.Limit = aws.Int32(tc.limit)
			}
			out, err := c.Scan(ctx(t), in)
			require.NoError(t, err)
			require.Equal(t, tc.want, aws.ToFloat64(out.ConsumedCapacity.CapacityUnits))
		})
	}
}

// TestDuplicateNonKeyAttributes: an index's NonKeyAttributes naming one
// attribute twice. ScyllaDB's AWS-verified test_gsi.py
// (test_gsi_projection_error_duplicate, 2022) expects "Duplicate" in
// AWS's answer; a 2019 report (guregu/dynamo#88) quotes "Cannot have two
// attributes with the same name", DynamoDB Local's words today. The
// newer record is followed; AWS's whole text was not found, so the test
// checks "Duplicate" and the attribute's name only.
func TestDuplicateNonKeyAttributes(t *testing.T) {
	AWSDiffers(t, `DynamoDB Local answers "Cannot have two attributes with the same name"; AWS's answer has "Duplicate" (scylladb test/alternator/test_gsi.py)`)
	c := newClient(t)
	in := tableDef(keyDef{"pk", "S"}, keyDef{})
	in.TableName = aws.String(uniqueName(t))
	in.BillingMode = types.BillingModePayPerRequest
	in.AttributeDefinitions = append(in.AttributeDefinitions, ads("g", "S")...)
	in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{IndexName: aws.String("byG"),
		KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"a", "b", "a"}}}}
	_, err := c.CreateTable(ctx(t), in)
	requireValidationMatch(t, err, "Duplicate.*\\ba\\b")
}

// TestEmptyReadCapacity: a Scan of an empty table, or a Query that finds
// nothing, still consumes a read: 0.5 units eventually consistent, 1
// strongly consistent, as a GetItem of a missing item does (scylladb's
// AWS-verified test/alternator/test_returnconsumedcapacity.py: "A missing
// Item, count as zero length item which require 1 or 0.5 RCU"). No record
// of AWS's answer for an empty Scan was found; AWS never answers 0 for a
// read in the records there are (the same file's test_scan_consumed_capacity,
// March 2026, has AWS charge 2 and 4 units for a Scan of one tiny item), so
// the minimum read is kept. DynamoDB Local answers 0.0.
func TestEmptyReadCapacity(t *testing.T) {
	AWSDiffers(t, "a read that finds nothing consumes the minimum read (0.5 or 1 unit) on AWS "+
		"(scylladb test_returnconsumedcapacity.py); DynamoDB Local answers 0.0 for an empty Scan or Query")
	c := newClient(t)
	table := createTable(t, c, tableDef(keyDef{"pk", "S"}, keyDef{}))
	for _, tc := range []struct {
		name       string
		consistent bool
		want       float64
	}{
		{"eventually consistent", false, 0.5},
		{"strongly consistent", true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, ConsistentRead: aws.Bool(tc.consistent),
				ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			require.NoError(t, err)
			require.Zero(t, out.ScannedCount)
			require.Equal(t, tc.want, aws.ToFloat64(out.ConsumedCapacity.CapacityUnits))
			q, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, ConsistentRead: aws.Bool(tc.consistent),
				KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: item{":p": s("none")},
				ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			require.NoError(t, err)
			require.Zero(t, q.ScannedCount)
			require.Equal(t, tc.want, aws.ToFloat64(q.ConsumedCapacity.CapacityUnits))
		})
	}
}

package conformance

// Index and stream limits: index key value sizes, UpdateTable's
// index refusals, malformed stream ARNs, BillingModeSummary.

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
)

// TestGSIKeySizeOnWrite: a write that gives a GSI partition key a
// value over 2048 bytes, or a GSI sort key one over 1024, is refused with
// AWS's message (recorded: "Size limit exceeded for Index Key componentId
// Actual Size: 2175 bytes Max Size: 2048 bytes IndexName: work-sets-index";
// the sort key form with 1024 follows it, no record found), on the
// single-item, batch and PartiQL surfaces (how a transaction reports it,
// refused or cancelled, is tx_index_keys_test.go's); the limits
// themselves are accepted.
func TestGSIKeySizeOnWrite(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local answers \"One or more parameter values were invalid: Size limit exceeded\" without the key, sizes and index")
	c := newClient(t)
	in := tableDef(keyDef{"pk", "S"}, keyDef{})
	in.AttributeDefinitions = append(in.AttributeDefinitions,
		types.AttributeDefinition{AttributeName: aws.String("gh"), AttributeType: types.ScalarAttributeTypeS},
		types.AttributeDefinition{AttributeName: aws.String("gr"), AttributeType: types.ScalarAttributeTypeB})
	in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{gsiDef("byG", "gh", "gr", types.ProjectionTypeAll)}
	table := createTable(t, c, in)

	mustPut(t, c, table, item{"pk": s("max"), "gh": s(strings.Repeat("h", 2048)), "gr": b(make([]byte, 1024))})
	hashMsg := "One or more parameter values were invalid: Size limit exceeded for Index Key gh Actual Size: 2049 bytes Max Size: 2048 bytes IndexName: byG"
	rangeMsg := "One or more parameter values were invalid: Size limit exceeded for Index Key gr Actual Size: 1025 bytes Max Size: 1024 bytes IndexName: byG"
	bigH := s(strings.Repeat("h", 2049))
	bigR := b(make([]byte, 1025))
	cases := []struct {
		name, want string
		write      func() error
	}{
		{"PutItem hash", hashMsg, func() error {
			_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: item{"pk": s("p1"), "gh": bigH}})
			return err
		}},
		{"PutItem range", rangeMsg, func() error {
			_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: item{"pk": s("p1"), "gh": s("x"), "gr": bigR}})
			return err
		}},
		{"UpdateItem hash", hashMsg, func() error {
			_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: item{"pk": s("p1")},
				UpdateExpression: aws.String("SET gh = :v"), ExpressionAttributeValues: item{":v": bigH}})
			return err
		}},
		{"UpdateItem range", rangeMsg, func() error {
			_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: item{"pk": s("p1")},
				UpdateExpression: aws.String("SET gr = :v"), ExpressionAttributeValues: item{":v": bigR}})
			return err
		}},
		{"PartiQL INSERT", hashMsg, func() error {
			_, err := exec(t, c, `INSERT INTO "`+table+`" VALUE {'pk': 'p1', 'gh': ?}`, bigH)
			return err
		}},
		{"BatchWriteItem", hashMsg, func() error {
			_, err := c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
				table: {{PutRequest: &types.PutRequest{Item: item{"pk": s("p1"), "gh": bigH}}}}}})
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			requireValidation(t, tc.write(), tc.want)
		})
	}
	if got := mustGet(t, c, table, item{"pk": s("p1")}); got != nil {
		t.Errorf("refused writes left %s", renderItem(got))
	}
}

// TestGSIBackfillLeavesOutUnindexable: an index created on a table
// whose items hold key values it cannot index (empty strings, values over
// the key limits, the wrong type) leaves those items out, as AWS's
// developer guide says of index key violations ("Detecting and correcting
// index key violations") and ScyllaDB's tests against AWS observe
// (test_gsi_backfill_key_limits, test_gsi_backfill_empty_string).
func TestGSIBackfillLeavesOutUnindexable(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local's backfill indexes values over the key limits and of the wrong type")
	c := newClient(t)
	table := createTable(t, c, tableDef(keyDef{"pk", "S"}, keyDef{}))
	for _, it := range []item{
		{"pk": s("ok"), "x": s("hello"), "y": s("a")},
		{"pk": s("len1024"), "x": s(strings.Repeat("x", 1024)), "y": s("a")},
		{"pk": s("len1025"), "x": s(strings.Repeat("x", 1025)), "y": s("a")},
		{"pk": s("len2048"), "x": s(strings.Repeat("x", 2048)), "y": s("a")},
		{"pk": s("len2049"), "x": s(strings.Repeat("x", 2049)), "y": s("a")},
		{"pk": s("empty"), "x": s(""), "y": s("a")},
		{"pk": s("number"), "x": n("1"), "y": s("a")},
	} {
		mustPut(t, c, table, it)
	}
	for _, tc := range []struct {
		index, hash, rng, want string
	}{
		{"byX", "x", "", "len1024 len1025 len2048 ok"},
		{"byYX", "y", "x", "len1024 ok"},
	} {
		defs := []types.AttributeDefinition{{AttributeName: aws.String(tc.hash), AttributeType: types.ScalarAttributeTypeS}}
		if tc.rng != "" {
			defs = append(defs, types.AttributeDefinition{AttributeName: aws.String(tc.rng), AttributeType: types.ScalarAttributeTypeS})
		}
		_, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table, AttributeDefinitions: defs,
			GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{createGSI(tc.index, tc.hash, tc.rng, types.ProjectionTypeKeysOnly)}})
		mustNoError(t, err)
		waitIndex(t, c, table, tc.index, isActive)
		its, _ := scanAll(t, c, &dynamodb.ScanInput{TableName: &table, IndexName: aws.String(tc.index)})
		if got := sortedFields(its, "pk"); got != tc.want {
			t.Errorf("index %s holds %s, want %s", tc.index, got, tc.want)
		}
	}
}

// TestUpdateTableIndexRefusals: UpdateTable's refusals of a GSI
// Create that redefines an attribute's type, projects attributes with bad
// or repeated names, or shares its GlobalSecondaryIndexUpdate with a
// Delete, in AWS's words (sources at each message in apierr).
func TestUpdateTableIndexRefusals(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local words the type redefinition and the NonKeyAttributes name length otherwise and answers a Create with a Delete LimitExceededException")
	c := newClient(t)
	in := tableDef(keyDef{"pk", "S"}, keyDef{})
	in.AttributeDefinitions = append(in.AttributeDefinitions,
		types.AttributeDefinition{AttributeName: aws.String("xyz"), AttributeType: types.ScalarAttributeTypeS})
	in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{gsiDef("byXyz", "xyz", "", types.ProjectionTypeAll)}
	table := createTable(t, c, in)
	long := strings.Repeat("n", 256)
	def := func(name string, typ types.ScalarAttributeType) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: typ}
	}
	cases := []struct {
		name    string
		defs    []types.AttributeDefinition
		updates []types.GlobalSecondaryIndexUpdate
		want    string
	}{
		{"type redefined under an index", []types.AttributeDefinition{def("xyz", "N")},
			[]types.GlobalSecondaryIndexUpdate{createGSI("byXyz2", "xyz", "", types.ProjectionTypeAll)},
			"One or more parameter values were invalid: Attributes cannot be redefined. Please check that your attribute has the same type as previously defined. Existing schema: Schema:[SchemaElement: key{xyz:S:HASH}] New schema: Schema:[SchemaElement: key{xyz:N:HASH}]"},
		{"NonKeyAttributes name over 255", []types.AttributeDefinition{def("z", "S")},
			[]types.GlobalSecondaryIndexUpdate{createGSI("byZ", "z", "", types.ProjectionTypeInclude, "a", long)},
			"1 validation error detected: Value '[a, " + long + "]' at 'globalSecondaryIndexUpdates.1.member.create.projection.nonKeyAttributes' failed to satisfy constraint: Member must satisfy constraint: [Member must have length less than or equal to 255, Member must have length greater than or equal to 1]"},
		{"NonKeyAttributes repeated", []types.AttributeDefinition{def("z", "S")},
			[]types.GlobalSecondaryIndexUpdate{createGSI("byZ", "z", "", types.ProjectionTypeInclude, "a", "b", "a")},
			"One or more parameter values were invalid: Duplicate value in NonKeyAttributes: a"}, // the emulator's words: AWS's has "Duplicate" (apierr.MsgDuplicateNonKey)
		{"Create and Delete in one update", []types.AttributeDefinition{def("z", "S")},
			[]types.GlobalSecondaryIndexUpdate{{Create: createGSI("byZ", "z", "", types.ProjectionTypeAll).Create, Delete: deleteGSI("byXyz").Delete}},
			"One or more parameter values were invalid: Only one global secondary index action is allowed per GlobalSecondaryIndexUpdate object"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table,
				AttributeDefinitions: tc.defs, GlobalSecondaryIndexUpdates: tc.updates})
			requireValidation(t, err, tc.want)
		})
	}
	d := mustDescribe(t, c, table)
	if len(d.GlobalSecondaryIndexes) != 1 || len(d.AttributeDefinitions) != 2 {
		t.Errorf("refused updates changed the table: %d indexes, definitions %v", len(d.GlobalSecondaryIndexes), d.AttributeDefinitions)
	}
}

// TestUpdateTableIgnoresOtherRedefinition: an AttributeDefinitions
// entry giving another type to an attribute the new index does not key on
// (here the table's key) is ignored, and the stored type stays (a
// characterisation of AWS for the ACK DynamoDB controller, DDB-TABLE-162).
func TestUpdateTableIgnoresOtherRedefinition(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local refuses any type redefinition: \"invalid attribute, SchemaElement redefined should be of same type as previously defined\"")
	c := newClient(t)
	table := createTable(t, c, tableDef(keyDef{"pk", "S"}, keyDef{}))
	_, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeN},
			{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS}},
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{createGSI("byG", "g", "", types.ProjectionTypeAll)}})
	mustNoError(t, err)
	waitIndex(t, c, table, "byG", isActive)
	for _, d := range mustDescribe(t, c, table).AttributeDefinitions {
		if aws.ToString(d.AttributeName) == "pk" && d.AttributeType != types.ScalarAttributeTypeS {
			t.Errorf("pk is %s after the update, want S", d.AttributeType)
		}
	}
	mustPut(t, c, table, item{"pk": s("still a string"), "g": s("x")})
}

// TestMalformedStreamARN: a StreamArn of the right length that is not
// a stream ARN is a ValidationException "Invalid StreamArn" (AWS's answer
// in aws-sdk-js's integration tests against AWS), in DescribeStream,
// GetShardIterator and ListStreams' ExclusiveStartStreamArn; a well-formed
// ARN of no stream stays ResourceNotFoundException.
func TestMalformedStreamARN(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local answers a malformed stream ARN ResourceNotFoundException (ListStreams: an empty list)")
	_, sc := clients(t)
	bad := "arn:aws:dynamodb:us-east-1:000000000000:not-a-table-or-stream"
	cases := []struct {
		name string
		call func() error
	}{
		{"DescribeStream", func() error {
			_, err := sc.DescribeStream(ctx(t), &dynamodbstreams.DescribeStreamInput{StreamArn: &bad})
			return err
		}},
		{"GetShardIterator", func() error {
			_, err := sc.GetShardIterator(ctx(t), &dynamodbstreams.GetShardIteratorInput{StreamArn: &bad,
				ShardId: aws.String("shardId-00000001700000000000-00000000"), ShardIteratorType: "LATEST"})
			return err
		}},
		{"ListStreams", func() error {
			_, err := sc.ListStreams(ctx(t), &dynamodbstreams.ListStreamsInput{ExclusiveStartStreamArn: &bad})
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			requireValidation(t, tc.call(), "Invalid StreamArn")
		})
	}
	// A StreamArn under the model's 37 characters: AWS answers "Invalid
	// StreamArn", not the length constraint (DescribeStream of
	// "fake-stream" in aws-sdk-js's browser integration tests against
	// AWS); GetShardIterator's and ListStreams' members are the same shape
	// (StreamArn) in AWS's model, no record of their answer found. The
	// SDK refuses such an ARN client-side, so these go raw.
	short := map[string]string{
		"DynamoDBStreams_20120810.DescribeStream":   `{"StreamArn":"fake-stream"}`,
		"DynamoDBStreams_20120810.GetShardIterator": `{"StreamArn":"fake-stream","ShardId":"shardId-00000001700000000000-00000000","ShardIteratorType":"LATEST"}`,
		"DynamoDBStreams_20120810.ListStreams":      `{"ExclusiveStartStreamArn":"fake-stream"}`,
	}
	for target, body := range short {
		t.Run("short "+target, func(t *testing.T) {
			r := rawSend(t, "", []byte(body), map[string]string{"X-Amz-Target": target}).rawResponse
			if r.Type != "ValidationException" || r.Message != "Invalid StreamArn" {
				t.Errorf("got %d %s %q, want ValidationException %q", r.Status, r.Type, r.Message, "Invalid StreamArn")
			}
		})
	}
	missing := "arn:aws:dynamodb:us-east-1:000000000000:table/" + uniqueName(t) + "/stream/2024-01-01T00:00:00.000"
	_, err := sc.DescribeStream(ctx(t), &dynamodbstreams.DescribeStreamInput{StreamArn: &missing})
	requireAPIError(t, err, "ResourceNotFoundException", "")
}

// TestBillingModeSummary: DescribeTable has no BillingModeSummary on
// a table that has always been PROVISIONED, whether CreateTable named the
// mode or not (AWS users' reports: gravitational/teleport#29557,
// crossplane-contrib/provider-aws#946), and has one once the table has
// been PAY_PER_REQUEST, kept after a switch back
// (awslabs/emr-dynamodb-connector#89).
func TestBillingModeSummary(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	pt := &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}
	implicit := tableDef(keyDef{"pk", "S"}, keyDef{})
	implicit.ProvisionedThroughput = pt
	explicit := tableDef(keyDef{"pk", "S"}, keyDef{})
	explicit.ProvisionedThroughput, explicit.BillingMode = pt, types.BillingModeProvisioned
	onDemand := tableDef(keyDef{"pk", "S"}, keyDef{})
	onDemand.BillingMode = types.BillingModePayPerRequest
	for _, tc := range []struct {
		name string
		in   *dynamodb.CreateTableInput
		want string
	}{
		{"PROVISIONED by default", implicit, ""},
		{"PROVISIONED named", explicit, ""},
		{"PAY_PER_REQUEST", onDemand, "PAY_PER_REQUEST"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			table := createTable(t, c, tc.in)
			got := ""
			if s := mustDescribe(t, c, table).BillingModeSummary; s != nil {
				got = string(s.BillingMode)
			}
			if got != tc.want {
				t.Errorf("BillingModeSummary.BillingMode %q, want %q (empty: no summary)", got, tc.want)
			}
		})
	}
}

package emulator

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/stretchr/testify/require"
)

// The control plane and the Streams API in the policy mode: each
// operation decided on the table's (stream's, backup's) ARN, as AWS's
// Service Authorization Reference has it, with AWS's message.

// iamCall is one control-plane or Streams API call of a client: the
// action it needs and the resource its denial names (the call's own,
// since some make their resource as they go).
type iamCall struct {
	name   string
	action string
	run    func(db *dynamodb.Client, st *dynamodbstreams.Client) (resource string, err error)
}

const iamAll = "arn:aws:dynamodb:us-east-1:000000000000:table/*"

func iamControlCalls(t *testing.T, f *iamFixture) []iamCall {
	n := 0
	next := func(prefix string) string { n++; return fmt.Sprintf("%s%d", prefix, n) }
	table := func(name string) string { return "arn:aws:dynamodb:us-east-1:000000000000:table/" + name }
	create := func(db *dynamodb.Client, name string) error {
		_, err := db.CreateTable(ctxBG, &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "HASH"}}})
		return err
	}
	rootCreate := func(name string) { require.NoError(t, create(f.root, name)) }
	orders := aws.String("Orders")
	// The stream of T, enabled by the root key.
	out, err := f.root.UpdateTable(ctxBG, &dynamodb.UpdateTableInput{TableName: orders,
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage}})
	require.NoError(t, err)
	stream := aws.ToString(out.TableDescription.LatestStreamArn)
	rootStreams := iamStreamsClient(f.addr, iamRoot)
	shard := func() string {
		d, err := rootStreams.DescribeStream(ctxBG, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(stream)})
		require.NoError(t, err)
		return aws.ToString(d.StreamDescription.Shards[0].ShardId)
	}
	backup := func() string {
		b, err := f.root.CreateBackup(ctxBG, &dynamodb.CreateBackupInput{TableName: orders, BackupName: aws.String(next("b"))})
		require.NoError(t, err)
		return aws.ToString(b.BackupDetails.BackupArn)
	}
	return []iamCall{
		{"CreateTable", "CreateTable", func(db *dynamodb.Client, _ *dynamodbstreams.Client) (string, error) {
			name := next("New")
			return table(name), create(db, name)
		}},
		{"DescribeTable", "DescribeTable", func(db *dynamodb.Client, _ *dynamodbstreams.Client) (string, error) {
			_, err := db.DescribeTable(ctxBG, &dynamodb.DescribeTableInput{TableName: orders})
			return iamTable, err
		}},
		{"DescribeTable by ARN", "DescribeTable", func(db *dynamodb.Client, _ *dynamodbstreams.Client) (string, error) {
			_, err := db.DescribeTable(ctxBG, &dynamodb.DescribeTableInput{TableName: aws.String(iamTable)})
			return iamTable, err
		}},
		{"ListTables", "ListTables", func(db *dynamodb.Client, _ *dynamodbstreams.Client) (string, error) {
			_, err := db.ListTables(ctxBG, &dynamodb.ListTablesInput{})
			return iamAll, err
		}},
		{"UpdateTable", "UpdateTable", func(db *dynamodb.Client, _ *dynamodbstreams.Client) (string, error) {
			name := next("Upd")
			rootCreate(name)
			_, err := db.UpdateTable(ctxBG, &dynamodb.UpdateTableInput{TableName: aws.String(name), DeletionProtectionEnabled: aws.Bool(true)})
			return table(name), err
		}},
		{"DeleteTable", "DeleteTable", func(db *dynamodb.Client, _ *dynamodbstreams.Client) (string, error) {
			name := next("Drop")
			rootCreate(name)
			_, err := db.DeleteTable(ctxBG, &dynamodb.DeleteTableInput{TableName: aws.String(name)})
			return table(name), err
		}},
		{"DescribeTimeToLive", "DescribeTimeToLive", func(db *dynamodb.Client, _ *dynamodbstreams.Client) (string, error) {
			_, err := db.DescribeTimeToLive(ctxBG, &dynamodb.DescribeTimeToLiveInput{TableName: orders})
			return iamTable, err
		}},
		{"UpdateTimeToLive", "UpdateTimeToLive", func(db *dynamodb.Client, _ *dynamodbstreams.Client) (string, error) {
			name := next("Ttl")
			rootCreate(name)
			_, err := db.UpdateTimeToLive(ctxBG, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(name),
				TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("ttl"), Enabled: aws.Bool(true)}})
			return table(name), err
		}},
		{"TagResource", "TagResource", func(db *dynamodb.Client, _ *dynamodbstreams.Client) (string, error) {
			_, err := db.TagResource(ctxBG, &dynamodb.TagResourceInput{ResourceArn: aws.String(iamTable),
				Tags: []types.Tag{{Key: aws.String("team"), Value: aws.String("a")}}})
			return iamTable, err
		}},
		{"UntagResource", "UntagResource", func(db *dynamodb.Client, _ *dynamodbstreams.Client) (string, error) {
			_, err := db.UntagResource(ctxBG, &dynamodb.UntagResourceInput{ResourceArn: aws.String(iamTable), TagKeys: []string{"team"}})
			return iamTable, err
		}},
		{"ListTagsOfResource", "ListTagsOfResource", func(db *dynamodb.Client, _ *dynamodbstreams.Client) (string, error) {
			_, err := db.ListTagsOfResource(ctxBG, &dynamodb.ListTagsOfResourceInput{ResourceArn: aws.String(iamTable)})
			return iamTable, err
		}},
		{"CreateBackup", "CreateBackup", func(db *dynamodb.Client, _ *dynamodbstreams.Client) (string, error) {
			_, err := db.CreateBackup(ctxBG, &dynamodb.CreateBackupInput{TableName: orders, BackupName: aws.String(next("b"))})
			return iamTable, err
		}},
		{"DescribeBackup", "DescribeBackup", func(db *dynamodb.Client, _ *dynamodbstreams.Client) (string, error) {
			arn := backup()
			_, err := db.DescribeBackup(ctxBG, &dynamodb.DescribeBackupInput{BackupArn: aws.String(arn)})
			return arn, err
		}},
		{"DeleteBackup", "DeleteBackup", func(db *dynamodb.Client, _ *dynamodbstreams.Client) (string, error) {
			arn := backup()
			_, err := db.DeleteBackup(ctxBG, &dynamodb.DeleteBackupInput{BackupArn: aws.String(arn)})
			return arn, err
		}},
		{"ListBackups", "ListBackups", func(db *dynamodb.Client, _ *dynamodbstreams.Client) (string, error) {
			_, err := db.ListBackups(ctxBG, &dynamodb.ListBackupsInput{})
			return iamAll, err
		}},
		{"DescribeContinuousBackups", "DescribeContinuousBackups", func(db *dynamodb.Client, _ *dynamodbstreams.Client) (string, error) {
			_, err := db.DescribeContinuousBackups(ctxBG, &dynamodb.DescribeContinuousBackupsInput{TableName: orders})
			return iamTable, err
		}},
		{"ListStreams", "ListStreams", func(_ *dynamodb.Client, st *dynamodbstreams.Client) (string, error) {
			_, err := st.ListStreams(ctxBG, &dynamodbstreams.ListStreamsInput{})
			return iamAll + "/stream/*", err
		}},
		{"ListStreams of a table", "ListStreams", func(_ *dynamodb.Client, st *dynamodbstreams.Client) (string, error) {
			_, err := st.ListStreams(ctxBG, &dynamodbstreams.ListStreamsInput{TableName: orders})
			return iamTable + "/stream/*", err
		}},
		{"DescribeStream", "DescribeStream", func(_ *dynamodb.Client, st *dynamodbstreams.Client) (string, error) {
			_, err := st.DescribeStream(ctxBG, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(stream)})
			return stream, err
		}},
		{"GetShardIterator", "GetShardIterator", func(_ *dynamodb.Client, st *dynamodbstreams.Client) (string, error) {
			_, err := st.GetShardIterator(ctxBG, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(stream),
				ShardId: aws.String(shard()), ShardIteratorType: "TRIM_HORIZON"})
			return stream, err
		}},
		{"GetRecords", "GetRecords", func(_ *dynamodb.Client, st *dynamodbstreams.Client) (string, error) {
			it, err := rootStreams.GetShardIterator(ctxBG, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(stream),
				ShardId: aws.String(shard()), ShardIteratorType: "TRIM_HORIZON"})
			require.NoError(t, err)
			_, err = st.GetRecords(ctxBG, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator})
			return stream, err
		}},
	}
}

// iamStreamsClient is a DynamoDB Streams client signing with key.
func iamStreamsClient(addr, key string) *dynamodbstreams.Client {
	return dynamodbstreams.New(dynamodbstreams.Options{Region: iamRegion, BaseEndpoint: aws.String("http://" + addr),
		Credentials: credentials.NewStaticCredentialsProvider(key, iamSecret, ""), RetryMaxAttempts: 1})
}

// TestIAMControlPlane: each control-plane and Streams API operation,
// allowed by a policy on the tables' ARNs, denied for want of one,
// denied by an explicit Deny over an Allow, denied with no policy, and
// not evaluated for a key without an identity.
func TestIAMControlPlane(t *testing.T) {
	f := newIAMFixture(t)
	st, rootSt := iamStreamsClient(f.addr, iamTenantA), iamStreamsClient(f.addr, iamRoot)
	allowTables := `{"Effect":"Allow","Action":"dynamodb:*","Resource":"arn:aws:dynamodb:*:*:table/*"}`
	for _, call := range iamControlCalls(t, f) {
		t.Run(call.name, func(t *testing.T) {
			noAllow := "because no identity-based policy allows the dynamodb:" + call.action + " action"
			f.setPolicies(t, policy(allowTables))
			_, err := call.run(f.a, st)
			require.NoError(t, err, "allowed")

			f.setPolicies(t, policy(allowOn("dynamodb:GetItem", "")))
			res, err := call.run(f.a, st)
			requireDenied(t, err, call.action, res, noAllow)

			f.setPolicies(t, policy(allowTables, `{"Effect":"Deny","Action":"dynamodb:`+call.action+`","Resource":"*"}`))
			res, err = call.run(f.a, st)
			requireDenied(t, err, call.action, res, "with an explicit deny in an identity-based policy")

			f.setPolicies(t)
			res, err = call.run(f.a, st)
			requireDenied(t, err, call.action, res, noAllow)

			_, err = call.run(f.root, rootSt)
			require.NoError(t, err, "a key without an identity is not evaluated")
		})
	}
}

// TestIAMControlPlaneResources: a policy on one table's ARN allows its
// control plane and not another table's; a table's resource policy
// counts for its control plane, a stream's for its stream.
func TestIAMControlPlaneResources(t *testing.T) {
	f := newIAMFixture(t)
	_, err := f.root.CreateTable(ctxBG, &dynamodb.CreateTableInput{TableName: aws.String("Other"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "HASH"}}})
	require.NoError(t, err)
	describe := func(name string) error {
		_, err := f.a.DescribeTable(ctxBG, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		return err
	}
	f.setPolicies(t, policy(`{"Effect":"Allow","Action":["dynamodb:DescribeTable","dynamodb:ListTables"],"Resource":"`+iamTable+`"}`))
	require.NoError(t, describe("Orders"))
	requireDenied(t, describe("Other"), "DescribeTable", "arn:aws:dynamodb:us-east-1:000000000000:table/Other",
		"because no identity-based policy allows the dynamodb:DescribeTable action")
	_, err = f.a.ListTables(ctxBG, &dynamodb.ListTablesInput{})
	requireDenied(t, err, "ListTables", iamAll, "because no identity-based policy allows the dynamodb:ListTables action")

	// The table's resource policy: a Deny for tenant A wins over its
	// identity's Allow; an Allow serves tenant B, which has no policy.
	_, err = f.root.PutResourcePolicy(ctxBG, &dynamodb.PutResourcePolicyInput{ResourceArn: aws.String(iamTable), Policy: aws.String(policy(
		`{"Effect":"Deny","Principal":{"AWS":"`+iamUserA+`"},"Action":"dynamodb:DescribeTable","Resource":"`+iamTable+`"}`,
		`{"Effect":"Allow","Principal":{"AWS":"`+iamUserB+`"},"Action":"dynamodb:DescribeTable","Resource":"`+iamTable+`"}`))})
	require.NoError(t, err)
	requireDenied(t, describe("Orders"), "DescribeTable", iamTable, "with an explicit deny in a resource-based policy")
	_, err = f.b.DescribeTable(ctxBG, &dynamodb.DescribeTableInput{TableName: aws.String("Orders")})
	require.NoError(t, err, "tenant B is allowed by the table's resource policy")
	// A missing table is denied before it is looked up, as AWS
	// authorizes before it answers ResourceNotFoundException.
	requireDenied(t, describe("Missing"), "DescribeTable", "arn:aws:dynamodb:us-east-1:000000000000:table/Missing",
		"because no identity-based policy allows the dynamodb:DescribeTable action")
}

// TestIAMBatchLeadingKeysForAnyValue: a batch is authorized once per
// table, its dynamodb:LeadingKeys every partition key it names there:
// ForAnyValue allows the whole batch when one key matches and denies it
// when none does; ForAllValues denies it when one does not (and a Deny
// with ForAnyValue denies it when one matches).
func TestIAMBatchLeadingKeysForAnyValue(t *testing.T) {
	f := newIAMFixture(t)
	write := func(pks ...string) error {
		var ws []types.WriteRequest
		for i, pk := range pks {
			ws = append(ws, types.WriteRequest{PutRequest: &types.PutRequest{Item: iamItem(pk, fmt.Sprintf("any%d", i))}})
		}
		_, err := f.a.BatchWriteItem(ctxBG, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"Orders": ws}})
		return err
	}
	get := func(pks ...string) error {
		var keys []map[string]types.AttributeValue
		for _, pk := range pks {
			keys = append(keys, iamKey(pk))
		}
		_, err := f.a.BatchGetItem(ctxBG, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{iamTable: {Keys: keys}}})
		return err
	}
	noAllow := func(action string) string {
		return "because no identity-based policy allows the dynamodb:" + action + " action"
	}

	f.setPolicies(t, policy(allowOn("dynamodb:Batch*", `{"ForAnyValue:StringEquals":{"dynamodb:LeadingKeys":["TENANT#A"]}}`)))
	require.NoError(t, write("TENANT#A", "TENANT#B"), "one key matches: the batch is allowed whole")
	require.NoError(t, get("TENANT#B", "TENANT#A"), "also with the table named by its ARN")
	requireDenied(t, write("TENANT#B", "TENANT#C"), "BatchWriteItem", iamTable, noAllow("BatchWriteItem"))

	f.setPolicies(t, policy(allowOn("dynamodb:Batch*", `{"ForAllValues:StringEquals":{"dynamodb:LeadingKeys":["TENANT#A"]}}`)))
	require.NoError(t, write("TENANT#A", "TENANT#A"))
	requireDenied(t, get("TENANT#A", "TENANT#B"), "BatchGetItem", iamTable, noAllow("BatchGetItem"))

	f.setPolicies(t, policy(allowOn("dynamodb:Batch*", ""),
		`{"Effect":"Deny","Action":"dynamodb:BatchWriteItem","Resource":"*","Condition":{"ForAnyValue:StringEquals":{"dynamodb:LeadingKeys":["TENANT#B"]}}}`))
	requireDenied(t, write("TENANT#A", "TENANT#B"), "BatchWriteItem", iamTable, "with an explicit deny in an identity-based policy")
	require.NoError(t, write("TENANT#A", "TENANT#C"))
}

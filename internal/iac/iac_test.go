package iac

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/shapes"
	"github.com/stretchr/testify/require"
)

func readFile(t *testing.T, name string, o Options) *Template {
	t.Helper()
	src, err := os.ReadFile("testdata/" + name)
	require.NoError(t, err)
	tpl, err := Read(src, o)
	require.NoError(t, err)
	return tpl
}

func attrs(nameType ...string) (out []shapes.AttributeDefinition[*string]) {
	for i := 0; i < len(nameType); i += 2 {
		out = append(out, shapes.AttributeDefinition[*string]{AttributeName: ptr(nameType[i]), AttributeType: ptr(nameType[i+1])})
	}
	return out
}

func keys(nameType ...string) (out []shapes.KeySchemaElement[*string]) {
	for i := 0; i < len(nameType); i += 2 {
		out = append(out, shapes.KeySchemaElement[*string]{AttributeName: ptr(nameType[i]), KeyType: ptr(nameType[i+1])})
	}
	return out
}

func tags(kv ...string) (out []shapes.Tag[*string]) {
	for i := 0; i < len(kv); i += 2 {
		out = append(out, shapes.Tag[*string]{Key: ptr(kv[i]), Value: ptr(kv[i+1])})
	}
	return out
}

func capacity(read, write int64) *shapes.ProvisionedThroughput[*int64] {
	return &shapes.ProvisionedThroughput[*int64]{ReadCapacityUnits: &read, WriteCapacityUnits: &write}
}

func ttl(attr string) *shapes.TimeToLiveSpecification {
	return &shapes.TimeToLiveSpecification{AttributeName: &attr, Enabled: ptr(true)}
}

// asJSON compares through JSON: numbers from YAML and JSON alike.
func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func TestReadCDKSynth(t *testing.T) {
	src, err := os.ReadFile("testdata/cdk.template.json")
	require.NoError(t, err)
	require.Equal(t, "cloudformation", Sniff(src))
	tpl := readFile(t, "cdk.template.json", Options{})
	require.Equal(t, []string{"CDKMetadata (AWS::CDK::Metadata)"}, tpl.Skipped)
	require.Len(t, tpl.Tables, 2)

	orders := tpl.Tables[0]
	require.Equal(t, "OrdersTable3D0A4D91", orders.LogicalID)
	require.Equal(t, "orders", orders.Name)
	require.Equal(t, CreateTable{CreateTableInput: shapes.CreateTableInput{
		TableName:            ptr("orders"),
		AttributeDefinitions: attrs("pk", "S", "sk", "S", "gsi1pk", "S", "createdAt", "N"),
		BillingMode:          ptr("PAY_PER_REQUEST"),
		GlobalSecondaryIndexes: []shapes.GlobalSecondaryIndex{{IndexName: ptr("gsi1"), KeySchema: keys("gsi1pk", "HASH", "sk", "RANGE"),
			Projection: &shapes.Projection[*string]{ProjectionType: ptr("ALL")}}},
		KeySchema: keys("pk", "HASH", "sk", "RANGE"),
		LocalSecondaryIndexes: []shapes.LocalSecondaryIndex{{IndexName: ptr("byCreated"), KeySchema: keys("pk", "HASH", "createdAt", "RANGE"),
			Projection: &shapes.Projection[*string]{NonKeyAttributes: []string{"status"}, ProjectionType: ptr("INCLUDE")}}},
		StreamSpecification: &shapes.StreamSpecification{StreamEnabled: ptr(true), StreamViewType: ptr("NEW_AND_OLD_IMAGES")},
	}}, orders.Create)
	require.JSONEq(t, `{
		"TableName": "orders",
		"AttributeDefinitions": [{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"},{"AttributeName":"gsi1pk","AttributeType":"S"},{"AttributeName":"createdAt","AttributeType":"N"}],
		"BillingMode": "PAY_PER_REQUEST",
		"GlobalSecondaryIndexes": [{"IndexName":"gsi1","KeySchema":[{"AttributeName":"gsi1pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}],
		"KeySchema": [{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"LocalSecondaryIndexes": [{"IndexName":"byCreated","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"createdAt","KeyType":"RANGE"}],"Projection":{"NonKeyAttributes":["status"],"ProjectionType":"INCLUDE"}}],
		"StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_AND_OLD_IMAGES"}
	}`, asJSON(t, orders.Create), "the wire form -load sends")
	require.Equal(t, ttl("expiresAt"), orders.TTL)

	sessions := tpl.Tables[1]
	require.Equal(t, "SessionsTableA0B1C2D3", sessions.Name, "no TableName: the logical id")
	require.Equal(t, capacity(5, 5), sessions.Create.ProvisionedThroughput)
	require.NotNil(t, sessions.PITR)

	out, unresolved := tpl.Outputs(func(id, attr string) (string, error) { return "stream-of-" + id, nil })
	require.Empty(t, unresolved)
	require.Equal(t, map[string]string{"OrdersStreamArn": "stream-of-OrdersTable3D0A4D91", "OrdersTableName": "orders"}, out)
}

func TestReadSAM(t *testing.T) {
	tpl := readFile(t, "sam.yaml", Options{Region: "eu-west-1"})
	require.Equal(t, []string{"OrdersFunction (AWS::Serverless::Function)"}, tpl.Skipped)
	require.Len(t, tpl.Tables, 2)
	orders := tpl.Tables[0]
	require.Equal(t, "orders-dev-eu-west-1", orders.Name, "!Sub of a parameter's Default and AWS::Region")
	require.Equal(t, capacity(5, 2), orders.Create.ProvisionedThroughput)
	require.Equal(t, tags("stage", "dev"), orders.Create.Tags)
	require.Equal(t, ptr(true), orders.Create.DeletionProtectionEnabled)
	require.Equal(t, &shapes.StreamSpecification{StreamEnabled: ptr(true), StreamViewType: ptr("NEW_IMAGE")}, orders.Create.StreamSpecification)

	users := tpl.Tables[1]
	require.Equal(t, "users-dev", users.Name)
	require.Equal(t, CreateTable{CreateTableInput: shapes.CreateTableInput{
		TableName:            ptr("users-dev"),
		AttributeDefinitions: attrs("userId", "S"),
		KeySchema:            keys("userId", "HASH"),
		BillingMode:          ptr("PAY_PER_REQUEST"),
		Tags:                 tags("team", "identity"),
	}}, users.Create)

	out, unresolved := tpl.Outputs(nil)
	require.NotContains(t, out, "OrdersStream", "a stream ARN is known once the table exists")
	require.Len(t, unresolved, 1)
	require.Contains(t, unresolved[0], "Outputs.OrdersStream")
	out, unresolved = tpl.Outputs(func(id, attr string) (string, error) { return id + "/" + attr, nil })
	require.Empty(t, unresolved)
	require.Equal(t, "OrdersTable/StreamArn", out["OrdersStream"])
	require.Equal(t, "arn:aws:dynamodb:eu-west-1:"+AccountID+":table/orders-dev-eu-west-1", out["OrdersArn"])
	require.Equal(t, "users-dev", out["UsersName"])

	src, err := os.ReadFile("testdata/sam.yaml")
	require.NoError(t, err)
	tpl, err = Read(src, Options{Parameters: map[string]string{"Stage": "prod"}})
	require.NoError(t, err)
	require.Equal(t, "orders-prod-us-east-1", tpl.Tables[0].Name, "a parameter given wins over its Default")
}

func TestReadServerless(t *testing.T) {
	src, err := os.ReadFile("testdata/serverless.yml")
	require.NoError(t, err)
	require.Equal(t, "serverless", Sniff(src))
	env := map[string]string{"ORDERS_TTL_ATTRIBUTE": "ttl"}
	tpl, err := Read(src, Options{Getenv: func(k string) string { return env[k] }})
	require.NoError(t, err)
	require.Equal(t, []string{"OrdersQueue (AWS::SQS::Queue)"}, tpl.Skipped)
	require.Len(t, tpl.Tables, 1)
	require.Equal(t, "orders-dev-orders", tpl.Tables[0].Name)
	require.Equal(t, ttl("ttl"), tpl.Tables[0].TTL, "${env:...} set")
	out, unresolved := tpl.Outputs(nil)
	require.Empty(t, unresolved)
	require.Equal(t, "orders-dev-orders", out["OrdersTableName"])

	tpl, err = Read(src, Options{})
	require.NoError(t, err)
	require.Equal(t, ttl("expiresAt"), tpl.Tables[0].TTL, "${env:...} unset: the fallback")
}

func TestReadGlobalTable(t *testing.T) {
	tpl := readFile(t, "global.yaml", Options{})
	require.Len(t, tpl.Tables, 1)
	g := tpl.Tables[0]
	require.Equal(t, []string{"eu-west-1"}, g.Replicas)
	require.NotNil(t, g.PITR)
	require.NotNil(t, g.TTL)
	require.Equal(t, tags("app", "shop"), g.Create.Tags)
	require.Equal(t, ptr("PAY_PER_REQUEST"), g.Create.BillingMode)

	src, err := os.ReadFile("testdata/global.yaml")
	require.NoError(t, err)
	_, err = Read(src, Options{Region: "ap-south-1"})
	require.ErrorContains(t, err, "no replica in ap-south-1")
}

// TestReadProvisionedGlobalTable: a PROVISIONED global table is made
// with its autoscaling minimums as its capacity (the write side from the
// table, the read side from the replica in the region), its replica's
// settings and its GSIs' on the same terms; the other replicas are
// regions only.
func TestReadProvisionedGlobalTable(t *testing.T) {
	src := `Resources:
  G:
    Type: AWS::DynamoDB::GlobalTable
    Properties:
      TableName: g
      BillingMode: PROVISIONED
      AttributeDefinitions: [{AttributeName: id, AttributeType: S}, {AttributeName: x, AttributeType: N}]
      KeySchema: [{AttributeName: id, KeyType: HASH}]
      WriteProvisionedThroughputSettings:
        WriteCapacityAutoScalingSettings: {MinCapacity: 3, MaxCapacity: 10, TargetTrackingScalingPolicyConfiguration: {TargetValue: 70}}
      SSESpecification: {SSEEnabled: true, SSEType: KMS}
      GlobalSecondaryIndexes:
        - IndexName: byX
          KeySchema: [{AttributeName: x, KeyType: HASH}]
          Projection: {ProjectionType: ALL}
          WriteProvisionedThroughputSettings:
            WriteCapacityAutoScalingSettings: {MinCapacity: "2", MaxCapacity: 10, TargetTrackingScalingPolicyConfiguration: {TargetValue: 70}}
      Replicas:
        - Region: us-east-1
          TableClass: STANDARD_INFREQUENT_ACCESS
          DeletionProtectionEnabled: false
          SSESpecification: {KMSMasterKeyId: alias/x}
          ContributorInsightsSpecification: {Enabled: true}
          PointInTimeRecoverySpecification: {PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 7}
          ReadProvisionedThroughputSettings: {ReadCapacityAutoScalingSettings: {MinCapacity: 4, MaxCapacity: 9, TargetTrackingScalingPolicyConfiguration: {TargetValue: 70}}}
          GlobalSecondaryIndexes:
            - IndexName: byX
              ReadProvisionedThroughputSettings: {ReadCapacityUnits: 6}
        - Region: eu-west-1
          TableClass: STANDARD
`
	tpl, err := Read([]byte(src), Options{})
	require.NoError(t, err)
	require.Len(t, tpl.Tables, 1)
	g := tpl.Tables[0]
	require.Equal(t, CreateTable{CreateTableInput: shapes.CreateTableInput{
		TableName:             ptr("g"),
		AttributeDefinitions:  attrs("id", "S", "x", "N"),
		KeySchema:             keys("id", "HASH"),
		BillingMode:           ptr("PROVISIONED"),
		ProvisionedThroughput: capacity(4, 3),
		GlobalSecondaryIndexes: []shapes.GlobalSecondaryIndex{{IndexName: ptr("byX"), KeySchema: keys("x", "HASH"), Projection: &shapes.Projection[*string]{ProjectionType: ptr("ALL")},
			ProvisionedThroughput: capacity(6, 2)}},
		SSESpecification:          &shapes.SSESpecification{Enabled: ptr(true), SSEType: ptr("KMS"), KMSMasterKeyId: ptr("alias/x")},
		TableClass:                ptr("STANDARD_INFREQUENT_ACCESS"),
		DeletionProtectionEnabled: ptr(false),
	}}, g.Create)
	require.Equal(t, &shapes.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: ptr(true), RecoveryPeriodInDays: ptr(int64(7))}, g.PITR)
	require.Equal(t, "ENABLE", g.ContributorInsights)
	require.Nil(t, g.TTL)
	require.Equal(t, []string{"eu-west-1"}, g.Replicas)
	require.JSONEq(t, `{"PointInTimeRecoveryEnabled":true,"RecoveryPeriodInDays":7}`, asJSON(t, g.PITR), "the wire form -load sends")

	_, err = Read([]byte(strings.Replace(src, "{ReadCapacityUnits: 6}", "{}", 1)), Options{})
	require.ErrorContains(t, err, "Replicas[us-east-1].GlobalSecondaryIndexes[byX].ReadProvisionedThroughputSettings: a PROVISIONED global table's replica needs")
}

// TestReadResourcePolicy: a table's ResourcePolicy goes into CreateTable
// as its document's JSON text, a member the request shape does not hold,
// and the request's JSON leaves out what the template does not say.
func TestReadResourcePolicy(t *testing.T) {
	src := "Resources:\n  T:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: t\n" +
		"      KeySchema: [{AttributeName: id, KeyType: HASH}]\n      AttributeDefinitions: [{AttributeName: id, AttributeType: S}]\n" +
		"      ResourcePolicy: {PolicyDocument: {Version: '2012-10-17', Statement: []}}\n"
	tpl, err := Read([]byte(src), Options{})
	require.NoError(t, err)
	tb := tpl.Tables[0]
	require.Equal(t, ptr(`{"Statement":[],"Version":"2012-10-17"}`), tb.Create.ResourcePolicy)
	require.JSONEq(t, `{"TableName":"t","KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],
		"ResourcePolicy":"{\"Statement\":[],\"Version\":\"2012-10-17\"}"}`, asJSON(t, tb.Create))
}

// TestReadBooleanText: a Boolean property written as text, as a quoted
// YAML scalar or a String parameter given by Ref, is read as the boolean
// it names, as CloudFormation reads it; other text is refused.
func TestReadBooleanText(t *testing.T) {
	src := "Parameters:\n  Pitr:\n    Type: String\n    Default: 'true'\nResources:\n  T:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: t\n" +
		"      KeySchema: [{AttributeName: id, KeyType: HASH}]\n      AttributeDefinitions: [{AttributeName: id, AttributeType: S}]\n" +
		"      DeletionProtectionEnabled: 'TRUE'\n      PointInTimeRecoverySpecification: {PointInTimeRecoveryEnabled: !Ref Pitr}\n" +
		"      TimeToLiveSpecification: {AttributeName: exp, Enabled: 'false'}\n"
	tpl, err := Read([]byte(src), Options{})
	require.NoError(t, err)
	tb := tpl.Tables[0]
	require.Equal(t, ptr(true), tb.Create.DeletionProtectionEnabled)
	require.NotNil(t, tb.PITR)
	require.Equal(t, ptr(true), tb.PITR.PointInTimeRecoveryEnabled)
	require.Nil(t, tb.TTL, "TTL written 'false' is off")
	require.JSONEq(t, `{"PointInTimeRecoveryEnabled":true}`, asJSON(t, tb.PITR))
}

// TestReadErrors: what cannot be resolved or taken exactly is an error
// naming it.
func TestReadErrors(t *testing.T) {
	table := func(props string) string {
		return "Parameters:\n  NoDefault:\n    Type: String\nResources:\n  T:\n    Type: AWS::DynamoDB::Table\n    Properties:\n" +
			"      KeySchema: [{AttributeName: id, KeyType: HASH}]\n      AttributeDefinitions: [{AttributeName: id, AttributeType: S}]\n" + props
	}
	tests := []struct{ src, want string }{
		{table("      TableName: !If [IsProd, a, b]\n"), "Fn::If"},
		{table("      TableName: !ImportValue shared-name\n"), "Fn::ImportValue"},
		{table("      TableName: !Ref NoDefault\n"), "Ref NoDefault"},
		{table("      TableName: !Ref Nowhere\n"), "Ref Nowhere"},
		{table("      TableName: !Sub '${Nowhere}-x'\n"), "Ref Nowhere"},
		{table("      KinesisStreamSpecification: {StreamArn: x}\n"), "Resources.T.Properties.KinesisStreamSpecification"},
		{table("      StreamSpecification: {StreamViewType: NEW_IMAGE, ResourcePolicy: {}}\n"), "StreamSpecification.ResourcePolicy"},
		{table("      GlobalSecondaryIndexes: [{IndexName: g, ContributorInsightsSpecification: {Enabled: true}}]\n"), "GlobalSecondaryIndexes[0].ContributorInsightsSpecification"},
		{table("      TableName: !GetAtt T.StreamArn\n"), "T.StreamArn"},
		{"Resources:\n  T:\n    Type: AWS::DynamoDB::Table\n    Condition: IsProd\n    Properties: {}\n", "Condition"},
		{"service: s\nprovider: {name: aws}\nresources:\n  Resources:\n    T:\n      Type: AWS::DynamoDB::Table\n      Properties:\n        TableName: ${ssm:/app/table}\n", "ssm:/app/table"},
		{"service: s\nprovider: {name: aws}\nresources:\n  Resources:\n    T:\n      Type: AWS::DynamoDB::Table\n      Properties:\n        TableName: ${file(./names.yml):orders}\n", "file"},
		{"service: s\nprovider: {name: aws}\nresources:\n  Resources:\n    T:\n      Type: AWS::DynamoDB::Table\n      Properties:\n        TableName: ${env:UNSET_TABLE_NAME}\n", "env:UNSET_TABLE_NAME"},
		{"service: s\ncustom: {a: '${self:custom.b}', b: '${self:custom.a}'}\nprovider: {name: aws}\nresources:\n  Resources:\n    T:\n      Type: AWS::DynamoDB::Table\n      Properties:\n        TableName: ${self:custom.a}\n", "too deep"},
		{table("      KeySchema: [{AttributeName: id, KeyType: HASH, Ordinal: 1}]\n"), "Resources.T.Properties.KeySchema[0].Ordinal: a property the emulator cannot take"},
		{table("      GlobalSecondaryIndexes: [{IndexName: g, Projection: {projectionType: ALL}}]\n"), "GlobalSecondaryIndexes[0].Projection.projectionType: a property the emulator cannot take"},
		{table("      Tags: {team: x}\n"), "Resources.T.Properties.Tags: not a list"},
		{table("      DeletionProtectionEnabled: 'yes'\n"), "Resources.T.Properties.DeletionProtectionEnabled: not true or false"},
		{table("      BillingMode: [PROVISIONED]\n"), "Resources.T.Properties.BillingMode: not a string"},
		{table("      ProvisionedThroughput: {ReadCapacityUnits: five, WriteCapacityUnits: 1}\n"), "ProvisionedThroughput.ReadCapacityUnits: strconv.ParseInt"},
		{"[1, 2]", "not a mapping"},
		{"ModelName: x\nDataModel: []\n", "neither"},
	}
	for _, tt := range tests {
		_, err := Read([]byte(tt.src), Options{})
		require.ErrorContains(t, err, tt.want, tt.src)
	}
}

// FuzzRead: any input is read or refused with an error, never a panic;
// a template read twice reads the same.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"cdk.template.json", "sam.yaml", "serverless.yml", "global.yaml", "cdk-synth/OrdersStack.template.json"} {
		src, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte("Resources: {T: {Type: AWS::DynamoDB::Table, Properties: {TableName: !Sub '${AWS::Region}${!x}'}}}"))
	f.Add([]byte("service: s\nprovider: {}\nresources: {Resources: {}}\ncustom: {a: '${self:custom.a, ${env:X, 1}}'}"))
	f.Fuzz(func(t *testing.T, src []byte) {
		a, err := Read(src, Options{})
		if err != nil {
			return
		}
		b, err := Read(src, Options{})
		require.NoError(t, err)
		require.Equal(t, asJSON(t, a.Tables), asJSON(t, b.Tables))
		_, _ = a.Outputs(func(string, string) (string, error) { return "arn", nil })
	})
}

// TestReadRealCDKSynth: the output of aws-cdk-lib 2.276.0's synth of
// testdata/cdk-synth/app.js (node app.js): a Table with a GSI, an LSI, a
// stream and TTL, and a TableV2 (a GlobalTable) with a replica.
func TestReadRealCDKSynth(t *testing.T) {
	tpl := readFile(t, "cdk-synth/OrdersStack.template.json", Options{})
	require.Empty(t, tpl.Skipped)
	require.Len(t, tpl.Tables, 2)
	carts, orders := tpl.Tables[0], tpl.Tables[1]
	require.Equal(t, "CartsEE95721F", carts.Name)
	require.Equal(t, []string{"eu-west-1"}, carts.Replicas)
	require.NotNil(t, carts.PITR)
	require.Equal(t, "orders", orders.Name)
	require.Equal(t, []shapes.LocalSecondaryIndex{{IndexName: ptr("byCreated"), KeySchema: keys("pk", "HASH", "createdAt", "RANGE"), Projection: &shapes.Projection[*string]{ProjectionType: ptr("KEYS_ONLY")}}},
		orders.Create.LocalSecondaryIndexes)
	require.Equal(t, ttl("expiresAt"), orders.TTL)
	out, unresolved := tpl.Outputs(func(id, attr string) (string, error) { return id + "." + attr, nil })
	require.Empty(t, unresolved)
	require.Equal(t, map[string]string{"OrdersStream": "OrdersA9B65338.StreamArn"}, out)
}

// TestReadServerlessReadsOnlyResources: -load reads a serverless.yml's
// tables; a variable with no value elsewhere (a function's stream ARN
// kept in .env, a plugin's SSM parameter, a queue's name) is no error.
// With useDotenv, .env.STAGE (else .env) beside the file fills what the
// environment leaves unset, and provider.region is the tables' region.
func TestReadServerlessReadsOnlyResources(t *testing.T) {
	src := []byte(`service: shop
useDotenv: true
provider:
  name: aws
  stage: ${opt:stage, 'dev'}
  region: ${env:SHOP_REGION, 'ap-northeast-1'}
  environment:
    SECRET: ${ssm:/shop/secret}
custom:
  tablePrefix: ${env:TABLE_PREFIX}
  plugin: ${ssm:/shop/plugin}
functions:
  main:
    handler: main.handler
    events:
      - stream:
          type: dynamodb
          arn: ${env:LOCAL_DDB_STREAM}
resources:
  Resources:
    Queue:
      Type: AWS::SQS::Queue
      Properties:
        QueueName: ${ssm:/shop/queue}
    Orders:
      Type: AWS::DynamoDB::Table
      Properties:
        TableName: ${self:custom.tablePrefix}-${sls:stage}-orders
        BillingMode: PAY_PER_REQUEST
        AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]
        KeySchema: [{AttributeName: pk, KeyType: HASH}]
  Outputs:
    QueueName:
      Value: ${ssm:/shop/queue-output}
    OrdersName:
      Value: !Ref Orders
`)
	dir := t.TempDir()
	_, err := Read(src, Options{Dir: dir})
	require.ErrorContains(t, err, "${env:TABLE_PREFIX} has no value", "a table's own variable must resolve")

	require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("TABLE_PREFIX=from-dotenv\nLOCAL_DDB_STREAM=\n"), 0o600))
	tpl, err := Read(src, Options{Dir: dir})
	require.NoError(t, err)
	require.Equal(t, filepath.Join(dir, ".env"), tpl.Dotenv)
	require.Len(t, tpl.Tables, 1)
	require.Equal(t, "from-dotenv-dev-orders", tpl.Tables[0].Name)
	require.Equal(t, []string{"Queue (AWS::SQS::Queue)"}, tpl.Skipped)
	require.Equal(t, "ap-northeast-1", tpl.Region, "provider.region")
	out, unresolved := tpl.Outputs(nil)
	require.Equal(t, map[string]string{"OrdersName": "from-dotenv-dev-orders"}, out)
	require.Len(t, unresolved, 1)
	require.Contains(t, unresolved[0], "ssm:/shop/queue-output")

	require.NoError(t, os.WriteFile(filepath.Join(dir, ".env.dev"), []byte("TABLE_PREFIX=from-stage-file\n"), 0o600))
	tpl, err = Read(src, Options{Dir: dir, Getenv: func(k string) string { return map[string]string{"SHOP_REGION": "eu-west-1"}[k] }})
	require.NoError(t, err)
	require.Equal(t, "from-stage-file-dev-orders", tpl.Tables[0].Name, ".env.dev wins over .env")
	require.Equal(t, "eu-west-1", tpl.Region)

	tpl, err = Read(src, Options{Dir: dir, Getenv: func(k string) string { return map[string]string{"TABLE_PREFIX": "from-env"}[k] }})
	require.NoError(t, err)
	require.Equal(t, "from-env-dev-orders", tpl.Tables[0].Name, "the environment wins over .env")

	tpl, err = Read(src, Options{Dir: dir, Region: "us-west-2"})
	require.NoError(t, err)
	require.Equal(t, "us-west-2", tpl.Region, "a region given wins over provider.region")

	noDotenv := bytes.Replace(src, []byte("useDotenv: true"), []byte("useDotenv: false"), 1)
	_, err = Read(noDotenv, Options{Dir: dir})
	require.ErrorContains(t, err, "${env:TABLE_PREFIX} has no value", "without useDotenv no .env is read")
}

// TestReadYAMLErrors: a document that is not YAML is named with its line
// and column, an alias bomb refused at once, and Kind says so too.
func TestReadYAMLErrors(t *testing.T) {
	tabbed := "Resources:\n  T:\n\tType: AWS::DynamoDB::Table\n"
	_, err := Read([]byte(tabbed), Options{})
	var se *SyntaxError
	require.ErrorAs(t, err, &se)
	require.Equal(t, 3, se.Line)
	require.Equal(t, 1, se.Column)
	require.ErrorContains(t, err, "line 3, column 1")
	_, err = Kind([]byte(tabbed))
	require.ErrorAs(t, err, &se)

	_, err = Read([]byte("Resources: {T: [1, 2}\n"), Options{})
	require.ErrorContains(t, err, "line 1, column ")

	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	for i := range 8 {
		prev, cur := string(rune('a'+i)), string(rune('b'+i))
		bomb += cur + ": &" + cur + " [" + strings.Repeat("*"+prev+", ", 9) + "*" + prev + "]\n"
	}
	bomb += "Resources: *i\n"
	start := time.Now()
	_, err = Read([]byte(bomb), Options{})
	require.ErrorContains(t, err, "aliases expand")
	_, err = Kind([]byte(bomb))
	require.ErrorContains(t, err, "aliases expand")
	require.Less(t, time.Since(start), 10*time.Second*scale(), "refused as it expands, not after")

	kind, err := Kind([]byte("ModelName: x\nDataModel: []\n"))
	require.NoError(t, err)
	require.Empty(t, kind, "YAML, not a template")
}

// scale is DYNAMOEMU_TEST_TIMEOUT_SCALE (1 when unset).
func scale() time.Duration {
	if n, err := strconv.Atoi(os.Getenv("DYNAMOEMU_TEST_TIMEOUT_SCALE")); err == nil && n > 0 {
		return time.Duration(n)
	}
	return 1
}

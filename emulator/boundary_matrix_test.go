package emulator

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"
	"github.com/dynamoemu/dynamoemu/emulator/internal/lambdaesm"
)

// The matrix's callers: the owner's key (bound to tenant001, whose item
// the rows name), another tenant's key (tenant002), a key bound to no
// tenant, a cross-tenant (admin) key, and an IAM identity with no
// policy (denied every action).
const (
	mxOwner   = "AKIDMXOWNER00001"
	mxOther   = "AKIDMXOTHER00001"
	mxUnbound = "AKIDMXUNBOUND001"
	mxAdmin   = "AKIDMXADMIN00001"
	mxDenied  = "AKIDMXDENIED0001"
	mxTable   = "m-command"
	mxARN     = "arn:aws:dynamodb:us-east-1:000000000000:table/" + mxTable
)

var mxKeys = []string{mxOwner, mxOther, mxUnbound, mxAdmin, mxDenied}

// mxFixture is the matrix's emulator: credentials for the five keys in
// one namespace, the conventions with mxTable opted in, the IAM policy
// mode with mxDenied's identity; mxTable holds tenant001's item, a
// backup, a stream and a mapping of it.
type mxFixture struct {
	e                                *Emulator
	backup, stream, iter, esm, shard string
}

func newMxFixture(t *testing.T) *mxFixture {
	cfg := &conventions.Config{
		Tables: []conventions.TableConfig{{Match: "*-command", Policy: conventions.Policy{Roles: conventions.RoleCommand,
			Disabled: []string{"A3", "B6"}}}}, // the items' shapes: the matrix judges the tenant guard alone
		Callers:     map[string]string{mxOwner: "tenant001", mxOther: "tenant002"},
		CrossTenant: []string{mxAdmin},
	}
	var creds []Credential
	for _, k := range mxKeys {
		creds = append(creds, Credential{AccessKeyID: k, SecretAccessKey: iamSecret})
	}
	pol := &IAMPolicies{Identities: []IAMIdentity{{AccessKeyID: mxDenied, ARN: "arn:aws:iam::000000000000:user/denied"}}}
	e := newIAMEmulator(t, Options{Conventions: cfg, Credentials: creds, IAM: pol, SharedDB: true})
	f := &mxFixture{e: e}
	ok := func(op, body string) string {
		a := f.api(t, mxAdmin, "DynamoDB_20120810."+op, body)
		require.Equal(t, http.StatusOK, a.status, "%s: %s", op, a.body)
		return a.body
	}
	ok("CreateTable", `{"TableName":"`+mxTable+`","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"},
		"VectorIndexes":[{"IndexName":"vectors","VectorAttribute":{"AttributeName":"emb"},"Dimensions":1,"DistanceFunction":"EUCLIDEAN",
		"Projection":{"ProjectionType":"KEYS_ONLY"}}]}`)
	ok("PutItem", `{"TableName":"`+mxTable+`","Item":{"pk":{"S":"ORDER#tenant001"},"sk":{"S":"1"}}}`)
	var out struct {
		BackupDetails     struct{ BackupArn string }
		Table             struct{ LatestStreamArn string }
		ShardIterator     string
		StreamDescription struct{ Shards []struct{ ShardId string } }
	}
	require.NoError(t, json.Unmarshal([]byte(ok("CreateBackup", `{"TableName":"`+mxTable+`","BackupName":"matrix"}`)), &out))
	require.NoError(t, json.Unmarshal([]byte(ok("DescribeTable", `{"TableName":"`+mxTable+`"}`)), &out))
	f.backup, f.stream = out.BackupDetails.BackupArn, out.Table.LatestStreamArn
	a := f.api(t, mxAdmin, "DynamoDBStreams_20120810.DescribeStream", `{"StreamArn":"`+f.stream+`"}`)
	require.NoError(t, json.Unmarshal([]byte(a.body), &out), a.body)
	require.NotEmpty(t, out.StreamDescription.Shards, a.body)
	a = f.api(t, mxAdmin, "DynamoDBStreams_20120810.GetShardIterator", `{"StreamArn":"`+f.stream+`","ShardId":"`+
		out.StreamDescription.Shards[0].ShardId+`","ShardIteratorType":"TRIM_HORIZON"}`)
	require.NoError(t, json.Unmarshal([]byte(a.body), &out), a.body)
	f.iter, f.shard = out.ShardIterator, out.StreamDescription.Shards[0].ShardId
	a = f.send(t, mxAdmin, "lambda", http.MethodPost, lambdaesm.APIPrefix, f.esmBody())
	require.Equal(t, http.StatusAccepted, a.status, a.body)
	var m struct{ UUID string }
	require.NoError(t, json.Unmarshal([]byte(a.body), &m))
	f.esm = m.UUID
	return f
}

// esmBody is a complete CreateEventSourceMapping of mxTable's stream.
func (f *mxFixture) esmBody() string {
	return `{"EventSourceArn":"` + f.stream + `","FunctionName":"matrix-fn","StartingPosition":"LATEST"}`
}

// mxAnswer is an answer: its status and body.
type mxAnswer struct {
	status int
	body   string
}

// send sends method path with body, signed by key for service.
func (f *mxFixture) send(t *testing.T, key, service, method, path, body string) mxAnswer {
	req := httptest.NewRequest(method, "http://localhost"+path, strings.NewReader(body))
	req.Host = "localhost"
	req.Header.Set("Content-Type", "application/json")
	signFor(t, key, iamSecret, service, "us-east-1")(req, []byte(body))
	rec := httptest.NewRecorder()
	f.e.Handler().ServeHTTP(rec, req)
	return mxAnswer{rec.Code, rec.Header().Get("X-Amzn-ErrorType") + " " + rec.Body.String()}
}

// api calls the DynamoDB (or Streams) operation target with body.
func (f *mxFixture) api(t *testing.T, key, target, body string) mxAnswer {
	req := httptest.NewRequest(http.MethodPost, "http://localhost/", strings.NewReader(body))
	req.Host = "localhost"
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", target)
	signFor(t, key, iamSecret, "dynamodb", "us-east-1")(req, []byte(body))
	rec := httptest.NewRecorder()
	f.e.Handler().ServeHTTP(rec, req)
	return mxAnswer{rec.Code, rec.Body.String()}
}

// mxRow is one operation or endpoint of the matrix: how to call it with
// a key, its IAM action ("": none asked) and whether the tenant guard
// refuses a caller bound to a tenant (the owner's key, another tenant's:
// other alone for a per-key row).
type mxRow struct {
	name          string
	call          func(t *testing.T, f *mxFixture, key string) mxAnswer
	action        string
	owner, other  bool // refused to the owner's key, to another tenant's
	effect        bool // changes what other rows use: its passing callers run last, one at a time
	refusedStatus int
	refusal       string // what a refusal's body holds: "AccessDeniedException", or a batch's per-statement "AccessDenied"
}

// mxActions are the IAM actions AWS authorizes an operation's call on,
// where they are not dynamodb:<operation> (the Service Authorization
// Reference: PartiQL statements by their kind, a transaction by its
// items' actions).
var mxActions = map[string]string{
	"ExecuteStatement": "dynamodb:PartiQLSelect", "ExecuteTransaction": "dynamodb:PartiQLSelect",
	"BatchExecuteStatement": "dynamodb:PartiQLSelect", "TransactGetItems": "dynamodb:GetItem", "TransactWriteItems": "dynamodb:PutItem",
}

// mxInputs are complete, valid inputs of the operations the service
// registers, on mxTable (and its backup, stream and iterator); a row
// with an operation none lists fails the matrix.
func mxInputs(f *mxFixture) map[string]string {
	tbl := `"TableName":"` + mxTable + `"`
	key := `"Key":{"pk":{"S":"ORDER#tenant001"},"sk":{"S":"1"}}`
	item := `"Item":{"pk":{"S":"ORDER#tenant001"},"sk":{"S":"2"}}`
	return map[string]string{
		"BatchExecuteStatement": `{"Statements":[{"Statement":"SELECT * FROM \"` + mxTable + `\" WHERE pk='ORDER#tenant001' AND sk='1'"}]}`,
		"BatchGetItem":          `{"RequestItems":{"` + mxTable + `":{"Keys":[{"pk":{"S":"ORDER#tenant001"},"sk":{"S":"1"}}]}}}`,
		"BatchWriteItem":        `{"RequestItems":{"` + mxTable + `":[{"PutRequest":{` + item + `}}]}}`,
		"CancelBulkOperation":   `{"BulkOperationArn":"` + mxARN + `/bulk/01700000000000-abcdefgh"}`,
		"CreateBackup":          `{` + tbl + `,"BackupName":"matrix2"}`,
		"CreateGlobalTable":     `{"GlobalTableName":"` + mxTable + `","ReplicationGroup":[{"RegionName":"us-east-1"}]}`,
		"CreateTable": `{"TableName":"m2-command","BillingMode":"PAY_PER_REQUEST",
			"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],
			"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]}`,
		"DeleteBackup":                              `{"BackupArn":"` + f.backup + `"}`,
		"DeleteItem":                                `{` + tbl + `,` + key + `}`,
		"DeleteResourcePolicy":                      `{"ResourceArn":"` + mxARN + `"}`,
		"DeleteTable":                               `{` + tbl + `}`,
		"DescribeBackup":                            `{"BackupArn":"` + f.backup + `"}`,
		"DescribeBulkOperation":                     `{"BulkOperationArn":"` + mxARN + `/bulk/01700000000000-abcdefgh"}`,
		"DescribeContinuousBackups":                 `{` + tbl + `}`,
		"DescribeContributorInsights":               `{` + tbl + `}`,
		"DescribeEndpoints":                         `{}`,
		"DescribeExport":                            `{"ExportArn":"` + mxARN + `/export/01700000000000-abcdefgh"}`,
		"DescribeGlobalTable":                       `{"GlobalTableName":"` + mxTable + `"}`,
		"DescribeGlobalTableSettings":               `{"GlobalTableName":"` + mxTable + `"}`,
		"DescribeImport":                            `{"ImportArn":"` + mxARN + `/import/01700000000000-abcdefgh"}`,
		"DescribeKinesisStreamingDestination":       `{` + tbl + `}`,
		"DescribeLimits":                            `{}`,
		"DescribeTable":                             `{` + tbl + `}`,
		"DescribeTableReplicaAutoScaling":           `{` + tbl + `}`,
		"DescribeTimeToLive":                        `{` + tbl + `}`,
		"DisableKinesisStreamingDestination":        `{` + tbl + `,"StreamArn":"arn:aws:kinesis:us-east-1:000000000000:stream/matrix"}`,
		"DynamoDBStreams_20120810.DescribeStream":   `{"StreamArn":"` + f.stream + `"}`,
		"DynamoDBStreams_20120810.GetRecords":       `{"ShardIterator":"` + f.iter + `"}`,
		"DynamoDBStreams_20120810.GetShardIterator": `{"StreamArn":"` + f.stream + `","ShardId":"` + f.shard + `","ShardIteratorType":"LATEST"}`,
		"DynamoDBStreams_20120810.ListStreams":      `{` + tbl + `}`,
		"EnableKinesisStreamingDestination":         `{` + tbl + `,"StreamArn":"arn:aws:kinesis:us-east-1:000000000000:stream/matrix"}`,
		"ExecuteStatement":                          `{"Statement":"SELECT * FROM \"` + mxTable + `\" WHERE pk='ORDER#tenant001' AND sk='1'"}`,
		"ExecuteTransaction":                        `{"TransactStatements":[{"Statement":"SELECT * FROM \"` + mxTable + `\" WHERE pk='ORDER#tenant001' AND sk='1'"}]}`,
		"ExportTableToPointInTime":                  `{"TableArn":"` + mxARN + `","S3Bucket":"matrix-bucket"}`,
		"GetItem":                                   `{` + tbl + `,` + key + `}`,
		"GetResourcePolicy":                         `{"ResourceArn":"` + mxARN + `"}`,
		"ImportTable": `{"S3BucketSource":{"S3Bucket":"matrix-bucket"},"InputFormat":"DYNAMODB_JSON","TableCreationParameters":{"TableName":"m3-{k}-command",
			"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],
			"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"BillingMode":"PAY_PER_REQUEST"}}`,
		"ListBackups":                       `{}`,
		"ListBulkOperations":                `{}`,
		"ListContributorInsights":           `{}`,
		"ListExports":                       `{}`,
		"ListGlobalTables":                  `{}`,
		"ListImports":                       `{}`,
		"ListTables":                        `{}`,
		"ListTagsOfResource":                `{"ResourceArn":"` + mxARN + `"}`,
		"PutItem":                           `{` + tbl + `,` + item + `}`,
		"PutResourcePolicy":                 `{"ResourceArn":"` + mxARN + `","Policy":"{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"arn:aws:iam::000000000000:root\"},\"Action\":\"dynamodb:GetItem\",\"Resource\":\"` + mxARN + `\"}]}"}`,
		"Query":                             `{` + tbl + `,"KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"ORDER#tenant001"}}}`,
		"RestoreTableFromBackup":            `{"BackupArn":"` + f.backup + `","TargetTableName":"m-copy-{k}"}`,
		"RestoreTableToPointInTime":         `{"SourceTableName":"` + mxTable + `","TargetTableName":"m-copy2-{k}","UseLatestRestorableTime":true}`,
		"Scan":                              `{` + tbl + `}`,
		"SearchVectors":                     `{` + tbl + `,"IndexName":"vectors","SearchVector":[{"N":"0.5"}],"TopK":1}`,
		"StartBulkPutItems":                 `{` + tbl + `,"InputS3Configuration":{"Bucket":"matrix-bucket"}}`,
		"TagResource":                       `{"ResourceArn":"` + mxARN + `","Tags":[{"Key":"k","Value":"v"}]}`,
		"TransactGetItems":                  `{"TransactItems":[{"Get":{` + tbl + `,` + key + `}}]}`,
		"TransactWriteItems":                `{"TransactItems":[{"Put":{` + tbl + `,` + item + `}}]}`,
		"UntagResource":                     `{"ResourceArn":"` + mxARN + `","TagKeys":["k"]}`,
		"UpdateContinuousBackups":           `{` + tbl + `,"PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`,
		"UpdateContributorInsights":         `{` + tbl + `,"ContributorInsightsAction":"ENABLE"}`,
		"UpdateGlobalTable":                 `{"GlobalTableName":"` + mxTable + `","ReplicaUpdates":[{"Create":{"RegionName":"us-west-2"}}]}`,
		"UpdateGlobalTableSettings":         `{"GlobalTableName":"` + mxTable + `","GlobalTableBillingMode":"PAY_PER_REQUEST"}`,
		"UpdateItem":                        `{` + tbl + `,` + key + `,"UpdateExpression":"SET n = :n","ExpressionAttributeValues":{":n":{"N":"1"}}}`,
		"UpdateKinesisStreamingDestination": `{` + tbl + `,"StreamArn":"arn:aws:kinesis:us-east-1:000000000000:stream/matrix","UpdateKinesisStreamingConfiguration":{"ApproximateCreationDateTimePrecision":"MICROSECOND"}}`,
		"UpdateTable":                       `{` + tbl + `,"BillingMode":"PAY_PER_REQUEST"}`,
		"UpdateTableReplicaAutoScaling":     `{` + tbl + `,"ReplicaUpdates":[{"RegionName":"us-east-1"}]}`,
		"UpdateTimeToLive":                  `{` + tbl + `,"TimeToLiveSpecification":{"Enabled":true,"AttributeName":"ttl"}}`,
	}
}

// mxRows are the matrix's rows, generated from the operation tables: the
// service's operations, Lambda's mapping operations and the router's
// rows. A row that has no input fails t.
func mxRows(t *testing.T, f *mxFixture) []mxRow {
	var rows []mxRow
	inputs := mxInputs(f)
	for name, sh := range f.e.svc.OperationShapes() {
		in, ok := inputs[name]
		require.True(t, ok, "operation %s has no row in the matrix (mxInputs)", name)
		d := sh.Decl
		target := name
		if !strings.Contains(name, ".") {
			target = "DynamoDB_20120810." + name
		}
		op := name[strings.LastIndex(name, ".")+1:]
		r := mxRow{name: op, action: "dynamodb:" + op, refusedStatus: http.StatusBadRequest, refusal: "AccessDeniedException",
			call: func(t *testing.T, f *mxFixture, key string) mxAnswer {
				// each key makes a table of its own
				return f.api(t, key, target, strings.NewReplacer("m2-command", "m2-"+strings.ToLower(key[6:11])+"-command",
					"{k}", strings.ToLower(key[6:11])).Replace(in))
			}}
		if a, ok := mxActions[op]; ok {
			r.action = a
		}
		if op == "BatchExecuteStatement" {
			r.refusedStatus, r.refusal = http.StatusOK, `"Code":"AccessDenied"`
		}
		switch {
		case d.On == boundary.Nothing:
			r.action = ""
		case d.On == boundary.Items && d.Access == boundary.WholeRead:
			r.owner, r.other = true, true // a Scan of a table that opts in
		case d.On == boundary.Items:
			r.other = true // the owner's item
		case d.On == boundary.AllTables:
		case d.Whole():
			r.owner, r.other = true, true
		}
		r.effect = d.Access == boundary.WholeWrite || d.Access == boundary.ItemWrite || d.Target
		rows = append(rows, r)
	}
	for _, op := range lambdaesm.Ops() {
		d := lambdaesm.Decls(op)
		method, path, body := map[string]string{lambdaesm.OpCreate: "POST", lambdaesm.OpList: "GET", lambdaesm.OpGet: "GET",
			lambdaesm.OpUpdate: "PUT", lambdaesm.OpDelete: "DELETE"}[op], lambdaesm.APIPrefix, ""
		switch op {
		case lambdaesm.OpCreate:
			body = f.esmBody()
		case lambdaesm.OpUpdate:
			body = `{"BatchSize":10}`
		}
		if op != lambdaesm.OpCreate && op != lambdaesm.OpList {
			path += "/" + f.esm
		}
		refused := d.Whole()
		rows = append(rows, mxRow{name: op, action: "lambda:" + op, owner: refused, other: refused, effect: refused,
			refusedStatus: http.StatusForbidden, refusal: "AccessDeniedException",
			call: func(t *testing.T, f *mxFixture, key string) mxAnswer {
				return f.send(t, key, "lambda", method, path, body)
			}})
	}
	for _, row := range ownEndpoints() {
		if row.guard != guardAdmin || row.handler == nil || row.action == "" || row.handler(f.e, nil) == nil {
			continue // no credentials asked, or not served with these Options: routes_test.go
		}
		method := strings.Fields(row.methods)[0]
		path := strings.NewReplacer("{id}", "none", "{name}", "none").Replace(row.path)
		body := ""
		switch row.action {
		case "PutFaults":
			// a rule on an operation no effect row calls: the rows after it are not throttled
			body = `{"rules":[{"table":"` + mxTable + `","operations":["DescribeLimits"],"fault":"ProvisionedThroughputExceeded"}]}`
		case "SetLag":
			body = `{"table":"` + mxTable + `","reads":true,"delay":"0s"}`
		}
		refused := boundOutcome(row.decl) != "allowed"
		rows = append(rows, mxRow{name: method + " " + row.path, action: "dynamoemu:" + row.action, owner: refused, other: refused,
			effect: method != http.MethodGet, refusedStatus: http.StatusBadRequest, refusal: "AccessDeniedException",
			call: func(t *testing.T, f *mxFixture, key string) mxAnswer {
				return f.send(t, key, "dynamodb", method, path, body)
			}})
	}
	return rows
}

// check sends row's request with key and checks the answer: the tenant
// guard's AccessDeniedException naming rule B10 where it refuses, IAM's
// AccessDeniedException naming the action for the identity denied it,
// no refusal otherwise.
func (row *mxRow) check(t *testing.T, f *mxFixture, key string) {
	a := row.call(t, f, key)
	refused := (key == mxOwner && row.owner) || (key == mxOther && row.other)
	switch {
	case key == mxDenied && row.action != "":
		require.Equal(t, row.refusedStatus, a.status, a.body)
		require.Contains(t, a.body, row.refusal, a.body)
		require.Contains(t, a.body, "is not authorized to perform: "+row.action, a.body)
	case refused:
		require.Equal(t, row.refusedStatus, a.status, a.body)
		require.Contains(t, a.body, row.refusal, a.body)
		require.Contains(t, a.body, "B10", a.body)
	case key == mxUnbound || key == mxAdmin:
		want, ok := mxWant[row.name]
		require.True(t, ok, "%s has no expected answer (mxWant)", row.name)
		if w, ok := mxWantAdmin[row.name]; ok && key == mxAdmin {
			want = w
		}
		if want == "" {
			require.Contains(t, []int{http.StatusOK, http.StatusAccepted}, a.status, "%s: %s", key, a.body)
			return
		}
		code, rest, _ := strings.Cut(want, " ")
		typ, msg, _ := strings.Cut(rest, ": ")
		require.Equal(t, code, strconv.Itoa(a.status), "%s: %s", key, a.body)
		require.Contains(t, a.body, typ, "%s: %s", key, a.body)
		require.Contains(t, a.body, strings.ReplaceAll(msg, `"`, `\"`), "%s: %s", key, a.body) // as the JSON body quotes it
	default:
		require.NotContains(t, a.body, row.refusal, "%s: %s", key, a.body)
	}
}

// mxWant is the exact answer an unbound key and the admin (cross-tenant)
// key get for each row with the matrix's input, in the matrix's order:
// "" a 200 (202 for Lambda's API), else "status ErrorType: message"
// (the message up to its first ARN, table id, item or mapping, which
// vary by run). Most are AWS's answers to that input (PITR off: the
// export and the point-in-time restore; no global table; no resource
// policy; no such backup, export, import or bulk operation); the
// conventions' own refusals (B7, B12: the command table's rules, not the
// tenant guard) and the admin endpoints' are the emulator's. A row with
// no entry fails the matrix.
var mxWant = map[string]string{
	"BatchExecuteStatement":                  "",
	"BatchGetItem":                           "",
	"BatchWriteItem":                         "",
	"CancelBulkOperation":                    "400 ResourceNotFoundException: Bulk operation not found: ",
	"CreateBackup":                           "",
	"CreateEventSourceMapping":               "",
	"CreateGlobalTable":                      "400 ValidationException: Global tables need a database per region: the emulator runs with -sharedDb",
	"CreateTable":                            "",
	"DELETE /dynamoemu/branches/{name}":      "400 ValidationException: emulator: no such branch: \"none\"",
	"DELETE /dynamoemu/consistency":          "",
	"DELETE /dynamoemu/conventions":          "",
	"DELETE /dynamoemu/faults":               "",
	"DELETE /dynamoemu/report":               "",
	"DELETE /dynamoemu/snapshots/{id}":       "400 ValidationException: emulator: no such snapshot: \"none\"",
	"DeleteBackup":                           "",
	"DeleteEventSourceMapping":               "",
	"DeleteItem":                             "400 ValidationException: [conventions B12] DeleteItem deletes a command row; the command table keeps every version ",
	"DeleteResourcePolicy":                   "",
	"DescribeBackup":                         "",
	"DescribeBulkOperation":                  "400 ResourceNotFoundException: Bulk operation not found: ",
	"DescribeContinuousBackups":              "",
	"DescribeContributorInsights":            "",
	"DescribeEndpoints":                      "",
	"DescribeExport":                         "400 ExportNotFoundException: Export not found: Export not found: ",
	"DescribeGlobalTable":                    "400 GlobalTableNotFoundException: Global table not found: m-command",
	"DescribeGlobalTableSettings":            "400 GlobalTableNotFoundException: Global table not found: m-command",
	"DescribeImport":                         "400 ImportNotFoundException: Import not found: Import not found: ",
	"DescribeKinesisStreamingDestination":    "",
	"DescribeLimits":                         "",
	"DescribeStream":                         "",
	"DescribeTable":                          "",
	"DescribeTableReplicaAutoScaling":        "",
	"DescribeTimeToLive":                     "",
	"DisableKinesisStreamingDestination":     "400 ValidationException: Table is not in a valid state to enable Kinesis Streaming Destination: KinesisStreamingDestination must be ACTIVE to perform DISABLE operation.",
	"EnableKinesisStreamingDestination":      "",
	"ExecuteStatement":                       "",
	"ExecuteTransaction":                     "",
	"ExportTableToPointInTime":               "400 PointInTimeRecoveryUnavailableException: Point in time recovery is not enabled for table 'm-command'",
	"GET /dynamoemu/branches":                "",
	"GET /dynamoemu/branches/{name}/diff":    "400 ValidationException: emulator: no such branch: \"none\"",
	"GET /dynamoemu/clock":                   "",
	"GET /dynamoemu/consistency":             "",
	"GET /dynamoemu/contributors":            "400 ValidationException: table is required",
	"GET /dynamoemu/conventions":             "",
	"GET /dynamoemu/faults":                  "",
	"GET /dynamoemu/faults/stats":            "",
	"GET /dynamoemu/iam":                     "",
	"GET /dynamoemu/lag":                     "",
	"GET /dynamoemu/namespaces":              "",
	"GET /dynamoemu/report":                  "",
	"GET /dynamoemu/snapshots":               "",
	"GET /dynamoemu/snapshots/{id}/diff":     "400 ValidationException: emulator: no such snapshot: \"none\"",
	"GET /dynamoemu/streams/mappings":        "",
	"GET /dynamoemu/tables":                  "400 ValidationException: namespace \"\" is not an ID as GET /dynamoemu/namespaces lists them (ACCESSKEY/REGION)",
	"GetEventSourceMapping":                  "",
	"GetItem":                                "",
	"GetRecords":                             "",
	"GetResourcePolicy":                      "400 PolicyNotFoundException: Resource-based policy not found for the provided ResourceArn: ",
	"GetShardIterator":                       "",
	"ImportTable":                            "",
	"ListBackups":                            "",
	"ListBulkOperations":                     "",
	"ListContributorInsights":                "",
	"ListEventSourceMappings":                "",
	"ListExports":                            "",
	"ListGlobalTables":                       "",
	"ListImports":                            "",
	"ListStreams":                            "",
	"ListTables":                             "",
	"ListTagsOfResource":                     "",
	"POST /dynamoemu/branches":               "400 ValidationException: the body is a JSON object {\"base\": namespace ID, \"name\": branch name}",
	"POST /dynamoemu/clock":                  "400 ValidationException: want {\"advance\":\"<duration>\"} or {\"set\":\"<RFC 3339 time>\"}: unexpected end of JSON input",
	"POST /dynamoemu/lag":                    "",
	"POST /dynamoemu/report/start":           "",
	"POST /dynamoemu/report/stop":            "",
	"POST /dynamoemu/snapshots":              "",
	"POST /dynamoemu/snapshots/{id}/restore": "400 ValidationException: emulator: no such snapshot: \"none\"",
	"POST /dynamoemu/streams/drain":          "504 DrainTimeoutException: streams not drained: ",
	"POST /dynamoemu/ttl/sweep":              "",
	"PUT /dynamoemu/faults":                  "",
	"PUT /dynamoemu/iam":                     "400 ValidationException: not the JSON of an IAM policies file: EOF",
	"PUT /dynamoemu/report/design":           "400 ValidationException: want {\"design\":\"<design file text>\"}: unexpected end of JSON input",
	"PutItem":                                "",
	"PutResourcePolicy":                      "",
	"Query":                                  "",
	"RestoreTableFromBackup":                 "",
	"RestoreTableToPointInTime":              "400 PointInTimeRecoveryUnavailableException: Point in time recovery is not enabled for table 'm-command'",
	"Scan":                                   "",
	"SearchVectors":                          "",
	"StartBulkPutItems":                      "400 ValidationException: 3 validation errors detected: Value null at 'inputS3Configuration.inputFormat' failed to satisfy constraint: Member must not be null; Value null at 'inputS3Configuration.s3Bucket' failed to satisfy constraint: Member must not be nu",
	"TagResource":                            "",
	"TransactGetItems":                       "",
	"TransactWriteItems":                     "",
	"UntagResource":                          "",
	"UpdateContinuousBackups":                "",
	"UpdateContributorInsights":              "",
	"UpdateEventSourceMapping":               "",
	"UpdateGlobalTable":                      "400 GlobalTableNotFoundException: Global table not found: m-command",
	"UpdateGlobalTableSettings":              "400 GlobalTableNotFoundException: Global table not found: m-command",
	"UpdateItem":                             "400 ValidationException: [conventions B7] UpdateItem changes the command row's n; an update may change only status, taskToken, updatedAt ",
	"UpdateKinesisStreamingDestination":      "",
	"UpdateTable":                            "",
	"UpdateTableReplicaAutoScaling":          "400 ValidationException: Auto scaling settings cannot be updated for a table in PAY_PER_REQUEST billing mode",
	"UpdateTimeToLive":                       "",
}

// mxWantAdmin is the admin key's answer where it differs from the unbound
// key's: the admin key runs second, after the unbound key's call took
// effect (the backup deleted, the destination enabled, TTL on).
var mxWantAdmin = map[string]string{
	"DeleteBackup":                      "400 BackupNotFoundException: Backup not found: ",
	"DeleteEventSourceMapping":          "404 ResourceNotFoundException: The resource you requested does not exist.",
	"DeleteResourcePolicy":              "400 PolicyNotFoundException: Resource-based policy not found for the provided ResourceArn: ",
	"EnableKinesisStreamingDestination": "400 ValidationException: Table is not in a valid state to enable Kinesis Streaming Destination: EnableKinesisStreamingDestination must be DISABLED or ENABLE_FAILED to perform ENABLE operation.",
	"UpdateKinesisStreamingDestination": "400 ValidationException: Invalid Request: Precision is already set to the desired value of MICROSECOND for ",
	"UpdateTimeToLive":                  "400 ValidationException: TimeToLive is already enabled",
}

// TestBoundaryMatrix is generated from the operation tables: every
// operation the service registers, every operation of Lambda's mapping
// API and every admin endpoint, each tried with the owner's key, another
// tenant's, an unbound key, an admin (cross-tenant) key and an IAM
// identity denied it. The callers refused run first, in parallel (under
// -race), then once each in turn; the callers let through run last, one
// row at a time (an effect such as DeleteTable's last).
func TestBoundaryMatrix(t *testing.T) {
	f := newMxFixture(t)
	rows := mxRows(t, f)
	removes := func(r mxRow) bool { return strings.Contains(strings.ToLower(r.name), "delete") }
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].effect != rows[j].effect {
			return !rows[i].effect
		}
		if removes(rows[i]) != removes(rows[j]) {
			return !removes(rows[i]) // what the other rows use goes last
		}
		return rows[i].name < rows[j].name
	})
	refusing := func(row *mxRow, key string) bool {
		return (key == mxDenied && row.action != "") || (key == mxOwner && row.owner) || (key == mxOther && row.other)
	}
	t.Run("concurrent", func(t *testing.T) {
		for i := range rows {
			row := &rows[i]
			for _, key := range mxKeys {
				if !refusing(row, key) && row.effect {
					continue
				}
				t.Run(row.name+"/"+key, func(t *testing.T) {
					t.Parallel()
					row.check(t, f, key)
				})
			}
		}
	})
	t.Run("once", func(t *testing.T) {
		for i := range rows {
			row := &rows[i]
			for _, key := range mxKeys {
				if refusing(row, key) {
					t.Run(row.name+"/"+key, func(t *testing.T) { row.check(t, f, key) })
				}
			}
		}
		for i := range rows {
			row := &rows[i]
			if row.name == "DeleteTable" {
				continue
			}
			for _, key := range mxKeys {
				if !refusing(row, key) {
					t.Run(row.name+"/"+key, func(t *testing.T) { row.check(t, f, key) })
				}
			}
		}
	})
	for _, row := range ownEndpoints() {
		require.True(t, row.decl.Valid(), "%s %s has no declaration", row.methods, row.path)
		if row.guard == guardAdmin && row.handler != nil && row.path != consoleRoute {
			require.NotEmpty(t, row.action, "%s %s declares no action", row.methods, row.path)
		}
	}
	for _, op := range lambdaesm.Ops() {
		require.True(t, lambdaesm.Decls(op).Valid(), "%s has no declaration", op)
	}
}

// TestBoundaryDeleteBackupOfDeletedTable: a backup of a table that opted
// in still holds every tenant's items once the table is deleted, so a
// caller bound to a tenant may not delete it (rule B10, judged on the
// backup's table's entry in the configuration); a cross-tenant caller
// may.
func TestBoundaryDeleteBackupOfDeletedTable(t *testing.T) {
	cfg := &conventions.Config{
		Tables:      []conventions.TableConfig{{Match: "*-command", Policy: conventions.Policy{Roles: conventions.RoleCommand}}},
		Callers:     map[string]string{"AKIDBOUND": "tenant002"},
		CrossTenant: []string{"AKIDADMIN"},
	}
	e, err := New(Options{Conventions: cfg, SharedDB: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = e.Close() })
	do := func(key, op, body string) (int, string) {
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
		req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+key+"/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0")
		rec := httptest.NewRecorder()
		e.Handler().ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	code, body := do("AKIDADMIN", "CreateTable", `{"TableName":"d-command","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]}`)
	require.Equal(t, http.StatusOK, code, body)
	code, body = do("AKIDADMIN", "CreateBackup", `{"TableName":"d-command","BackupName":"before"}`)
	require.Equal(t, http.StatusOK, code, body)
	var out struct{ BackupDetails struct{ BackupArn string } }
	require.NoError(t, json.Unmarshal([]byte(body), &out))
	arn := out.BackupDetails.BackupArn
	code, body = do("AKIDADMIN", "DeleteTable", `{"TableName":"d-command"}`)
	require.Equal(t, http.StatusOK, code, body)
	code, body = do("AKIDBOUND", "DeleteBackup", `{"BackupArn":"`+arn+`"}`)
	require.Equal(t, http.StatusBadRequest, code, body)
	require.Contains(t, body, "AccessDeniedException")
	require.Contains(t, body, "[conventions B10]")
	code, body = do("AKIDADMIN", "DeleteBackup", `{"BackupArn":"`+arn+`"}`)
	require.Equal(t, http.StatusOK, code, body)
}

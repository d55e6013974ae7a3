package service

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator/internal/accessreport"
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/internal/faults"
	"github.com/dynamoemu/dynamoemu/internal/faults/throttle"
	"github.com/stretchr/testify/require"
)

// pipelineCase is a data-plane operation's requests for TestPipeline: a
// valid request that reads or writes table pipe (which holds item
// {pk: "a", v: "x"}), and, for an operation that has conditions, one whose
// condition fails.
type pipelineCase struct {
	body     string // asks for ReturnConsumedCapacity TOTAL when the operation has it
	condFail string // "": the operation has no condition
	// eventual: body is an eventually consistent read of item a, which a
	// table's read lag holds back from a write.
	eventual bool
	// collection: a write to table lsi (which has a local secondary
	// index) asking for its item-collection metrics; "": the operation
	// has none.
	collection string
	// write: a write to table pipe, which the conventions rules check;
	// "": the operation writes nothing.
	write string
	// vector: body searches table vec's vector index (an on-demand
	// table, as a vector index's must be, holding item {pk: "a", v: "x",
	// emb: [1, 0]}): its throttling is the index's search limit
	// (VectorSearchTag), its capacity VectorSearchRequestBytes.
	vector bool
}

// table is the table the case's body reads or writes.
func (tc pipelineCase) table() string {
	if tc.vector {
		return "vec"
	}
	return "pipe"
}

// pipelineCases are the requests of every data-plane operation. TestPipeline
// holds this list to the registry: an operation registered as data-plane
// without a case here, or a case of an operation not registered as
// data-plane, fails it.
var pipelineCases = map[string]pipelineCase{
	"GetItem": {body: `{"TableName":"pipe","Key":{"pk":{"S":"a"}},"ReturnConsumedCapacity":"TOTAL"}`, eventual: true},
	"PutItem": {
		body:       `{"TableName":"pipe","Item":{"pk":{"S":"b"}},"ReturnConsumedCapacity":"TOTAL"}`,
		condFail:   `{"TableName":"pipe","Item":{"pk":{"S":"a"}},"ConditionExpression":"attribute_not_exists(pk)"}`,
		collection: `{"TableName":"lsi","Item":{"pk":{"S":"a"},"sk":{"S":"1"}},"ReturnItemCollectionMetrics":"SIZE"}`,
		write:      `{"TableName":"pipe","Item":{"pk":{"S":"b"}}}`,
	},
	"UpdateItem": {
		body: `{"TableName":"pipe","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET w = :w",` +
			`"ExpressionAttributeValues":{":w":{"S":"w"}},"ReturnConsumedCapacity":"TOTAL"}`,
		condFail: `{"TableName":"pipe","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET w = :w","ConditionExpression":"v = :no",` +
			`"ExpressionAttributeValues":{":w":{"S":"w"},":no":{"S":"no"}}}`,
		collection: `{"TableName":"lsi","Key":{"pk":{"S":"a"},"sk":{"S":"1"}},"UpdateExpression":"SET w = :w",` +
			`"ExpressionAttributeValues":{":w":{"S":"w"}},"ReturnItemCollectionMetrics":"SIZE"}`,
		write: `{"TableName":"pipe","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET w = :w","ExpressionAttributeValues":{":w":{"S":"w"}}}`,
	},
	"DeleteItem": {
		body: `{"TableName":"pipe","Key":{"pk":{"S":"a"}},"ReturnConsumedCapacity":"TOTAL"}`,
		condFail: `{"TableName":"pipe","Key":{"pk":{"S":"a"}},"ConditionExpression":"v = :no",` +
			`"ExpressionAttributeValues":{":no":{"S":"no"}}}`,
		collection: `{"TableName":"lsi","Key":{"pk":{"S":"a"},"sk":{"S":"1"}},"ReturnItemCollectionMetrics":"SIZE"}`,
		write:      `{"TableName":"pipe","Key":{"pk":{"S":"a"}}}`,
	},
	"Query": {body: `{"TableName":"pipe","KeyConditionExpression":"pk = :p",` +
		`"ExpressionAttributeValues":{":p":{"S":"a"}},"ReturnConsumedCapacity":"TOTAL"}`, eventual: true},
	"Scan": {body: `{"TableName":"pipe","ReturnConsumedCapacity":"TOTAL"}`, eventual: true},
	"BatchGetItem": {body: `{"RequestItems":{"pipe":{"Keys":[{"pk":{"S":"a"}}]}},"ReturnConsumedCapacity":"TOTAL"}`,
		eventual: true},
	"BatchWriteItem": {
		body: `{"RequestItems":{"pipe":[{"PutRequest":{"Item":{"pk":{"S":"b"}}}}]},"ReturnConsumedCapacity":"TOTAL"}`,
		collection: `{"RequestItems":{"lsi":[{"PutRequest":{"Item":{"pk":{"S":"a"},"sk":{"S":"1"}}}}]},` +
			`"ReturnItemCollectionMetrics":"SIZE"}`,
		write: `{"RequestItems":{"pipe":[{"PutRequest":{"Item":{"pk":{"S":"b"}}}}]}}`,
	},
	"TransactGetItems": {body: `{"TransactItems":[{"Get":{"TableName":"pipe","Key":{"pk":{"S":"a"}}}}],` +
		`"ReturnConsumedCapacity":"TOTAL"}`},
	"TransactWriteItems": {
		body: `{"TransactItems":[{"Put":{"TableName":"pipe","Item":{"pk":{"S":"b"}}}}],"ReturnConsumedCapacity":"TOTAL"}`,
		condFail: `{"TransactItems":[{"ConditionCheck":{"TableName":"pipe","Key":{"pk":{"S":"a"}},"ConditionExpression":"v = :no",` +
			`"ExpressionAttributeValues":{":no":{"S":"no"}}}}]}`,
		collection: `{"TransactItems":[{"Put":{"TableName":"lsi","Item":{"pk":{"S":"a"},"sk":{"S":"1"}}}}],` +
			`"ReturnItemCollectionMetrics":"SIZE"}`,
		write: `{"TransactItems":[{"Put":{"TableName":"pipe","Item":{"pk":{"S":"b"}}}}]}`,
	},
	"ExecuteStatement": {
		body:     `{"Statement":"SELECT * FROM pipe WHERE pk = 'a'","ReturnConsumedCapacity":"TOTAL"}`,
		condFail: `{"Statement":"UPDATE pipe SET w = 'w' WHERE pk = 'a' AND v = 'no'"}`,
		eventual: true,
		write:    `{"Statement":"INSERT INTO pipe VALUE {'pk':'b'}"}`,
	},
	"BatchExecuteStatement": {
		body:     `{"Statements":[{"Statement":"SELECT * FROM pipe WHERE pk = 'a'"}],"ReturnConsumedCapacity":"TOTAL"}`,
		condFail: `{"Statements":[{"Statement":"UPDATE pipe SET w = 'w' WHERE pk = 'a' AND v = 'no'"}]}`,
		eventual: true,
		write:    `{"Statements":[{"Statement":"INSERT INTO pipe VALUE {'pk':'b'}"}]}`,
	},
	"ExecuteTransaction": {
		body:     `{"TransactStatements":[{"Statement":"UPDATE pipe SET w = 'w' WHERE pk = 'a'"}],"ReturnConsumedCapacity":"TOTAL"}`,
		condFail: `{"TransactStatements":[{"Statement":"UPDATE pipe SET w = 'w' WHERE pk = 'a' AND v = 'no'"}]}`,
		write:    `{"TransactStatements":[{"Statement":"UPDATE pipe SET w = 'w' WHERE pk = 'a'"}]}`,
	},
	"SearchVectors": {
		body: `{"TableName":"vec","IndexName":"vix","SearchVector":[{"N":"1"},{"N":"0"}],"TopK":5,` +
			`"ReturnConsumedCapacity":"TOTAL"}`,
		eventual: true,
		vector:   true,
	},
}

// streamsPrefix is the X-Amz-Target prefix of the Streams API, a
// feature's (emulator/internal/streamsapi, wired into these tests).
const streamsPrefix = "DynamoDBStreams_20120810."

// controlPlaneOps are the registered operations that read or write no
// item: the fault rules decide them once per call (CheckCall), and
// nothing else of the pipeline applies. TestPipeline fails on a
// registered operation that is in neither this list nor pipelineCases,
// so that a new operation is classified when it is added.
var controlPlaneOps = []string{
	"CancelBulkOperation", "CreateBackup", "CreateGlobalTable", "CreateTable", "DeleteBackup",
	"DeleteResourcePolicy", "DeleteTable", "DescribeBackup", "DescribeBulkOperation",
	"DescribeContinuousBackups", "DescribeContributorInsights", "DescribeEndpoints", "DescribeExport",
	"DescribeGlobalTable", "DescribeGlobalTableSettings", "DescribeImport",
	"DescribeKinesisStreamingDestination", "DescribeLimits", "DescribeTable",
	"DescribeTableReplicaAutoScaling", "DescribeTimeToLive", "DisableKinesisStreamingDestination",
	"EnableKinesisStreamingDestination", "ExportTableToPointInTime", "GetResourcePolicy", "ImportTable",
	"ListBackups", "ListBulkOperations", "ListContributorInsights", "ListExports", "ListGlobalTables",
	"ListImports", "ListTables", "ListTagsOfResource", "PutResourcePolicy", "RestoreTableFromBackup",
	"RestoreTableToPointInTime", "TagResource", "UntagResource", "UpdateContinuousBackups",
	"UpdateContributorInsights", "UpdateGlobalTable", "UpdateGlobalTableSettings",
	"UpdateKinesisStreamingDestination", "UpdateTable", "UpdateTableReplicaAutoScaling", "UpdateTimeToLive",
	// StartBulkPutItems starts a job: its writes run after the call
	// answers, as an import's do, outside any request.
	"StartBulkPutItems",
	// The Streams API reads a table's stream, not its items.
	streamsPrefix + "DescribeStream", streamsPrefix + "GetRecords",
	streamsPrefix + "GetShardIterator", streamsPrefix + "ListStreams",
	"TestEcho", // the tests' own (harness_test.go)
}

// TestPipeline walks every data-plane operation of the core through the
// pipeline of a service with one recording stage and no feature (its
// environment, as pebble's commitEnv is its commit pipeline's: the core
// alone, with a stage that sees everything the seam offers). Each
// operation's request puts the keys it names to the stage as a KeyGuard,
// begins a use of its table on the stage and ends it with what it
// consumed, the value the stage kept on the use at its Begin coming back
// at its End; an eventually consistent read is put to it as a
// ReadViewer; a write's item to it as a WriteChecker, a batch's and a
// transaction's writes judged together and settled; a request refused by
// its condition is charged; and a use the stage refuses is ended as
// refused, and answered with the refusal. Every other operation of the
// core is put to its CheckCall hook, once per call, by name. The
// service's operations are the core's alone: each is classified, as a
// data-plane one with a case in pipelineCases, or in controlPlaneOps.
func TestPipeline(t *testing.T) {
	rec := &recorder{log: &seamLog{}}
	p := newPipelineEnv(t, Config{Stages: []Stage{rec}})
	rec.log.take()
	var data []string
	for name, h := range p.s.seams.ops {
		if _, ok := pipelineCases[name]; h.data {
			require.Truef(t, ok, "data-plane operation %s has no case in pipelineCases", name)
			data = append(data, name)
		} else {
			require.Falsef(t, ok, "%s has a case in pipelineCases but is not a data-plane operation", name)
			require.Truef(t, slices.Contains(controlPlaneOps, name), "operation %s is neither data-plane nor control-plane (controlPlaneOps)", name)
		}
	}
	slices.Sort(data)
	require.Equal(t, []string{"BatchGetItem", "BatchWriteItem", "DeleteItem", "GetItem", "PutItem", "Query", "Scan",
		"TransactGetItems", "TransactWriteItems", "UpdateItem"}, data, "the core's data-plane operations")
	for _, op := range data {
		tc := pipelineCases[op]
		t.Run(op, func(t *testing.T) {
			p := newPipelineEnv(t, Config{Stages: []Stage{rec}})
			rec.log.take() // the seeding writes'
			// The write (first, while the item it deletes is there), the
			// request, the one its condition refuses, and the request
			// again, refused by the stage.
			if tc.write != "" {
				status, body := p.do(op, tc.write)
				require.Equal(t, http.StatusOK, status, body)
				calls := rec.log.take()
				requireUses(t, calls, op, tc.table(), false)
				checked := append(kinds(calls, "write"), kinds(calls, "batch")...)
				require.NotEmpty(t, checked, "%s: no write was checked", op)
				for _, c := range checked {
					require.Equal(t, [2]string{op, tc.table()}, [2]string{c.op, c.table})
				}
				require.Equal(t, len(kinds(calls, "batch")) > 0, len(kinds(calls, "settle")) == 1,
					"%s: a batch's writes are settled once", op)
			}
			status, body := p.do(op, tc.body)
			require.Equal(t, http.StatusOK, status, body)
			require.Contains(t, body, `"CapacityUnits":`, "no consumed capacity answered")
			calls := rec.log.take()
			requireUses(t, calls, op, tc.table(), false)
			require.NotEmpty(t, kinds(calls, "guard"), "%s: no key of the request was guarded", op)
			for _, c := range kinds(calls, "guard") {
				require.Equal(t, [2]string{op, tc.table()}, [2]string{c.op, c.table})
			}
			require.Equal(t, tc.eventual, len(kinds(calls, "view")) > 0, "%s: an eventually consistent read is viewed, and only one", op)
			require.Empty(t, kinds(calls, "call"), "%s: a data-plane operation was put to CheckCall", op)
			if tc.condFail != "" {
				status, body := p.do(op, tc.condFail)
				require.Contains(t, body, "ConditionalCheckFailed", "the condition did not fail: %d", status)
				requireUses(t, rec.log.take(), op, tc.table(), false)
			}
			rec.refuse = apierr.Validation("refused by the recording stage")
			status, body = p.do(op, tc.body)
			rec.refuse = nil
			require.NotEqual(t, http.StatusOK, status, "%s: a use the stage refused was answered: %s", op, body)
			requireUses(t, rec.log.take(), op, tc.table(), true)
		})
	}
	for _, op := range []string{"CreateTable", "DescribeTable", "UpdateTable", "DeleteTable"} {
		rec.log.take()
		p.do(op, `{"TableName":"nosuchtable"}`)
		require.Equal(t, []seamCall{{kind: "call", op: op}}, rec.log.take(), "%s: not put to CheckCall once", op)
	}
}

// requireUses requires that calls began uses of op on table and ended
// each once, with the value the recorder kept at its Begin: refused,
// each refused (and charged nothing); else none refused, and some End
// reported what its use consumed.
func requireUses(t *testing.T, calls []seamCall, op, table string, refused bool) {
	t.Helper()
	begins, ends := kinds(calls, "begin"), kinds(calls, "end")
	require.NotEmpty(t, begins, "%s: no use began", op)
	require.Len(t, ends, len(begins), "%s: %d uses began, %d ended", op, len(begins), len(ends))
	consumed := false
	for _, c := range ends {
		require.Equal(t, [2]string{op, table}, [2]string{c.op, c.table})
		require.Equal(t, refused, c.refused, "%s: a use refused or not", op)
		require.Equal(t, uint8(0), c.value, "%s: the value kept at Begin did not come back at End", op)
		consumed = consumed || c.consumed
	}
	require.Equal(t, !refused, consumed, "%s: an End reported what its use consumed", op)
}

// TestPipelineInstruments walks every operation the emulator's service
// marks as data-plane (its features' too) through the stages the
// emulator installs, and shows that each instrument sees it: a fault rule
// naming the operation fires on it, the access-pattern report counts it,
// the throttler charges it (a provisioned table of one unit refuses it
// once its capacity is spent), the tenant guard checks the keys it
// touches, an eventually consistent read sees the table's read lag, the
// conventions rules check a write, a write answers its item-collection
// metrics, its consumed capacity is answered (a transaction's as a
// transaction's, and only a transaction's), and a request refused by its
// condition is charged. Every operation of that service is classified,
// as data-plane (pipelineCases) or control-plane (controlPlaneOps).
func TestPipelineInstruments(t *testing.T) {
	s := newTestService(t, Config{})
	var registered []string
	for name, h := range s.seams.ops {
		registered = append(registered, name)
		_, hasCase := pipelineCases[name]
		switch {
		case h.data:
			require.Truef(t, hasCase, "data-plane operation %s has no case in pipelineCases", name)
		case hasCase:
			require.Failf(t, "not data-plane", "%s has a case in pipelineCases but is not a data-plane operation", name)
		default:
			require.Truef(t, slices.Contains(controlPlaneOps, name),
				"operation %s is neither data-plane (registered as one, and pipelineCases) "+
					"nor control-plane (controlPlaneOps)", name)
		}
	}
	for name := range pipelineCases {
		require.Truef(t, slices.Contains(registered, name), "%s has a case in pipelineCases but is not registered", name)
	}
	for _, op := range dataPlaneOps(s) {
		tc := pipelineCases[op]
		t.Run(op, func(t *testing.T) {
			t.Run("fault", func(t *testing.T) {
				const marker = "fault injected by TestPipeline"
				p := newPipelineEnv(t, Config{})
				require.NoError(t, p.inj.SetRules(1, []faults.Rule{{Operations: []string{op},
					Fault: faults.InternalServerError, Message: marker}}))
				_, body := p.do(op, tc.body)
				require.Contains(t, body, marker, "the fault rule did not fire")
			})
			t.Run("report", func(t *testing.T) {
				p := newPipelineEnv(t, Config{})
				ReportHooks.SetReporting(p.s, true)
				status, body := p.do(op, tc.body)
				require.Equal(t, http.StatusOK, status, body)
				o := p.opReport(tc.table(), op)
				require.NotNil(t, o, "the report did not count %s", op)
				require.Positive(t, o.Requests)
				require.Positive(t, o.ReadUnits+o.WriteUnits+o.VectorSearchBytes, "the report counted no units")
			})
			t.Run("throttle", func(t *testing.T) {
				p := newPipelineEnv(t, Config{Settings: []Setting{SettingOf[throttle.Settings]{}.With(throttle.Settings{Provisioned: true, Burst: time.Second})}})
				var bodies []string
				refused := "ProvisionedThroughputExceeded"
				if tc.vector {
					refused = "IndexReadMaxOnDemandThroughputExceeded" // 1024 bytes a second, a search's least
				}
				for range 8 {
					_, body := p.do(op, tc.body)
					if strings.Contains(body, refused) {
						return
					}
					bodies = append(bodies, body)
				}
				require.Failf(t, "not throttled", "8 calls of %s on a table of 1 RCU and 1 WCU (an index of 1024 search bytes): %s",
					op, strings.Join(bodies, "\n"))
			})
			t.Run("tenant guard", func(t *testing.T) {
				p, vs := newConventionsEnv(t, &conventions.Config{Tables: []conventions.TableConfig{
					{Match: tc.table(), Policy: conventions.Policy{Roles: conventions.RoleData, Mode: conventions.ModeWarn}},
				}})
				p.tenant = "tenant002" // the key's tenant is "a"
				p.do(op, tc.body)
				require.Contains(t, vs.rules(op), "B10", "the tenant guard did not see %s", op)
			})
			if tc.eventual {
				t.Run("lag", func(t *testing.T) {
					p := newPipelineEnv(t, Config{})
					g, err := LagHooks.ReadLag(p.s, pipelineAuthKey, pipelineRegion, tc.table())
					require.NoError(t, err)
					g.Hold()
					status, body := p.do("UpdateItem", `{"TableName":"`+tc.table()+`","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET v = :y",`+
						`"ExpressionAttributeValues":{":y":{"S":"y"}}}`)
					require.Equal(t, http.StatusOK, status, body)
					status, body = p.do(op, tc.body)
					require.Equal(t, http.StatusOK, status, body)
					require.Contains(t, body, `{"S":"x"}`, "the read did not go through the table's read lag")
					require.NotContains(t, body, `{"S":"y"}`, "the read did not go through the table's read lag")
				})
			}
			t.Run("capacity", func(t *testing.T) {
				p := newPipelineEnv(t, Config{})
				status, body := p.do(op, tc.body)
				require.Equal(t, http.StatusOK, status, body)
				want := `"CapacityUnits":`
				if tc.vector {
					want = `"VectorSearchRequestBytes":`
				}
				require.Contains(t, body, want, "no consumed capacity answered")
				// A transaction's units are also its ReadCapacityUnits or
				// WriteCapacityUnits, as AWS reports for transactions only.
				if strings.HasPrefix(op, "Transact") || op == "ExecuteTransaction" {
					require.Regexp(t, `"(Read|Write)CapacityUnits":`, body, "the transaction's units were not a transaction's")
				} else {
					require.NotRegexp(t, `"(Read|Write)CapacityUnits":`, body, "%s is no transaction but was metered as one", op)
				}
			})
			if tc.write != "" {
				t.Run("conventions", func(t *testing.T) {
					p, vs := newConventionsEnv(t, &conventions.Config{Tables: []conventions.TableConfig{
						{Match: "pipe", Policy: conventions.Policy{Roles: conventions.RoleCommand, Mode: conventions.ModeWarn}},
					}})
					vs.reset() // the seeding write's
					status, body := p.do(op, tc.write)
					require.Equal(t, http.StatusOK, status, body)
					rules := slices.DeleteFunc(vs.rules(op), func(r string) bool { return r == "B10" })
					require.NotEmpty(t, rules, "the conventions rules did not check the write of %s", op)
				})
			}
			if tc.collection != "" {
				t.Run("collection", func(t *testing.T) {
					p := newPipelineEnv(t, Config{})
					status, body := p.do(op, tc.collection)
					require.Equal(t, http.StatusOK, status, body)
					require.Contains(t, body, `"SizeEstimateRangeGB":`, "no item-collection metrics answered")
				})
			}
			if tc.condFail == "" {
				return
			}
			t.Run("condition", func(t *testing.T) {
				p := newPipelineEnv(t, Config{})
				ReportHooks.SetReporting(p.s, true)
				_, body := p.do(op, tc.condFail)
				require.Contains(t, body, "ConditionalCheckFailed", "the condition did not fail")
				o := p.opReport(tc.table(), op)
				require.NotNil(t, o, "the report did not count the refused %s", op)
				require.Positive(t, o.ReadUnits+o.WriteUnits, "the refused %s was not charged", op)
			})
		})
	}
}

// pipelineEnv is a service with table pipe (pk S, provisioned with one
// read and one write unit) holding item {pk: "a", v: "x"}, table lsi
// (pk S, sk S, an LSI), and table vec (pk S, on demand, vector index vx
// on emb of two dimensions projecting ALL, searches limited to 1024 bytes
// a second by VectorSearchTag) holding item {pk: "a", v: "x", emb: [1, 0]},
// on a fixed clock (a throttled table's capacity never refills).
type pipelineEnv struct {
	t      testing.TB
	s      *Service
	h      http.Handler
	inj    *faults.Injector // the fault rules (the faults stage's setting)
	tenant string           // the X-Tenant-Code header of the requests ("": none)
}

const pipelineAuthKey, pipelineRegion = "AKIDPIPELINE", "us-east-1"

func newPipelineEnv(t testing.TB, cfg Config) *pipelineEnv {
	t.Helper()
	cfg.Clock = func() time.Time { return tablesClock }
	inj := faults.New(faults.Options{Clock: cfg.Clock})
	cfg.Settings = append(cfg.Settings, SettingOf[*faults.Injector]{}.With(inj))
	p := &pipelineEnv{t: t, s: newTestService(t, cfg), inj: inj}
	p.h = serviceHandler(p.s)
	for _, r := range [][2]string{
		{"CreateTable", `{"TableName":"pipe","ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1},` +
			`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`},
		{"PutItem", `{"TableName":"pipe","Item":{"pk":{"S":"a"},"v":{"S":"x"}}}`},
		{"CreateTable", `{"TableName":"lsi","BillingMode":"PAY_PER_REQUEST",` +
			`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"},` +
			`{"AttributeName":"l","AttributeType":"S"}],` +
			`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],` +
			`"LocalSecondaryIndexes":[{"IndexName":"byl","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},` +
			`{"AttributeName":"l","KeyType":"RANGE"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}]}`},
		{"CreateTable", `{"TableName":"vec","BillingMode":"PAY_PER_REQUEST",` +
			`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],` +
			`"VectorIndexes":[{"IndexName":"vix","VectorAttribute":{"AttributeName":"emb"},"Dimensions":2,` +
			`"DistanceFunction":"EUCLIDEAN","Projection":{"ProjectionType":"ALL"}}],` +
			`"Tags":[{"Key":"` + throttle.VectorSearchTag + `","Value":"1024"}]}`},
		{"PutItem", `{"TableName":"vec","Item":{"pk":{"S":"a"},"v":{"S":"x"},"emb":{"L":[{"N":"1"},{"N":"0"}]}}}`},
	} {
		status, body := p.do(r[0], r[1])
		require.Equal(t, http.StatusOK, status, "%s: %s", r[0], body)
	}
	// The seeding PutItem spent the write capacity of a throttled table:
	// start each check with full buckets (the throttling stage, finding
	// no state on the table, configures it afresh). The stages that keep
	// state of the table's definition rebuild it as for a table loaded.
	ns := p.s.namespaceOf(pipelineAuthKey, pipelineRegion)
	tb := ns.getTable("pipe")
	tb.states = slots{}
	ns.loadedDefinition(tb, tagDescs(tb.snapshot().Tags))
	return p
}

// violationLog is a service's log, in JSON, read for the conventions
// violations it records (the service logs each, with the request's
// operation and the rule).
type violationLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *violationLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(b)
}

// reset forgets what was logged.
func (l *violationLog) reset() {
	l.mu.Lock()
	l.buf.Reset()
	l.mu.Unlock()
}

// rules are the rules of the violations logged for operation op.
func (l *violationLog) rules(op string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for line := range strings.Lines(l.buf.String()) {
		var r struct{ Msg, Op, Rule string }
		if json.Unmarshal([]byte(line), &r) == nil && r.Msg == "conventions violation" && r.Op == op {
			out = append(out, r.Rule)
		}
	}
	return out
}

// newConventionsEnv is newPipelineEnv with the conventions configuration
// cfg (the conventions stage's setting), and the log its violations go to.
func newConventionsEnv(t testing.TB, cfg *conventions.Config) (*pipelineEnv, *violationLog) {
	vs := &violationLog{}
	return newPipelineEnv(t, Config{Settings: []Setting{SettingOf[*conventions.Config]{}.With(cfg)}, Logger: slog.New(slog.NewJSONHandler(vs, nil))}), vs
}

// do sends one request and returns the status and body.
func (p *pipelineEnv) do(op, body string) (int, string) {
	p.t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	req.Header.Set("X-Amz-Target", TargetPrefix+op)
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("Authorization", testkit.Auth(pipelineAuthKey, pipelineRegion))
	if p.tenant != "" {
		req.Header.Set("X-Tenant-Code", p.tenant)
	}
	rec := httptest.NewRecorder()
	p.h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}

// ReportHooks reach the insights stage (emulator/internal/stages/insights)
// from the core's tests: the stage imports the core, so only the
// external test package (wired_test.go) may import it; it
// installs the stage and fills ReportHooks.
var ReportHooks struct {
	// SetReporting starts or stops the report in every namespace of s.
	SetReporting func(s *Service, on bool)
	// Recorder returns a namespace's recorder (made if need be).
	Recorder func(sp Space) *accessreport.Recorder
}

// opReport returns the report's counts of op on table (any of its
// resources), or nil.
func (p *pipelineEnv) opReport(table, op string) *opCounts {
	rep := ReportHooks.Recorder(p.s.SpaceFor(pipelineAuthKey, pipelineRegion)).Report(nil) // the counts, without the catalog (its stage's)
	var got *opCounts
	for _, tr := range rep.Tables {
		if tr.Table != table {
			continue
		}
		for _, r := range tr.Resources {
			for _, o := range r.Operations {
				if o.Op == op {
					if got == nil {
						got = &opCounts{}
					}
					got.Requests += o.Requests
					got.ReadUnits += o.ReadUnits
					got.WriteUnits += o.WriteUnits
					got.VectorSearchBytes += o.VectorSearchBytes
				}
			}
		}
	}
	if got == nil {
		p.t.Logf("report: %s", fmt.Sprint(rep))
	}
	return got
}

// opCounts are an operation's counts summed over a table's resources.
type opCounts struct {
	Requests                                 int64
	ReadUnits, WriteUnits, VectorSearchBytes float64
}

// pipelineHooks are the hooks under the pipeline's scopes, and the files
// that may call them: the pipeline's own and the hooks'. A handler that
// called one directly would run a stage out of the pipeline's order, or
// without the others, or leave a use it began unended: a handler reaches
// the stages only through a scope (useItem, useRead, useTx, useTxGets,
// useSearch: pipeline_item.go) and the use its function is given. The
// names of the call-order protocol the scopes replaced (beginItem,
// writing, wrote, finishItem, ...) stay listed, allowed nowhere.
var pipelineHooks = map[string][]string{
	"beginUse":       {"stage.go", "pipeline_batch.go", "pipeline_tx.go", "pipeline_item.go"},
	"beginStages":    {"stage.go", "pipeline_item.go"},
	"beginRead":      {"pipeline_item.go"},
	"openScope":      {"pipeline_item.go", "pipeline_batch.go"},
	"end":            {"stage.go", "pipeline_item.go", "pipeline_batch.go", "pipeline_tx.go", "pipeline_condfail.go"},
	"endTx":          {"pipeline_tx.go", "pipeline_item.go"},
	"endFailed":      {"pipeline_item.go", "pipeline_batch.go"},
	"endRefused":     {"pipeline_condfail.go", "pipeline_item.go"},
	"endTxCancelled": {"pipeline_condfail.go", "pipeline_item.go"},
	"txStages":       {"pipeline_tx.go", "pipeline_item.go"},
	"txGetStages":    {"pipeline_tx.go", "pipeline_item.go"},
	"storeChecked":   {"stage_check.go", "pipeline_item.go"},
	"wrote":          {"pipeline_item.go"},
	"beginItem":      nil,
	"beginGuarded":   nil,
	"writing":        nil,
	"readItem":       nil,
	"readPage":       nil,
	"finishItem":     nil,
	"txCancelled":    nil,
	"txApplied":      nil,
	"openPipe":       nil,
	"beginPage":      nil,
	"useBegun":       nil,
	"beginBatchItem": nil,
	"endBatchItem":   nil,
}

// scopeFields are the call's fields only the scopes name: the scope a
// data-plane request's use lives in (pipe: the name it had when
// handlers kept it in order by hand).
var scopeFields = map[string][]string{
	"scope": {"pipeline_item.go"},
	"pipe":  nil,
}

// TestPipelineEntryPoints: the handlers reach the pipeline's hooks only
// through its scopes (useItem, useRead, useTx, ...), and name neither
// the call's scope nor the protocol it replaced.
func TestPipelineEntryPoints(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	require.NoError(t, err)
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if allowed, field := scopeFields[sel.Sel.Name]; field && !slices.Contains(allowed, name) {
					t.Errorf("%s: .%s named outside the pipeline's scopes (allowed in %v)", fset.Position(sel.Pos()), sel.Sel.Name, allowed)
				}
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var fn string
			switch e := call.Fun.(type) {
			case *ast.Ident:
				fn = e.Name
			case *ast.SelectorExpr:
				fn = e.Sel.Name
			}
			if allowed, hook := pipelineHooks[fn]; hook && !slices.Contains(allowed, name) {
				t.Errorf("%s: %s called outside the pipeline (allowed in %v)", fset.Position(call.Pos()), fn, allowed)
			}
			return true
		})
	}
}

// TestControlPlaneFaults: every registered operation that is not a
// data-plane one gets the fault rules' one decision per call: a rule
// naming it (a Streams operation by its own name, as rules name it)
// fails it before it validates its input.
func TestControlPlaneFaults(t *testing.T) {
	const marker = "fault injected by TestControlPlaneFaults"
	p := newPipelineEnv(t, Config{})
	for name, h := range p.s.seams.ops {
		if h.data {
			continue
		}
		if name == "TestEcho" {
			continue // the tests' own: no rule may name it
		}
		target, op := TargetPrefix+name, name
		if short, ok := strings.CutPrefix(name, streamsPrefix); ok {
			target, op = name, short // a rule names a Streams operation by its own name
		}
		require.NoError(t, p.inj.SetRules(1, []faults.Rule{{Operations: []string{op},
			Fault: faults.InternalServerError, Message: marker}}))
		res, body := testkit.Do(t, p.h, target, testkit.Auth(pipelineAuthKey, pipelineRegion), `{}`)
		require.Equal(t, http.StatusInternalServerError, res.StatusCode, "%s: %s", name, body)
		require.Contains(t, body, marker, "the fault rule did not fire on %s", name)
	}
}

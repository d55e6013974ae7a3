package emulator_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	rand "math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// Consistency fuzzing never blocks a request. Its stage records every
// write at the write's end, which for a batch's items runs inside the
// batch's storage transaction: a stage that found its gates there by
// taking locks (storage's again, the table's definition lock) hung the
// table, then every request that needed it. Each test here gives every
// request a deadline (fuzzDeadline; testkit.Deadlines) and fails with
// every goroutine's stack when one is late, instead of hanging.

// fuzzDeadline is the most a request may take (times
// DYNAMOEMU_TEST_TIMEOUT_SCALE): a bound that catches a hang, AWS's
// second of lag and a loaded machine well inside it.
const fuzzDeadline = 5 * time.Second

// fuzzSeeds are the seeds the fuzz tests run: a few, or 20 with
// DYNAMOEMU_HEAVY_TESTS.
func fuzzSeeds() []uint64 {
	if os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "" {
		seeds := make([]uint64, 20)
		for i := range seeds {
			seeds[i] = uint64(i + 1)
		}
		return seeds
	}
	return []uint64{1, 42, 18446744073709551615}
}

// TestConsistencyFuzzSeedsAGSITable is a test suite's seeding as the npm
// package's seed does it (BatchWriteItem, 25 items a call, four calls at
// once) into a table with GSIs and a stream, in consistency fuzzing,
// then its reads: every request answers, and the GSI shows every item
// to a reader that retries.
func TestConsistencyFuzzSeedsAGSITable(t *testing.T) {
	for _, seed := range fuzzSeeds() {
		t.Run(fmt.Sprintf("fuzz:%d", seed), func(t *testing.T) {
			_, db := emulatortest.NewWith(t, emulator.Options{Consistency: fmt.Sprintf("fuzz:%d", seed)})
			ctx := context.Background()
			dl := testkit.NewDeadlines(fuzzDeadline)
			var createErr error
			dl.Do("CreateTable", func() { createErr = createGSITable(ctx, db, "tasks") })
			require.NoError(t, createErr)

			const items, perBatch, workers = 500, 25, 4
			var batches [][]types.WriteRequest
			for i := 0; i < items; i += perBatch {
				var batch []types.WriteRequest
				for j := i; j < min(items, i+perBatch); j++ {
					batch = append(batch, types.WriteRequest{PutRequest: &types.PutRequest{Item: gsiItem(j)}})
				}
				batches = append(batches, batch)
			}
			var wg sync.WaitGroup
			var mu sync.Mutex
			var errs []error
			next := 0
			for range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						mu.Lock()
						if next == len(batches) {
							mu.Unlock()
							return
						}
						batch := batches[next]
						next++
						mu.Unlock()
						var err error
						dl.Do("BatchWriteItem", func() {
							var out *dynamodb.BatchWriteItemOutput
							out, err = db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"tasks": batch}})
							if err == nil && len(out.UnprocessedItems) > 0 {
								err = fmt.Errorf("unprocessed items: %v", out.UnprocessedItems)
							}
						})
						if err != nil {
							mu.Lock()
							errs = append(errs, err)
							mu.Unlock()
						}
					}
				}()
			}
			dl.Wait(t, &wg)
			require.Empty(t, errs)

			// A reader that retries sees every item on the GSI within
			// AWS's second.
			var got int
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 200 {
					got = 0
					for owner := range 4 {
						dl.Do("Query", func() {
							out, err := db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("tasks"), IndexName: aws.String("byOwner"),
								KeyConditionExpression: aws.String("#o = :o"), ExpressionAttributeNames: map[string]string{"#o": "owner"},
								ExpressionAttributeValues: map[string]types.AttributeValue{":o": &types.AttributeValueMemberS{Value: "owner" + strconv.Itoa(owner)}},
								Select:                    types.SelectCount})
							if err == nil {
								got += int(out.Count)
							}
						})
					}
					if got == items {
						return
					}
					time.Sleep(10 * time.Millisecond)
				}
			}()
			dl.Wait(t, &wg)
			require.Equal(t, items, got, "the GSI shows every item to a reader that retries")
		})
	}
}

// createGSITable creates table name: key pk, sk; GSIs byOwner (owner,
// sk) and byStatus (status); a stream of new and old images.
func createGSITable(ctx context.Context, db *dynamodb.Client, name string) error {
	s := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	key := func(n string, kt types.KeyType) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(n), KeyType: kt}
	}
	_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		AttributeDefinitions: []types.AttributeDefinition{s("pk"), s("sk"), s("owner"), s("status")},
		KeySchema:            []types.KeySchemaElement{key("pk", types.KeyTypeHash), key("sk", types.KeyTypeRange)},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("byOwner"), KeySchema: []types.KeySchemaElement{key("owner", types.KeyTypeHash), key("sk", types.KeyTypeRange)},
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
			{IndexName: aws.String("byStatus"), KeySchema: []types.KeySchemaElement{key("status", types.KeyTypeHash)},
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}},
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
		BillingMode:         types.BillingModePayPerRequest,
	})
	return err
}

// gsiItem is seed item i of createGSITable's table.
func gsiItem(i int) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"pk":     &types.AttributeValueMemberS{Value: "TENANT#acme"},
		"sk":     &types.AttributeValueMemberS{Value: fmt.Sprintf("TASK#%06d", i)},
		"owner":  &types.AttributeValueMemberS{Value: "owner" + strconv.Itoa(i%4)},
		"status": &types.AttributeValueMemberS{Value: []string{"open", "done"}[i%2]},
	}
}

// TestConsistencyFuzzWritesNeverBlock runs every write path at once on
// two tables with GSIs, an LSI, streams and TTL, in consistency fuzzing,
// over HTTP as a client sends them: PutItem, UpdateItem, DeleteItem,
// BatchWriteItem, TransactWriteItems, and PartiQL INSERT, UPDATE and
// DELETE through ExecuteStatement, BatchExecuteStatement and
// ExecuteTransaction (testkit.RandomWrite); beside them eventually
// consistent reads of the tables, the LSI and the GSIs (GetItem, Query,
// Scan, BatchGetItem, PartiQL SELECT), a stream poller (GetRecords),
// UpdateTable adding and deleting a GSI and turning the stream off and
// on, TTL deletes (the sweeper) and branches forked, written and
// dropped. No request may take more than fuzzDeadline; the fuzzing must
// have reported stale reads (it ran), and no answer may be a 5xx or an
// error other than those the workload allows.
func TestConsistencyFuzzWritesNeverBlock(t *testing.T) {
	for _, seed := range fuzzSeeds() {
		t.Run(fmt.Sprintf("fuzz:%d", seed), func(t *testing.T) {
			url, e, _ := emulatortest.NewServerWith(t, emulator.Options{Consistency: fmt.Sprintf("fuzz:%d", seed)})
			w := &fuzzWorkload{t: t, e: e, url: url, hc: &http.Client{}, dl: testkit.NewDeadlines(fuzzDeadline), outcomes: map[string]int{}}
			t.Cleanup(w.hc.CloseIdleConnections)
			for _, name := range fuzzTables {
				w.mustSend("", "CreateTable", fuzzTableJSON(name))
				w.mustSend("", "UpdateTimeToLive", `{"TableName":"`+name+`","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"exp"}}`)
			}
			w.run(seed)
			w.logOutcomes()
			w.reportErrors()
			t.Logf("the longest request took %v (deadline %v)", w.dl.Longest().Round(time.Millisecond), w.dl.Limit())
			require.NotEmpty(t, e.Reports().Consistency().StaleReads, "consistency fuzzing ran: reads right after writes were stale")
		})
	}
}

// fuzzTables are TestConsistencyFuzzWritesNeverBlock's tables.
var fuzzTables = []string{"fzmain", "fzside"}

// fuzzTableJSON is the CreateTable request of table name: testkit's
// workload's key (pk, sk), LSI by-l, GSIs by-g (g) and by-gn (g, n), a
// stream of new and old images.
func fuzzTableJSON(name string) string {
	return `{"TableName":"` + name + `","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"},
			{"AttributeName":"l","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"},{"AttributeName":"n","AttributeType":"N"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"LocalSecondaryIndexes":[{"IndexName":"by-l","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},
			{"AttributeName":"l","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}],
		"GlobalSecondaryIndexes":[{"IndexName":"by-g","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}},
			{"IndexName":"by-gn","KeySchema":[{"AttributeName":"g","KeyType":"HASH"},{"AttributeName":"n","KeyType":"RANGE"}],
			"Projection":{"ProjectionType":"KEYS_ONLY"}}],
		"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}}`
}

// fuzzWorkload is one run of TestConsistencyFuzzWritesNeverBlock: its
// server, the deadlines of its requests and the answers it got.
type fuzzWorkload struct {
	t   *testing.T
	e   *emulator.Emulator
	url string
	hc  *http.Client
	dl  *testkit.Deadlines

	mu       sync.Mutex // guards errs and outcomes
	errs     []string
	outcomes map[string]int // "op: OK" or "op: error type" -> count
}

// fuzzKey and fuzzRegion are the workload's namespace (a branch's
// requests name the branch too).
const fuzzKey, fuzzRegion = "AKIDFUZZ", "us-east-1"

// send makes one request (in branch, "": none) within the deadline and
// records its answer: one that is neither a 200 nor an error of the
// allowed types is an error of the test, as is a 5xx. It returns the
// answer's body ("" when it failed).
func (w *fuzzWorkload) send(branch, op, body string, allowed []string) string {
	target := "DynamoDB_20120810." + op
	if op == "GetRecords" || op == "GetShardIterator" || op == "DescribeStream" {
		target = "DynamoDBStreams_20120810." + op
	}
	var status int
	var out []byte
	var err error
	w.dl.Do(op+" "+body, func() {
		req, rerr := http.NewRequest(http.MethodPost, w.url, strings.NewReader(body))
		if rerr != nil {
			err = rerr
			return
		}
		req.Header.Set("X-Amz-Target", target)
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("Authorization", testkit.Auth(fuzzKey, fuzzRegion))
		if branch != "" {
			req.Header.Set("X-Dynamoemu-Branch", branch)
		}
		res, rerr := w.hc.Do(req)
		if rerr != nil {
			err = rerr
			return
		}
		defer res.Body.Close()
		status = res.StatusCode
		out, err = io.ReadAll(res.Body)
	})
	typ := "OK"
	switch {
	case err != nil:
		typ = "transport error"
	case status != http.StatusOK:
		typ = testkit.ErrorType(string(out))
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.outcomes[op+": "+typ]++
	switch {
	case err != nil:
		w.errs = append(w.errs, fmt.Sprintf("%s %s: %v", op, body, err))
	case status != http.StatusOK && (status >= 500 || !slices.Contains(allowed, typ)):
		w.errs = append(w.errs, fmt.Sprintf("%s %s: status %d, %s", op, body, status, out))
	case status == http.StatusOK:
		return string(out)
	}
	return ""
}

// mustSend sends a request that must succeed.
func (w *fuzzWorkload) mustSend(branch, op, body string) string {
	w.t.Helper()
	out := w.send(branch, op, body, nil)
	if out == "" {
		w.reportErrors()
		w.t.FailNow()
	}
	return out
}

// count adds n to the outcome called what.
func (w *fuzzWorkload) count(what string, n int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.outcomes[what] += n
}

// logOutcomes logs how many requests of each operation had each outcome.
func (w *fuzzWorkload) logOutcomes() {
	w.mu.Lock()
	defer w.mu.Unlock()
	keys := make([]string, 0, len(w.outcomes))
	for k := range w.outcomes {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "\n\t%s: %d", k, w.outcomes[k])
	}
	w.t.Logf("outcomes:%s", b.String())
}

// reportErrors fails the test with the first errors recorded.
func (w *fuzzWorkload) reportErrors() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i, e := range w.errs {
		if i == 10 {
			w.t.Errorf("... and %d more", len(w.errs)-i)
			break
		}
		w.t.Error(e)
	}
}

// The errors the workload allows: a write's (testkit.WriteErrors), a
// read's of a GSI being added or deleted, a change's that does not apply
// to the table as another change left it, a stream's iterator that a
// stream turned off and on left behind.
var (
	fuzzWriteErrors  = append(slices.Clone(testkit.WriteErrors), "IdempotentParameterMismatchException")
	fuzzReadErrors   = []string{"ResourceNotFoundException", "ValidationException"}
	fuzzChangeErrors = []string{"ResourceNotFoundException", "ValidationException", "ResourceInUseException", "LimitExceededException"}
	fuzzStreamErrors = []string{"ResourceNotFoundException", "ValidationException", "ExpiredIteratorException", "TrimmedDataAccessException"}
)

// run runs the workload of seed: the goroutines below at once, sized by
// counts of requests, each request within the deadline.
func (w *fuzzWorkload) run(seed uint64) {
	const (
		writers, writesPer = 4, 60
		readers, readsPer  = 2, 60
		changes            = 12
		sweeps             = 10
		forks              = 4
		polls              = 40
	)
	var wg sync.WaitGroup
	start := func(stream uint64, step func(r *rand.Rand)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			step(rand.New(rand.NewPCG(seed, stream)))
		}()
	}
	for i := range uint64(writers) {
		start(1<<32|i, func(r *rand.Rand) {
			for range writesPer {
				op, body, _ := testkit.RandomWrite(r, fuzzTables)
				w.send("", op, body, fuzzWriteErrors)
				if r.IntN(3) == 0 { // a read right after the write: stale
					w.send(w.readOp(r))
				}
			}
		})
	}
	for i := range uint64(readers) {
		start(2<<32|i, func(r *rand.Rand) {
			for range readsPer {
				w.send(w.readOp(r))
			}
		})
	}
	start(3<<32, func(r *rand.Rand) { w.poll(polls) })
	start(4<<32, func(r *rand.Rand) {
		for range changes {
			w.send(w.changeOp(r))
		}
	})
	start(5<<32, func(r *rand.Rand) {
		for range sweeps {
			n := 0
			w.dl.Do("SweepTTL", func() { n = w.e.Clock().SweepTTL() })
			w.count("SweepTTL: items deleted", n)
			time.Sleep(5 * time.Millisecond)
		}
	})
	start(6<<32, func(r *rand.Rand) {
		for i := range forks {
			w.fork(r, i)
		}
	})
	w.dl.Wait(w.t, &wg)
}

// readOp is a random eventually consistent read (and now and then a
// strongly consistent one) of a table, its LSI or a GSI.
func (w *fuzzWorkload) readOp(r *rand.Rand) (string, string, string, []string) {
	table := testkit.Pick(r, fuzzTables...)
	pk, sk := testkit.SmallKey(r)
	consistent := testkit.Pick(r, "false", "false", "true")
	switch r.IntN(9) {
	case 0:
		return "", "GetItem", `{"TableName":"` + table + `","Key":` + testkit.KeyJSON(pk, sk) + `,"ConsistentRead":` + consistent + `}`, fuzzReadErrors
	case 1:
		return "", "Query", `{"TableName":"` + table + `","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"` + pk + `"}},"ConsistentRead":` + consistent + `}`, fuzzReadErrors
	case 2:
		return "", "Query", `{"TableName":"` + table + `","IndexName":"by-l","KeyConditionExpression":"pk = :p AND l > :l","ExpressionAttributeValues":{":p":{"S":"` + pk + `"},":l":{"S":"l"}}}`, fuzzReadErrors
	case 3:
		return "", "Query", `{"TableName":"` + table + `","IndexName":"` + testkit.Pick(r, "by-g", "by-x") + `","KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"g` + strconv.Itoa(r.IntN(4)) + `"}}}`, fuzzReadErrors
	case 4:
		return "", "Scan", `{"TableName":"` + table + `"}`, fuzzReadErrors
	case 5:
		return "", "Scan", `{"TableName":"` + table + `","IndexName":"by-gn"}`, fuzzReadErrors
	case 6:
		return "", "BatchGetItem", `{"RequestItems":{"` + table + `":{"Keys":[` + testkit.KeyJSON(pk, sk) + `]}}}`, fuzzReadErrors
	case 7:
		return "", "ExecuteStatement", `{"Statement":"SELECT * FROM \"` + table + `\".\"by-g\" WHERE g = 'g1'"}`, fuzzReadErrors
	}
	return "", "ExecuteStatement", `{"Statement":"SELECT * FROM ` + table + ` WHERE pk = '` + pk + `'"}`, fuzzReadErrors
}

// changeOp is a random change of a table's definition: a GSI (by-x)
// added or deleted, the stream turned off or on, TTL off or on.
func (w *fuzzWorkload) changeOp(r *rand.Rand) (string, string, string, []string) {
	table := testkit.Pick(r, fuzzTables...)
	update := func(members string) (string, string, string, []string) {
		return "", "UpdateTable", `{"TableName":"` + table + `",` + members + `}`, fuzzChangeErrors
	}
	switch r.IntN(5) {
	case 0, 1:
		return update(`"AttributeDefinitions":[{"AttributeName":"g","AttributeType":"S"}],
			"GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"by-x","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
			"Projection":{"ProjectionType":"ALL"}}}]`)
	case 2:
		return update(`"GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"by-x"}}]`)
	case 3:
		return update(`"StreamSpecification":{"StreamEnabled":` + testkit.Pick(r, "true,\"StreamViewType\":\"NEW_IMAGE\"", "false") + `}`)
	}
	return "", "UpdateTimeToLive", `{"TableName":"` + table + `","TimeToLiveSpecification":{"Enabled":` + testkit.Pick(r, "true", "false") + `,"AttributeName":"exp"}}`, fuzzChangeErrors
}

// poll reads fzmain's stream as a consumer does, n times: its latest
// stream's first shard from the trim horizon, then each next iterator,
// from the latest stream again when the stream ended or after a few
// empty reads (a stream turned off and on).
func (w *fuzzWorkload) poll(n int) {
	var it string
	empty := 0
	for range n {
		time.Sleep(2 * time.Millisecond)
		if empty == 5 {
			it, empty = "", 0
		}
		if it == "" {
			it = w.iterator()
			if it == "" {
				time.Sleep(5 * time.Millisecond)
				continue
			}
		}
		out := w.send("", "GetRecords", `{"ShardIterator":"`+it+`"}`, fuzzStreamErrors)
		var rec struct {
			Records           []json.RawMessage
			NextShardIterator string
		}
		if out == "" || json.Unmarshal([]byte(out), &rec) != nil {
			it = ""
			continue
		}
		w.count("GetRecords: records", len(rec.Records))
		if len(rec.Records) == 0 {
			empty++
		}
		it = rec.NextShardIterator
	}
}

// iterator is a trim horizon iterator of fzmain's latest stream's first
// shard ("": none now).
func (w *fuzzWorkload) iterator() string {
	var d struct {
		Table struct{ LatestStreamArn string }
	}
	if out := w.send("", "DescribeTable", `{"TableName":"fzmain"}`, fuzzReadErrors); out == "" || json.Unmarshal([]byte(out), &d) != nil || d.Table.LatestStreamArn == "" {
		return ""
	}
	arn := d.Table.LatestStreamArn
	var ds struct {
		StreamDescription struct{ Shards []struct{ ShardId string } }
	}
	if out := w.send("", "DescribeStream", `{"StreamArn":"`+arn+`"}`, fuzzStreamErrors); out == "" || json.Unmarshal([]byte(out), &ds) != nil || len(ds.StreamDescription.Shards) == 0 {
		return ""
	}
	var it struct{ ShardIterator string }
	out := w.send("", "GetShardIterator", `{"StreamArn":"`+arn+`","ShardId":"`+ds.StreamDescription.Shards[0].ShardId+`","ShardIteratorType":"TRIM_HORIZON"}`, fuzzStreamErrors)
	if out == "" || json.Unmarshal([]byte(out), &it) != nil {
		return ""
	}
	return it.ShardIterator
}

// fork forks the workload's namespace as it is now into branch i, runs
// writes and reads there (the same write paths) and drops it.
func (w *fuzzWorkload) fork(r *rand.Rand, i int) {
	name := "Fuzzbranch" + strconv.Itoa(i)
	var err error
	w.dl.Do("Fork", func() { _, err = w.e.Branches().Fork(w.e.Branches().NamespaceID(fuzzKey, fuzzRegion), name) })
	if err != nil {
		w.mu.Lock()
		w.errs = append(w.errs, "Fork: "+err.Error())
		w.mu.Unlock()
		return
	}
	w.count("Fork: OK", 1)
	for range 15 {
		op, body, _ := testkit.RandomWrite(r, fuzzTables)
		w.send(name, op, body, fuzzWriteErrors)
		_, op, body, allowed := w.readOp(r)
		w.send(name, op, body, allowed)
	}
	w.dl.Do("DropBranch", func() { err = w.e.Branches().Drop(name) })
	if err != nil && !errors.Is(err, emulator.ErrNoBranch) {
		w.mu.Lock()
		w.errs = append(w.errs, "DropBranch: "+err.Error())
		w.mu.Unlock()
	}
}

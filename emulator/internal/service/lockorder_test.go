package service

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/stagestate"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestLockOrder holds the emulator to its lock order (doc.go, "Locks"):
// every change of a table's definition (GSI create and delete, stream on
// and off, TTL on and off, tags, conventions opt-in by tags, billing mode
// and throughput, DeleteTable and CreateTable again) runs concurrently
// with every write path (PutItem, UpdateItem, DeleteItem, BatchWriteItem,
// TransactWriteItems, PartiQL INSERT, UPDATE and DELETE through
// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction, the TTL
// sweeper) and with DescribeTable and the reads. Two locks taken in
// opposite orders by two of them hang the test, which then fails with
// every goroutine's stack (waitOrDump). Afterwards each table's counts,
// index counts and streams must agree with its items and definition.
//
// The workload is random: its seed is logged, and
// DYNAMOEMU_LOCKORDER_SEED=<seed> replays each goroutine's sequence of
// requests (the interleaving is the scheduler's). Its length is a count of
// requests, never a duration.
//
// It runs twice: with the lag gates the settings and the lagger move,
// and again in consistency fuzzing (every view of every table in fuzz
// mode, its stage counting each eventually consistent read and
// recording each write under storage's locks) with the same lagger,
// whose gates switch between the two.
func TestLockOrder(t *testing.T) {
	t.Run("lag gates", func(t *testing.T) { lockOrder(t, false) })
	t.Run("consistency fuzzing", func(t *testing.T) { lockOrder(t, true) })
}

// lockOrder is TestLockOrder, in consistency fuzzing when fuzz.
func lockOrder(t *testing.T, fuzz bool) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv(lockOrderSeedEnv); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q: %v", lockOrderSeedEnv, s, err)
		}
		seed = v
	}
	t.Logf("seed %d (replay: %s=%d)", seed, lockOrderSeedEnv, seed)

	const (
		writers      = 6
		opsPerWriter = 120
		readers      = 1
		opsPerReader = 120
		sweepOneIn   = 10 // a writer's step is a TTL sweep one time in sweepOneIn
		// The changers run until the writers and readers are done, up to
		// this many changes each, so every write meets changes.
		changers      = 2
		maxChangesPer = 400
		maxErrors     = 10
	)
	env := &lockOrderEnv{t: t, seed: seed, outcomes: map[string]int{}}
	env.e = newTestService(t, env.lagConfig(fuzz)) // lockorder_lag_test.go
	for _, name := range lockOrderTables {
		env.mustCreate(name)
	}

	var work, all sync.WaitGroup
	done := make(chan struct{}) // closed when the writers and readers are done
	// start runs step n times in a goroutine of its own, with a random
	// source of its own (the seed and stream); untilDone stops it early
	// once done is closed.
	start := func(stream uint64, n int, untilDone bool, step func(r *rand.Rand)) {
		all.Add(1)
		if !untilDone {
			work.Add(1)
		}
		go func() {
			defer all.Done()
			if !untilDone {
				defer work.Done()
			}
			r := rand.New(rand.NewPCG(seed, stream))
			for i := 0; i < n; i++ {
				if untilDone {
					select {
					case <-done:
						return
					default:
					}
				}
				step(r)
			}
		}()
	}
	request := func(gen func(*rand.Rand) (string, string, []string)) func(*rand.Rand) {
		return func(r *rand.Rand) { env.send(gen(r)) }
	}
	for i := range uint64(changers) {
		start(1<<32|i, maxChangesPer, true, request(env.changeOp))
	}
	for i := range uint64(writers) {
		// Writers sweep now and then: the TTL sweeper is a write path too.
		start(3<<32|i, opsPerWriter, false, func(r *rand.Rand) {
			if r.IntN(sweepOneIn) == 0 {
				env.count("SweepTTL: items deleted", env.e.SweepTTL())
				return
			}
			env.send(env.writeOp(r))
		})
	}
	for i := range uint64(readers) {
		start(4<<32|i, opsPerReader, false, request(env.readOp))
	}
	start(5<<32, maxChangesPer, true, env.lagStep)
	go func() {
		work.Wait()
		close(done)
	}()
	testkit.WaitOrDump(t, &all)
	env.logOutcomes()
	env.reportErrors(maxErrors)
	if t.Failed() {
		return
	}
	env.unlag()
	for _, name := range lockOrderTables {
		env.checkTable(name)
	}
}

// lockOrderSeedEnv names the variable that replays TestLockOrder's seed.
const lockOrderSeedEnv = "DYNAMOEMU_LOCKORDER_SEED"

// lockOrderTables are the tables of TestLockOrder. Both have the key pk
// (S), sk (S) and a local secondary index on l (S), so writes keep item
// collection sizes; the GSI the changers create and delete is on g (S).
var lockOrderTables = []string{"lomain", "loside"}

// lockOrderEnv is TestLockOrder's emulator and the errors its goroutines
// met.
type lockOrderEnv struct {
	t       *testing.T
	e       *Service
	seed    uint64
	setLags func([]stagestate.LagSetting) // replaces the lag settings (lockorder_lag_test.go)

	mu       sync.Mutex // guards errs and outcomes
	errs     []string
	outcomes map[string]int // "op: OK" or "op: error type" -> count
}

// Error types any request may meet while another goroutine deletes and
// re-creates its table.
const (
	typeNotFound    = "ResourceNotFoundException"
	typeValidation  = "ValidationException"
	typeInUse       = "ResourceInUseException"
	typeCondition   = "ConditionalCheckFailedException"
	typeTxCancelled = "TransactionCanceledException"
	typeDuplicate   = "DuplicateItemException"
	typeLimit       = "LimitExceededException"
)

// send makes one request and records an answer that is neither a 200 nor
// an error of one of the allowed types. A 5xx is never allowed.
func (env *lockOrderEnv) send(op, body string, allowed []string) {
	target := "DynamoDB_20120810." + op
	if strings.HasPrefix(op, "DynamoDBStreams_") {
		target = op
	}
	res, out := doService(env.t, env.e, target, testkit.DefaultAuth, body)
	typ := "OK"
	if res.StatusCode != http.StatusOK {
		typ = testkit.ErrorType(out)
	}
	env.mu.Lock()
	defer env.mu.Unlock()
	env.outcomes[op+": "+typ]++
	if res.StatusCode != http.StatusOK && (res.StatusCode >= 500 || !slices.Contains(allowed, typ)) {
		env.errs = append(env.errs, fmt.Sprintf("%s %s: status %d, %s", op, body, res.StatusCode, out))
	}
}

// count adds n to the outcome called what.
func (env *lockOrderEnv) count(what string, n int) {
	env.mu.Lock()
	defer env.mu.Unlock()
	env.outcomes[what] += n
}

// logOutcomes logs how many requests of each operation had each outcome
// (go test -v shows them), to see what a seed exercised.
func (env *lockOrderEnv) logOutcomes() {
	env.mu.Lock()
	defer env.mu.Unlock()
	keys := slices.Sorted(maps.Keys(env.outcomes))
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "\n\t%s: %d", k, env.outcomes[k])
	}
	env.t.Logf("outcomes:%s", b.String())
}

// reportErrors fails the test with the first n errors recorded.
func (env *lockOrderEnv) reportErrors(n int) {
	env.mu.Lock()
	defer env.mu.Unlock()
	for i, e := range env.errs {
		if i == n {
			env.t.Errorf("... and %d more", len(env.errs)-n)
			break
		}
		env.t.Error(e)
	}
	if len(env.errs) > 0 {
		env.t.Errorf("seed %d (replay: %s=%d)", env.seed, lockOrderSeedEnv, env.seed)
	}
}

// createBody is the CreateTable request of table name.
func createBody(name string) string {
	return `{"TableName":"` + name + `","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"},
			{"AttributeName":"l","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"LocalSecondaryIndexes":[{"IndexName":"by-l","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},
			{"AttributeName":"l","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}]}`
}

func (env *lockOrderEnv) mustCreate(name string) {
	env.t.Helper()
	if res, out := doService(env.t, env.e, "DynamoDB_20120810.CreateTable", testkit.DefaultAuth, createBody(name)); res.StatusCode != http.StatusOK {
		env.t.Fatalf("CreateTable %s: status %d, %s", name, res.StatusCode, out)
	}
}

// writeOp returns a random write request: its operation, body and the
// error types allowed.
func (env *lockOrderEnv) writeOp(r *rand.Rand) (string, string, []string) {
	return testkit.RandomWrite(r, lockOrderTables)
}

// readErrors are the errors a read may meet: its table deleted, or the
// GSI it names not there (now or any more).
var readErrors = []string{typeNotFound, typeValidation}

// readOp returns a random read: items, indexes, DescribeTable and the
// other descriptions of a table's definition.
func (env *lockOrderEnv) readOp(r *rand.Rand) (string, string, []string) {
	table := testkit.Pick(r, lockOrderTables...)
	pk, sk := testkit.SmallKey(r)
	switch r.IntN(10) {
	case 0:
		return "GetItem", `{"TableName":"` + table + `","Key":` + testkit.KeyJSON(pk, sk) + `,"ConsistentRead":true}`, readErrors
	case 1:
		return "Query", `{"TableName":"` + table + `","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"` + pk + `"}},"ReturnConsumedCapacity":"INDEXES"}`, readErrors
	case 2:
		return "Query", `{"TableName":"` + table + `","IndexName":"by-l","KeyConditionExpression":"pk = :p AND l > :l","ExpressionAttributeValues":{":p":{"S":"` + pk + `"},":l":{"S":"l"}}}`, readErrors
	case 3:
		return "Query", `{"TableName":"` + table + `","IndexName":"by-g","KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"g1"}}}`, readErrors
	case 4:
		return "Scan", `{"TableName":"` + table + `","FilterExpression":"n > :z","ExpressionAttributeValues":{":z":{"N":"3"}}}`, readErrors
	case 5:
		return "TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"lomain","Key":` + testkit.KeyJSON(pk, sk) + `}},{"Get":{"TableName":"loside","Key":` + testkit.KeyJSON(pk, sk) + `}}]}`, readErrors
	case 6:
		return "BatchGetItem", `{"RequestItems":{"` + table + `":{"Keys":[` + testkit.KeyJSON(pk, sk) + `]}}}`, readErrors
	case 7:
		return "ExecuteStatement", `{"Statement":"SELECT * FROM ` + table + ` WHERE pk = '` + pk + `'"}`, readErrors
	case 8:
		return "DescribeTimeToLive", `{"TableName":"` + table + `"}`, readErrors
	}
	return "DescribeTable", `{"TableName":"` + table + `"}`, readErrors
}

// changeErrors are the errors a change of a definition may meet: it may
// not apply to the table as another changer left it (a stream already
// on, an index already there, the same throughput), or the table may be
// gone or back.
var changeErrors = []string{typeNotFound, typeValidation, typeInUse, typeLimit}

// changeOp returns a random change of a table's definition. For a
// DeleteTable it sends the DeleteTable itself and returns the CreateTable
// that brings the table back.
func (env *lockOrderEnv) changeOp(r *rand.Rand) (string, string, []string) {
	table := testkit.Pick(r, lockOrderTables...)
	arn := "arn:aws:dynamodb:us-east-1:000000000000:table/" + table
	update := func(members string) (string, string, []string) {
		return "UpdateTable", `{"TableName":"` + table + `",` + members + `}`, changeErrors
	}
	throughput := `"ProvisionedThroughput":{"ReadCapacityUnits":` + strconv.Itoa(1+r.IntN(5)) +
		`,"WriteCapacityUnits":` + strconv.Itoa(1+r.IntN(5)) + `}`
	if r.IntN(24) == 0 {
		// DeleteTable, then CreateTable again at once (ResourceInUse when
		// the other changer was quicker), so the table is not gone for long.
		env.send("DeleteTable", `{"TableName":"`+table+`"}`, changeErrors)
		return "CreateTable", createBody(table), changeErrors
	}
	switch r.IntN(8) {
	case 0:
		gsiThroughput := ""
		if r.IntN(2) == 0 {
			gsiThroughput = "," + throughput
		}
		return update(`"AttributeDefinitions":[{"AttributeName":"g","AttributeType":"S"}],
			"GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"by-g","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
			"Projection":{"ProjectionType":"` + testkit.Pick(r, "ALL", "KEYS_ONLY") + `"}` + gsiThroughput + `}}]`)
	case 1:
		return update(`"GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"by-g"}}]`)
	case 2:
		return update(`"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"` + testkit.Pick(r, "NEW_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY") + `"}`)
	case 3:
		return update(`"StreamSpecification":{"StreamEnabled":false}`)
	case 4:
		enabled := testkit.Pick(r, "true", "false")
		return "UpdateTimeToLive", `{"TableName":"` + table + `","TimeToLiveSpecification":{"Enabled":` + enabled + `,"AttributeName":"exp"}}`, changeErrors
	case 5:
		// Tags, among them the conventions opt-in (warn mode: reported,
		// never refused), so writes meet a policy coming and going.
		tags := `{"Key":"env","Value":"v` + strconv.Itoa(r.IntN(3)) + `"}`
		if r.IntN(2) == 0 {
			tags += `,{"Key":"dynamoemu:conventions","Value":"data"},{"Key":"dynamoemu:conventions-mode","Value":"warn"}`
		}
		return "TagResource", `{"ResourceArn":"` + arn + `","Tags":[` + tags + `]}`, changeErrors
	case 6:
		return "UntagResource", `{"ResourceArn":"` + arn + `","TagKeys":["env","dynamoemu:conventions","dynamoemu:conventions-mode"]}`, changeErrors
	}
	switch r.IntN(6) {
	case 0:
		return update(`"BillingMode":"PAY_PER_REQUEST"`)
	case 1:
		return update(`"BillingMode":"PROVISIONED",` + throughput)
	case 2, 3, 4:
		// Point-in-time recovery and backups are features
		// (emulator/internal/pitr, emulator/internal/backups): their
		// locks, taken in the commit hook under storage's, run under
		// concurrency in their own packages' tests
		// (TestPITRConcurrent, TestBackupsConcurrent).
		return "UpdateTimeToLive", `{"TableName":"` + table + `","TimeToLiveSpecification":{"AttributeName":"ttl","Enabled":` +
			testkit.Pick(r, "true", "false") + `}}`, changeErrors
	}
	return update(throughput)
}

// checkTable checks a table (if it exists) after the workload: its item
// count and its indexes' counts agree with its items, and the streams of
// its name agree with its definition (only the current one, if enabled,
// is open).
func (env *lockOrderEnv) checkTable(name string) {
	t := env.t
	res, out := doService(t, env.e, "DynamoDB_20120810.DescribeTable", testkit.DefaultAuth, `{"TableName":"`+name+`"}`)
	if res.StatusCode != http.StatusOK {
		if testkit.ErrorType(out) != typeNotFound {
			t.Errorf("DescribeTable %s: status %d, %s", name, res.StatusCode, out)
		}
		return
	}
	var d struct {
		Table struct {
			ItemCount              int64
			LatestStreamArn        string
			StreamSpecification    *struct{ StreamEnabled bool }
			GlobalSecondaryIndexes []struct {
				IndexName   string
				IndexStatus string
				ItemCount   *int64
			}
			LocalSecondaryIndexes []struct {
				IndexName string
				ItemCount int64
			}
		}
	}
	testkit.MustUnmarshal(t, out, &d)

	res, out = doService(t, env.e, "DynamoDB_20120810.Scan", testkit.DefaultAuth, `{"TableName":"`+name+`","ConsistentRead":true}`)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("Scan %s: status %d, %s", name, res.StatusCode, out)
	}
	var s struct{ Items []map[string]json.RawMessage }
	testkit.MustUnmarshal(t, out, &s)
	withAttr := func(attr string) int64 {
		n := int64(0)
		for _, it := range s.Items {
			if _, ok := it[attr]; ok {
				n++
			}
		}
		return n
	}
	if got, want := d.Table.ItemCount, int64(len(s.Items)); got != want {
		t.Errorf("%s: ItemCount %d, want %d (items scanned)", name, got, want)
	}
	for _, x := range d.Table.LocalSecondaryIndexes {
		if got, want := x.ItemCount, withAttr("l"); got != want {
			t.Errorf("%s: LSI %s ItemCount %d, want %d (items with l)", name, x.IndexName, got, want)
		}
	}
	for _, x := range d.Table.GlobalSecondaryIndexes {
		if x.IndexStatus != tablespec.IndexActive || x.ItemCount == nil {
			continue
		}
		if got, want := *x.ItemCount, withAttr("g"); got != want {
			t.Errorf("%s: GSI %s ItemCount %d, want %d (items with g)", name, x.IndexName, got, want)
		}
	}

	enabled := d.Table.StreamSpecification != nil && d.Table.StreamSpecification.StreamEnabled
	res, out = doService(t, env.e, "DynamoDBStreams_20120810.ListStreams", testkit.DefaultAuth, `{"TableName":"`+name+`","Limit":100}`)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("ListStreams %s: status %d, %s", name, res.StatusCode, out)
	}
	var ls struct{ Streams []struct{ StreamArn string } }
	testkit.MustUnmarshal(t, out, &ls)
	var open []string
	for _, st := range ls.Streams {
		res, out := doService(t, env.e, "DynamoDBStreams_20120810.DescribeStream", testkit.DefaultAuth, `{"StreamArn":"`+st.StreamArn+`"}`)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("DescribeStream %s: status %d, %s", st.StreamArn, res.StatusCode, out)
		}
		var ds struct{ StreamDescription struct{ StreamStatus string } }
		testkit.MustUnmarshal(t, out, &ds)
		if ds.StreamDescription.StreamStatus == Enabled {
			open = append(open, st.StreamArn)
		}
	}
	var want []string
	if enabled {
		want = []string{d.Table.LatestStreamArn}
	}
	if !slices.Equal(open, want) {
		t.Errorf("%s: enabled streams %q, want %q (StreamSpecification enabled: %v)", name, open, want, enabled)
	}
}

// TestUpdateItemWhileTogglingStream is a lock-order interleaving: eight
// writers doing UpdateItem ADD n :one while UpdateTable turns the table's
// stream on and off. UpdateItem checked index keys under the table's
// storage lock by taking the metadata lock, while UpdateTable held the
// metadata lock and took the storage lock to attach or detach the stream:
// the table hung within seconds. Every write must land.
func TestUpdateItemWhileTogglingStream(t *testing.T) {
	const (
		writers          = 8
		updatesPerWriter = 200
		toggles          = 100
	)
	e := newTestService(t, Config{})
	mustDo := func(op, body string) (int, string) {
		res, out := doService(t, e, "DynamoDB_20120810."+op, testkit.DefaultAuth, body)
		return res.StatusCode, out
	}
	if status, out := mustDo("CreateTable", `{"TableName":"counters","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`); status != http.StatusOK {
		t.Fatalf("CreateTable: status %d, body %s", status, out)
	}

	var wg sync.WaitGroup
	errs := make(chan string, writers+1)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < updatesPerWriter; i++ {
				status, out := mustDo("UpdateItem", `{"TableName":"counters","Key":{"pk":{"S":"c"}},
					"UpdateExpression":"ADD n :one","ExpressionAttributeValues":{":one":{"N":"1"}}}`)
				if status != http.StatusOK {
					errs <- fmt.Sprintf("UpdateItem: status %d, body %s", status, out)
					return
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < toggles; i++ {
			spec := `{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}`
			if i%2 == 1 {
				spec = `{"StreamEnabled":false}`
			}
			status, out := mustDo("UpdateTable", `{"TableName":"counters","StreamSpecification":`+spec+`}`)
			if status != http.StatusOK {
				errs <- fmt.Sprintf("UpdateTable: status %d, body %s", status, out)
				return
			}
		}
	}()
	testkit.WaitOrDump(t, &wg)
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	_, out := mustDo("GetItem", `{"TableName":"counters","Key":{"pk":{"S":"c"}},"ConsistentRead":true}`)
	if want := fmt.Sprintf(`{"Item":{"n":{"N":"%d"},"pk":{"S":"c"}}}`, writers*updatesPerWriter); out != want {
		t.Errorf("got %s, want %s", out, want)
	}
}

package emulator

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
func TestLockOrder(t *testing.T) {
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
	env := &lockOrderEnv{t: t, e: newTestService(t, serviceConfig{}), seed: seed, outcomes: map[string]int{}}
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
				env.count("SweepTTL: items deleted", env.e.sweepTTL())
				return
			}
			env.send(env.writeOp(r))
		})
	}
	for i := range uint64(readers) {
		start(4<<32|i, opsPerReader, false, request(env.readOp))
	}
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
	t    *testing.T
	e    *service
	seed uint64

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

// pick returns one of list.
func pick[T any](r *rand.Rand, list ...T) T { return list[r.IntN(len(list))] }

// lockOrderKey is a key from a small space, so writers meet on items.
func lockOrderKey(r *rand.Rand) (pk, sk string) {
	return "p" + strconv.Itoa(r.IntN(3)), "s" + strconv.Itoa(r.IntN(6))
}

// keyJSON is the key pk, sk as a request's Key.
func keyJSON(pk, sk string) string {
	return `{"pk":{"S":"` + pk + `"},"sk":{"S":"` + sk + `"}}`
}

// itemJSON is an item with key pk, sk and random other attributes: n, and
// maybe the LSI's l, the GSI's g, the TTL attribute exp (expired or not)
// and a payload that makes some items larger than 1 KB.
func itemJSON(r *rand.Rand, pk, sk string) string {
	var b strings.Builder
	b.WriteString(`{"pk":{"S":"` + pk + `"},"sk":{"S":"` + sk + `"},"n":{"N":"` + strconv.Itoa(r.IntN(100)) + `"}`)
	if r.IntN(2) == 0 {
		b.WriteString(`,"l":{"S":"l` + strconv.Itoa(r.IntN(4)) + `"}`)
	}
	if r.IntN(2) == 0 {
		b.WriteString(`,"g":{"S":"g` + strconv.Itoa(r.IntN(4)) + `"}`)
	}
	if r.IntN(3) == 0 {
		b.WriteString(`,"exp":{"N":"` + strconv.FormatInt(ttlValue(r), 10) + `"}`)
	}
	if r.IntN(4) == 0 {
		b.WriteString(`,"big":{"S":"` + strings.Repeat("x", 1500) + `"}`)
	}
	b.WriteString(`}`)
	return b.String()
}

// ttlValue is a TTL attribute value: expired a minute ago, or in a day.
func ttlValue(r *rand.Rand) int64 {
	if r.IntN(2) == 0 {
		return time.Now().Add(-time.Minute).Unix()
	}
	return time.Now().Add(24 * time.Hour).Unix()
}

// writeOptions are the Return* members that make a write read the
// definition inside its storage write: index capacity, item collection
// metrics, old images.
func writeOptions(r *rand.Rand) string {
	return `,"ReturnConsumedCapacity":"` + pick(r, "NONE", "TOTAL", "INDEXES") +
		`","ReturnItemCollectionMetrics":"` + pick(r, "NONE", "SIZE") + `"`
}

// writeErrors are the errors a write may meet.
var writeErrors = []string{typeNotFound, typeCondition, typeTxCancelled, typeDuplicate}

// writeOp returns a random write request: its operation, body and the
// error types allowed.
func (env *lockOrderEnv) writeOp(r *rand.Rand) (string, string, []string) {
	return randomWrite(r, lockOrderTables)
}

// randomWrite returns a random write request to one of tables (each with
// the key pk, sk, both S): its operation, body and the error types
// allowed. Every write path: PutItem, UpdateItem, DeleteItem,
// BatchWriteItem, TransactWriteItems, and PartiQL through
// ExecuteStatement, ExecuteTransaction and BatchExecuteStatement.
func randomWrite(r *rand.Rand, tables []string) (string, string, []string) {
	table := pick(r, tables...)
	pk, sk := lockOrderKey(r)
	switch r.IntN(9) {
	case 0:
		cond := ""
		if r.IntN(3) == 0 {
			cond = `,"ConditionExpression":"attribute_not_exists(pk) OR n < :big","ExpressionAttributeValues":{":big":{"N":"1000"}}`
		}
		return "PutItem", `{"TableName":"` + table + `","Item":` + itemJSON(r, pk, sk) +
			`,"ReturnValues":"` + pick(r, "NONE", "ALL_OLD") + `"` + cond + writeOptions(r) + `}`, writeErrors
	case 1:
		upd := pick(r,
			`"UpdateExpression":"ADD n :one","ExpressionAttributeValues":{":one":{"N":"1"}}`,
			`"UpdateExpression":"SET g = :g, l = :l ADD n :one","ExpressionAttributeValues":{":g":{"S":"g1"},":l":{"S":"l2"},":one":{"N":"1"}}`,
			`"UpdateExpression":"SET exp = :e ADD n :one REMOVE g","ExpressionAttributeValues":{":e":{"N":"`+strconv.FormatInt(ttlValue(r), 10)+`"},":one":{"N":"1"}}`,
			`"UpdateExpression":"REMOVE l SET n = if_not_exists(n, :z) + :one","ExpressionAttributeValues":{":z":{"N":"0"},":one":{"N":"1"}}`)
		return "UpdateItem", `{"TableName":"` + table + `","Key":` + keyJSON(pk, sk) + `,` + upd +
			`,"ReturnValues":"` + pick(r, "NONE", "ALL_NEW", "UPDATED_OLD") + `"` + writeOptions(r) + `}`, writeErrors
	case 2:
		return "DeleteItem", `{"TableName":"` + table + `","Key":` + keyJSON(pk, sk) +
			`,"ReturnValues":"` + pick(r, "NONE", "ALL_OLD") + `"` + writeOptions(r) + `}`, writeErrors
	case 3:
		return "BatchWriteItem", `{"RequestItems":{` + batchWrites(r, tables) + `}` + writeOptions(r) + `}`, writeErrors
	case 4:
		token := ""
		if r.IntN(4) == 0 {
			token = `,"ClientRequestToken":"tok-` + strconv.Itoa(r.IntN(1000)) + `"`
		}
		// A replayed token with another request is IdempotentParameterMismatch.
		return "TransactWriteItems", `{"TransactItems":[` + transactItems(r, tables) + `]` + token + writeOptions(r) + `}`,
			append(slices.Clone(writeErrors), "IdempotentParameterMismatchException")
	case 5:
		return "ExecuteStatement", `{"Statement":` + strconv.Quote(partiQLWrite(r, table, pk, sk)) + `}`, writeErrors
	case 6:
		var stmts []string
		for _, k := range distinctKeys(r, 1+r.IntN(3), tables) {
			stmts = append(stmts, `{"Statement":`+strconv.Quote(partiQLWrite(r, k.table, k.pk, k.sk))+`}`)
		}
		return "ExecuteTransaction", `{"TransactStatements":[` + strings.Join(stmts, ",") + `]}`, writeErrors
	case 7:
		var stmts []string
		for _, k := range distinctKeys(r, 1+r.IntN(3), tables) {
			stmts = append(stmts, `{"Statement":`+strconv.Quote(partiQLWrite(r, k.table, k.pk, k.sk))+`}`)
		}
		return "BatchExecuteStatement", `{"Statements":[` + strings.Join(stmts, ",") + `]}`, writeErrors
	default:
		return "UpdateItem", `{"TableName":"` + table + `","Key":` + keyJSON(pk, sk) +
			`,"UpdateExpression":"ADD n :one","ConditionExpression":"attribute_exists(pk)","ExpressionAttributeValues":{":one":{"N":"1"}}` +
			writeOptions(r) + `}`, writeErrors
	}
}

// tableKey is one item of one table.
type tableKey struct{ table, pk, sk string }

// distinctKeys returns n distinct items across tables (a transaction
// may name an item once).
func distinctKeys(r *rand.Rand, n int, tables []string) []tableKey {
	var out []tableKey
	for len(out) < n {
		pk, sk := lockOrderKey(r)
		k := tableKey{pick(r, tables...), pk, sk}
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// batchWrites is a BatchWriteItem's RequestItems members: puts and
// deletes of distinct items, grouped by table.
func batchWrites(r *rand.Rand, tables []string) string {
	byTable := map[string][]string{}
	for _, k := range distinctKeys(r, 1+r.IntN(4), tables) {
		req := `{"DeleteRequest":{"Key":` + keyJSON(k.pk, k.sk) + `}}`
		if r.IntN(3) > 0 {
			req = `{"PutRequest":{"Item":` + itemJSON(r, k.pk, k.sk) + `}}`
		}
		byTable[k.table] = append(byTable[k.table], req)
	}
	var parts []string
	for _, table := range tables {
		if reqs := byTable[table]; len(reqs) > 0 {
			parts = append(parts, `"`+table+`":[`+strings.Join(reqs, ",")+`]`)
		}
	}
	return strings.Join(parts, ",")
}

// transactItems is a TransactWriteItems's TransactItems: puts, updates,
// deletes and condition checks of distinct items.
func transactItems(r *rand.Rand, tables []string) string {
	var acts []string
	for _, k := range distinctKeys(r, 1+r.IntN(4), tables) {
		key := `"TableName":"` + k.table + `","Key":` + keyJSON(k.pk, k.sk)
		switch r.IntN(4) {
		case 0:
			acts = append(acts, `{"Put":{"TableName":"`+k.table+`","Item":`+itemJSON(r, k.pk, k.sk)+`}}`)
		case 1:
			acts = append(acts, `{"Update":{`+key+`,"UpdateExpression":"ADD n :one SET g = :g",
				"ExpressionAttributeValues":{":one":{"N":"1"},":g":{"S":"g2"}}}}`)
		case 2:
			acts = append(acts, `{"Delete":{`+key+`}}`)
		default:
			acts = append(acts, `{"ConditionCheck":{`+key+`,"ConditionExpression":"attribute_not_exists(nope)"}}`)
		}
	}
	return strings.Join(acts, ",")
}

// partiQLWrite is a PartiQL INSERT, UPDATE or DELETE of one item. Every
// write leaves an item with n, so UPDATE's n + 1 always has an operand.
func partiQLWrite(r *rand.Rand, table, pk, sk string) string {
	where := ` WHERE pk = '` + pk + `' AND sk = '` + sk + `'`
	switch r.IntN(3) {
	case 0:
		return `INSERT INTO ` + table + ` VALUE {'pk': '` + pk + `', 'sk': '` + sk + `', 'n': 1, 'g': 'g3', 'l': 'l3'}`
	case 1:
		return `UPDATE ` + table + ` SET n = n + 1 SET g = 'g0'` + where
	}
	return `DELETE FROM ` + table + where
}

// readErrors are the errors a read may meet: its table deleted, or the
// GSI it names not there (now or any more).
var readErrors = []string{typeNotFound, typeValidation}

// readOp returns a random read: items, indexes, DescribeTable and the
// other descriptions of a table's definition.
func (env *lockOrderEnv) readOp(r *rand.Rand) (string, string, []string) {
	table := pick(r, lockOrderTables...)
	pk, sk := lockOrderKey(r)
	switch r.IntN(10) {
	case 0:
		return "GetItem", `{"TableName":"` + table + `","Key":` + keyJSON(pk, sk) + `,"ConsistentRead":true}`, readErrors
	case 1:
		return "Query", `{"TableName":"` + table + `","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"` + pk + `"}},"ReturnConsumedCapacity":"INDEXES"}`, readErrors
	case 2:
		return "Query", `{"TableName":"` + table + `","IndexName":"by-l","KeyConditionExpression":"pk = :p AND l > :l","ExpressionAttributeValues":{":p":{"S":"` + pk + `"},":l":{"S":"l"}}}`, readErrors
	case 3:
		return "Query", `{"TableName":"` + table + `","IndexName":"by-g","KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"g1"}}}`, readErrors
	case 4:
		return "Scan", `{"TableName":"` + table + `","FilterExpression":"n > :z","ExpressionAttributeValues":{":z":{"N":"3"}}}`, readErrors
	case 5:
		return "TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"lomain","Key":` + keyJSON(pk, sk) + `}},{"Get":{"TableName":"loside","Key":` + keyJSON(pk, sk) + `}}]}`, readErrors
	case 6:
		return "BatchGetItem", `{"RequestItems":{"` + table + `":{"Keys":[` + keyJSON(pk, sk) + `]}}}`, readErrors
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

// backupErrors are the answers a backup or recovery operation may give
// while its table is deleted, recreated or changed concurrently.
var backupErrors = []string{"TableNotFoundException", "TableAlreadyExistsException", "PointInTimeRecoveryUnavailableException",
	"ContinuousBackupsUnavailableException", typeValidation}

// changeOp returns a random change of a table's definition. For a
// DeleteTable it sends the DeleteTable itself and returns the CreateTable
// that brings the table back.
func (env *lockOrderEnv) changeOp(r *rand.Rand) (string, string, []string) {
	table := pick(r, lockOrderTables...)
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
			"Projection":{"ProjectionType":"` + pick(r, "ALL", "KEYS_ONLY") + `"}` + gsiThroughput + `}}]`)
	case 1:
		return update(`"GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"by-g"}}]`)
	case 2:
		return update(`"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"` + pick(r, "NEW_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY") + `"}`)
	case 3:
		return update(`"StreamSpecification":{"StreamEnabled":false}`)
	case 4:
		enabled := pick(r, "true", "false")
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
	case 2:
		// Point-in-time recovery on and off (its history is fed by the
		// namespace's commit hook, under storage's locks: pitr.go).
		return "UpdateContinuousBackups", `{"TableName":"` + table + `","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":` +
			pick(r, "true", "true", "false") + `}}`, backupErrors
	case 3:
		return "CreateBackup", `{"TableName":"` + table + `","BackupName":"lockorder"}`, backupErrors
	case 4:
		// A restore under a name of its own, which only one of the
		// changers wins.
		return "RestoreTableToPointInTime", `{"SourceTableName":"` + table + `","TargetTableName":"restored-` + table +
			`-` + strconv.Itoa(r.IntN(1000)) + `","UseLatestRestorableTime":true}`, backupErrors
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
		if x.IndexStatus != indexActive || x.ItemCount == nil {
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
		if ds.StreamDescription.StreamStatus == streamEnabled {
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

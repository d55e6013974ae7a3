package emulator

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/storage"
)

// The proof that a namespace's DB and its commit hook hold the whole
// namespace (catalog_record.go): a random workload runs through the API
// against an emulator whose namespaces' hooks record every record, in
// their binary form (storage.AppendRecord); a second emulator then
// rebuilds each namespace from those records alone (Namespace.Apply) and
// must answer every read the same: ListTables, DescribeTable (byte for
// byte: counts, sizes, indexes and their states, billing and throughput
// histories, stream settings, SSE, class, protection), Scan of every
// table and index, a Query of every index, ListTagsOfResource,
// DescribeTimeToLive, and the streams (ListStreams, DescribeStream, and
// GetRecords but for ApproximateCreationDateTime, which is the replay's
// clock). The rebuilt namespaces' own hooks must see the same records
// again.
//
// The workload covers tables with LSIs and GSIs (created with the table
// and by UpdateTable, deleted), streams on and off, TTL with sweeps,
// tags (the conventions opt-in among them), billing and throughput
// changes, SSE, table class and deletion protection, DeleteTable and
// CreateTable again, and items through every write path (randomWrite), in
// two namespaces. Its seed is logged; DYNAMOEMU_REPLAY_SEED=<seed>
// replays it.

const replaySeedEnv = "DYNAMOEMU_REPLAY_SEED"

// recordingHooks records the records of every namespace's hook. With
// failEvery > 0 it refuses every failEvery-th record (ErrHookFailed for
// the writer: the change is undone and not recorded); with failEvery < 0
// it accepts every record but fails the wait of every -failEvery-th
// (ErrNotDurable for the writer: the change is made and recorded).
type recordingHooks struct {
	failEvery int
	mu        sync.Mutex // guards recs and n
	recs      map[string][][]byte
	n         int // records offered
}

var errRefused = errors.New("test hook: refused")

func (h *recordingHooks) hookFor(id string) storage.Hook { return &recordingHook{h: h, id: id} }

type recordingHook struct {
	h  *recordingHooks
	id string
}

func (r *recordingHook) Commit(rec *storage.Record) (uint64, error) {
	b, err := storage.AppendRecord(nil, rec)
	if err != nil {
		return 0, err
	}
	r.h.mu.Lock()
	defer r.h.mu.Unlock()
	r.h.n++
	if r.h.failEvery > 0 && r.h.n%r.h.failEvery == 0 {
		return 0, errRefused
	}
	r.h.recs[r.id] = append(r.h.recs[r.id], b)
	if r.h.failEvery < 0 && r.h.n%-r.h.failEvery == 0 {
		return 1, nil // Wait fails
	}
	return 0, nil
}

func (r *recordingHook) Wait(uint64) error { return errRefused }

// manualClock is a clock that only the test moves.
type manualClock struct {
	mu  sync.Mutex // guards now
	now time.Time
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

var replayTables = []string{"rt0", "rt1", "rt2"}

var replayAuths = []string{testkit.DefaultAuth,
	"AWS4-HMAC-SHA256 Credential=AKID2/20260101/eu-west-1/dynamodb/aws4_request, SignedHeaders=host, Signature=abc"}

// replaySeed is the workload's seed: DYNAMOEMU_REPLAY_SEED, or the time.
func replaySeed(t *testing.T) uint64 {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv(replaySeedEnv); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q: %v", replaySeedEnv, s, err)
		}
		seed = v
	}
	t.Logf("seed %d (replay: %s=%d)", seed, replaySeedEnv, seed)
	return seed
}

func TestReplay(t *testing.T) {
	seed := replaySeed(t)
	// Every record accepted; a hook that refuses one record in seven,
	// whose writers get 500 InternalServerError with nothing changed; one
	// that fails the wait of one record in five, whose writers get 500
	// with the change made. The records accepted rebuild the namespace.
	for _, failEvery := range []int{0, 7, -5} {
		t.Run("failEvery="+strconv.Itoa(failEvery), func(t *testing.T) { replayRun(t, seed, failEvery) })
	}
}

func replayRun(t *testing.T, seed uint64, failEvery int) {
	steps := 600
	if !testkit.FullSize() {
		steps = 250
	}

	// The real time, since the workload's TTL values are (ttlValue).
	clock := &manualClock{now: time.Now().Truncate(time.Millisecond)}
	opts := serviceConfig{Clock: clock.Now, TransientDelay: 2 * time.Second}
	hooks := &recordingHooks{recs: map[string][][]byte{}, failEvery: failEvery}
	e := newTestService(t, withHooks(opts, hooks))

	r := rand.New(rand.NewPCG(seed, 0))
	outcomes := map[string]int{}
	for i := 0; i < steps; i++ {
		auth := pick(r, replayAuths...)
		var op, body string
		switch n := r.IntN(20); {
		case n < 11:
			op, body, _ = randomWrite(r, replayTables)
		case n < 18:
			op, body = replayChange(r, auth)
		case n < 19:
			clock.advance(time.Duration(r.IntN(3000)) * time.Millisecond)
			continue
		default:
			outcomes["SweepTTL"] += e.sweepTTL()
			continue
		}
		res, out := doService(t, e, "DynamoDB_20120810."+op, auth, body)
		typ := "OK"
		if res.StatusCode != http.StatusOK {
			typ = testkit.ErrorType(out)
		}
		if res.StatusCode >= 500 && (failEvery == 0 || typ != "InternalServerError") {
			t.Fatalf("%s %s: status %d, %s", op, body, res.StatusCode, out)
		}
		outcomes[op+": "+typ]++
	}
	t.Logf("outcomes: %v", outcomes)
	if failEvery != 0 && outcomes["UpdateTable: InternalServerError"]+outcomes["CreateTable: InternalServerError"] == 0 {
		t.Errorf("no catalog change met a refusal of the hook")
	}

	again := &recordingHooks{recs: map[string][][]byte{}}
	e2 := newTestService(t, withHooks(opts, again))
	for id, recs := range hooks.recs {
		ns := e2.namespace(id)
		if ns == nil {
			t.Fatalf("namespace %q: not one of the emulator's", id)
		}
		for i, b := range recs {
			rec, err := storage.ParseRecord(b)
			if err != nil {
				t.Fatalf("namespace %q record %d: %v", id, i, err)
			}
			if err := ns.Apply(rec); err != nil {
				t.Fatalf("namespace %q record %d (%s): %v", id, i, rec.Kind, err)
			}
		}
		if got, want := len(again.recs[id]), len(recs); got != want {
			t.Errorf("namespace %q: the replay recorded %d records, want %d", id, got, want)
		}
		for i := range min(len(recs), len(again.recs[id])) {
			if !bytes.Equal(again.recs[id][i], recs[i]) {
				t.Errorf("namespace %q: record %d recorded again differs", id, i)
				break
			}
		}
	}
	for _, auth := range replayAuths {
		compareNamespaces(t, e, e2, auth, true)
	}
	if t.Failed() {
		t.Logf("seed %d (replay: %s=%d)", seed, replaySeedEnv, seed)
	}
}

// withHooks is cfg with every namespace's hook recording into h.
func withHooks(cfg serviceConfig, h *recordingHooks) serviceConfig {
	cfg.Hooks = h.hookFor
	return cfg
}

// replayInto rebuilds every namespace hooks recorded in a new emulator
// with options opts and returns it.
func replayInto(t *testing.T, hooks *recordingHooks, opts serviceConfig) *service {
	t.Helper()
	e2 := newTestService(t, opts)
	for id, recs := range hooks.recs {
		ns := e2.namespace(id)
		for i, b := range recs {
			rec, err := storage.ParseRecord(b)
			if err != nil {
				t.Fatalf("namespace %q record %d: %v", id, i, err)
			}
			if err := ns.Apply(rec); err != nil {
				t.Fatalf("namespace %q record %d (%s): %v", id, i, rec.Kind, err)
			}
		}
	}
	return e2
}

// TestReplayConcurrent is TestReplay's workload run by several goroutines
// at once, each with its own random sequence (the interleaving is the
// scheduler's): the hook's order of records, per table the order in
// which changes became visible, must rebuild the same tables, items,
// indexes and definitions. Stream records are not compared: a write that
// races with UpdateTable enabling a stream may reach the live stream and
// not the rebuilt one, or the other way round (catalog_record.go: they
// are volatile).
func TestReplayConcurrent(t *testing.T) {
	seed := replaySeed(t)
	const workers = 4
	steps := 150
	if !testkit.FullSize() {
		steps = 60
	}
	opts := serviceConfig{}
	hooks := &recordingHooks{recs: map[string][][]byte{}}
	e := newTestService(t, withHooks(opts, hooks))
	var wg sync.WaitGroup
	for w := range uint64(workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(seed, w))
			for i := 0; i < steps; i++ {
				auth := pick(r, replayAuths...)
				var op, body string
				switch n := r.IntN(20); {
				case n < 12:
					op, body, _ = randomWrite(r, replayTables)
				case n < 19:
					op, body = replayChange(r, auth)
				default:
					e.sweepTTL()
					continue
				}
				if res, out := doService(t, e, "DynamoDB_20120810."+op, auth, body); res.StatusCode >= 500 {
					t.Errorf("%s %s: status %d, %s", op, body, res.StatusCode, out)
				}
			}
		}()
	}
	testkit.WaitOrDump(t, &wg)
	e2 := replayInto(t, hooks, opts)
	for _, auth := range replayAuths {
		compareNamespaces(t, e, e2, auth, false)
	}
	if t.Failed() {
		t.Logf("seed %d (replay: %s=%d)", seed, replaySeedEnv, seed)
	}
}

// replayCreate is a random CreateTable request of table name: key pk, sk
// (S), maybe an LSI on l, GSIs on g (one attribute) and on g, n (two
// partition key attributes), a stream, provisioned or on-demand billing,
// tags, SSE, a table class.
func replayCreate(r *rand.Rand, name string) string {
	var b strings.Builder
	b.WriteString(`{"TableName":"` + name + `","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},
		{"AttributeName":"sk","AttributeType":"S"},{"AttributeName":"l","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"},
		{"AttributeName":"n","AttributeType":"N"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]`)
	provisioned := r.IntN(2) == 0
	tp := `"ProvisionedThroughput":{"ReadCapacityUnits":` + strconv.Itoa(1+r.IntN(9)) + `,"WriteCapacityUnits":` + strconv.Itoa(1+r.IntN(9)) + `}`
	if provisioned {
		b.WriteString(`,` + tp)
	} else {
		b.WriteString(`,"BillingMode":"PAY_PER_REQUEST"`)
	}
	gsiTP := ""
	if provisioned {
		gsiTP = `,` + tp
	}
	// Every attribute definition must be used by a key schema.
	b.WriteString(`,"LocalSecondaryIndexes":[{"IndexName":"by-l","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},
		{"AttributeName":"l","KeyType":"RANGE"}],"Projection":{"ProjectionType":"` + pick(r, "ALL", "KEYS_ONLY") + `"}}]`)
	b.WriteString(`,"GlobalSecondaryIndexes":[{"IndexName":"by-gn","KeySchema":[{"AttributeName":"g","KeyType":"HASH"},
		{"AttributeName":"n","KeyType":"HASH"}],"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["exp"]}` + gsiTP + `}]`)
	if r.IntN(2) == 0 {
		b.WriteString(`,"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"` + pick(r, "NEW_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY", "OLD_IMAGE") + `"}`)
	}
	if r.IntN(2) == 0 {
		b.WriteString(`,"Tags":[{"Key":"team","Value":"t` + strconv.Itoa(r.IntN(3)) + `"}]`)
	}
	if r.IntN(4) == 0 {
		b.WriteString(`,"SSESpecification":{"Enabled":true,"SSEType":"KMS"}`)
	}
	if r.IntN(4) == 0 {
		b.WriteString(`,"TableClass":"STANDARD_INFREQUENT_ACCESS"`)
	}
	b.WriteString(`}`)
	return b.String()
}

// replayChange returns a random change of the catalog in the namespace of
// auth: CreateTable, DeleteTable, UpdateTable (billing, throughput, GSI
// create and delete, stream, SSE, class, deletion protection),
// UpdateTimeToLive, TagResource, UntagResource.
func replayChange(r *rand.Rand, auth string) (string, string) {
	table := pick(r, replayTables...)
	region := "us-east-1"
	if auth != testkit.DefaultAuth {
		region = "eu-west-1"
	}
	arn := "arn:aws:dynamodb:" + region + ":000000000000:table/" + table
	update := func(members string) (string, string) {
		return "UpdateTable", `{"TableName":"` + table + `",` + members + `}`
	}
	tp := `"ProvisionedThroughput":{"ReadCapacityUnits":` + strconv.Itoa(1+r.IntN(9)) + `,"WriteCapacityUnits":` + strconv.Itoa(1+r.IntN(9)) + `}`
	switch r.IntN(16) {
	case 0, 1, 2:
		return "CreateTable", replayCreate(r, table)
	case 3:
		return "DeleteTable", `{"TableName":"` + table + `"}`
	case 4:
		gsiTP := ""
		if r.IntN(2) == 0 {
			gsiTP = "," + tp
		}
		return update(`"AttributeDefinitions":[{"AttributeName":"g","AttributeType":"S"}],
			"GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"by-g","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
			"Projection":{"ProjectionType":"` + pick(r, "ALL", "KEYS_ONLY") + `"}` + gsiTP + `}}]`)
	case 5:
		return update(`"GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"` + pick(r, "by-g", "by-gn") + `"}}]`)
	case 6:
		return update(`"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"` + pick(r, "NEW_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY") + `"}`)
	case 7:
		return update(`"StreamSpecification":{"StreamEnabled":false}`)
	case 8:
		return "UpdateTimeToLive", `{"TableName":"` + table + `","TimeToLiveSpecification":{"Enabled":` + pick(r, "true", "false") + `,"AttributeName":"exp"}}`
	case 9:
		tags := `{"Key":"env","Value":"v` + strconv.Itoa(r.IntN(3)) + `"}`
		if r.IntN(2) == 0 {
			tags += `,{"Key":"dynamoemu:conventions","Value":"data"},{"Key":"dynamoemu:conventions-mode","Value":"warn"}`
		}
		return "TagResource", `{"ResourceArn":"` + arn + `","Tags":[` + tags + `]}`
	case 10:
		return "UntagResource", `{"ResourceArn":"` + arn + `","TagKeys":["env","team","dynamoemu:conventions","dynamoemu:conventions-mode"]}`
	case 11:
		return update(`"BillingMode":"PAY_PER_REQUEST"`)
	case 12:
		return update(`"BillingMode":"PROVISIONED",` + tp)
	case 13:
		return update(tp)
	case 14:
		return update(pick(r, `"SSESpecification":{"Enabled":true,"SSEType":"KMS","KMSMasterKeyId":"k1"}`,
			`"TableClass":"`+pick(r, "STANDARD", "STANDARD_INFREQUENT_ACCESS")+`"`))
	}
	return update(`"DeletionProtectionEnabled":` + pick(r, "true", "false"))
}

// compareCatalogs compares the tables of the namespace auth selects in e
// and e2 (compareNamespaces, but for streams), and returns the function
// that compares one answer.
func compareCatalogs(t *testing.T, e, e2 *service, auth string) func(op, body string, strip func(string) string) string {
	t.Helper()
	same := func(op, body string, strip func(string) string) string {
		t.Helper()
		target := "DynamoDB_20120810." + op
		if strings.HasPrefix(op, "DynamoDBStreams_") {
			target = op
		}
		res1, out1 := doService(t, e, target, auth, body)
		res2, out2 := doService(t, e2, target, auth, body)
		if strip != nil {
			out1, out2 = strip(out1), strip(out2)
		}
		if res1.StatusCode != res2.StatusCode || out1 != out2 {
			t.Errorf("%s %s:\n got %d %s\nwant %d %s", op, body, res2.StatusCode, out2, res1.StatusCode, out1)
		}
		return out1
	}
	var lt struct{ TableNames []string }
	testkit.MustUnmarshal(t, same("ListTables", `{}`, nil), &lt)
	for _, name := range lt.TableNames {
		var d struct {
			Table struct {
				TableArn               string
				LocalSecondaryIndexes  []struct{ IndexName string }
				GlobalSecondaryIndexes []struct{ IndexName, IndexStatus string }
			}
		}
		testkit.MustUnmarshal(t, same("DescribeTable", `{"TableName":"`+name+`"}`, nil), &d)
		same("Scan", `{"TableName":"`+name+`","ConsistentRead":true}`, nil)
		same("Query", `{"TableName":"`+name+`","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"p1"}}}`, nil)
		for _, x := range d.Table.LocalSecondaryIndexes {
			same("Scan", `{"TableName":"`+name+`","IndexName":"`+x.IndexName+`"}`, nil)
			same("Query", `{"TableName":"`+name+`","IndexName":"`+x.IndexName+`","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"p0"}}}`, nil)
		}
		for _, x := range d.Table.GlobalSecondaryIndexes {
			same("Scan", `{"TableName":"`+name+`","IndexName":"`+x.IndexName+`"}`, nil)
			cond, vals := `g = :g`, `{":g":{"S":"g1"}}`
			if x.IndexName == "by-gn" {
				cond, vals = `g = :g AND n = :n`, `{":g":{"S":"g3"},":n":{"N":"1"}}`
			}
			same("Query", `{"TableName":"`+name+`","IndexName":"`+x.IndexName+`","KeyConditionExpression":"`+cond+`","ExpressionAttributeValues":`+vals+`}`, nil)
		}
		same("ListTagsOfResource", `{"ResourceArn":"`+d.Table.TableArn+`"}`, nil)
		same("DescribeTimeToLive", `{"TableName":"`+name+`"}`, nil)
	}
	return same
}

// compareNamespaces fails t unless e and e2 answer the same reads in the
// namespace of auth.
// With streamRecords, the streams' shards and records must be the same
// too.
func compareNamespaces(t *testing.T, e, e2 *service, auth string, streamRecords bool) {
	t.Helper()
	same := compareCatalogs(t, e, e2, auth)
	var ls struct{ Streams []struct{ StreamArn string } }
	testkit.MustUnmarshal(t, same("DynamoDBStreams_20120810.ListStreams", `{"Limit":100}`, nil), &ls)
	if !streamRecords {
		return
	}
	for _, st := range ls.Streams {
		var ds struct {
			StreamDescription struct{ Shards []struct{ ShardId string } }
		}
		testkit.MustUnmarshal(t, same("DynamoDBStreams_20120810.DescribeStream", `{"StreamArn":"`+st.StreamArn+`"}`, nil), &ds)
		for _, sh := range ds.StreamDescription.Shards {
			it1 := shardIteratorOf(t, e, auth, st.StreamArn, sh.ShardId)
			it2 := shardIteratorOf(t, e2, auth, st.StreamArn, sh.ShardId)
			_, out1 := doService(t, e, "DynamoDBStreams_20120810.GetRecords", auth, `{"ShardIterator":"`+it1+`","Limit":1000}`)
			_, out2 := doService(t, e2, "DynamoDBStreams_20120810.GetRecords", auth, `{"ShardIterator":"`+it2+`","Limit":1000}`)
			if got, want := recordsWithoutTime(t, out2), recordsWithoutTime(t, out1); got != want {
				t.Errorf("GetRecords of %s:\n got %s\nwant %s", st.StreamArn, got, want)
			}
		}
	}
}

func shardIteratorOf(t *testing.T, e *service, auth, arn, shard string) string {
	t.Helper()
	res, out := doService(t, e, "DynamoDBStreams_20120810.GetShardIterator", auth,
		`{"StreamArn":"`+arn+`","ShardId":"`+shard+`","ShardIteratorType":"TRIM_HORIZON"}`)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GetShardIterator %s: %s", arn, out)
	}
	var v struct{ ShardIterator string }
	testkit.MustUnmarshal(t, out, &v)
	return v.ShardIterator
}

// recordsWithoutTime is a GetRecords answer's records without their
// ApproximateCreationDateTime, as JSON.
func recordsWithoutTime(t *testing.T, out string) string {
	t.Helper()
	var v struct{ Records []map[string]any }
	testkit.MustUnmarshal(t, out, &v)
	for _, rec := range v.Records {
		if d, ok := rec["dynamodb"].(map[string]any); ok {
			delete(d, "ApproximateCreationDateTime")
		}
	}
	b, err := json.Marshal(v.Records)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d records: %s", len(v.Records), b)
}

package emulator

import (
	"errors"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/persist"
	"github.com/dynamoemu/dynamoemu/storage"
)

// openPersisted returns a service over a persist.Store of dir, with its
// namespaces loaded, and the store.
func openPersisted(t *testing.T, dir string, cfg serviceConfig, po persist.Options) (*service, *persist.Store) {
	t.Helper()
	st, err := persist.Open(dir, po)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DBs = storeDBs(st)
	s := newTestService(t, cfg)
	if err := s.loadNamespaces(st); err != nil {
		st.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return s, st
}

// TestPersistRestart runs TestReplay's workload (every definition change,
// every write path, two namespaces) on a service whose namespaces are
// kept in a persist.Store compacting often, restarts it from the
// directory twice, and compares every table, index, definition, tag and
// TTL setting with the service that made them. Stream records are not
// kept across a restart (persistence.go); enabled streams are, with
// their ARNs.
func TestPersistRestart(t *testing.T) {
	seed := replaySeed(t)
	dir := t.TempDir()
	clock := &manualClock{now: time.Now().Truncate(time.Millisecond)}
	cfg := serviceConfig{Clock: clock.Now, TransientDelay: 2 * time.Second}
	po := persist.Options{CompactBytes: 4 << 10, CompactRatio: 0.5}
	e, st := openPersisted(t, dir, cfg, po)

	r := rand.New(rand.NewPCG(seed, 1))
	steps := 300
	if !testkit.FullSize() {
		steps = 150
	}
	for i := 0; i < steps; i++ {
		auth := pick(r, replayAuths...)
		var op, body string
		switch n := r.IntN(20); {
		case n < 12:
			op, body, _ = randomWrite(r, replayTables)
		case n < 19:
			op, body = replayChange(r, auth)
		default:
			clock.advance(time.Duration(r.IntN(3000)) * time.Millisecond)
			e.sweepTTL()
			continue
		}
		res, out := doService(t, e, "DynamoDB_20120810."+op, auth, body)
		if res.StatusCode >= 500 {
			t.Fatalf("%s %s: status %d, %s", op, body, res.StatusCode, out)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	// A restart ends the transient states (endTransient); let them end
	// before it for the service it is compared with.
	clock.advance(3 * time.Second)
	// Each round reloads the directory and compares with the service
	// before (whose store is closed: it still reads), then writes to the
	// reloaded service for the next round to find.
	ref := e
	for round := range 2 {
		e2, st2 := openPersisted(t, dir, cfg, po)
		for _, auth := range replayAuths {
			compareCatalogs(t, ref, e2, auth)
			compareEnabledStreams(t, ref, e2, auth)
		}
		if round == 0 {
			for range 30 {
				op, body, _ := randomWrite(r, replayTables)
				if res, out := doService(t, e2, "DynamoDB_20120810."+op, replayAuths[0], body); res.StatusCode >= 500 {
					t.Fatalf("%s %s after a restart: %d %s", op, body, res.StatusCode, out)
				}
			}
		}
		if err := st2.Close(); err != nil {
			t.Fatal(err)
		}
		ref = e2
	}
	if t.Failed() {
		t.Logf("seed %d (replay: %s=%d)", seed, replaySeedEnv, seed)
	}
}

// compareEnabledStreams checks that every table of e2 with an enabled
// stream has the stream e's table has, listed by ListStreams.
func compareEnabledStreams(t *testing.T, e, e2 *service, auth string) {
	t.Helper()
	var ls1, ls2 struct {
		Streams []struct{ StreamArn, TableName string }
	}
	_, out1 := doService(t, e, "DynamoDBStreams_20120810.ListStreams", auth, `{"Limit":100}`)
	_, out2 := doService(t, e2, "DynamoDBStreams_20120810.ListStreams", auth, `{"Limit":100}`)
	testkit.MustUnmarshal(t, out1, &ls1)
	testkit.MustUnmarshal(t, out2, &ls2)
	listed := map[string]bool{}
	for _, s := range ls2.Streams {
		listed[s.StreamArn] = true
	}
	for _, s := range ls1.Streams {
		_, d := doService(t, e, "DynamoDB_20120810.DescribeTable", auth, `{"TableName":"`+s.TableName+`"}`)
		if strings.Contains(d, `"LatestStreamArn":"`+s.StreamArn+`"`) && strings.Contains(d, `"StreamEnabled":true`) && !listed[s.StreamArn] {
			t.Errorf("stream %s of %s: enabled before the restart, not listed after it", s.StreamArn, s.TableName)
		}
	}
}

// TestPersistLogFailure: a change the log refuses (here: the store is
// closed, as after a failed fsync stops the log) is answered 500
// InternalServerError with nothing applied, and reads go on.
func TestPersistLogFailure(t *testing.T) {
	dir := t.TempDir()
	e, st := openPersisted(t, dir, serviceConfig{}, persist.Options{})
	mustOK := func(op, body string) string {
		t.Helper()
		res, out := doService(t, e, "DynamoDB_20120810."+op, testkit.DefaultAuth, body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %s", op, res.StatusCode, out)
		}
		return out
	}
	mustOK("CreateTable", `{"TableName":"tbl1","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST",
		"GlobalSecondaryIndexes":[{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}`)
	mustOK("PutItem", `{"TableName":"tbl1","Item":{"pk":{"S":"a"},"g":{"S":"x"},"v":{"N":"1"}}}`)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct{ op, body string }{
		{"PutItem", `{"TableName":"tbl1","Item":{"pk":{"S":"a"},"g":{"S":"y"},"v":{"N":"2"}}}`},
		{"PutItem", `{"TableName":"tbl1","Item":{"pk":{"S":"b"},"g":{"S":"x"}}}`},
		{"BatchWriteItem", `{"RequestItems":{"tbl1":[{"PutRequest":{"Item":{"pk":{"S":"c"}}}},{"DeleteRequest":{"Key":{"pk":{"S":"a"}}}}]}}`},
		{"TransactWriteItems", `{"TransactItems":[{"Put":{"TableName":"tbl1","Item":{"pk":{"S":"d"}}}},{"Delete":{"TableName":"tbl1","Key":{"pk":{"S":"a"}}}}]}`},
		{"UpdateTable", `{"TableName":"tbl1","GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"byG"}}]}`},
		{"TagResource", `{"ResourceArn":"arn:aws:dynamodb:us-east-1:000000000000:table/tbl1","Tags":[{"Key":"k","Value":"v"}]}`},
		{"CreateTable", `{"TableName":"tbl2","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`},
		{"DeleteTable", `{"TableName":"tbl1"}`},
	} {
		res, out := doService(t, e, "DynamoDB_20120810."+w.op, testkit.DefaultAuth, w.body)
		if res.StatusCode != http.StatusInternalServerError || testkit.ErrorType(out) != "InternalServerError" {
			t.Errorf("%s with the log closed: got %d %s, want 500 InternalServerError", w.op, res.StatusCode, out)
		}
	}
	if got, want := mustOK("Scan", `{"TableName":"tbl1"}`), `"Items":[{"g":{"S":"x"},"pk":{"S":"a"},"v":{"N":"1"}}]`; !strings.Contains(got, want) {
		t.Errorf("Scan after the refused writes: got %s, want %s", got, want)
	}
	if got, want := mustOK("Query", `{"TableName":"tbl1","IndexName":"byG","KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"x"}}}`), `"Count":1`; !strings.Contains(got, want) {
		t.Errorf("Query of the index after the refused writes: got %s, want %s", got, want)
	}
	if got := mustOK("ListTables", `{}`); !strings.Contains(got, `["tbl1"]`) {
		t.Errorf("ListTables after the refused changes: got %s, want tbl1 alone", got)
	}
	if got := mustOK("ListTagsOfResource", `{"ResourceArn":"arn:aws:dynamodb:us-east-1:000000000000:table/tbl1"}`); strings.Contains(got, `"k"`) {
		t.Errorf("ListTagsOfResource after the refused TagResource: got %s", got)
	}
}

// TestPersistOpenErrors: a locked directory and one that cannot be
// written fail New with a message that says so.
func TestPersistOpenErrors(t *testing.T) {
	dir := t.TempDir()
	e, err := New(Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := New(Options{DataDir: dir}); !errors.Is(err, persist.ErrLocked) || !strings.Contains(err.Error(), dir) {
		t.Errorf("New on a locked directory: got %v, want persist.ErrLocked naming %s", err, dir)
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{DataDir: file}); err == nil || !strings.Contains(err.Error(), file) {
		t.Errorf("New on a file: got %v, want an error naming it", err)
	}
	if os.Geteuid() != 0 {
		ro := filepath.Join(t.TempDir(), "ro")
		if err := os.Mkdir(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		if _, err := New(Options{DataDir: ro}); err == nil || !strings.Contains(err.Error(), "writable") {
			t.Errorf("New on a read-only directory: got %v, want an error saying it must be writable", err)
		}
	}
}

// TestPersistReconcileIndexes: a process killed between UpdateTable's
// two records (the definition with a GSI added or dropped, then the
// storage index) comes back with the storage indexes its definitions
// say, built or dropped at load.
func TestPersistReconcileIndexes(t *testing.T) {
	dir := t.TempDir()
	e, st := openPersisted(t, dir, serviceConfig{}, persist.Options{})
	for _, b := range []struct{ op, body string }{
		{"CreateTable", `{"TableName":"tbl1","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST",
			"GlobalSecondaryIndexes":[{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}`},
		{"PutItem", `{"TableName":"tbl1","Item":{"pk":{"S":"a"},"g":{"S":"x"}}}`},
	} {
		if res, out := doService(t, e, "DynamoDB_20120810."+b.op, testkit.DefaultAuth, b.body); res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %s", b.op, out)
		}
	}
	// As if killed after the definition's record: storage lost byG and
	// has an index the definition does not.
	tb := e.namespaceFor("AKID", "us-east-1").getTable("tbl1")
	if tb == nil {
		tb = e.dbs.all()[0].getTable("tbl1")
	}
	if err := tb.data.DropIndex("byG"); err != nil {
		t.Fatal(err)
	}
	extra := (&indexDef{name: "stale", schema: tb.schema, partAttrs: []storage.KeyAttr{tb.schema.Partition}, projection: projection{typ: "ALL"}}).storageDef()
	if err := tb.data.AddIndex(extra); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	e2, _ := openPersisted(t, dir, serviceConfig{}, persist.Options{})
	t2 := e2.dbs.all()[0].getTable("tbl1")
	if got, want := t2.data.IndexNames(), []string{"byG"}; !slices.Equal(got, want) {
		t.Errorf("storage indexes after the restart: got %v, want %v", got, want)
	}
	res, out := doService(t, e2, "DynamoDB_20120810.Query", testkit.DefaultAuth, `{"TableName":"tbl1","IndexName":"byG","KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"x"}}}`)
	if res.StatusCode != http.StatusOK || !strings.Contains(out, `"Count":1`) {
		t.Errorf("Query of the rebuilt index: got %d %s, want 1 item", res.StatusCode, out)
	}
}

// TestPersistStreamRestart: an enabled stream comes back from a restart
// with its ARN and shard and no records; a position of before the
// restart is TrimmedDataAccessException, and new records are numbered
// after every record handed out before.
func TestPersistStreamRestart(t *testing.T) {
	dir := t.TempDir()
	do := func(e *service, op, body string) (int, string) {
		t.Helper()
		target := "DynamoDB_20120810." + op
		if strings.HasPrefix(op, "DynamoDBStreams_") {
			target = op
		}
		res, out := doService(t, e, target, testkit.DefaultAuth, body)
		return res.StatusCode, out
	}
	mustOK := func(e *service, op, body string) string {
		t.Helper()
		status, out := do(e, op, body)
		if status != http.StatusOK {
			t.Fatalf("%s: %d %s", op, status, out)
		}
		return out
	}
	type recs struct {
		Records []struct {
			Dynamodb struct{ SequenceNumber string }
		}
	}
	read := func(e *service, arn, shard, typ, seq string) (int, string) {
		t.Helper()
		body := `{"StreamArn":"` + arn + `","ShardId":"` + shard + `","ShardIteratorType":"` + typ + `"`
		if seq != "" {
			body += `,"SequenceNumber":"` + seq + `"`
		}
		status, out := do(e, "DynamoDBStreams_20120810.GetShardIterator", body+`}`)
		if status != http.StatusOK {
			return status, out
		}
		var it struct{ ShardIterator string }
		testkit.MustUnmarshal(t, out, &it)
		return do(e, "DynamoDBStreams_20120810.GetRecords", `{"ShardIterator":"`+it.ShardIterator+`"}`)
	}

	e, st := openPersisted(t, dir, serviceConfig{}, persist.Options{})
	var ct struct {
		TableDescription struct{ LatestStreamArn string }
	}
	testkit.MustUnmarshal(t, mustOK(e, "CreateTable", `{"TableName":"tbl1","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST",
		"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"}}`), &ct)
	arn := ct.TableDescription.LatestStreamArn
	mustOK(e, "PutItem", `{"TableName":"tbl1","Item":{"pk":{"S":"a"}}}`)
	var ds struct {
		StreamDescription struct{ Shards []struct{ ShardId string } }
	}
	testkit.MustUnmarshal(t, mustOK(e, "DynamoDBStreams_20120810.DescribeStream", `{"StreamArn":"`+arn+`"}`), &ds)
	shard := ds.StreamDescription.Shards[0].ShardId
	_, out := read(e, arn, shard, "TRIM_HORIZON", "")
	var before recs
	testkit.MustUnmarshal(t, out, &before)
	if len(before.Records) != 1 {
		t.Fatalf("records before the restart: %s", out)
	}
	oldSeq := before.Records[0].Dynamodb.SequenceNumber
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	e2, _ := openPersisted(t, dir, serviceConfig{}, persist.Options{})
	if status, out := read(e2, arn, shard, "AT_SEQUENCE_NUMBER", oldSeq); status != http.StatusBadRequest || testkit.ErrorType(out) != "TrimmedDataAccessException" {
		t.Errorf("GetShardIterator at a sequence number of before the restart: got %d %s, want TrimmedDataAccessException", status, out)
	}
	mustOK(e2, "PutItem", `{"TableName":"tbl1","Item":{"pk":{"S":"b"}}}`)
	_, out = read(e2, arn, shard, "TRIM_HORIZON", "")
	var after recs
	testkit.MustUnmarshal(t, out, &after)
	if len(after.Records) != 1 {
		t.Fatalf("records after the restart: got %s, want the one written since", out)
	}
	o, _ := strconv.ParseUint(oldSeq, 10, 64)
	n, _ := strconv.ParseUint(after.Records[0].Dynamodb.SequenceNumber, 10, 64)
	if n <= o {
		t.Errorf("sequence number after the restart: got %d, want more than %d (before it)", n, o)
	}
}

// TestPersistEdge500: through the HTTP edge, a write the log refuses (the
// store closed by Close) is 500 InternalServerError with AWS's body, the
// table unchanged, and reads answer.
func TestPersistEdge500(t *testing.T) {
	e, err := New(Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	h := e.Handler()
	for _, b := range []string{
		`{"TableName":"tbl1","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`,
	} {
		if res, out := testkit.Do(t, h, "DynamoDB_20120810.CreateTable", testkit.DefaultAuth, b); res.StatusCode != http.StatusOK {
			t.Fatalf("CreateTable: %d %s", res.StatusCode, out)
		}
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	res, out := testkit.Do(t, h, "DynamoDB_20120810.PutItem", testkit.DefaultAuth, `{"TableName":"tbl1","Item":{"pk":{"S":"a"}}}`)
	if res.StatusCode != http.StatusInternalServerError || testkit.ErrorType(out) != "InternalServerError" {
		t.Errorf("PutItem with the store closed: got %d %s, want 500 InternalServerError", res.StatusCode, out)
	}
	res, out = testkit.Do(t, h, "DynamoDB_20120810.Scan", testkit.DefaultAuth, `{"TableName":"tbl1"}`)
	if res.StatusCode != http.StatusOK || !strings.Contains(out, `"Count":0`) {
		t.Errorf("Scan after the refused write: got %d %s, want 200 with no items", res.StatusCode, out)
	}
}

// TestPersistSharedDB: a SharedDB emulator keeps its tables in the
// shared namespace's directory and loads only it; one without SharedDB
// loads the others, as DynamoDB Local picks its .db file.
func TestPersistSharedDB(t *testing.T) {
	dir := t.TempDir()
	create := `{"TableName":"%s","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`
	tables := func(shared bool, name string) string {
		t.Helper()
		e, err := New(Options{DataDir: dir, SharedDB: shared})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		if name != "" {
			if res, out := testkit.Do(t, e.Handler(), "DynamoDB_20120810.CreateTable", testkit.DefaultAuth, strings.Replace(create, "%s", name, 1)); res.StatusCode != http.StatusOK {
				t.Fatalf("CreateTable: %s", out)
			}
		}
		_, out := testkit.Do(t, e.Handler(), "DynamoDB_20120810.ListTables", testkit.DefaultAuth, `{}`)
		return out
	}
	tables(true, "sharedTbl")
	tables(false, "ownTbl")
	if got, want := tables(true, ""), `{"TableNames":["sharedTbl"]}`; got != want {
		t.Errorf("SharedDB after a restart: got %s, want %s", got, want)
	}
	if got, want := tables(false, ""), `{"TableNames":["ownTbl"]}`; got != want {
		t.Errorf("without SharedDB after a restart: got %s, want %s", got, want)
	}
	for _, name := range []string{persist.SharedNamespace, persist.NamespaceName("AKID1", "us-east-1")} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("namespace directory %s: %v", name, err)
		}
	}
}

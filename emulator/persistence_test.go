package emulator

import (
	"errors"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/internal/persist"
)

// openPersisted returns an emulator on the data directory dir with
// options opts.
func openPersisted(t *testing.T, dir string, opts Options) *Emulator {
	t.Helper()
	opts.DataDir = dir
	e, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// TestPersistRestart runs the replay tests' workload (every definition
// change, every write path, two namespaces) on an emulator whose
// namespaces are kept in a data directory compacting often, restarts it
// from the directory twice, and compares every table, index, definition,
// tag and TTL setting with the emulator that made them, and every
// stream, enabled or disabled, with its records (compareStreams).
func TestPersistRestart(t *testing.T) {
	seed := testkit.ReplaySeed(t)
	dir := t.TempDir()
	tables := []string{"pt0", "pt1", "pt2"}
	auths := []string{testkit.DefaultAuth, testkit.Auth("AKID2", "eu-west-1")}
	regions := []string{"us-east-1", "eu-west-1"}
	clock := testkit.NewClock(time.Now().Truncate(time.Millisecond))
	opts := Options{Clock: clock.Now, DelayTransientStatuses: true, TransientStatusDelay: 2 * time.Second,
		Persist: PersistOptions{CompactBytes: 4 << 10, CompactRatio: 0.5}}
	e := openPersisted(t, dir, opts)

	r := rand.New(rand.NewPCG(seed, 1))
	steps := 300
	if !testkit.FullSize() {
		steps = 150
	}
	for range steps {
		k := r.IntN(len(auths))
		var op, body string
		switch n := r.IntN(20); {
		case n < 12:
			op, body, _ = testkit.RandomWrite(r, tables)
		case n < 19:
			op, body = testkit.RandomCatalogChange(r, tables, regions[k])
		default:
			clock.Advance(time.Duration(r.IntN(3000)) * time.Millisecond)
			e.Clock().SweepTTL()
			continue
		}
		if res, out := do(t, e, "DynamoDB_20120810."+op, auths[k], body); res.StatusCode >= 500 {
			t.Fatalf("%s %s: status %d, %s", op, body, res.StatusCode, out)
		}
	}
	// Tables CREATING become ACTIVE, tables DELETING go.
	clock.Advance(3 * time.Second)
	var lt struct{ TableNames []string }
	_, out := do(t, e, "DynamoDB_20120810.ListTables", auths[0], `{}`)
	testkit.MustUnmarshal(t, out, &lt)
	if len(lt.TableNames) == 0 {
		// Some seeds delete every table of the first namespace at the
		// end: give the comparison one to load (seed 1795383201902768675
		// under -race).
		for _, req := range [][2]string{
			{"CreateTable", `{"TableName":"pt0","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`},
			{"PutItem", `{"TableName":"pt0","Item":{"pk":{"S":"last"},"v":{"N":"1"}}}`},
		} {
			if res, out := do(t, e, "DynamoDB_20120810."+req[0], auths[0], req[1]); res.StatusCode != 200 {
				t.Fatalf("%s: %d %s", req[0], res.StatusCode, out)
			}
			clock.Advance(3 * time.Second) // a new table is CREATING until then
		}
		_, out = do(t, e, "DynamoDB_20120810.ListTables", auths[0], `{}`)
		testkit.MustUnmarshal(t, out, &lt)
	}
	if len(lt.TableNames) == 0 {
		t.Fatalf("the workload left no table to compare")
	}
	t.Logf("tables: %v", lt.TableNames)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	// A restart ends the transient states; let them end before it for
	// the emulator it is compared with.
	clock.Advance(3 * time.Second)
	// Each round reloads the directory and compares with the emulator
	// before (whose store is closed: it still reads), then writes to the
	// reloaded one for the next round to find.
	ref := e
	for round := range 2 {
		e2 := openPersisted(t, dir, opts)
		for _, auth := range auths {
			testkit.CompareCatalogs(t, ref.Handler(), e2.Handler(), auth)
			compareEnabledStreams(t, ref, e2, auth)
			compareStreams(t, ref, e2, auth)
		}
		if round == 0 {
			for range 30 {
				op, body, _ := testkit.RandomWrite(r, tables)
				if res, out := do(t, e2, "DynamoDB_20120810."+op, auths[0], body); res.StatusCode >= 500 {
					t.Fatalf("%s %s after a restart: %d %s", op, body, res.StatusCode, out)
				}
			}
		}
		if err := e2.Close(); err != nil {
			t.Fatal(err)
		}
		ref = e2
	}
	if t.Failed() {
		t.Logf("seed %d (replay: %s=%d)", seed, testkit.ReplaySeedEnv, seed)
	}
}

// compareEnabledStreams checks that every table of e2 with an enabled
// stream has the stream e's table has, listed by ListStreams.
func compareEnabledStreams(t *testing.T, e, e2 *Emulator, auth string) {
	t.Helper()
	var ls1, ls2 struct {
		Streams []struct{ StreamArn, TableName string }
	}
	_, out1 := do(t, e, "DynamoDBStreams_20120810.ListStreams", auth, `{"Limit":100}`)
	_, out2 := do(t, e2, "DynamoDBStreams_20120810.ListStreams", auth, `{"Limit":100}`)
	testkit.MustUnmarshal(t, out1, &ls1)
	testkit.MustUnmarshal(t, out2, &ls2)
	listed := map[string]bool{}
	for _, s := range ls2.Streams {
		listed[s.StreamArn] = true
	}
	for _, s := range ls1.Streams {
		_, d := do(t, e, "DynamoDB_20120810.DescribeTable", auth, `{"TableName":"`+s.TableName+`"}`)
		if strings.Contains(d, `"LatestStreamArn":"`+s.StreamArn+`"`) && strings.Contains(d, `"StreamEnabled":true`) && !listed[s.StreamArn] {
			t.Errorf("stream %s of %s: enabled before the restart, not listed after it", s.StreamArn, s.TableName)
		}
	}
}

// TestPersistLogFailure: through the HTTP edge, a change the log refuses
// (here: the store is closed by Close, as after a failed fsync stops the
// log) is answered 500 InternalServerError with nothing applied, and
// reads go on.
func TestPersistLogFailure(t *testing.T) {
	dir := t.TempDir()
	e := openPersisted(t, dir, Options{})
	mustOK := func(op, body string) string {
		t.Helper()
		res, out := do(t, e, "DynamoDB_20120810."+op, testkit.DefaultAuth, body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %s", op, res.StatusCode, out)
		}
		return out
	}
	mustOK("CreateTable", `{"TableName":"tbl1","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST",
		"GlobalSecondaryIndexes":[{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}`)
	mustOK("PutItem", `{"TableName":"tbl1","Item":{"pk":{"S":"a"},"g":{"S":"x"},"v":{"N":"1"}}}`)
	if err := e.Close(); err != nil {
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
		res, out := do(t, e, "DynamoDB_20120810."+w.op, testkit.DefaultAuth, w.body)
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

// TestPersistPITR: point-in-time recovery works on a namespace kept in a
// data directory (its recorder wraps the store's log: storage.DB.WrapHook),
// before a restart and after it, when the history starts again at the
// load (backups and histories are not kept on disk yet: README).
func TestPersistPITR(t *testing.T) {
	dir := t.TempDir()
	mustOK := func(e *Emulator, op, body string) string {
		t.Helper()
		res, out := do(t, e, "DynamoDB_20120810."+op, testkit.DefaultAuth, body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %s", op, res.StatusCode, out)
		}
		return out
	}
	count := func(e *Emulator, table string) int {
		t.Helper()
		var sc struct{ Count int }
		testkit.MustUnmarshal(t, mustOK(e, "Scan", `{"TableName":"`+table+`"}`), &sc)
		return sc.Count
	}
	e := openPersisted(t, dir, Options{})
	mustOK(e, "CreateTable", `{"TableName":"tbl1","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`)
	mustOK(e, "UpdateContinuousBackups", `{"TableName":"tbl1","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`)
	mustOK(e, "PutItem", `{"TableName":"tbl1","Item":{"pk":{"S":"a"}}}`)
	mustOK(e, "RestoreTableToPointInTime", `{"SourceTableName":"tbl1","TargetTableName":"tbl2","UseLatestRestorableTime":true}`)
	if got := count(e, "tbl2"); got != 1 {
		t.Errorf("restored before the restart: got %d items, want 1", got)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}

	e2 := openPersisted(t, dir, Options{})
	if got := count(e2, "tbl2"); got != 1 {
		t.Errorf("the restored table after the restart: got %d items, want 1", got)
	}
	mustOK(e2, "PutItem", `{"TableName":"tbl1","Item":{"pk":{"S":"b"}}}`)
	mustOK(e2, "RestoreTableToPointInTime", `{"SourceTableName":"tbl1","TargetTableName":"tbl3","UseLatestRestorableTime":true}`)
	if got := count(e2, "tbl3"); got != 2 {
		t.Errorf("restored after the restart: got %d items, want 2", got)
	}

	// Recovery switched off after a restart stays off after the next
	// one: the definition loaded from disk records the change.
	mustOK(e2, "UpdateContinuousBackups", `{"TableName":"tbl1","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":false}}`)
	require.NoError(t, e2.Close())
	e3 := openPersisted(t, dir, Options{})
	var cb struct {
		ContinuousBackupsDescription struct {
			PointInTimeRecoveryDescription struct{ PointInTimeRecoveryStatus string }
		}
	}
	testkit.MustUnmarshal(t, mustOK(e3, "DescribeContinuousBackups", `{"TableName":"tbl1"}`), &cb)
	require.Equal(t, "DISABLED", cb.ContinuousBackupsDescription.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus,
		"recovery after it was switched off and the emulator restarted")
}

// TestPersistGlobalTable: a global table's replicas, its resource policy
// and its Kinesis destination survive a restart, and the replicas
// replicate again after it: items and definition changes (a GSI made
// before the restart, TTL set after it); where each replica came from
// survives too (the 24-hour source rule), and a replica deleted with
// DeleteTable stays gone from the other's Replicas after another
// restart.
func TestPersistGlobalTable(t *testing.T) {
	dir := t.TempDir()
	east, west := testkit.Auth("persistgt", "us-east-1"), testkit.Auth("persistgt", "eu-west-1")
	mustOK := func(e *Emulator, auth, op, body string) string {
		t.Helper()
		res, out := do(t, e, "DynamoDB_20120810."+op, auth, body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %s", op, res.StatusCode, out)
		}
		return out
	}
	e := openPersisted(t, dir, Options{})
	mustOK(e, east, "CreateTable", `{"TableName":"gtp","BillingMode":"PAY_PER_REQUEST","StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"},
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}]}`)
	mustOK(e, east, "UpdateTable", `{"TableName":"gtp","ReplicaUpdates":[{"Create":{"RegionName":"eu-west-1"}}]}`)
	mustOK(e, east, "PutResourcePolicy", `{"ResourceArn":"arn:aws:dynamodb:us-east-1:000000000000:table/gtp",
		"Policy":"{\"Statement\":{\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":\"dynamodb:DeleteTable\"}}"}`)
	mustOK(e, east, "PutItem", `{"TableName":"gtp","Item":{"pk":{"S":"before"}}}`)
	mustOK(e, east, "UpdateTable", `{"TableName":"gtp","AttributeDefinitions":[{"AttributeName":"g","AttributeType":"S"}],
		"GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}}]}`)
	e.Lags().DrainReplication()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}

	e2 := openPersisted(t, dir, Options{})
	mustOK(e2, west, "GetItem", `{"TableName":"gtp","Key":{"pk":{"S":"before"}}}`) // loads eu-west-1
	mustOK(e2, east, "GetResourcePolicy", `{"ResourceArn":"arn:aws:dynamodb:us-east-1:000000000000:table/gtp"}`)
	var d struct {
		Table struct{ Replicas []struct{ RegionName string } }
	}
	testkit.MustUnmarshal(t, mustOK(e2, east, "DescribeTable", `{"TableName":"gtp"}`), &d)
	if len(d.Table.Replicas) != 1 || d.Table.Replicas[0].RegionName != "eu-west-1" {
		t.Errorf("after the restart: got replicas %+v, want eu-west-1", d.Table.Replicas)
	}
	mustOK(e2, east, "PutItem", `{"TableName":"gtp","Item":{"pk":{"S":"after"}}}`)
	mustOK(e2, west, "PutItem", `{"TableName":"gtp","Item":{"pk":{"S":"fromwest"}}}`)
	e2.Lags().DrainReplication()
	var gi struct{ Item map[string]any }
	testkit.MustUnmarshal(t, mustOK(e2, west, "GetItem", `{"TableName":"gtp","Key":{"pk":{"S":"after"}}}`), &gi)
	if gi.Item == nil {
		t.Errorf("after the restart: a write in us-east-1 did not reach eu-west-1")
	}
	gi.Item = nil
	testkit.MustUnmarshal(t, mustOK(e2, east, "GetItem", `{"TableName":"gtp","Key":{"pk":{"S":"fromwest"}}}`), &gi)
	if gi.Item == nil {
		t.Errorf("after the restart: a write in eu-west-1 did not reach us-east-1")
	}
	var dw struct {
		Table struct{ GlobalSecondaryIndexes []struct{ IndexName string } }
	}
	testkit.MustUnmarshal(t, mustOK(e2, west, "DescribeTable", `{"TableName":"gtp"}`), &dw)
	if len(dw.Table.GlobalSecondaryIndexes) != 1 {
		t.Errorf("after the restart: the replica's GSIs are %+v, want the byG made in us-east-1", dw.Table.GlobalSecondaryIndexes)
	}
	mustOK(e2, west, "UpdateTimeToLive", `{"TableName":"gtp","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"exp"}}`)
	e2.Lags().DrainReplication()
	var ttl struct {
		TimeToLiveDescription struct{ TimeToLiveStatus string }
	}
	testkit.MustUnmarshal(t, mustOK(e2, east, "DescribeTimeToLive", `{"TableName":"gtp"}`), &ttl)
	if ttl.TimeToLiveDescription.TimeToLiveStatus != "ENABLED" {
		t.Errorf("after the restart: TTL set in eu-west-1 is %q in us-east-1, want ENABLED", ttl.TimeToLiveDescription.TimeToLiveStatus)
	}
	if res, out := do(t, e2, "DynamoDB_20120810.DeleteTable", east, `{"TableName":"gtp"}`); res.StatusCode != http.StatusBadRequest {
		t.Errorf("DeleteTable of the source within 24 hours, after the restart: got %d %s, want the source rule's refusal", res.StatusCode, out)
	}
	mustOK(e2, west, "DeleteTable", `{"TableName":"gtp"}`)
	e2.Lags().DrainReplication()
	if err := e2.Close(); err != nil {
		t.Fatal(err)
	}

	e3 := openPersisted(t, dir, Options{})
	d.Table.Replicas = nil
	testkit.MustUnmarshal(t, mustOK(e3, east, "DescribeTable", `{"TableName":"gtp"}`), &d)
	if len(d.Table.Replicas) != 0 {
		t.Errorf("after the replica's DeleteTable and a restart: got replicas %+v, want none", d.Table.Replicas)
	}
	mustOK(e3, east, "PutItem", `{"TableName":"gtp","Item":{"pk":{"S":"alone"}}}`)
	if n := e3.Lags().DrainReplication(); n != 0 {
		t.Errorf("after the replica's DeleteTable and a restart: %d writes replicated, want none", n)
	}
}

package testkit

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Replaying a commit hook's records: the tests that prove a namespace's
// DB and its hook hold the whole namespace (the service's replay_test.go,
// the facade's replay_test.go) record every record of a random workload
// (workload.go) with a Recorder, rebuild the namespaces from the records
// alone, and compare what both answer with CompareNamespaces.

// ReplaySeedEnv names the variable that replays a workload's seed.
const ReplaySeedEnv = "DYNAMOEMU_REPLAY_SEED"

// Recorder records the records of every namespace's hook, in their binary
// form (storage.AppendRecord), by namespace ID: Hook is a service's
// Config.Hooks. With FailEvery > 0 it refuses every FailEvery-th record
// (ErrHookFailed for the writer: the change is undone and not recorded);
// with FailEvery < 0 it accepts every record but fails the wait of every
// -FailEvery-th (ErrNotDurable for the writer: the change is made and
// recorded). The zero value records every record.
type Recorder struct {
	FailEvery int
	mu        sync.Mutex // guards recs and n
	recs      map[string][][]byte
	n         int // records offered
}

// Records returns the records of namespace id so far.
func (h *Recorder) Records(id string) [][]byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.recs[id]
}

// Namespaces returns the IDs of the namespaces that recorded anything.
func (h *Recorder) Namespaces() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	ids := make([]string, 0, len(h.recs))
	for id := range h.recs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

var errRefused = errors.New("test hook: refused")

// Hook returns the hook of namespace id.
func (h *Recorder) Hook(id string) storage.Hook { return &recordingHook{h: h, id: id} }

type recordingHook struct {
	h  *Recorder
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
	if r.h.FailEvery > 0 && r.h.n%r.h.FailEvery == 0 {
		return 0, errRefused
	}
	if r.h.recs == nil {
		r.h.recs = map[string][][]byte{}
	}
	r.h.recs[r.id] = append(r.h.recs[r.id], b)
	if r.h.FailEvery < 0 && r.h.n%-r.h.FailEvery == 0 {
		return 1, nil // Wait fails
	}
	return 0, nil
}

func (r *recordingHook) Wait(uint64) error { return errRefused }

// ReplaySeed is the workload's seed, which it logs: DYNAMOEMU_REPLAY_SEED,
// or the time.
func ReplaySeed(t testing.TB) uint64 {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv(ReplaySeedEnv); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q: %v", ReplaySeedEnv, s, err)
		}
		seed = v
	}
	t.Logf("seed %d (replay: %s=%d)", seed, ReplaySeedEnv, seed)
	return seed
}

// CompareNamespaces fails t unless the API handlers h and h2 answer the
// same reads in the namespace of auth: ListTables, DescribeTable (byte for
// byte: counts, sizes, indexes and their states, billing and throughput
// histories, stream settings, SSE, class, protection), Scan of every table
// and index, a Query of every table and index, ListTagsOfResource,
// DescribeTimeToLive and ListStreams. With streamRecords, the streams'
// shards and records (but for ApproximateCreationDateTime) must be the
// same too.
func CompareNamespaces(t testing.TB, h, h2 http.Handler, auth string, streamRecords bool) {
	t.Helper()
	same := CompareCatalogs(t, h, h2, auth)
	compareStreams(t, h, h2, auth, streamRecords, same)
}

// CompareCatalogs is CompareNamespaces but for the streams: every table,
// index, definition, tag and TTL setting. It returns the function that
// compares one answer of both.
func CompareCatalogs(t testing.TB, h, h2 http.Handler, auth string) func(op, body string, strip func(string) string) string {
	t.Helper()
	same := func(op, body string, strip func(string) string) string {
		t.Helper()
		target := "DynamoDB_20120810." + op
		if strings.HasPrefix(op, "DynamoDBStreams_") {
			target = op
		}
		res1, out1 := Do(t, h, target, auth, body)
		res2, out2 := Do(t, h2, target, auth, body)
		if strip != nil {
			out1, out2 = strip(out1), strip(out2)
		}
		if res1.StatusCode != res2.StatusCode || out1 != out2 {
			t.Errorf("%s %s:\n got %d %s\nwant %d %s", op, body, res2.StatusCode, out2, res1.StatusCode, out1)
		}
		return out1
	}
	var lt struct{ TableNames []string }
	MustUnmarshal(t, same("ListTables", `{}`, nil), &lt)
	for _, name := range lt.TableNames {
		var d struct {
			Table struct {
				TableArn               string
				LocalSecondaryIndexes  []struct{ IndexName string }
				GlobalSecondaryIndexes []struct{ IndexName, IndexStatus string }
				VectorIndexes          []struct {
					IndexName    string
					SearchSchema []struct{ AttributeName string }
				}
			}
		}
		MustUnmarshal(t, same("DescribeTable", `{"TableName":"`+name+`"}`, nil), &d)
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
		for _, x := range d.Table.VectorIndexes {
			cond := ""
			if len(x.SearchSchema) > 0 {
				cond = `,"SearchConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"g1"}}`
			}
			same("SearchVectors", `{"TableName":"`+name+`","IndexName":"`+x.IndexName+`","TopK":100,`+
				`"SearchVector":[{"N":"1"},{"N":"-1"},{"N":"0.5"}]`+cond+`}`, nil)
		}
		same("ListTagsOfResource", `{"ResourceArn":"`+d.Table.TableArn+`"}`, nil)
		same("DescribeTimeToLive", `{"TableName":"`+name+`"}`, nil)
	}
	return same
}

// compareStreams is CompareNamespaces' part for the streams.
func compareStreams(t testing.TB, h, h2 http.Handler, auth string, streamRecords bool, same func(op, body string, strip func(string) string) string) {
	t.Helper()
	var ls struct{ Streams []struct{ StreamArn string } }
	MustUnmarshal(t, same("DynamoDBStreams_20120810.ListStreams", `{"Limit":100}`, nil), &ls)
	if !streamRecords {
		return
	}
	for _, st := range ls.Streams {
		var ds struct {
			StreamDescription struct{ Shards []struct{ ShardId string } }
		}
		MustUnmarshal(t, same("DynamoDBStreams_20120810.DescribeStream", `{"StreamArn":"`+st.StreamArn+`"}`, nil), &ds)
		for _, sh := range ds.StreamDescription.Shards {
			it1 := shardIterator(t, h, auth, st.StreamArn, sh.ShardId)
			it2 := shardIterator(t, h2, auth, st.StreamArn, sh.ShardId)
			_, out1 := Do(t, h, "DynamoDBStreams_20120810.GetRecords", auth, `{"ShardIterator":"`+it1+`","Limit":1000}`)
			_, out2 := Do(t, h2, "DynamoDBStreams_20120810.GetRecords", auth, `{"ShardIterator":"`+it2+`","Limit":1000}`)
			if got, want := recordsWithoutTime(t, out2), recordsWithoutTime(t, out1); got != want {
				t.Errorf("GetRecords of %s:\n got %s\nwant %s", st.StreamArn, got, want)
			}
		}
	}
}

// shardIterator returns a TRIM_HORIZON iterator of a stream's shard.
func shardIterator(t testing.TB, h http.Handler, auth, arn, shard string) string {
	t.Helper()
	res, out := Do(t, h, "DynamoDBStreams_20120810.GetShardIterator", auth,
		`{"StreamArn":"`+arn+`","ShardId":"`+shard+`","ShardIteratorType":"TRIM_HORIZON"}`)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GetShardIterator %s: %s", arn, out)
	}
	var v struct{ ShardIterator string }
	MustUnmarshal(t, out, &v)
	return v.ShardIterator
}

// recordsWithoutTime is a GetRecords answer's records without their
// ApproximateCreationDateTime, as JSON.
func recordsWithoutTime(t testing.TB, out string) string {
	t.Helper()
	var v struct{ Records []map[string]any }
	MustUnmarshal(t, out, &v)
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

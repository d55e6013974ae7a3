package emulator

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/internal/persist"
)

// streamDump is every stream an emulator lists for auth, enabled or
// disabled, each with its description and every record it still holds,
// as JSON: what compareStreams compares across a restart.
func streamDump(t *testing.T, e *Emulator, auth string) map[string]string {
	t.Helper()
	call := func(op, body string) string {
		t.Helper()
		res, out := do(t, e, "DynamoDBStreams_20120810."+op, auth, body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s %s: %d %s", op, body, res.StatusCode, out)
		}
		return out
	}
	var ls struct {
		Streams []struct{ StreamArn string }
	}
	testkit.MustUnmarshal(t, call("ListStreams", `{"Limit":100}`), &ls)
	dump := map[string]string{}
	for _, s := range ls.Streams {
		desc := call("DescribeStream", `{"StreamArn":"`+s.StreamArn+`"}`)
		var ds struct {
			StreamDescription struct{ Shards []struct{ ShardId string } }
		}
		testkit.MustUnmarshal(t, desc, &ds)
		var recs []json.RawMessage
		for _, sh := range ds.StreamDescription.Shards {
			var it struct{ ShardIterator string }
			testkit.MustUnmarshal(t, call("GetShardIterator", `{"StreamArn":"`+s.StreamArn+`","ShardId":"`+sh.ShardId+`","ShardIteratorType":"TRIM_HORIZON"}`), &it)
			for it.ShardIterator != "" {
				var out struct {
					Records           []json.RawMessage
					NextShardIterator string
				}
				testkit.MustUnmarshal(t, call("GetRecords", `{"ShardIterator":"`+it.ShardIterator+`"}`), &out)
				if len(out.Records) == 0 {
					break
				}
				recs = append(recs, out.Records...)
				it.ShardIterator = out.NextShardIterator
			}
		}
		b, _ := json.Marshal(recs)
		dump[s.StreamArn] = desc + "\n" + string(b)
	}
	return dump
}

// compareStreams checks that e2 lists every stream e does, with the same
// description and records, but for ApproximateCreationDateTime, which
// may be a second later before the restart (streamrec/sidecar.go: the
// log's time is read a moment before the stream's).
func compareStreams(t *testing.T, e, e2 *Emulator, auth string) {
	t.Helper()
	want, got := streamDump(t, e, auth), streamDump(t, e2, auth)
	for arn, w := range want {
		if g, ok := got[arn]; ok {
			got[arn] = alignCreationTimes(g, w)
		}
	}
	for arn, w := range want {
		switch g, ok := got[arn]; {
		case !ok:
			t.Errorf("stream %s: listed before the restart, not after it", arn)
		case g != w:
			i := 0
			for i < len(g) && i < len(w) && g[i] == w[i] {
				i++
			}
			from := max(0, i-300)
			t.Errorf("stream %s after the restart differs at byte %d of %d:\ngot  ...%s...\nwant ...%s...", arn, i, len(w), g[from:min(len(g), i+300)], w[from:min(len(w), i+300)])
		}
	}
	for arn := range got {
		if _, ok := want[arn]; !ok {
			t.Errorf("stream %s: listed after the restart, not before it", arn)
		}
	}
}

// TestPersistStreamRestart: a stream's records, sequence numbers and
// state survive restarts, from the log alone and from a snapshot and the
// log after it, for every view type; a disabled stream stays listed with
// its records; a consumer's position of before a restart reads on after
// it; and records older than the retention on the emulator's clock are
// trimmed as before.
func TestPersistStreamRestart(t *testing.T) {
	for _, compact := range []bool{false, true} {
		t.Run(fmt.Sprintf("compact=%v", compact), func(t *testing.T) {
			dir := t.TempDir()
			clock := testkit.NewClock(time.Now().Truncate(time.Second))
			opts := Options{Clock: clock.Now, Persist: PersistOptions{CompactBytes: -1}}
			mustOK := func(e *Emulator, op, body string) string {
				t.Helper()
				res, out := do(t, e, "DynamoDB_20120810."+op, testkit.DefaultAuth, body)
				if res.StatusCode != http.StatusOK {
					t.Fatalf("%s %s: %d %s", op, body, res.StatusCode, out)
				}
				return out
			}
			e := openPersisted(t, dir, opts)
			for i, view := range []string{"KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"} {
				mustOK(e, "CreateTable", fmt.Sprintf(`{"TableName":"tb%d","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}],"BillingMode":"PAY_PER_REQUEST","StreamSpecification":{"StreamEnabled":true,"StreamViewType":%q}}`, i, view))
			}
			gone := map[string]bool{}
			write := func(e *Emulator, round int) {
				for i := range 4 {
					tbl := fmt.Sprintf("tb%d", i)
					if gone[tbl] {
						continue
					}
					for k := range 5 {
						mustOK(e, "PutItem", fmt.Sprintf(`{"TableName":%q,"Item":{"pk":{"S":"k%d"},"sk":{"N":"%d"},"v":{"N":"%d"},"ss":{"SS":["a","b"]}}}`, tbl, k, k, round))
					}
					mustOK(e, "UpdateItem", fmt.Sprintf(`{"TableName":%q,"Key":{"pk":{"S":"k1"},"sk":{"N":"1"}},"UpdateExpression":"SET w = :w","ExpressionAttributeValues":{":w":{"S":"x%d"}}}`, tbl, round))
					mustOK(e, "DeleteItem", fmt.Sprintf(`{"TableName":%q,"Key":{"pk":{"S":"k2"},"sk":{"N":"2"}}}`, tbl))
					mustOK(e, "TransactWriteItems", fmt.Sprintf(`{"TransactItems":[{"Put":{"TableName":%q,"Item":{"pk":{"S":"tx"},"sk":{"N":"%d"}}}},{"Delete":{"TableName":%q,"Key":{"pk":{"S":"k3"},"sk":{"N":"3"}}}}]}`, tbl, round, tbl))
					// The same sets in another order: no record.
					mustOK(e, "PutItem", fmt.Sprintf(`{"TableName":%q,"Item":{"pk":{"S":"k4"},"sk":{"N":"4"},"v":{"N":"%d"},"ss":{"SS":["b","a"]}}}`, tbl, round))
				}
				clock.Advance(1500 * time.Millisecond)
			}
			write(e, 0)
			// t3's stream is disabled (listed, closed, with its records) and
			// enabled again (a new stream).
			mustOK(e, "UpdateTable", `{"TableName":"tb3","StreamSpecification":{"StreamEnabled":false}}`)
			write(e, 1)
			mustOK(e, "UpdateTable", `{"TableName":"tb3","StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"}}`)
			write(e, 2)
			// t2 is deleted: its stream stays listed, disabled.
			mustOK(e, "DeleteTable", `{"TableName":"tb2"}`)
			gone["tb2"] = true
			if compact {
				if err := e.store.Compact(persist.NamespaceName("AKID1", "us-east-1")); err != nil {
					t.Fatal(err)
				}
			}
			write(e, 3)
			if err := e.Close(); err != nil {
				t.Fatal(err)
			}
			if n := len(streamDump(t, e, testkit.DefaultAuth)); n != 5 {
				t.Fatalf("streams before the restart: got %d, want 5", n)
			}

			e2 := openPersisted(t, dir, opts)
			compareStreams(t, e, e2, testkit.DefaultAuth)
			// Written after the restart, read on from before it.
			write(e2, 4)
			if err := e2.Close(); err != nil {
				t.Fatal(err)
			}
			e4 := openPersisted(t, dir, opts)
			compareStreams(t, e2, e4, testkit.DefaultAuth)

			// A day later on the emulator's clock every record is past the
			// retention: trimmed after a restart as before it.
			clock.Advance(25 * time.Hour)
			if err := e4.Close(); err != nil {
				t.Fatal(err)
			}
			e5 := openPersisted(t, dir, opts)
			for arn, d := range streamDump(t, e5, testkit.DefaultAuth) {
				if !strings.HasSuffix(d, "\nnull") {
					t.Errorf("stream %s a day later: got records %s, want none", arn, d[strings.LastIndexByte(d, '\n')+1:])
				}
			}
		})
	}
}

// TestPersistStreamsCompactConcurrent: compactions (each capturing the
// streams inside the freeze) run while writers write three streamed
// tables and readers read their streams; after a restart every stream
// is what it was, records and sequence numbers included. Run with
// -race, it holds Capture to the lock order.
func TestPersistStreamsCompactConcurrent(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Persist: PersistOptions{CompactBytes: -1, Durability: DurabilityNone}}
	e := openPersisted(t, dir, opts)
	for i := range 3 {
		mustDo(t, e, 200, "CreateTable", fmt.Sprintf(`{"TableName":"cc%d","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST","StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}}`, i))
	}
	ns := persist.NamespaceName("AKID1", "us-east-1")
	done := make(chan struct{})
	errs := make(chan error, 8)
	for w := range 3 {
		go func() {
			for i := range 300 {
				body := fmt.Sprintf(`{"TableName":"cc%d","Item":{"pk":{"S":"k%d"},"v":{"N":"%d"}}}`, w, i%17, i)
				if res, out := do(t, e, "DynamoDB_20120810.PutItem", testkit.DefaultAuth, body); res.StatusCode != http.StatusOK {
					errs <- fmt.Errorf("PutItem: %d %s", res.StatusCode, out)
					return
				}
			}
			errs <- nil
		}()
	}
	go func() {
		for {
			select {
			case <-done:
				errs <- nil
				return
			default:
			}
			if err := e.store.Compact(ns); err != nil {
				errs <- err
				return
			}
			streamDump(t, e, testkit.DefaultAuth)
		}
	}()
	for range 3 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	e2 := openPersisted(t, dir, opts)
	compareStreams(t, e, e2, testkit.DefaultAuth)
}

// creationTime matches a record's ApproximateCreationDateTime.
var creationTime = regexp.MustCompile(`"ApproximateCreationDateTime":(\d+)`)

// alignCreationTimes returns got with each record's
// ApproximateCreationDateTime replaced by want's where want's is one
// second later (the one difference a restart may make).
func alignCreationTimes(got, want string) string {
	gs, ws := creationTime.FindAllStringSubmatchIndex(got, -1), creationTime.FindAllStringSubmatch(want, -1)
	if len(gs) != len(ws) {
		return got
	}
	var b strings.Builder
	last := 0
	for i, m := range gs {
		g, _ := strconv.ParseInt(got[m[2]:m[3]], 10, 64)
		w, _ := strconv.ParseInt(ws[i][1], 10, 64)
		b.WriteString(got[last:m[2]])
		if w == g+1 {
			b.WriteString(ws[i][1])
		} else {
			b.WriteString(got[m[2]:m[3]])
		}
		last = m[3]
	}
	b.WriteString(got[last:])
	return b.String()
}

package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/stretchr/testify/require"
)

func TestParseProcStat(t *testing.T) {
	tests := []struct {
		line string
		want time.Duration
		ok   bool
	}{
		{"1234 (dynamoemu) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 8 0 100 0 0", 3250 * time.Millisecond, true},
		{"99 (a (b) c) R 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16", 23 * 10 * time.Millisecond, true},
		{"no parentheses", 0, false},
		{"1 (x) S 1 2", 0, false},
	}
	for _, tc := range tests {
		got, err := parseProcStat(tc.line)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseProcStat(%q) = %v, %v; want %v, ok %v", tc.line, got, err, tc.want, tc.ok)
		}
	}
}

func TestPercentile(t *testing.T) {
	var ds []time.Duration
	for i := 100; i >= 1; i-- {
		ds = append(ds, time.Duration(i))
	}
	tests := []struct {
		p    int
		want time.Duration
	}{{50, 50}, {99, 99}, {100, 100}, {1, 1}}
	for _, tc := range tests {
		if got := percentile(ds, tc.p); got != tc.want {
			t.Errorf("percentile(1..100, %d) = %v, want %v", tc.p, got, tc.want)
		}
	}
	if got := percentile(nil, 50); got != 0 {
		t.Errorf("percentile of none = %v, want 0", got)
	}
}

// TestItems: every item of the workload has 10 attributes and is 240
// bytes by DynamoDB's rules.
func TestItems(t *testing.T) {
	for _, k := range [][2]int{{0, 0}, {7, 3}, {99, 9}, {12345, 5}} {
		var raw map[string]map[string]json.RawMessage
		if err := json.Unmarshal(appendItem(nil, k[0], k[1]), &raw); err != nil {
			t.Fatal(err)
		}
		it := storage.Item{}
		for name, av := range raw {
			for kind, v := range av {
				var s string
				switch kind {
				case "S":
					json.Unmarshal(v, &s)
					it[name] = storage.S(s)
				case "N":
					json.Unmarshal(v, &s)
					it[name] = storage.N(storage.MustNumber(s))
				case "BOOL":
					var b bool
					json.Unmarshal(v, &b)
					it[name] = storage.Bool(b)
				case "SS":
					var ss []string
					json.Unmarshal(v, &ss)
					it[name] = storage.SS(ss)
				}
			}
		}
		if got := storage.ItemSize(it); got != itemSize || len(it) != 10 {
			t.Errorf("item %v: %d bytes, %d attributes; want %d and 10", k, got, len(it), itemSize)
		}
	}
}

// TestCannedAnswersPass: the floor's answers pass the checks of shape
// for every operation's requests.
func TestCannedAnswersPass(t *testing.T) {
	answers := cannedAnswers()
	w := &workload{table: "t", partitions: 20}
	r := rand.New(rand.NewPCG(1, 2))
	for _, op := range opNames {
		for range 20 {
			req := w.next(op, r, nil)
			if err := check(req, answers[req.op], false); err != nil {
				t.Errorf("%s: the canned %s answer fails its check: %v", op, req.op, err)
			}
		}
	}
}

// TestChecksCatch: wrong answers fail their checks.
func TestChecksCatch(t *testing.T) {
	tests := []struct {
		req  request
		body string
	}{
		{request{op: "GetItem", kind: "get", p: 1, s: 2}, `{"Item":` + string(appendItem(nil, 1, 3)) + `}`},
		{request{op: "GetItem", kind: "get", p: 1, s: 2}, `{}`},
		{request{op: "Query", kind: "query", p: 1}, `{"Count":10,"Items":[],"ScannedCount":10}`},
		{request{op: "Query", kind: "query", p: 1}, string(cannedAnswers()["Query"])}, // partition 0's items
		{request{op: "Scan", kind: "scan"}, `{"Count":99,"Items":[],"ScannedCount":99}`},
		{request{op: "Scan", kind: "scanfilter", scanned: 500}, `{"Count":0,"Items":[],"ScannedCount":100}`},
		{request{op: "Scan", kind: "scanfilter", scanned: 500}, `{"Count":2,"Items":[],"ScannedCount":500}`},
		{request{op: "Scan", kind: "scanfilter", scanned: 1}, `{"Count":2,"Items":[],"ScannedCount":1}`},
		{request{op: "UpdateItem", kind: "update"}, `{"Attributes":{}}`},
		{request{op: "BatchWriteItem", kind: "batch"}, `{"UnprocessedItems":{"t":[{}]}}`},
		{request{op: "PutItem", kind: "put"}, `{"__type":"x#ValidationException","message":"no"}`},
	}
	for _, tc := range tests {
		if err := check(tc.req, []byte(tc.body), true); err == nil {
			t.Errorf("%s answered %.60s: passed its check", tc.req.op, tc.body)
		}
	}
}

// TestMeasureEmulator runs every operation against the emulator in this
// process, briefly: nothing fails a check.
func TestMeasureEmulator(t *testing.T) {
	e, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	srv := httptest.NewServer(e.Handler())
	defer srv.Close()
	c := config{ops: opNames, concurrency: []int{1, 3}, duration: 150 * time.Millisecond, warmup: 20 * time.Millisecond, partitions: 12, strict: true}
	var out bytes.Buffer
	tgt := &target{name: "dynamoemu", url: srv.URL, strict: true, about: "in process"}
	if err := measure(c, []*target{tgt}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	table := out.String()
	if strings.Contains(table, "errors") || !strings.Contains(table, "| mixed |") {
		t.Fatalf("table:\n%s", table)
	}
}

func TestParseFlags(t *testing.T) {
	tests := []struct {
		args []string
		ok   bool
	}{
		{[]string{"-endpoint", "http://x"}, true},
		{[]string{"-matrix"}, true},
		{[]string{}, false},
		{[]string{"-matrix", "-endpoint", "http://x"}, false},
		{[]string{"-endpoint", "http://x", "-ops", "put,nope"}, false},
		{[]string{"-endpoint", "http://x", "-concurrency", "0"}, false},
		{[]string{"-matrix", "-targets", "dynamoemu,mongo"}, false},
		{[]string{"-matrix", "-dynamodb-local", "maybe"}, false},
		{[]string{"-serve-floor", "127.0.0.1:0"}, true},
		{[]string{"-endpoint", "http://x", "-requests", "-1"}, false},
		{[]string{"-endpoint", "http://x", "-requests", "100"}, true},
		{[]string{"-endpoint", "http://x", "-ops", "scanfilter,update,batch", "-requests", "100"}, true},
		{[]string{"-endpoint", "http://x", "-requests", "13", "-concurrency", "1,8"}, true},
		{[]string{"-compressed", "64"}, true},
		{[]string{"-compressed", "64", "-endpoint", "http://x"}, false},
		{[]string{"-compressed", "-1"}, false},
	}
	for _, tc := range tests {
		_, err := parseFlags(tc.args, io.Discard)
		if (err == nil) != tc.ok {
			t.Errorf("parseFlags(%q): got error %v, want ok %v", tc.args, err, tc.ok)
		}
	}
}

// TestInflatingBatch: the compressed run's body is a BatchWriteItem of
// 25 items that inflates to about 10 MB from a few KB.
func TestInflatingBatch(t *testing.T) {
	raw := inflatingBatch("t", compressedInflated)
	var req struct {
		RequestItems map[string][]struct {
			PutRequest struct{ Item map[string]map[string]string }
		}
	}
	require.NoError(t, json.Unmarshal(raw, &req))
	require.Len(t, req.RequestItems["t"], 25)
	require.InDelta(t, compressedInflated, len(raw), compressedInflated/100)
	zr, err := gzip.NewReader(bytes.NewReader(gzipBytes(raw)))
	require.NoError(t, err)
	back, err := io.ReadAll(zr)
	require.NoError(t, err)
	require.Equal(t, raw, back)
	require.Less(t, len(gzipBytes(raw)), 64<<10)
}

// TestPreloadEmulator preloads a few batches' worth (the last one short)
// into the emulator in this process: every answer passes and the table
// holds them all.
func TestPreloadEmulator(t *testing.T) {
	e, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	srv := httptest.NewServer(e.Handler())
	defer srv.Close()
	c := config{preload: 1010, concurrency: []int{1, 4}}
	var out bytes.Buffer
	tgt := &target{name: "dynamoemu", url: srv.URL, strict: true}
	if err := measure(c, []*target{tgt}, &out, io.Discard); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if got := strings.Count(out.String(), "1010 items in"); got != 2 {
		t.Errorf("got %d preload lines, want 2:\n%s", got, out.String())
	}
}

// TestPreloadCatches: a server that leaves items unprocessed fails the
// preload.
func TestPreloadCatches(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Header.Get("X-Amz-Target") {
		case "DynamoDB_20120810.BatchWriteItem":
			io.WriteString(w, `{"UnprocessedItems":{"t":[{"PutRequest":{"Item":{}}}]}}`)
		case "DynamoDB_20120810.DescribeTable":
			io.WriteString(w, `{"Table":{"TableStatus":"ACTIVE"}}`)
		case "DynamoDB_20120810.Scan":
			io.WriteString(w, `{"Count":50}`)
		default:
			io.WriteString(w, `{}`)
		}
	}))
	defer srv.Close()
	c := config{preload: 50, concurrency: []int{2}}
	var out bytes.Buffer
	if err := measure(c, []*target{{name: "x", url: srv.URL, strict: true}}, &out, io.Discard); err == nil {
		t.Fatalf("unprocessed items passed:\n%s", out.String())
	}
}

// emulatorClient is a client of conns connections to an in-process
// emulator served over HTTP, both closed when t ends.
func emulatorClient(t *testing.T, accessKey string, conns int) *client {
	e, err := emulator.New(emulator.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { e.Close() })
	srv := httptest.NewServer(e.Handler())
	t.Cleanup(srv.Close)
	return newClient(srv.URL, accessKey, conns)
}

// TestRunFixedRequests: with requests set, each client sends exactly
// that many, every one measured and checked, whatever the duration.
func TestRunFixedRequests(t *testing.T) {
	cl := emulatorClient(t, "AKIAFIXEDREQUESTS", 3)
	w := &workload{table: "fixed", partitions: 10}
	require.NoError(t, w.setup(cl))
	for _, op := range opNames {
		r := run(cl, w, runConfig{op: op, concurrency: 3, duration: time.Hour, requests: 7, strict: true})
		require.NoError(t, r.firstErr, op)
		require.Equal(t, 21, r.ops, op)
		require.Zero(t, r.errors, op)
	}
}

// TestScanFilterKeepsSome: the scanfilter request, on the bench's loaded
// table, is answered 200 and its filter (on count, an attribute every
// item has) keeps one item in ten of the 500 it reads and drops the rest;
// on a table of fewer items it reads them all.
func TestScanFilterKeepsSome(t *testing.T) {
	cl := emulatorClient(t, "AKIASCANFILTER", 1)
	for _, tc := range []struct{ partitions, scanned int }{{60, 500}, {10, 100}} {
		w := &workload{table: "filtered" + strconv.Itoa(tc.partitions), partitions: tc.partitions}
		require.NoError(t, w.setup(cl))
		req := w.next("scanfilter", rand.New(rand.NewPCG(1, 2)), nil)
		require.Equal(t, "Scan", req.op)
		body, err := cl.call(req.op, req.body, nil)
		require.NoError(t, err, "answered 200")
		require.NoError(t, check(req, body, true))
		var out struct {
			Count, ScannedCount int
			Items               []map[string]attr
		}
		require.NoError(t, json.Unmarshal(body, &out))
		require.Equal(t, tc.scanned, out.ScannedCount)
		require.Equal(t, tc.scanned/itemsPerPartition, out.Count, "one item in ten has count 0")
		require.Len(t, out.Items, out.Count)
		for _, it := range out.Items {
			require.NotNil(t, it["count"].N)
			require.Equal(t, "0", *it["count"].N)
		}
	}
}

// TestGCLine reads the live heap and the forced mark of gctrace lines.
func TestGCLine(t *testing.T) {
	for _, c := range []struct {
		line   string
		live   string
		forced bool
	}{
		{"gc 7 @2.107s 1%: 0.022+1.2+0.003 ms clock, 0.045+0.1/1.0/0+0.007 ms cpu, 4->4->2 MB, 5 MB goal, 0 MB stacks, 0 MB globals, 2 P (forced)", "2", true},
		{"gc 12 @9.5s 3%: 0.1+20+0.01 ms clock, 0.2+1/19/0+0.02 ms cpu, 610->640->321 MB, 642 MB goal, 0 MB stacks, 0 MB globals, 2 P", "321", false},
	} {
		m := gcLine.FindStringSubmatch(c.line)
		require.NotNil(t, m, c.line)
		require.Equal(t, c.live, m[1])
		require.Equal(t, c.forced, m[2] != "")
	}
	require.Nil(t, gcLine.FindStringSubmatch("scav 0 KiB work"))
}

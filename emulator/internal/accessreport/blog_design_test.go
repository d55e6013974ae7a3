package accessreport

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the golden files in testdata")

// fixedClock is a clock that stands still.
func fixedClock() time.Time { return time.Date(2021, 12, 3, 10, 0, 0, 0, time.UTC) }

// designs holds the design files, insights' testdata; the reports on
// their traffic, the goldens, are this package's testdata.
const designs = "../../../internal/insights/testdata/"

// loadDesign parses a design file of designs.
func loadDesign(t *testing.T, name string) *insights.Design {
	t.Helper()
	src, err := os.ReadFile(designs + name)
	if err != nil {
		t.Fatal(err)
	}
	d, err := insights.ParseDesign(src)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// designFormats are the designs written in several formats, as insights'
// tests list them: the design file first.
var designFormats = map[string][]string{
	"blog": {"blog.design", "blog.workbench.json", "blog.workbench-plain.json", "blog.onetable.json", "blog.onetable-plain.json",
		"blog.electrodb.json", "blog.dynamoose.json", "blog.dynamodb-toolbox.json", "blog.dynamodb_data_model.json", "blog.cloudformation.yaml"},
	"usersblog": {"usersblog.design", "usersblog.workbench-plain.json", "usersblog.dynamodb_data_model.json"},
}

// s is an S value.
func s(text string) storage.Value { return storage.S(text) }

// blogTraffic is the requests the blog design's access patterns make against
// its table Blog, as the emulator describes them to the recorder: three
// posts, two comments and a like on the first post, each read pattern
// once, and one Scan that serves no pattern (the comments of one author,
// which the design has no key for).
func blogTraffic() []insights.Request {
	const p1, p2, p3 = "77fcab6b", "8a1b2c3d", "9e8f7a6b"
	writes := []insights.Request{
		{Op: "PutItem", Access: insights.Put, Table: "Blog", Key: insights.KeyCondition{Partition: s(p1), SortOp: insights.SortEQ, Sort: s("post")}, WriteUnits: 1},
		{Op: "PutItem", Access: insights.Put, Table: "Blog", Key: insights.KeyCondition{Partition: s(p2), SortOp: insights.SortEQ, Sort: s("post")}, WriteUnits: 1},
		{Op: "PutItem", Access: insights.Put, Table: "Blog", Key: insights.KeyCondition{Partition: s(p3), SortOp: insights.SortEQ, Sort: s("post")}, WriteUnits: 2},
		{Op: "PutItem", Access: insights.Put, Table: "Blog", Key: insights.KeyCondition{Partition: s("81fcab6a"), SortOp: insights.SortEQ, Sort: s(p1)}, WriteUnits: 1},
		{Op: "TransactWriteItems", Access: insights.Put, Table: "Blog", Key: insights.KeyCondition{Partition: s("81fcab6b"), SortOp: insights.SortEQ, Sort: s(p1)}, WriteUnits: 2},
		{Op: "BatchWriteItem", Access: insights.Put, Table: "Blog", Key: insights.KeyCondition{Partition: s("6b9b9319"), SortOp: insights.SortEQ, Sort: s(p1)}, WriteUnits: 1},
	}
	reads := []insights.Request{
		// 投稿一覧を新しい順で取得する
		{Op: "Query", Access: insights.Query, Table: "Blog", Index: "GSI1", Key: insights.KeyCondition{Partition: s("post"), SortOp: insights.SortBeginsWith, Sort: s("Post_")}, Read: 3, Returned: 3, ReadUnits: 0.5},
		// 指定されたidの投稿を一件取得する
		{Op: "GetItem", Access: insights.Get, Table: "Blog", Key: insights.KeyCondition{Partition: s(p1), SortOp: insights.SortEQ, Sort: s("post")}, Read: 1, Returned: 1, ReadUnits: 0.5},
		{Op: "BatchGetItem", Access: insights.Get, Table: "Blog", Key: insights.KeyCondition{Partition: s(p2), SortOp: insights.SortEQ, Sort: s("post")}, Read: 1, Returned: 1, ReadUnits: 0.5},
		// 指定されたidの投稿に紐づくコメントを古い順で全て取得する
		{Op: "Query", Access: insights.Query, Table: "Blog", Index: "GSI1", Key: insights.KeyCondition{Partition: s(p1), SortOp: insights.SortBeginsWith, Sort: s("Comment_")}, Read: 2, Returned: 2, ReadUnits: 0.5},
		// 指定されたidの投稿に紐づくいいねを全て取得する
		{Op: "Query", Access: insights.Query, Table: "Blog", Index: "GSI1", Key: insights.KeyCondition{Partition: s(p1), SortOp: insights.SortBeginsWith, Sort: s("Like_")}, Read: 1, Returned: 1, ReadUnits: 0.5},
		// 指定されたユーザーが作成した投稿一覧を新しい順で取得する
		{Op: "Query", Access: insights.Query, Table: "Blog", Index: "GSI2", Key: insights.KeyCondition{Partition: s("和田哲也")}, Read: 2, Returned: 2, ReadUnits: 0.5},
		// 指定されたジャンルの投稿一覧を新しい順で取得する
		{Op: "Query", Access: insights.Query, Table: "Blog", Index: "GSI3", Key: insights.KeyCondition{Partition: s("データベース")}, Read: 1, Returned: 1, ReadUnits: 0.5},
		// Not a pattern: the comments of one author, by Scan and filter.
		{Op: "Scan", Access: insights.Scan, Table: "Blog", Filter: true, Read: 6, Returned: 1, ReadUnits: 1.5},
	}
	return append(writes, reads...)
}

// TestBlogDesign: the blog design's access patterns, run against its declared
// design, are each served by the table's key or a GSI, and the one Scan
// is flagged.
func TestBlogDesign(t *testing.T) {
	r := New(Options{Clock: fixedClock})
	r.SetDesign(loadDesign(t, "blog.design"))
	r.SetReporting(true)
	for _, q := range blogTraffic() {
		r.Record(&q)
	}
	rep := r.Report(nil)
	if rep.Design == nil {
		t.Fatal("no design report")
	}
	for _, p := range rep.Design.Patterns {
		if p.Requests == 0 {
			t.Errorf("pattern %s: no request matched it", p.Name)
		}
		if want := map[bool]string{true: "table key", false: "index "}[p.ServedBy == "table key"]; p.ServedBy[:len(want)] != want {
			t.Errorf("pattern %s served by %q, want the table key or an index", p.Name, p.ServedBy)
		}
	}
	if got := len(rep.Design.Patterns); got != 8 {
		t.Errorf("%d patterns, want 8", got)
	}
	if len(rep.Design.Findings) != 1 {
		t.Fatalf("findings %+v, want only the Scan", rep.Design.Findings)
	}
	f := rep.Design.Findings[0]
	if f.Kind != insights.FindingScanRequest || f.Table != "Blog" || f.Index != "" {
		t.Errorf("finding %+v, want a scan-request on Blog", f)
	}
	if len(rep.Design.Unmatched) != 1 || rep.Design.Unmatched[0].Access != "scan" || rep.Design.Unmatched[0].Requests != 1 {
		t.Errorf("unmatched %+v, want the one Scan", rep.Design.Unmatched)
	}
	blog := rep.Tables[0]
	if blog.Table != "Blog" || len(blog.Resources) != 4 || len(blog.UnusedIndexes) != 0 {
		t.Fatalf("table report %+v", blog)
	}
	table := blog.Resources[0]
	if table.Scans != 1 || table.Gets != 2 || table.Writes != 6 || table.FilterWaste != 5.0/6 {
		t.Errorf("table resource %+v: want 1 scan, 2 gets, 6 writes, filter waste 5/6", table)
	}
	checkGolden(t, "blog.report.txt", rep)
}

// checkGolden compares the report's text with a golden file (-rewrite
// writes it) and checks the JSON form decodes back.
func checkGolden(t *testing.T, name string, rep *Report) {
	t.Helper()
	var buf bytes.Buffer
	if err := rep.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	path := "testdata/" + name
	if *rewrite {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -rewrite to create it)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("report text differs from %s (-rewrite to accept):\n%s", path, buf.Bytes())
	}
	js, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Tables) != len(rep.Tables) || (rep.Design == nil) != (back.Design == nil) {
		t.Errorf("JSON round trip lost tables or the design: %s", js)
	}
}

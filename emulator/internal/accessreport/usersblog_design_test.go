package accessreport

import (
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/stretchr/testify/require"
)

// usersBlogTraffic (the same as insights' test helper) is the requests the users blog's access patterns make
// against its table BlogApp (testdata/usersblog.design), one or two per
// pattern, and a Scan that serves none (a user's posts by filter).
func usersBlogTraffic() []insights.Request {
	q := func(op string, acc insights.Access, index, pk string, so insights.SortOp, sk string, read int) insights.Request {
		r := insights.Request{Op: op, Access: acc, Table: "BlogApp", Index: index, Key: insights.KeyCondition{Partition: s(pk), SortOp: so}, Read: read, Returned: read, ReadUnits: 0.5}
		if so != insights.SortNone {
			r.Key.Sort = s(sk)
		}
		if acc.IsWrite() {
			r.ReadUnits, r.WriteUnits, r.Read, r.Returned = 0, 1, 0, 0
		}
		return r
	}
	return []insights.Request{
		q("PutItem", insights.Put, "", "USER#u9", insights.SortEQ, "PROFILE", 0),
		q("PutItem", insights.Put, "", "POST#p9", insights.SortEQ, "POST#p9", 0),
		q("PutItem", insights.Put, "", "POST#p1", insights.SortEQ, "COMMENT#c9", 0),
		q("TransactWriteItems", insights.Put, "", "POST#p9", insights.SortEQ, "TAG#streams", 0),
		q("BatchWriteItem", insights.Put, "", "POST#p9", insights.SortEQ, "TAG#go", 0),
		q("GetItem", insights.Get, "", "USER#u7", insights.SortEQ, "PROFILE", 1),
		q("Query", insights.Query, "GSI1", "EMAIL#ann@example.com", insights.SortNone, "", 1),
		q("GetItem", insights.Get, "", "POST#p1", insights.SortEQ, "POST#p1", 1),
		q("BatchGetItem", insights.Get, "", "POST#p2", insights.SortEQ, "POST#p2", 1),
		q("Query", insights.Query, "GSI1", "USER#u7", insights.SortBeginsWith, "POST#", 2),
		q("Query", insights.Query, "", "POST#p1", insights.SortBeginsWith, "COMMENT#", 2),
		q("Query", insights.Query, "", "POST#p1", insights.SortBeginsWith, "TAG#", 1),
		q("Query", insights.Query, "GSI1", "TAG#dynamodb", insights.SortBeginsWith, "POST#", 2),
		{Op: "Scan", Access: insights.Scan, Table: "BlogApp", Filter: true, Read: 12, Returned: 2, ReadUnits: 1.5},
	}
}

// TestUsersBlogReportEveryFormat: each format of the users blog
// (insights' TestUsersBlogEveryFormat compares their designs) gives a
// report on the traffic that is its golden (-rewrite writes them).
func TestUsersBlogReportEveryFormat(t *testing.T) {
	for _, file := range designFormats["usersblog"] {
		t.Run(file, func(t *testing.T) {
			r := New(Options{Clock: fixedClock})
			r.SetDesign(loadDesign(t, file))
			r.SetReporting(true)
			for _, q := range usersBlogTraffic() {
				r.Record(&q)
			}
			var b strings.Builder
			require.NoError(t, r.Report(nil).WriteText(&b))
			path := "testdata/" + strings.TrimSuffix(strings.TrimSuffix(file, ".json"), ".design") + ".report.txt"
			if *rewrite {
				require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
			}
			golden, err := os.ReadFile(path)
			require.NoError(t, err, "-rewrite writes it")
			require.Equal(t, string(golden), b.String())
		})
	}
}

// TestMatchEqualsReport: for every request of the traffic of every
// design in every format, Match on the design as the recorder holds it
// (Live, from the report so far) names the pattern the report then
// files the request under, or none when the report files it under none:
// the learned patterns of the formats without declared ones and the
// name of the table of those that name none included.
func TestMatchEqualsReport(t *testing.T) {
	traffic := map[string][]insights.Request{"blog": blogTraffic(), "usersblog": usersBlogTraffic()}
	for design, files := range designFormats {
		for _, file := range files {
			t.Run(file, func(t *testing.T) {
				d := loadDesign(t, file)
				r := New(Options{Clock: fixedClock})
				r.SetDesign(d)
				r.SetReporting(true)
				filed := 0
				for _, q := range traffic[design] {
					before := r.Report(nil)
					mv := d.Live(learned(t, before.Design)).Match(&q)
					r.Record(&q)
					got := filedUnder(before, r.Report(nil))
					require.Equal(t, got, mv.Pattern, "%s %s %s: design_match says %q (%s), the report files it under %q", q.Op, q.Index, insights.KeyText(q.Key), mv.Pattern, mv.Why, got)
					if got != "" {
						filed++
					}
				}
				require.Positive(t, filed, "no request filed under a pattern")
			})
		}
	}
}

// filedUnder returns the pattern whose count a request added between two
// reports, "" for none.
func filedUnder(before, after *Report) string {
	count := map[string]int64{}
	for _, p := range before.Design.Patterns {
		count[p.Table+"/"+p.Name] = p.Requests
	}
	for _, p := range after.Design.Patterns {
		if p.Requests > count[p.Table+"/"+p.Name] {
			return p.Name
		}
	}
	return ""
}

// TestLiveDesign: what a recorder learned decides what Match says: a
// table whose format declares no patterns files a request under the
// pattern its traffic made first (the order of the traffic decides its
// shape), and a table the design does not name answers for the name the
// traffic gave it only.
func TestLiveDesign(t *testing.T) {
	src := []byte(`{"PK": {"type": "String", "hashKey": true}, "SK": {"type": "String", "rangeKey": true}}`)
	d, err := insights.ParseDesign(src)
	require.NoError(t, err)
	require.Equal(t, insights.FormatDynamoose, d.Format)
	r := New(Options{Clock: fixedClock})
	r.SetDesign(d)
	r.SetReporting(true)
	byKey := insights.Request{Op: "Query", Access: insights.Query, Table: "Orders", Key: insights.KeyCondition{Partition: s("C#1"), SortOp: insights.SortEQ, Sort: s("O#1")}}
	byPartition := insights.Request{Op: "Query", Access: insights.Query, Table: "Orders", Key: insights.KeyCondition{Partition: s("C#1")}}

	fresh := d.Match(&byPartition)
	require.Equal(t, "query-table", fresh.Pattern, fresh.Why)
	require.Contains(t, fresh.Why, `takes "Orders" as its table`)

	r.Record(&byKey) // the traffic's first query has sk =: it is "query-table"
	live := d.Live(learned(t, r.Report(nil).Design))
	mv := live.Match(&byPartition)
	require.Equal(t, "query-table-2", mv.Pattern, "a query by the partition key alone is a shape of its own now: %s", mv.Why)
	before := r.Report(nil)
	r.Record(&byPartition)
	require.Equal(t, mv.Pattern, filedUnder(before, r.Report(nil)), "the report files it there")
	require.Equal(t, "query-table", live.Match(&byKey).Pattern)

	other := byKey
	other.Table = "Other"
	mv = live.Match(&other)
	require.Empty(t, mv.Pattern)
	require.Contains(t, mv.Why, `declares no table "Other"`)
}

// TestRecordersShareNoDesign: recorders given one design (the
// emulator's namespaces) each name and complete a copy of their own,
// concurrently, and the design set stays as it was.
func TestRecordersShareNoDesign(t *testing.T) {
	d := loadDesign(t, "blog.dynamoose.json")
	var wg sync.WaitGroup
	recs := make([]*Recorder, 4)
	for i := range recs {
		recs[i] = New(Options{Clock: fixedClock})
		recs[i].SetDesign(d)
		recs[i].SetReporting(true)
		wg.Add(1)
		go func(r *Recorder, table string) {
			defer wg.Done()
			for _, q := range blogTraffic() {
				q.Table = table
				r.Record(&q)
			}
		}(recs[i], "Blog"+itoa(int64(i)))
	}
	wg.Wait()
	require.Empty(t, d.Tables[0].Name)
	require.Empty(t, d.Tables[0].Patterns)
	for i, r := range recs {
		rep := r.Report(nil)
		require.Len(t, rep.Design.Patterns, 7)
		require.Equal(t, "Blog"+itoa(int64(i)), rep.Design.Patterns[0].Table)
	}
}

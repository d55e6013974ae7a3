package insights

import (
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// usersBlogTraffic is the requests the users blog's access patterns make
// against its table BlogApp (testdata/usersblog.design), one or two per
// pattern, and a Scan that serves none (a user's posts by filter).
func usersBlogTraffic() []Request {
	q := func(op string, acc Access, index, pk string, so SortOp, sk string, read int) Request {
		r := Request{Op: op, Access: acc, Table: "BlogApp", Index: index, Key: KeyCondition{Partition: s(pk), SortOp: so}, Read: read, Returned: read, ReadUnits: 0.5}
		if so != SortNone {
			r.Key.Sort = s(sk)
		}
		if acc.IsWrite() {
			r.ReadUnits, r.WriteUnits, r.Read, r.Returned = 0, 1, 0, 0
		}
		return r
	}
	return []Request{
		q("PutItem", Put, "", "USER#u9", SortEQ, "PROFILE", 0),
		q("PutItem", Put, "", "POST#p9", SortEQ, "POST#p9", 0),
		q("PutItem", Put, "", "POST#p1", SortEQ, "COMMENT#c9", 0),
		q("TransactWriteItems", Put, "", "POST#p9", SortEQ, "TAG#streams", 0),
		q("BatchWriteItem", Put, "", "POST#p9", SortEQ, "TAG#go", 0),
		q("GetItem", Get, "", "USER#u7", SortEQ, "PROFILE", 1),
		q("Query", Query, "GSI1", "EMAIL#ann@example.com", SortNone, "", 1),
		q("GetItem", Get, "", "POST#p1", SortEQ, "POST#p1", 1),
		q("BatchGetItem", Get, "", "POST#p2", SortEQ, "POST#p2", 1),
		q("Query", Query, "GSI1", "USER#u7", SortBeginsWith, "POST#", 2),
		q("Query", Query, "", "POST#p1", SortBeginsWith, "COMMENT#", 2),
		q("Query", Query, "", "POST#p1", SortBeginsWith, "TAG#", 1),
		q("Query", Query, "GSI1", "TAG#dynamodb", SortBeginsWith, "POST#", 2),
		{Op: "Scan", Access: Scan, Table: "BlogApp", Filter: true, Read: 12, Returned: 2, ReadUnits: 1.5},
	}
}

// TestUsersBlogEveryFormat: the users blog as NoSQL Workbench exports it
// (no dynamoemu member) and as AWS's DynamoDB MCP server writes it gives
// each pattern the template its design file declares: the data model's
// patterns are the design file's, key conditions and all; the Workbench
// model's entities are the design file's, template for template, and
// each request of a declared pattern counts for a pattern of the same
// access, index and partition key template. Each format's report on the
// traffic is its golden (-rewrite writes them).
func TestUsersBlogEveryFormat(t *testing.T) {
	want := loadDesign(t, "usersblog.design").Tables[0]
	dm := loadDesign(t, "usersblog.dynamodb_data_model.json").Tables[0]
	require.Len(t, dm.Patterns, len(want.Patterns))
	for i, wp := range want.Patterns {
		gp := dm.Patterns[i]
		require.Equal(t, wp.Name, gp.Name)
		require.Equal(t, wp.Access, gp.Access, wp.Name)
		require.Equal(t, wp.servedBy(), gp.servedBy(), wp.Name)
		require.Equal(t, wp.conditionText(), gp.conditionText(), "data model: pattern %s", wp.Name)
	}
	wb := loadDesign(t, "usersblog.workbench-plain.json").Tables[0]
	require.Len(t, wb.Entities, len(want.Entities))
	for i, we := range want.Entities {
		ge := wb.Entities[i]
		require.Equal(t, we.Name, ge.Name)
		require.Equal(t, templatesOf(we), templatesOf(ge), "workbench: entity %s", we.Name)
	}
	for _, q := range usersBlogTraffic() {
		wi, gi := want.match(&q), wb.match(&q)
		if wi < 0 {
			continue
		}
		wp := want.Patterns[wi]
		if wp.Access.IsWrite() {
			continue // Workbench says no write patterns: writes are not checked
		}
		require.GreaterOrEqual(t, gi, 0, "workbench: no pattern serves %s's request %s", wp.Name, conditionText(q.Key))
		gp := wb.Patterns[gi]
		require.Equal(t, wp.Access, gp.Access, "%s and %s", wp.Name, gp.Name)
		require.Equal(t, wp.Index, gp.Index, "%s and %s", wp.Name, gp.Name)
		require.Equal(t, wp.PK.String(), gp.PK.String(), "%s and %s", wp.Name, gp.Name)
	}

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

// templatesOf renders an entity's templates.
func templatesOf(e *Entity) []string {
	var out []string
	for _, a := range sortedKeys(e.Attrs) {
		out = append(out, a+"="+e.Attrs[a].String())
	}
	return out
}

// TestMatchEqualsReport: for every request of the traffic of every
// design in every format, Match on the design as the recorder holds it
// (Live, from the report so far) names the pattern the report then
// files the request under, or none when the report files it under none:
// the learned patterns of the formats without declared ones and the
// name of the table of those that name none included.
func TestMatchEqualsReport(t *testing.T) {
	traffic := map[string][]Request{"blog": blogTraffic(), "usersblog": usersBlogTraffic()}
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
					mv := d.Live(before.Design).Match(&q)
					r.Record(&q)
					got := filedUnder(before, r.Report(nil))
					require.Equal(t, got, mv.Pattern, "%s %s %s: design_match says %q (%s), the report files it under %q", q.Op, q.Index, conditionText(q.Key), mv.Pattern, mv.Why, got)
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
	d, err := ParseDesign(src)
	require.NoError(t, err)
	require.Equal(t, FormatDynamoose, d.Format)
	r := New(Options{Clock: fixedClock})
	r.SetDesign(d)
	r.SetReporting(true)
	byKey := Request{Op: "Query", Access: Query, Table: "Orders", Key: KeyCondition{Partition: s("C#1"), SortOp: SortEQ, Sort: s("O#1")}}
	byPartition := Request{Op: "Query", Access: Query, Table: "Orders", Key: KeyCondition{Partition: s("C#1")}}

	fresh := d.Match(&byPartition)
	require.Equal(t, "query-table", fresh.Pattern, fresh.Why)
	require.Contains(t, fresh.Why, `takes "Orders" as its table`)

	r.Record(&byKey) // the traffic's first query has sk =: it is "query-table"
	live := d.Live(r.Report(nil).Design)
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

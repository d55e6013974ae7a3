package accessreport

import (
	"fmt"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// BenchmarkRecord: the hook after a request ("if r.On() { r.Record(&q) }")
// with the report off (the cost every request pays: one atomic load),
// with the report on over 10 keys and over 1000 (more than the 64 keys
// counted: every request evicts one, the worst case), on with the blog
// design to match against, and with only Contributor Insights on.
func BenchmarkRecord(b *testing.B) {
	keys := make([]storage.Value, 1000)
	for i := range keys {
		keys[i] = storage.S(fmt.Sprint("77fcab", i))
	}
	design := func() *insights.Design {
		d, err := insights.ParseDesign([]byte(seedDesignForBench))
		if err != nil {
			b.Fatal(err)
		}
		return d
	}()
	for _, bc := range []struct {
		name  string
		keys  int
		setup func(r *Recorder)
	}{
		{"off", 1000, func(r *Recorder) {}},
		{"report-10-keys", 10, func(r *Recorder) { r.SetReporting(true) }},
		{"report-1000-keys", 1000, func(r *Recorder) { r.SetReporting(true) }},
		{"report+design-1000-keys", 1000, func(r *Recorder) { r.SetReporting(true); r.SetDesign(design) }},
		{"contributor-insights-1000-keys", 1000, func(r *Recorder) { r.UpdateContributorInsights("Blog", "", true, true, "") }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			r := New(Options{Clock: fixedClock})
			bc.setup(r)
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				if r.On() {
					r.Record(&insights.Request{Op: "GetItem", Access: insights.Get, Table: "Blog",
						Key:  insights.KeyCondition{Partition: keys[i%bc.keys], SortOp: insights.SortEQ, Sort: storage.S("post")},
						Read: 1, Returned: 1, ReadUnits: 0.5})
				}
				i++
			}
		})
	}
}

// TestRecordAllocs: off, the hook allocates nothing; on, a request of a
// key already counted allocates nothing either.
func TestRecordAllocs(t *testing.T) {
	r := New(Options{Clock: fixedClock})
	q := insights.Request{Op: "GetItem", Access: insights.Get, Table: "Blog", Key: insights.KeyCondition{Partition: storage.S("p1"), SortOp: insights.SortEQ, Sort: storage.S("post")}, Read: 1, Returned: 1, ReadUnits: 0.5}
	hook := func() {
		if r.On() {
			r.Record(&q)
		}
	}
	if n := testing.AllocsPerRun(100, hook); n != 0 {
		t.Errorf("off: %v allocations, want 0", n)
	}
	r.SetReporting(true)
	r.SetDesign(loadDesign(t, "blog.design"))
	hook()
	if n := testing.AllocsPerRun(100, hook); n != 0 {
		t.Errorf("on, key counted: %v allocations, want 0", n)
	}
}

const seedDesignForBench = `table Blog
key PK SK_GSI1PK
index GSI1 SK_GSI1PK GSI1SK_GSI2SK_GSI3SK
entity Post    PK={id} SK_GSI1PK=post      GSI1SK_GSI2SK_GSI3SK=Post_{created_at}
entity Comment PK={id} SK_GSI1PK={post_id} GSI1SK_GSI2SK_GSI3SK=Comment_{created_at}
pattern posts-newest     query Post    on GSI1 where pk = post      and sk begins_with Post_
pattern post-by-id       get   Post            where pk = {id}      and sk = post
pattern comments-of-post query Comment on GSI1 where pk = {post_id} and sk begins_with Comment_
`

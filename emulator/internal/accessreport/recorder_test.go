package accessreport

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TestTopKCopiesKeys: a key that enters a top-K list keeps none of the
// string it was cut from (a request's body, in the emulator), whether it
// fills a free place or replaces the smallest counter.
func TestTopKCopiesKeys(t *testing.T) {
	body := strings.Repeat("x", 1<<16) + "pk-one" + "pk-two"
	inBody := func(v string) bool {
		p, b := uintptr(unsafe.Pointer(unsafe.StringData(v))), uintptr(unsafe.Pointer(unsafe.StringData(body)))
		return p >= b && p < b+uintptr(len(body))
	}
	tk := newTopK(1)
	one, two := body[1<<16:1<<16+6], body[1<<16+6:]
	tk.add(keyOf(s(one), s(one)), 1)
	tk.add(keyOf(s(two), storage.Value{}), 1) // replaces "pk-one"
	for _, c := range tk.heap {
		if inBody(c.key.pk) || c.key.sk != "" && inBody(c.key.sk) {
			t.Fatalf("top-K key %q shares the body's memory", c.key.pk)
		}
	}
	if got := tk.top(1); len(got) != 1 || got[0].key.pk != "pk-two" {
		t.Fatalf("top = %v", got)
	}
}

func TestTopK(t *testing.T) {
	// Under capacity: exact counts, by count then key.
	tk := newTopK(4)
	for _, k := range []string{"a", "b", "a", "c", "a", "b"} {
		tk.add(keyOf(s(k), storage.Value{}), 1)
	}
	tk.add(keyOf(s("z"), storage.Value{}), 0) // no weight, not counted
	var got []string
	for _, c := range tk.top(10) {
		got = append(got, fmt.Sprintf("%s=%v/%v", c.key.pk, c.count, c.overcount))
	}
	if strings.Join(got, " ") != "a=3/0 b=2/0 c=1/0" || tk.total != 6 {
		t.Errorf("top = %v total %v", got, tk.total)
	}
	// Over capacity, a skewed stream: the heavy keys are found, and every
	// counted key's true weight is within [count-overcount, count].
	rng := rand.New(rand.NewPCG(1, 2))
	truth := map[string]float64{}
	tk = newTopK(16)
	for i := range 20000 {
		k := fmt.Sprint("k", rng.IntN(1000))
		if i%3 == 0 {
			k = fmt.Sprint("hot", i%4)
		}
		w := float64(1 + rng.IntN(3))
		truth[k] += w
		tk.add(keyOf(s(k), storage.Value{}), w)
	}
	top := tk.top(4)
	for i, c := range top {
		if !strings.HasPrefix(c.key.pk, "hot") {
			t.Errorf("top %d is %s, want a hot key", i, c.key.pk)
		}
	}
	for _, c := range tk.top(16) {
		if tw := truth[c.key.pk]; tw > c.count || tw < c.count-c.overcount {
			t.Errorf("%s: true weight %v outside [%v, %v]", c.key.pk, tw, c.count-c.overcount, c.count)
		}
	}
	if len(tk.idx) != 16 || len(tk.heap) != 16 {
		t.Errorf("topK holds %d keys (%d in heap), want 16", len(tk.idx), len(tk.heap))
	}
	// Full keys and binary keys render as text.
	k := keyOf(storage.B([]byte{0xff}), s("x"))
	if got := strings.Join(k.text(), ","); got != "/w==,x" {
		t.Errorf("key text %q", got)
	}
}

func TestRecorderOnOff(t *testing.T) {
	r := New(Options{Clock: fixedClock})
	var nilRecorder *Recorder
	if r.On() || nilRecorder.On() {
		t.Fatalf("a new recorder is on")
	}
	q := insights.Request{Op: "GetItem", Access: insights.Get, Table: "T", Key: insights.KeyCondition{Partition: s("a")}, Read: 1, Returned: 1, ReadUnits: 1}
	r.Record(&q) // not reporting: nothing kept
	if rep := r.Report(nil); len(rep.Tables) != 0 {
		t.Errorf("recorded while off: %+v", rep.Tables)
	}
	r.SetReporting(true)
	r.SetReporting(true)
	if !r.On() || !r.Reporting() {
		t.Errorf("reporting but not on")
	}
	r.Record(&q)
	if rep := r.Report(nil); len(rep.Tables) != 1 || rep.Tables[0].Resources[0].Gets != 1 {
		t.Errorf("report %+v", rep.Tables)
	}
	r.SetReporting(false)
	if r.On() {
		t.Errorf("on after SetReporting(false)")
	}
	r.Reset()
	if rep := r.Report(nil); len(rep.Tables) != 0 || len(rep.Costliest) != 0 {
		t.Errorf("after Reset: %+v", rep)
	}
}

func TestCostliest(t *testing.T) {
	r := New(Options{Clock: fixedClock, Costliest: 3})
	r.SetReporting(true)
	for i, units := range []float64{1, 5, 2, 5, 0.5, 3} {
		r.Record(&insights.Request{Op: "Query", Access: insights.Query, Table: "T", Key: insights.KeyCondition{Partition: s(fmt.Sprint("k", i))}, ReadUnits: units})
	}
	r.Record(&insights.Request{Op: "PutItem", Access: insights.Put, Table: "T", Key: insights.KeyCondition{Partition: s("w")}, WriteUnits: 1})
	var got []string
	for _, c := range r.Report(nil).Costliest {
		got = append(got, fmt.Sprintf("%s:%v", c.Key, c.Cost))
	}
	// A write unit costs five read units; equal costs keep the earlier.
	if want := "pk=k1:5 pk=k3:5 pk=w:5"; strings.Join(got, " ") != want {
		t.Errorf("costliest %v, want %s", got, want)
	}
}

func TestUnmatched(t *testing.T) {
	r := New(Options{Clock: fixedClock, UnmatchedShapes: 2})
	r.SetDesign(loadDesign(t, "blog.design"))
	r.SetReporting(true)
	reqs := []insights.Request{
		{Op: "Query", Access: insights.Query, Table: "Blog", Index: "GSI1", Key: insights.KeyCondition{Partition: s("p1"), SortOp: insights.SortGT, Sort: s("A")}},
		{Op: "Query", Access: insights.Query, Table: "Blog", Index: "GSI1", Key: insights.KeyCondition{Partition: s("p2"), SortOp: insights.SortGT, Sort: s("B")}},
		{Op: "Scan", Access: insights.Scan, Table: "Other"},
		{Op: "PutItem", Access: insights.Put, Table: "Other", Key: insights.KeyCondition{Partition: s("x")}},              // writes of undeclared tables are not checked
		{Op: "Query", Access: insights.Query, Table: "Blog", Key: insights.KeyCondition{Partition: s("x")}, Filter: true}, // a third shape: dropped
	}
	for _, q := range reqs {
		r.Record(&q)
	}
	d := r.Report(nil).Design
	if len(d.Unmatched) != 2 || d.UnmatchedDropped != 1 {
		t.Fatalf("unmatched %+v dropped %d", d.Unmatched, d.UnmatchedDropped)
	}
	u := d.Unmatched[0]
	if u.Table != "Blog" || u.Index != "GSI1" || u.Requests != 2 || u.SortCondition != ">" || u.Example != "pk=p1 sk>A" {
		t.Errorf("unmatched %+v", u)
	}
	var kinds []string
	for _, f := range d.Findings {
		kinds = append(kinds, f.Kind)
	}
	if want := "unexercised-pattern unexercised-pattern unexercised-pattern unexercised-pattern unexercised-pattern unexercised-pattern unexercised-pattern unexercised-pattern unmatched-request scan-request"; strings.Join(kinds, " ") != want {
		t.Errorf("findings %v", kinds)
	}
}

// fakeCatalog is a Catalog of fixed answers.
type fakeCatalog struct{}

func (fakeCatalog) Tables() []CatalogTable {
	return []CatalogTable{{Name: "T", Indexes: []string{"byA", "byB"}, ItemCount: 3, SizeBytes: 300}}
}

func (fakeCatalog) LargestPartitions(table, index string, n int) []PartitionSize {
	if index != "" {
		return nil
	}
	return []PartitionSize{{Key: "a", Items: 2, Bytes: 200}, {Key: "b", Items: 1, Bytes: 100}}
}

func TestReportWithCatalog(t *testing.T) {
	r := New(Options{Clock: fixedClock})
	r.SetReporting(true)
	reqs := []insights.Request{
		{Op: "Query", Access: insights.Query, Table: "T", Index: "byA", Key: insights.KeyCondition{Partition: s("x")}, Read: 10, Returned: 2, Filter: true, ReadUnits: 2},
		{Op: "Query", Access: insights.Query, Table: "T", Index: "byA", Key: insights.KeyCondition{Partition: s("x")}, Read: 5, Returned: 5, ReadUnits: 1},
		{Op: "UpdateItem", Access: insights.Update, Table: "T", Key: insights.KeyCondition{Partition: s("a"), SortOp: insights.SortEQ, Sort: s("1")}, WriteUnits: 1},
		{Op: "UpdateItem", Access: insights.Update, Table: "T", Key: insights.KeyCondition{Partition: s("a"), SortOp: insights.SortEQ, Sort: s("1")}, Throttled: true},
		{Op: "GetItem", Access: insights.Get, Table: "T", Key: insights.KeyCondition{Partition: s("b"), SortOp: insights.SortEQ, Sort: s("1")}, Read: 1, Returned: 1, ReadUnits: 0.5},
	}
	for _, q := range reqs {
		r.Record(&q)
	}
	rep := r.Report(fakeCatalog{})
	tr := rep.Tables[0]
	if tr.ItemCount != 3 || tr.SizeBytes != 300 || len(tr.Resources) != 3 || strings.Join(tr.UnusedIndexes, ",") != "byB" {
		t.Fatalf("table %+v", tr)
	}
	table, byA := tr.Resources[0], tr.Resources[1]
	if byA.FilterWaste != 0.8 || byA.ItemsRead != 15 || byA.ReadUnits != 3 {
		t.Errorf("byA %+v", byA)
	}
	if table.Throttled != 1 || table.Writes != 2 || len(table.LargestPartitions) != 2 {
		t.Errorf("table %+v", table)
	}
	// Hot keys by consumed throughput units (3 per write unit): a 3, b 0.5.
	if len(table.HotKeys) != 2 || table.HotKeys[0].Key != "a" || table.HotKeys[0].Units != 3 || table.HotKeys[0].Share != 3/3.5 {
		t.Errorf("hot keys %+v", table.HotKeys)
	}
	checkGolden(t, "catalog.report.txt", rep)
}

// TestRecorderConcurrent: records, reports, resets and Contributor
// Insights changes at once (-race).
func TestRecorderConcurrent(t *testing.T) {
	r := New(Options{Clock: fixedClock, TopKeys: 8})
	r.SetDesign(loadDesign(t, "blog.design"))
	r.SetReporting(true)
	traffic := blogTraffic()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 500 {
				q := traffic[(i+g)%len(traffic)]
				r.Record(&q)
			}
		})
	}
	wg.Go(func() {
		for i := range 50 {
			r.Report(fakeCatalog{})
			r.UpdateContributorInsights("Blog", "GSI1", true, i%2 == 0, "")
			r.Contributors("Blog", "GSI1", 5)
			if i%10 == 0 {
				r.Reset()
			}
		}
	})
	wg.Wait()
}

// TestDocsReport: once docs/faults.md shows the blog design's report, it
// shows it as TestBlogDesign produces it.
func TestDocsReport(t *testing.T) {
	readme, err := os.ReadFile("../../../docs/faults.md")
	if err != nil {
		t.Fatal(err)
	}
	report, err := os.ReadFile("testdata/blog.report.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "Access-pattern report since") {
		t.Skip("docs/faults.md does not show the report yet")
	}
	if !strings.Contains(string(readme), string(report)) {
		t.Errorf("docs/faults.md shows another report than testdata/blog.report.txt")
	}
}

package conventions

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

func viol(table, rule string, i int) Violation {
	return Violation{Rule: rule, Table: table, Key: Key{PK: "A#t", SK: fmt.Sprint(i)}, Message: fmt.Sprint(i)}
}

var t0 = time.Date(2026, 11, 22, 11, 0, 0, 0, time.UTC)

func at(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }

// brief renders entries as rule:message*count.
func brief(es []Entry) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, fmt.Sprintf("%s:%s*%d", e.Rule, e.Message, e.Count))
	}
	return out
}

func TestReport(t *testing.T) {
	r := NewReport(0)
	refused := viol("t1", "A3", 1)
	refused.Refused = true
	r.Add("PutItem", at(1), refused, viol("t1", "B6", 2))
	r.Add("BatchWriteItem", at(2), viol("t1", "A3", 1)) // a repeat: counted, not listed again
	warn := viol("t2", "A12", 5)
	warn.Severity = SeverityWarn
	r.Add("UpdateItem", at(3), warn)
	r.Add("PutItem", at(4))

	tests := []struct {
		table, rule string
		want        []string
		count       uint64
	}{
		{"t1", "", []string{"A3:1*2", "B6:2*1"}, 3},
		{"t1", "A3", []string{"A3:1*2"}, 2},
		{"t2", "", []string{"A12:5*1"}, 1},
		{"", "", []string{"A12:5*1", "A3:1*2", "B6:2*1"}, 0},
		{"t3", "", []string{}, 0},
	}
	for _, tt := range tests {
		if got := brief(r.Entries(tt.table, tt.rule)); !slices.Equal(got, tt.want) {
			t.Errorf("Entries(%q, %q): got %v, want %v", tt.table, tt.rule, got, tt.want)
		}
		if got := r.Count(tt.table, tt.rule); tt.table != "" && got != tt.count {
			t.Errorf("Count(%q, %q): got %d, want %d", tt.table, tt.rule, got, tt.count)
		}
	}
	a3 := r.Entries("t1", "A3")[0]
	if a3.Operation != "BatchWriteItem" || a3.Refused != 1 || !a3.First.Equal(at(1)) || !a3.Last.Equal(at(2)) {
		t.Errorf("A3 entry: got %+v, want last op BatchWriteItem, refused 1, first 1s, last 2s", a3)
	}
	if got, want := r.Totals(), (Totals{Violations: 4, Errors: 3, Warnings: 1, Refused: 1}); got != want {
		t.Errorf("Totals: got %+v, want %+v", got, want)
	}
	snap := r.Snapshot()
	if len(snap.Tables) != 2 || snap.Tables[0].Table != "t1" || snap.Tables[0].Counts["A3"] != 2 ||
		len(snap.Tables[0].Entries) != 2 || snap.Violations != 4 {
		t.Errorf("Snapshot: got %+v", snap)
	}
	r.Forget("t1")
	if got := r.Count("t1", ""); got != 0 || len(r.Entries("t1", "")) != 0 {
		t.Errorf("after Forget: got count %d, want 0", got)
	}
	r.Reset()
	if got := r.Snapshot(); got.Violations != 0 || len(got.Tables) != 0 {
		t.Errorf("after Reset: got %+v, want an empty report", got)
	}
}

// TestReportRepeatsDoNotCrowdOut: a violation repeated many times takes one
// entry, so a rarer one stays listed; past the limit the entry seen least
// recently goes, and the counts stay exact.
func TestReportRepeatsDoNotCrowdOut(t *testing.T) {
	r := NewReport(3)
	r.Add("PutItem", at(0), viol("t", "B9", 0))
	for i := range 1000 {
		r.Add("PutItem", at(i), viol("t", "A3", 1))
	}
	if got, want := brief(r.Entries("t", "")), []string{"A3:1*1000", "B9:0*1"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	r.Add("PutItem", at(2000), viol("t", "A5", 2), viol("t", "A5", 3))
	if got, want := brief(r.Entries("t", "")), []string{"A5:3*1", "A5:2*1", "A3:1*1000"}; !slices.Equal(got, want) {
		t.Errorf("past the limit: got %v, want %v (B9 seen least recently)", got, want)
	}
	if tot := r.Totals(); tot.Violations != 1003 || tot.Dropped != 1 || r.Count("t", "B9") != 1 {
		t.Errorf("got totals %+v, B9 count %d; want 1003 violations, 1 dropped, B9 still counted", tot, r.Count("t", "B9"))
	}
}

func TestReportConcurrent(t *testing.T) {
	r := NewReport(10)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				r.Add("PutItem", at(i), viol(fmt.Sprint("t", g%2), "A3", i))
				_ = r.Entries("t0", "")
				_ = r.Snapshot()
				if i == 250 && g == 3 {
					r.Reset()
				}
			}
		}()
	}
	wg.Wait()
	if got := len(r.Entries("", "")); got > 10 {
		t.Errorf("got %d kept, want at most the limit 10", got)
	}
}

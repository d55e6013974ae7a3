package conventions

import (
	"fmt"
	"slices"
	"sync"
	"testing"
)

func viol(table, rule string, i int) Violation {
	return Violation{Rule: rule, Table: table, Key: Key{PK: "A#t", SK: fmt.Sprint(i)}, Message: fmt.Sprint(i)}
}

func msgs(vs []Violation) []string {
	out := []string{}
	for _, v := range vs {
		out = append(out, v.Rule+":"+v.Message)
	}
	return out
}

func TestReport(t *testing.T) {
	r := NewReport(2)
	r.Add(viol("t1", "A3", 1), viol("t1", "B6", 2), viol("t1", "A3", 3))
	r.Add(viol("t1", "A3", 4), viol("t2", "A5", 5))
	r.Add()
	tests := []struct {
		table, rule string
		want        []string
		count       uint64
	}{
		{"t1", "", []string{"A3:4", "A3:3", "B6:2"}, 4},
		{"t1", "A3", []string{"A3:4", "A3:3"}, 3},
		{"t1", "B6", []string{"B6:2"}, 1},
		{"t2", "", []string{"A5:5"}, 1},
		{"t3", "", []string{}, 0},
	}
	for _, tt := range tests {
		if got := msgs(r.Recent(tt.table, tt.rule)); !slices.Equal(got, tt.want) {
			t.Errorf("Recent(%q, %q): got %v, want %v", tt.table, tt.rule, got, tt.want)
		}
		if got := r.Count(tt.table, tt.rule); got != tt.count {
			t.Errorf("Count(%q, %q): got %d, want %d", tt.table, tt.rule, got, tt.count)
		}
	}
	snap := r.Snapshot()
	if len(snap) != 2 || snap[0].Table != "t1" || snap[0].Counts["A3"] != 3 || len(snap[0].Recent) != 3 {
		t.Errorf("Snapshot: got %+v", snap)
	}
	r.Forget("t1")
	if got := r.Count("t1", ""); got != 0 {
		t.Errorf("after Forget: got count %d, want 0", got)
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
				r.Add(viol(fmt.Sprint("t", g%2), "A3", i))
				_ = r.Recent("t0", "")
				_ = r.Snapshot()
			}
		}()
	}
	wg.Wait()
	if got := r.Count("t0", "A3") + r.Count("t1", "A3"); got != 2000 {
		t.Errorf("got count %d, want 2000", got)
	}
	if got := len(r.Recent("t0", "A3")); got != 10 {
		t.Errorf("got %d kept, want the limit 10", got)
	}
}

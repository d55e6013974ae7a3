package lag

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func newClock() *testClock { return &testClock{now: time.Unix(1_700_000_000, 0)} }

// op is one scripted step on a gate.
type op struct {
	do   string // "stamp", "advance <d>", "delay <d>", "hold", "release"
	want uint64 // Visible after the step
}

func TestGate(t *testing.T) {
	tests := []struct {
		name string
		ops  []op
	}{
		{"no lag", []op{{"stamp", 1}, {"stamp", 2}}},
		{"delay", []op{
			{"delay 100ms", 0},
			{"stamp", 0}, // 1 at t=0
			{"advance 50ms", 0},
			{"stamp", 0}, // 2 at t=50ms
			{"advance 50ms", 1},
			{"advance 49ms", 1},
			{"advance 1ms", 2},
		}},
		{"backwards clock does not hide", []op{
			{"delay 10ms", 0}, {"stamp", 0}, {"advance 10ms", 1}, {"advance -1h", 1}, {"stamp", 1},
		}},
		{"hold and release", []op{
			{"stamp", 1},
			{"hold", 1},
			{"stamp", 1}, {"stamp", 1},
			{"advance 1h", 1},
			{"release", 3},
			{"stamp", 3},
			{"release", 4},
		}},
		{"hold keeps what the delay showed", []op{
			{"delay 10ms", 0}, {"stamp", 0}, {"advance 10ms", 1}, {"stamp", 1}, {"hold", 1}, {"advance 1h", 1},
		}},
		{"held commits then a delay", []op{
			{"hold", 0}, {"stamp", 0}, {"advance 20ms", 0}, {"stamp", 0},
			{"delay 15ms", 1}, // the first is 20ms old, the second 0ms
			{"advance 15ms", 2},
		}},
		{"delay off shows everything", []op{
			{"delay 1h", 0}, {"stamp", 0}, {"stamp", 0}, {"delay 0s", 2}, {"stamp", 3},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := newClock()
			g := NewGate(clk.Now)
			for i, o := range tc.ops {
				verb, arg, _ := strings.Cut(o.do, " ")
				switch verb {
				case "stamp":
					g.Stamp()
				case "advance", "delay":
					d, err := time.ParseDuration(arg)
					if err != nil {
						t.Fatal(err)
					}
					if verb == "advance" {
						clk.Advance(d)
					} else {
						g.SetDelay(d)
					}
				case "hold":
					g.Hold()
				case "release":
					g.Release()
				}
				if got := g.Visible(); got != o.want {
					t.Errorf("step %d (%s): Visible() = %d, want %d", i, o.do, got, o.want)
				}
				if got, want := g.Pending(), int(g.Last()-o.want); got != want {
					t.Errorf("step %d (%s): Pending() = %d, want %d", i, o.do, got, want)
				}
			}
		})
	}
}

func TestQueue(t *testing.T) {
	var q Queue[string]
	for i := 1; i <= 5; i++ {
		q.Push(uint64(i), fmt.Sprint("v", i))
	}
	var got []string
	q.Drain(3, func(s string) { got = append(got, s) })
	if strings.Join(got, ",") != "v1,v2,v3" || q.Len() != 2 {
		t.Errorf("drained %v, left %d; want v1..v3 and 2", got, q.Len())
	}
	q.Drain(3, func(s string) { t.Errorf("drained %s twice", s) })
	q.Drain(10, func(s string) { got = append(got, s) })
	if strings.Join(got, ",") != "v1,v2,v3,v4,v5" || q.Len() != 0 {
		t.Errorf("drained %v, left %d", got, q.Len())
	}
	// A long queue drained in steps compacts without losing order.
	n := 0
	for i := 1; i <= 5000; i++ {
		q.Push(uint64(i), fmt.Sprint(i))
		if i%7 == 0 {
			q.Drain(uint64(i-3), func(s string) {
				n++
				if s != fmt.Sprint(n) {
					t.Fatalf("drained %s, want %d", s, n)
				}
			})
		}
	}
}

func TestVersions(t *testing.T) {
	var v Versions[string, string]
	v.Record(1, "a", "", false) // a created
	v.Record(2, "a", "a1", true)
	v.Record(3, "b", "b0", true) // b deleted or changed
	check := func(k, wantOld string, wantHad, wantChanged bool) {
		t.Helper()
		old, had, changed := v.AsOf(k)
		if old != wantOld || had != wantHad || changed != wantChanged {
			t.Errorf("AsOf(%s) = %q %v %v, want %q %v %v", k, old, had, changed, wantOld, wantHad, wantChanged)
		}
	}
	check("a", "", false, true) // at watermark 0 a did not exist
	check("b", "b0", true, true)
	check("c", "", false, false)
	v.Drain(1)
	check("a", "a1", true, true)
	v.Drain(2)
	check("a", "", false, false)
	check("b", "b0", true, true)
	v.Drain(3)
	check("b", "", false, false)
	if v.Len() != 0 {
		t.Errorf("Len() = %d after draining all", v.Len())
	}
}

// laggedIndex models the emulator's lagged GSI: the write path computes each
// index change and, instead of applying it, queues it under the gate's
// number; a reader first applies what the gate makes visible. So a GSI
// read sees writes late, never half of one, and nothing makes a second
// pass over the table.
type laggedIndex struct {
	mu      sync.Mutex // the table's lock
	gate    *Gate
	table   map[string]string // item key -> index key
	index   map[string]string // index key -> item key, as readers see it
	pending Queue[change]
}

type change struct{ oldIx, newIx, item string }

func (x *laggedIndex) put(item, ixKey string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	ch := change{oldIx: x.table[item], newIx: ixKey, item: item}
	x.table[item] = ixKey
	x.pending.Push(x.gate.Stamp(), ch)
}

func (x *laggedIndex) read() []string {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.pending.Drain(x.gate.Visible(), func(c change) {
		if c.oldIx != "" {
			delete(x.index, c.oldIx)
		}
		x.index[c.newIx] = c.item
	})
	return slices.Sorted(maps.Keys(x.index))
}

func TestLaggedIndexModel(t *testing.T) {
	clk := newClock()
	x := &laggedIndex{gate: NewGate(clk.Now), table: map[string]string{}, index: map[string]string{}}
	x.gate.SetDelay(200 * time.Millisecond)
	x.put("p1", "author#ann")
	clk.Advance(100 * time.Millisecond)
	x.put("p1", "author#bob") // moves p1 in the index
	if got := x.read(); len(got) != 0 {
		t.Errorf("at 100ms: %v, want nothing yet", got)
	}
	clk.Advance(100 * time.Millisecond)
	if got := x.read(); !slices.Equal(got, []string{"author#ann"}) {
		t.Errorf("at 200ms: %v, want the first write only", got)
	}
	clk.Advance(100 * time.Millisecond)
	if got := x.read(); !slices.Equal(got, []string{"author#bob"}) {
		t.Errorf("at 300ms: %v, want the second write", got)
	}
	x.gate.Hold()
	x.put("p2", "author#cy")
	clk.Advance(time.Hour)
	if got := x.read(); !slices.Equal(got, []string{"author#bob"}) {
		t.Errorf("held: %v, want p2 not yet", got)
	}
	x.gate.Release()
	if got := x.read(); !slices.Equal(got, []string{"author#bob", "author#cy"}) {
		t.Errorf("released: %v", got)
	}
}

// TestGateConcurrent: stamps, reads and mode switches at once (-race);
// Visible never goes back and never passes Last.
func TestGateConcurrent(t *testing.T) {
	clk := newClock()
	g := NewGate(clk.Now)
	g.SetDelay(time.Millisecond)
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			var prev uint64
			for range 3000 {
				g.Stamp()
				v := g.Visible()
				if v < prev || v > g.Last() {
					t.Errorf("Visible %d after %d (last %d)", v, prev, g.Last())
					return
				}
				prev = v
			}
		})
	}
	wg.Go(func() {
		for i := range 300 {
			clk.Advance(time.Millisecond)
			switch i % 4 {
			case 0:
				g.Hold()
			case 1:
				g.Release()
			case 2:
				g.SetDelay(time.Duration(i%3) * time.Millisecond)
			}
		}
	})
	wg.Wait()
	g.SetDelay(0)
	if g.Visible() != g.Last() || g.Last() != 9000 {
		t.Errorf("after SetDelay(0): visible %d last %d, want 9000 both", g.Visible(), g.Last())
	}
}

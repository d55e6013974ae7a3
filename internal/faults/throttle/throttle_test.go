package throttle

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/faults"
)

// testClock is a clock tests move by hand.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *testClock { return &testClock{now: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)} }

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

// step is one use in a scripted test: advance the clock, ask Admit, and
// Charge units when admitted.
type step struct {
	advance time.Duration
	use     Use
	units   float64
	want    string // "" admitted, else the refusal's Reason
}

func run(t *testing.T, th *Throttler, clk *testClock, steps []step) {
	t.Helper()
	for i, s := range steps {
		clk.Advance(s.advance)
		got, refused := th.Admit(s.use)
		if !refused {
			th.Charge(s.use, s.units)
		}
		if got.Reason != s.want || refused != (s.want != "") {
			t.Errorf("step %d %+v: refused %v reason %q, want %q", i, s.use, refused, got.Reason, s.want)
		}
	}
}

func TestProvisioned(t *testing.T) {
	tbl := Table{Mode: Provisioned, Table: Throughput{Read: 5, Write: 1}, Indexes: map[string]Throughput{"byX": {Read: 2, Write: 1}}}
	w := Use{Table: "T", Partition: "a", Write: true}
	r := Use{Table: "T", Partition: "a"}
	gsiR := Use{Table: "T", Index: "byX", Partition: "x"}
	gsiW := Use{Table: "T", Index: "byX", Partition: "x", Write: true}
	lsiR := Use{Table: "T", Index: "byLocal", Partition: "a"}
	tests := []struct {
		name  string
		burst time.Duration
		steps []step
	}{
		{"one write a second", time.Second, []step{
			{0, w, 1, ""},
			{0, w, 1, "TableWriteProvisionedThroughputExceeded"},
			{500 * time.Millisecond, w, 1, ""}, // half a unit admits a write, which leaves half a unit of debt
			{0, w, 1, "TableWriteProvisionedThroughputExceeded"},
			{500 * time.Millisecond, w, 1, "TableWriteProvisionedThroughputExceeded"},
			{time.Millisecond, w, 1, ""},
			{0, r, 5, ""}, // reads have their own bucket
			{0, r, 1, "TableReadProvisionedThroughputExceeded"},
		}},
		{"debt is repaid first", time.Second, []step{
			{0, r, 20, ""}, // a large read is served, leaving 15 units of debt
			{3 * time.Second, r, 1, "TableReadProvisionedThroughputExceeded"}, // back to 0
			{200 * time.Millisecond, r, 1, ""},
		}},
		{"a GSI has its own capacity", time.Second, []step{
			{0, gsiR, 2, ""},
			{0, gsiR, 1, "IndexReadProvisionedThroughputExceeded"},
			{0, r, 1, ""},
			{0, gsiW, 1, ""},
			{0, gsiW, 1, "IndexWriteProvisionedThroughputExceeded"},
			{0, w, 1, ""},
		}},
		{"an LSI shares the table's", time.Second, []step{
			{0, lsiR, 5, ""},
			{0, r, 1, "TableReadProvisionedThroughputExceeded"},
			{0, lsiR, 1, "TableReadProvisionedThroughputExceeded"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := newClock()
			th := New(Options{Clock: clk.Now, Burst: tc.burst})
			if err := th.Configure("T", tbl); err != nil {
				t.Fatal(err)
			}
			run(t, th, clk, tc.steps)
		})
	}
}

// TestBurst: a provisioned table starts with 300 seconds of its capacity
// and keeps no more than that however long it idles.
func TestBurst(t *testing.T) {
	clk := newClock()
	th := New(Options{Clock: clk.Now})
	if err := th.Configure("T", Table{Mode: Provisioned, Table: Throughput{Read: 1, Write: 2}}); err != nil {
		t.Fatal(err)
	}
	w := Use{Table: "T", Write: true}
	count := func() int {
		n := 0
		for {
			if _, refused := th.Admit(w); refused {
				return n
			}
			th.Charge(w, 1)
			n++
		}
	}
	if got := count(); got != 600 {
		t.Errorf("a new 2 WCU table admits %d writes at once, want 600 (300 s of burst)", got)
	}
	clk.Advance(10 * time.Second)
	if got := count(); got != 20 {
		t.Errorf("after 10 s, %d writes, want 20", got)
	}
	clk.Advance(time.Hour)
	if got := count(); got != 600 {
		t.Errorf("after an hour idle, %d writes, want 600 (no more than 300 s kept)", got)
	}
}

func TestPerKey(t *testing.T) {
	onDemand := Table{Mode: OnDemand, Indexes: map[string]Throughput{"byX": {}}}
	provisioned := Table{Mode: Provisioned, Table: Throughput{Read: 10000, Write: 10000}}
	keysOnly := Table{Mode: Provisioned, KeysOnly: true, Indexes: map[string]Throughput{"byX": {}}}
	hot := Use{Table: "T", Partition: "hot", Write: true}
	cold := Use{Table: "T", Partition: "cold", Write: true}
	hotRead := Use{Table: "T", Partition: "hot"}
	gsiHot := Use{Table: "T", Index: "byX", Partition: "hot", Write: true}
	scan := Use{Table: "T"}
	tests := []struct {
		name   string
		table  Table
		perKey bool
		steps  []step
	}{
		{"on-demand without per-key limits", onDemand, false, []step{
			{0, hot, 5000, ""}, {0, hot, 1, ""}, {0, hotRead, 9000, ""}, {0, hotRead, 1, ""},
		}},
		{"on-demand hot key", onDemand, true, []step{
			{0, hot, 1000, ""},
			{0, hot, 1, "TableWriteKeyRangeThroughputExceeded"},
			{0, cold, 1, ""},
			{0, hotRead, 3000, ""}, // reads of the key have their own limit
			{0, hotRead, 1, "TableReadKeyRangeThroughputExceeded"},
			{0, scan, 1, ""},
			{0, gsiHot, 1000, ""}, // the GSI's partition of the same value is another partition
			{0, gsiHot, 1, "IndexWriteKeyRangeThroughputExceeded"},
			{time.Second, hot, 1, ""},
		}},
		{"provisioned hot key", provisioned, true, []step{
			{0, hotRead, 3000, ""},
			{0, hotRead, 1, "TableReadKeyRangeThroughputExceeded"},
			{500 * time.Millisecond, hotRead, 1, ""},
		}},
		{"provisioned keys only: capacity not enforced, hot keys refused", keysOnly, true, []step{
			{0, scan, 50000, ""}, {0, scan, 1, ""}, // no table bucket
			{0, hot, 1000, ""},
			{0, hot, 1, "TableWriteKeyRangeThroughputExceeded"},
			{0, gsiHot, 1000, ""},
			{0, gsiHot, 1, "IndexWriteKeyRangeThroughputExceeded"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := newClock()
			th := New(Options{Clock: clk.Now, PerKey: tc.perKey})
			if err := th.Configure("T", tc.table); err != nil {
				t.Fatal(err)
			}
			run(t, th, clk, tc.steps)
			if tc.table.KeysOnly {
				r, _ := th.Admit(hot)
				if r.Kind != faults.ProvisionedThroughputExceeded {
					t.Errorf("keys only: a hot key's kind %v, want ProvisionedThroughputExceeded", r.Kind)
				}
			}
		})
	}
}

func TestThrottleErrors(t *testing.T) {
	tests := []struct {
		mode          Mode
		index         string
		write         bool
		limit         string
		kind          faults.Kind
		reason, msg   string
		errType, code string
	}{
		{Provisioned, "", false, "ProvisionedThroughputExceeded", faults.ProvisionedThroughputExceeded, "TableReadProvisionedThroughputExceeded", faults.MsgProvisionedTable, "ProvisionedThroughputExceededException", "ProvisionedThroughputExceeded"},
		{Provisioned, "g", true, "ProvisionedThroughputExceeded", faults.ProvisionedThroughputExceeded, "IndexWriteProvisionedThroughputExceeded", faults.MsgProvisionedIndex, "ProvisionedThroughputExceededException", "ProvisionedThroughputExceeded"},
		{OnDemand, "", true, "KeyRangeThroughputExceeded", faults.Throttling, "TableWriteKeyRangeThroughputExceeded", faults.MsgThrottlingTable, "ThrottlingException", "ThrottlingError"},
		{OnDemand, "g", false, "KeyRangeThroughputExceeded", faults.Throttling, "IndexReadKeyRangeThroughputExceeded", faults.MsgThrottlingIndex, "ThrottlingException", "ThrottlingError"},
		{Provisioned, "", true, "KeyRangeThroughputExceeded", faults.ProvisionedThroughputExceeded, "TableWriteKeyRangeThroughputExceeded", faults.MsgProvisionedTable, "ProvisionedThroughputExceededException", "ProvisionedThroughputExceeded"},
	}
	for _, tc := range tests {
		th := throttleOf(tc.mode, tc.index, tc.write, tc.limit)
		want := Throttle{Kind: tc.kind, Index: tc.index, Reason: tc.reason, Message: tc.msg}
		if th != want {
			t.Errorf("throttleOf(%v, %q, %v, %s) = %+v, want %+v", tc.mode, tc.index, tc.write, tc.limit, th, want)
		}
		if th.Kind.ErrorType() != tc.errType || th.Kind.CancellationCode() != tc.code {
			t.Errorf("%s: error type %q code %q, want %q %q", tc.reason, th.Kind.ErrorType(), th.Kind.CancellationCode(), tc.errType, tc.code)
		}
	}
}

func TestConfigure(t *testing.T) {
	clk := newClock()
	th := New(Options{Clock: clk.Now, Burst: 10 * time.Second, PerKey: true})
	if th.Active() {
		t.Errorf("new throttler is active")
	}
	bad := []Table{
		{},
		{Mode: Provisioned},
		{Mode: Provisioned, Table: Throughput{Read: 1, Write: -1}},
		{Mode: Provisioned, Table: Throughput{Read: 1, Write: 1}, Indexes: map[string]Throughput{"g": {Read: 1}}},
	}
	for _, c := range bad {
		if err := th.Configure("T", c); !errors.Is(err, ErrTable) {
			t.Errorf("Configure(%+v) = %v, want ErrTable", c, err)
		}
	}
	r := Use{Table: "T"}
	if err := th.Configure("T", Table{Mode: Provisioned, Table: Throughput{Read: 10, Write: 1}}); err != nil {
		t.Fatal(err)
	}
	if !th.Active() {
		t.Errorf("throttler with a table is not active")
	}
	th.Charge(r, 95) // 5 of 100 left
	// A smaller capacity keeps what the bucket holds, up to its new size.
	_ = th.Configure("T", Table{Mode: Provisioned, Table: Throughput{Read: 2, Write: 1}})
	run(t, th, clk, []step{{0, r, 5, ""}, {0, r, 1, "TableReadProvisionedThroughputExceeded"}, {time.Second, r, 1, ""}})
	// A change of mode starts afresh: on demand, nothing but hot keys.
	_ = th.Configure("T", Table{Mode: OnDemand})
	run(t, th, clk, []step{{0, r, 1e6, ""}, {0, r, 1, ""}})
	th.Drop("T")
	th.Drop("T")
	if th.Active() {
		t.Errorf("throttler active after its only table was dropped")
	}
	if _, refused := th.Admit(r); refused {
		t.Errorf("a dropped table is throttled")
	}
}

func TestClockBackwards(t *testing.T) {
	clk := newClock()
	th := New(Options{Clock: clk.Now, Burst: time.Second})
	_ = th.Configure("T", Table{Mode: Provisioned, Table: Throughput{Read: 1, Write: 1}})
	r := Use{Table: "T"}
	run(t, th, clk, []step{
		{0, r, 1, ""},
		{-time.Hour, r, 1, "TableReadProvisionedThroughputExceeded"},
		{time.Second, r, 1, ""},
	})
}

// TestSweep: per-key buckets that are full again are forgotten, so the
// throttler holds about the keys of the last second.
func TestSweep(t *testing.T) {
	clk := newClock()
	th := New(Options{Clock: clk.Now, PerKey: true})
	_ = th.Configure("T", Table{Mode: OnDemand})
	for i := range minSweep - 1 {
		th.Charge(Use{Table: "T", Partition: fmt.Sprint(i)}, 1)
	}
	if th.keyCount != minSweep-1 {
		t.Fatalf("keyCount %d, want %d", th.keyCount, minSweep-1)
	}
	clk.Advance(time.Second)
	th.Charge(Use{Table: "T", Partition: "hot"}, 2999) // the 1024th bucket: a sweep
	if th.keyCount != 1 || th.sweepAt != minSweep {
		t.Errorf("after the sweep: keyCount %d sweepAt %d, want 1 and %d", th.keyCount, th.sweepAt, minSweep)
	}
	if _, refused := th.Admit(Use{Table: "T", Partition: "hot"}); refused {
		t.Errorf("hot key refused with 1 unit left")
	}
	th.Charge(Use{Table: "T", Partition: "hot"}, 1)
	if _, refused := th.Admit(Use{Table: "T", Partition: "hot"}); !refused {
		t.Errorf("the sweep forgot a bucket in use")
	}
	th.Drop("T")
	if th.keyCount != 0 {
		t.Errorf("keyCount %d after Drop, want 0", th.keyCount)
	}
}

// TestConcurrent: uses, configuration changes and drops at once (run
// with -race); the buckets stay consistent.
func TestConcurrent(t *testing.T) {
	clk := newClock()
	th := New(Options{Clock: clk.Now, PerKey: true, Burst: time.Second})
	_ = th.Configure("T", Table{Mode: Provisioned, Table: Throughput{Read: 100, Write: 100}, Indexes: map[string]Throughput{"g": {Read: 10, Write: 10}}})
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 2000 {
				u := Use{Table: "T", Partition: fmt.Sprint(i % 50), Write: g%2 == 0}
				if g == 3 {
					u.Index = "g"
				}
				if _, refused := th.Admit(u); !refused {
					th.Charge(u, 1)
				}
				if i%100 == 0 {
					clk.Advance(10 * time.Millisecond)
				}
			}
		})
	}
	wg.Go(func() {
		for i := range 100 {
			_ = th.Configure("T", Table{Mode: Provisioned, Table: Throughput{Read: float64(50 + i), Write: 100}, Indexes: map[string]Throughput{"g": {Read: 10, Write: 10}}})
			if i%10 == 0 {
				th.Drop("U")
				_ = th.Configure("U", Table{Mode: OnDemand})
			}
		}
	})
	wg.Wait()
}

// TestBatchDrainLoop: a BatchWriteItem of 25 one-unit items on a table of
// 5 WCU without burst, drained the standard way (send the unprocessed
// items again after a back-off, here 200 ms on the emulator's clock):
// each round writes what the bucket admits, the batch fails only when
// nothing is admitted, and the same run gives the same rounds every time.
func TestBatchDrainLoop(t *testing.T) {
	run := func() []int {
		clk := newClock()
		th := New(Options{Clock: clk.Now, Burst: time.Second})
		_ = th.Configure("T", Table{Mode: Provisioned, Table: Throughput{Read: 5, Write: 5}})
		pending := 25
		var rounds []int // items written per round; -1 for a round refused whole
		for pending > 0 && len(rounds) < 100 {
			written := 0
			for range pending {
				u := Use{Table: "T", Write: true}
				if _, refused := th.Admit(u); refused {
					continue // to UnprocessedItems
				}
				th.Charge(u, 1)
				written++
			}
			if written == 0 {
				rounds = append(rounds, -1) // ProvisionedThroughputExceededException
			} else {
				rounds = append(rounds, written)
			}
			pending -= written
			clk.Advance(200 * time.Millisecond)
		}
		return rounds
	}
	first := run()
	want := []int{5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
	if fmt.Sprint(first) != fmt.Sprint(want) {
		t.Errorf("rounds %v, want %v", first, want)
	}
	if again := run(); fmt.Sprint(again) != fmt.Sprint(first) {
		t.Errorf("second run %v, first %v", again, first)
	}
}

package faults

import "testing"

// BenchmarkDecide: the hook an operation calls before it runs (Active,
// then Decide), with no
// injector, an injector without rules (the cost every call pays when the
// feature is off: one atomic load, no allocation), a rule for another
// table, and a rule that matches but fires once in a thousand calls.
func BenchmarkDecide(b *testing.B) {
	c := Call{Op: "PutItem", Table: "Orders", Key: key("ORDER#1", "v1")}
	var nilInjector *Injector
	empty := New(Options{})
	other := New(Options{})
	_ = other.SetRules(1, []Rule{{Table: "Other", Fault: Throttling}})
	rare := New(Options{})
	_ = rare.SetRules(1, []Rule{{Table: "Orders", Operations: []string{"PutItem"}, PartitionKeyPrefix: "ORDER#", Every: 1000, Fault: Throttling}})
	for _, bc := range []struct {
		name string
		in   *Injector
	}{
		{"nil", nilInjector},
		{"no-rules", empty},
		{"other-table", other},
		{"match-every-1000", rare},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if bc.in.Active() {
					bc.in.Decide(c)
				}
			}
		})
	}
}

// TestDecideAllocs: with no rules, Decide allocates nothing.
func TestDecideAllocs(t *testing.T) {
	in := New(Options{})
	c := Call{Op: "PutItem", Table: "Orders", Key: key("ORDER#1", "v1")}
	if n := testing.AllocsPerRun(100, func() { in.Decide(c) }); n != 0 {
		t.Errorf("Decide without rules: %v allocations, want 0", n)
	}
	_ = in.SetRules(1, []Rule{{Table: "Orders", Every: 1 << 30, Fault: Throttling}})
	if n := testing.AllocsPerRun(100, func() { in.Decide(c) }); n != 0 {
		t.Errorf("Decide with a rule that does not fire: %v allocations, want 0", n)
	}
}

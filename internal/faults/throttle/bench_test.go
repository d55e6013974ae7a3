package throttle

import (
	"testing"
	"time"
)

// BenchmarkAdmitCharge: the hooks around an operation (Active, then
// Admit before it runs and Charge after), with no table throttled (the
// cost when the feature is off), a provisioned table, and an on-demand
// table with per-key limits on one hot key.
func BenchmarkAdmitCharge(b *testing.B) {
	clk := newClock()
	off := New(Options{Clock: clk.Now})
	prov := New(Options{Clock: clk.Now})
	_ = prov.Configure("T", Table{Mode: Provisioned, Table: Throughput{Read: 1e9, Write: 1e9}})
	keys := New(Options{Clock: clk.Now, PerKey: true, KeyWrite: 1e12})
	_ = keys.Configure("T", Table{Mode: OnDemand})
	u := Use{Table: "T", Partition: "ORDER#1", Write: true}
	for _, bc := range []struct {
		name string
		th   *Throttler
	}{{"off", off}, {"provisioned", prov}, {"on-demand-per-key", keys}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if bc.th.Active() {
					if _, refused := bc.th.Admit(u); !refused {
						bc.th.Charge(u, 1)
					}
				}
			}
		})
	}
}

// TestAdmitChargeAllocs: a throttled table's hooks allocate nothing once
// its buckets exist.
func TestAdmitChargeAllocs(t *testing.T) {
	clk := newClock()
	th := New(Options{Clock: clk.Now, PerKey: true, Burst: time.Hour})
	_ = th.Configure("T", Table{Mode: Provisioned, Table: Throughput{Read: 1e6, Write: 1e6}})
	u := Use{Table: "T", Partition: "k", Write: true}
	th.Charge(u, 1)
	if n := testing.AllocsPerRun(100, func() {
		if _, refused := th.Admit(u); !refused {
			th.Charge(u, 0.001)
		}
	}); n != 0 {
		t.Errorf("Admit and Charge: %v allocations, want 0", n)
	}
}

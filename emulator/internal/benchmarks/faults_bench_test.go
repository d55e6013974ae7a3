package benchmarks

import (
	"net/http"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// BenchmarkFaultsCost: what fault injection, throttling and
// the access-pattern report cost PutItem and GetItem through the handler:
//
//   - off: nothing turned on (the hooks are atomic loads; compare with
//     BenchmarkOps/<op>/handler before the hooks existed);
//   - report: the access-pattern report collecting (one Record per request);
//   - rule: one fault rule that matches no request (Decide runs);
//   - throttled: the table's provisioned capacity enforced (Admit and
//     Charge), with capacity to spare.
//
// Besides ns/op and allocations it reports cpu-ns/op, this process's user
// and system CPU time per operation, steadier than wall time on a shared
// machine.
func BenchmarkFaultsCost(b *testing.B) {
	modes := []struct {
		name string
		opts emulator.Options
		on   func(e *emulator.Emulator)
	}{
		{"off", emulator.Options{}, nil},
		{"report", emulator.Options{Faults: emulator.FaultOptions{Report: true}}, nil},
		{"rule", emulator.Options{}, func(e *emulator.Emulator) {
			_ = e.Faults().SetRules(1, []emulator.FaultRule{{Table: "other", Fault: emulator.FaultInternalServerError}})
		}},
		{"throttled", emulator.Options{Faults: emulator.FaultOptions{Throttle: emulator.Throttle{Provisioned: true}}}, nil},
	}
	for _, o := range ops {
		if o.name != "PutItem" && o.name != "GetItem" {
			continue
		}
		b.Run(o.name, func(b *testing.B) {
			for _, m := range modes {
				b.Run(m.name, func(b *testing.B) {
					e, err := emulator.New(m.opts)
					if err != nil {
						b.Fatal(err)
					}
					b.Cleanup(func() { e.Close() })
					if m.on != nil {
						m.on(e)
					}
					h := e.Handler()
					ak := newAccessKey()
					setup(b, handlerPoster(h, ak))
					if m.name == "throttled" {
						// A capacity no benchmark run exhausts.
						post := handlerPoster(h, ak)
						if status, out, _ := post("UpdateTable", `{"TableName":"bench","BillingMode":"PROVISIONED","ProvisionedThroughput":{"ReadCapacityUnits":40000,"WriteCapacityUnits":40000}}`); status != http.StatusOK {
							b.Fatalf("UpdateTable: %d %s", status, out)
						}
					}
					r := newRawRequest(ak, o.target, o.body(b))
					if status := r.serve(h); status != http.StatusOK {
						b.Fatalf("status %d: %s", status, r.w.out.String())
					}
					before, _ := processCPU()
					b.ReportAllocs()
					b.ResetTimer()
					for b.Loop() {
						if status := r.serve(h); status != http.StatusOK {
							b.Fatalf("status %d: %s", status, r.w.out.String())
						}
					}
					b.StopTimer()
					if after, ok := processCPU(); ok {
						b.ReportMetric(float64(after.user+after.sys-before.user-before.sys)/float64(b.N), "cpu-ns/op")
					}
				})
			}
		})
	}
}

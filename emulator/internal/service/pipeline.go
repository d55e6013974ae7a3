package service

import "slices"

// The request pipeline of the data plane. An operation that reads or
// writes a table's items registers with registerDataPlane; the registry
// then runs its stages around the handler, so that no data path can skip
// one:
//
//   - faults: the fault rules decide each use of a table or index (per
//     item in a batch or transaction, per statement in PartiQL), after
//     the request is validated and before storage is touched;
//   - the tenant guard: every key a request touches is checked against
//     the caller's tenant (conventions rule B10);
//   - throttling: the throttler admits each use before it runs and is
//     charged what it consumed once it ran;
//   - the access-pattern report and Contributor Insights record each use
//     with its units and items;
//   - conditional failures: a write refused by its condition is charged
//     and recorded as AWS charges it (fx_condfail.go).
//
// Lag (eventually consistent reads of a lagging table) is a property of
// the storage view a read takes (fx_lag_reads.go); the conventions check
// of a write is the table's policy (conventions.go); capacity accounting
// and item-collection metrics are what the handler reports back.
//
// A control-plane operation (register) gets one fault decision per call,
// with the table it names (fx_ops.go).

// dataPlane are the operations registered with registerDataPlane, in
// registration order. Filled by init functions only; read-only
// afterwards, and read only when an operation registers (its adapter
// keeps the answer) and by tests: a slice, not a map built at start-up.
var dataPlane []string

// registerDataPlane registers a data-plane operation: register's adapter,
// with the pipeline's stages around f.
func registerDataPlane[In, Out any](name string, f func(c *call, in *In) (*Out, error)) {
	dataPlane = append(dataPlane, name)
	register(name, f)
}

// isDataPlane reports whether the operation registered as name is a
// data-plane operation (registerDataPlane).
func isDataPlane(name string) bool { return slices.Contains(dataPlane, name) }
